/**
 * The 9×9 puzzle model.
 *
 * A grid is 81 bytes in row-major order: 0 for an empty cell, 1–9 for a digit.
 * Cells are numbered 0–80 (`cell = row * 9 + column`); error messages name them
 * 1-based as "cell 17 (row 2, column 8)" so that a person can find them.
 *
 * Glossary: a *unit* is a row, a column or a box; the *peers* of a cell are the
 * 20 other cells that share a unit with it; a *clue* is a given digit.
 */
import {
  type Conflict,
  PuzzleError,
  describeCellOf,
  findGeneralConflict,
  isValidGeneralSolution,
  shapeOf,
  unitsOf,
} from "./puzzle-general.js";
import { EMPTY_MARKS } from "./empty-cells.js";
import { quoteCharacter } from "./excerpt.js";

export const SIZE = 9;
export const CELLS = 81;

export type Grid = Uint8Array;

export { PuzzleError, type PuzzleErrorReason, type UnitKind, type Conflict } from "./puzzle-general.js";

/** The 9×9 shape of the general model (puzzle-general.ts), which does the unit work. */
const SHAPE_9 = shapeOf(3);

/** "cell 17 (row 2, column 8)" for the 0-based cell 16. */
export function describeCell(cell: number): string {
  return describeCellOf(cell, SIZE);
}

/** Characters that mean "empty" in the one-line format: the library's 9×9 set of empty-cells.ts. */
export const ONE_LINE_EMPTY = EMPTY_MARKS.digits;

/**
 * What a message adds for a line of the wrong length that holds a control character (a NUL
 * left by a C tool, a stray escape): ` (character 82 is '\x00', a NUL)`, naming the first; "" otherwise.
 */
export function controlCharacterNote(line: string): string {
  const at = line.search(/[\u0000-\u001f\u007f]/);
  if (at < 0) return "";
  return ` (character ${at + 1} is ${quoteCharacter(line[at])}${line.charCodeAt(at) === 0 ? ", a NUL" : ", a control character"})`;
}

/**
 * Parse the one-line format: 81 characters, `1`–`9` for clues, and any character of
 * `empties` (default `.` and `0`) for an empty cell. Surrounding white space is ignored.
 * Throws a {@link PuzzleError} naming the cell and the reason.
 */
export function parsePuzzle(text: string, empties: string = ONE_LINE_EMPTY): Grid {
  const line = text.trim();
  if (line.length !== CELLS) {
    throw new PuzzleError("length", `expected ${CELLS} characters, got ${line.length}${controlCharacterNote(line)}`);
  }
  const grid = new Uint8Array(CELLS);
  for (let cell = 0; cell < CELLS; cell++) {
    const code = line.charCodeAt(cell);
    if (code >= 49 && code <= 57) grid[cell] = code - 48;
    else if (!empties.includes(line[cell])) {
      throw new PuzzleError("character", `${describeCell(cell)} contains invalid character ${quoteCharacter(line[cell])}`, cell);
    }
  }
  checkClues(grid);
  return grid;
}

/** The cells of each unit: 9 rows, then 9 columns, then 9 boxes. */
export const UNITS: readonly (readonly number[])[] = unitsOf(3);

/** The first clue repeated in a unit (rows, then columns, then boxes), or null. Digits outside 1–9 are ignored. */
export function findConflict(grid: Grid): Conflict | null {
  return findGeneralConflict(grid, SHAPE_9);
}

/** Digits seen so far in each row, column and box: scratch for {@link hasConflict}. */
const seenInUnit = new Uint16Array(3 * SIZE);

/** True when a clue is repeated in a unit: a quick bitmask pass, without the details. */
function hasConflict(grid: Grid): boolean {
  seenInUnit.fill(0);
  for (let cell = 0; cell < CELLS; cell++) {
    const digit = grid[cell];
    if (digit < 1 || digit > SIZE) continue;
    const bit = 1 << digit;
    const row = (cell / SIZE) | 0;
    const column = cell % SIZE;
    const box = ((row / 3) | 0) * 3 + ((column / 3) | 0);
    if ((seenInUnit[row] | seenInUnit[SIZE + column] | seenInUnit[2 * SIZE + box]) & bit) return true;
    seenInUnit[row] |= bit;
    seenInUnit[SIZE + column] |= bit;
    seenInUnit[2 * SIZE + box] |= bit;
  }
  return false;
}

/** Throws a "conflict" {@link PuzzleError} when a clue is repeated in a unit. */
export function checkClues(grid: Grid): void {
  const conflict = hasConflict(grid) ? findConflict(grid) : null;
  if (conflict) {
    const { unit, index, digit, cells } = conflict;
    throw new PuzzleError(
      "conflict",
      `${describeCell(cells[1])}: digit ${digit} is repeated in ${unit} ${index + 1} (also at ${describeCell(cells[0])})`,
      cells[1],
    );
  }
}

/** The one-line text of a grid, `.` for empty cells. */
export function formatPuzzle(grid: Grid, empty = "."): string {
  // One array joined once: a flat string (`+=` per cell builds a rope of 81 pieces, ~20× the memory when kept).
  const symbols = new Array<string>(CELLS);
  for (let cell = 0; cell < CELLS; cell++) symbols[cell] = grid[cell] === 0 ? empty : String.fromCharCode(48 + grid[cell]);
  return symbols.join("");
}

/** True when `solution` is a complete valid grid that keeps every clue of `puzzle`. */
export function isValidSolution(puzzle: Grid, solution: Grid): boolean {
  return isValidGeneralSolution(puzzle, solution, SHAPE_9);
}
