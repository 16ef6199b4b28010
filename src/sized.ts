/**
 * Puzzles of any size, read in one place: a line of text (or N² bytes) becomes a checked grid,
 * its shape (box size) and the alphabet its solution is written in, or the PuzzleError that
 * names the cell and the reason. The library's Solver and the CLI's records both read here;
 * the shape then picks the engine (one per grid size, see solver.ts).
 *
 *   "…81 digits…"          ─► parsePuzzle (9×9, `1`–`9`, any of `empties` empty)
 *   "…16/256/625 symbols…" ─► parseGeneralPuzzle (alphabet given or detected)
 *   "…81 symbols…" + a 9-symbol alphabet other than 1–9 ─► parseGeneralPuzzle
 */
import { CELLS, type Grid, PuzzleError, checkClues, describeCell, parsePuzzle } from "./puzzle.js";
import {
  type Alphabet,
  type GeneralPuzzle,
  type Shape,
  BOX_SIZES,
  DIGITS,
  KNOWN_ALPHABETS,
  checkGeneralClues,
  describeCellOf,
  formatGeneralGrid,
  isValidGeneralSolution,
  parseGeneralPuzzle,
  shapeOf,
} from "./puzzle-general.js";
import { EMPTY_MARKS } from "./empty-cells.js";
import { excerpt } from "./excerpt.js";
import { isWhole } from "./whole-number.js";

/** Every shape handled: 4×4, 9×9, 16×16, 25×25. */
export const SHAPES: readonly Shape[] = BOX_SIZES.map(shapeOf);

/** The 9×9 shape. */
export const SHAPE_9: Shape = shapeOf(3);

/** The shape whose rows have `size` cells, or undefined. */
export function shapeOfSide(size: number): Shape | undefined {
  return SHAPES.find((shape) => shape.size === size);
}

/** The shape of `cells` cells (16, 81, 256, 625), or undefined. */
export function shapeOfCells(cells: number): Shape | undefined {
  return SHAPES.find((shape) => shape.cells === cells);
}

/** `alphabet` when it is the alphabet of grids of `cells` cells (N symbols for N² cells), else undefined. */
export function alphabetForCells(cells: number, alphabet: Alphabet | undefined): Alphabet | undefined {
  return alphabet !== undefined && alphabet.length * alphabet.length === cells ? alphabet : undefined;
}

/** True when a text of `cells` characters is read by the N×N parser rather than the 9×9 one. */
function readsAsGeneral(cells: number, alphabet: Alphabet | undefined): boolean {
  if (cells === CELLS) return alphabet !== undefined && alphabet.length === 9 && alphabet !== DIGITS;
  return shapeOfCells(cells) !== undefined;
}

/** True when 81-character lines are read with digits (the CLI's fast path applies). */
export const readsNineByNineAsDigits = (alphabet: Alphabet | undefined): boolean => !readsAsGeneral(CELLS, alphabet);

/**
 * Reads one puzzle of any supported size. A 9×9 line is read with {@link parsePuzzle} (digits,
 * any of `empties` empty); a 4×4, 16×16 or 25×25 one (or a 9×9 one in another alphabet) with
 * {@link parseGeneralPuzzle}, `alphabet` applying to the lines with as many symbols. Bytes: N²
 * of them, 0 empty and 1..N, checked for repeated clues. Throws a {@link PuzzleError}.
 */
export function readSizedPuzzle(puzzle: string | Grid, alphabet?: Alphabet, empties: string = EMPTY_MARKS.digits): GeneralPuzzle {
  if (puzzle instanceof String) puzzle = puzzle.valueOf(); // new String(line)
  if (typeof puzzle !== "string") return readBytes(asCellValues(puzzle));
  if (puzzle.length === CELLS && alphabet === undefined) return { shape: SHAPE_9, alphabet: DIGITS, grid: parsePuzzle(puzzle, empties) };
  const cells = puzzle.trim().length;
  if (!readsAsGeneral(cells, alphabet)) return { shape: SHAPE_9, alphabet: DIGITS, grid: parsePuzzle(puzzle, empties) };
  return parseGeneralPuzzle(puzzle, { alphabet: alphabetForCells(cells, alphabet) });
}

