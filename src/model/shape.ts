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
export const SYMBOL_COUNTS =
  SHAPES.slice(0, -1)
    .map((shape) => shape.size)
    .join(", ") +
  " or " +
  LARGEST_SHAPE.size;

/** "16×16" for a shape. */
export const shapeName = (shape: Shape): string => `${shape.size}×${shape.size}`;

/** "cell 17 (row 2, column 8)" for the 0-based cell 16 of a grid of `size` columns (9 by default). */
export function describeCell(cell: number, size = SIZE): string {
  return `cell ${cell + 1} (row ${Math.floor(cell / size) + 1}, column ${(cell % size) + 1})`;
}

const unitCache = new Map<number, readonly (readonly number[])[]>();

/** The cells of each unit of box size `box`: N rows, then N columns, then N boxes. */
export function unitsOf(box: number): readonly (readonly number[])[] {
  let units = unitCache.get(box);
  if (!units) {
    const size = box * box;
    const built: number[][] = [];
    for (let r = 0; r < size; r++) built.push(Array.from({ length: size }, (_, c) => r * size + c));
    for (let c = 0; c < size; c++) built.push(Array.from({ length: size }, (_, r) => r * size + c));
    for (let b = 0; b < size; b++) {
      const top = Math.floor(b / box) * box;
      const left = (b % box) * box;
      built.push(Array.from({ length: size }, (_, i) => (top + Math.floor(i / box)) * size + left + (i % box)));
    }
    units = built;
    unitCache.set(box, units);
  }
  return units;
}

/** The cells of each 9×9 unit: 9 rows, then 9 columns, then 9 boxes. */
export const UNITS: readonly (readonly number[])[] = unitsOf(SHAPE_9.box);
