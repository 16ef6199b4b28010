/**
 * The grid sizes the host handles, in one table: a box size B gives N = B² symbols and N² cells,
 * numbered row-major from 0 (messages name them 1-based: "cell 17 (row 2, column 8)"). Every
 * reader, writer and kernel loader takes its sizes from {@link BOX_SIZES}. A *unit* is a row, a
 * column or a box.
 */

/** The dimensions of one grid size. */
export interface Shape {
  /** Box side B (2–5). */
  box: number;
  /** Symbols, and cells per unit: N = B². */
  size: number;
  /** Cells in the grid: N². */
  cells: number;
}

/** The box sizes handled: 4×4, 9×9, 16×16 and 25×25 grids. */
export const BOX_SIZES: readonly number[] = [2, 3, 4, 5];

/** The shape of box size `box`; a RangeError outside {@link BOX_SIZES}. */
export function shapeOf(box: number): Shape {
  if (!BOX_SIZES.includes(box)) throw new RangeError(`box size must be one of ${BOX_SIZES.join(", ")}, got ${box}`);
  return { box, size: box * box, cells: box ** 4 };
}

/** Every shape handled, smallest first. */
export const SHAPES: readonly Shape[] = BOX_SIZES.map(shapeOf);

/** The 9×9 shape: the classic grid, which has fast paths of its own (the 9×9 kernel, the CLI's byte path). */
export const SHAPE_9: Shape = SHAPES.find((shape) => shape.box === 3)!;

/** Symbols (and cells per unit) of a 9×9 grid. */
export const SIZE = SHAPE_9.size;

/** Cells of a 9×9 grid. */
export const CELLS = SHAPE_9.cells;

/** The largest shape handled (25×25): what buffers sized for any grid hold. */
export const LARGEST_SHAPE: Shape = SHAPES[SHAPES.length - 1];

/** The shape whose rows have `size` cells, or undefined. */
export function shapeOfSide(size: number): Shape | undefined {
  return SHAPES.find((shape) => shape.size === size);
}

/** The shape of `cells` cells (16, 81, 256, 625), or undefined. */
export function shapeOfCells(cells: number): Shape | undefined {
  return SHAPES.find((shape) => shape.cells === cells);
}

/** "4, 9, 16 or 25": the symbol counts of the shapes, for messages. */
export const SYMBOL_COUNTS = `${SHAPES.slice(0, -1)
  .map((shape) => shape.size)
  .join(", ")} or ${LARGEST_SHAPE.size}`;

/** "16×16" for a shape. */
export const shapeName = (shape: Shape): string => `${shape.size}×${shape.size}`;

/** "cell 17 (row 2, column 8)" for the 0-based cell 16 of a grid of `size` columns (9 by default). */
export function describeCell(cell: number, size = SIZE): string {
  return `cell ${cell + 1} (row ${Math.floor(cell / size) + 1}, column ${(cell % size) + 1})`;
}

/** Each cell's row, column and box, each unit's cells and each cell's peers, for grids of one box size. */
export interface GridTables extends Shape {
  /** The row, column and box (boxes numbered row-major) of each cell. */
  readonly rowOf: Uint8Array;
  readonly columnOf: Uint8Array;
  readonly boxOf: Uint8Array;
  /** `unitCells[unit * N + i]`: the cells of each unit, N rows, then N columns, then N boxes. */
  readonly unitCells: Uint16Array;
  /** Cells sharing a unit with a cell: 3(N-1) - 2(B-1) (20 for 9×9). */
  readonly peerCount: number;
  /** `peers[cell * peerCount + i]`: the peers of each cell, ascending. */
  readonly peers: Uint16Array;
}

const tableCache = new Map<number, GridTables>();

/** The {@link GridTables} of box size `box` (made once); a RangeError outside {@link BOX_SIZES}. */
export function gridTables(box: number): GridTables {
  let tables = tableCache.get(box);
  if (tables) return tables;
  const { size, cells } = shapeOf(box);
  const [rowOf, columnOf, boxOf] = [new Uint8Array(cells), new Uint8Array(cells), new Uint8Array(cells)];
  const unitCells = new Uint16Array(3 * cells);
  for (let cell = 0; cell < cells; cell++) {
    const [row, column] = [Math.floor(cell / size), cell % size];
    const boxIndex = Math.floor(row / box) * box + Math.floor(column / box);
    [rowOf[cell], columnOf[cell], boxOf[cell]] = [row, column, boxIndex];
    unitCells[row * size + column] = cell;
    unitCells[(size + column) * size + row] = cell;
    unitCells[(2 * size + boxIndex) * size + (row % box) * box + (column % box)] = cell;
  }
  const peerCount = 3 * (size - 1) - 2 * (box - 1);
  const peers = new Uint16Array(cells * peerCount);
  for (let cell = 0, n = 0; cell < cells; cell++) {
    for (let other = 0; other < cells; other++) {
      const shares = rowOf[other] === rowOf[cell] || columnOf[other] === columnOf[cell] || boxOf[other] === boxOf[cell];
      if (other !== cell && shares) peers[n++] = other;
    }
  }
  tables = { box, size, cells, rowOf, columnOf, boxOf, unitCells, peerCount, peers };
  tableCache.set(box, tables);
  return tables;
}

/** The cells of each 9×9 unit: 9 rows, then 9 columns, then 9 boxes. */
export const UNITS: readonly (readonly number[])[] = Array.from({ length: 3 * SIZE }, (_, unit) =>
  Array.from(gridTables(SHAPE_9.box).unitCells.subarray(unit * SIZE, (unit + 1) * SIZE)),
);