/** What the library accepts besides text: N² cell values, as a Uint8Array or any array of numbers. */
type CellValues = ArrayLike<unknown>;

/** `puzzle` as cell values, or a PuzzleError (`type`) when it is neither text nor an array of cells (undefined, a number, an object). */
function asCellValues(puzzle: unknown): CellValues {
  const isArrayLike = Array.isArray(puzzle) || ArrayBuffer.isView(puzzle);
  if (puzzle instanceof BigInt64Array || puzzle instanceof BigUint64Array) {
    throw new PuzzleError("type", `expected a puzzle as text or an array of cell values as numbers, got a ${puzzle.constructor.name} (its cells are bigints)`);
  }
  if (!isArrayLike || puzzle instanceof DataView) throw new PuzzleError("type", `expected a puzzle as text or an array of cell values, got ${describeValue(puzzle)}`);
  return puzzle as CellValues;
}

/** "undefined", "null", "the number 5", "an object", "a Map": what a value that is no puzzle is, for a message. */
function describeValue(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return `the ${typeof value} ${String(value)}`;
  if (typeof value !== "object") return `a ${typeof value}`;
  const name = (value as object).constructor?.name;
  return name && name !== "Object" ? `a ${name}` : "an object";
}

/**
 * N² cell values as a puzzle: the shape from the length, every value a whole number 0..N (a
 * PuzzleError naming the first cell that is not), no clue repeated. The grid is a Uint8Array
 * (the caller's own when it is one, else a copy).
 */
function readBytes(values: CellValues): GeneralPuzzle {
  const shape = shapeOfCells(values.length);
  if (!shape) throw new PuzzleError("length", `expected ${SHAPES.map((s) => s.cells).join(", ")} cells, got ${values.length}`);
  const name = (cell: number) => (shape.cells === CELLS ? describeCell(cell) : describeCellOf(cell, shape.size));
  for (let cell = 0; cell < values.length; cell++) {
    const value = values[cell];
    if (typeof value !== "number" || !isWhole(value, 0, shape.size)) {
      const shown = typeof value === "string" ? `'${excerpt(value)}'` : typeof value === "number" ? String(value) : typeof value === "bigint" ? `the bigint ${value}n` : typeof value;
      throw new PuzzleError("character", `${name(cell)} holds ${shown}, not 0-${shape.size}`, cell);
    }
  }
  const grid = values instanceof Uint8Array ? values : Uint8Array.from(values as ArrayLike<number>);
  const alphabet = KNOWN_ALPHABETS.get(shape.size)![0];
  if (shape.cells === CELLS) checkClues(grid);
  else checkGeneralClues(grid, shape, alphabet);
  return { shape, alphabet, grid };
}

/** The shape of a file's puzzle lines (all of one size, judged by the first); an Error naming the file otherwise. */
export function datasetShape(puzzles: readonly string[], path: string): Shape {
  const shape = shapeOfCells(puzzles[0]?.length ?? 0);
  if (!shape) throw new Error(`${path}: the first puzzle has ${puzzles[0]?.length ?? 0} characters, not one of ${SHAPES.map((s) => s.cells).join(", ")}`);
  return shape;
}

/** The text of a grid of any size in its size's first known alphabet (digits for 9×9), `.` for empty cells. */
export function formatSizedGrid(grid: Grid): string {
  const shape = shapeOfCells(grid.length);
  if (!shape) return Array.from(grid).join(",");
  return formatGeneralGrid(grid, KNOWN_ALPHABETS.get(shape.size)![0]);
}

/** True when `solution` is a complete valid grid of the puzzle's size that keeps every clue of `puzzle`. */
export function isValidSizedSolution(puzzle: Grid, solution: Grid): boolean {
  const shape = shapeOfCells(puzzle.length);
  return shape !== undefined && isValidGeneralSolution(puzzle, solution, shape);
}
