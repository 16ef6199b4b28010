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

export const SIZE = 9;
export const CELLS = 81;

export type Grid = Uint8Array;

export type PuzzleErrorReason = "length" | "character" | "conflict";

/** A puzzle that cannot be read, with the cell (0-based, or -1) and the reason. */
export class PuzzleError extends Error {
  constructor(
    readonly reason: PuzzleErrorReason,
    message: string,
    /** 0-based cell the error is about, or -1 when it is about the whole record. */
    readonly cell = -1,
  ) {
    super(message);
    this.name = "PuzzleError";
  }
}

/** "cell 17 (row 2, column 8)" for the 0-based cell 16. */
export function describeCell(cell: number): string {
  return `cell ${cell + 1} (row ${Math.floor(cell / SIZE) + 1}, column ${(cell % SIZE) + 1})`;
}

/** Characters that mean "empty" in the one-line format. */
export const ONE_LINE_EMPTY = ".0";

/**
 * Parse the one-line format: 81 characters, `1`–`9` for clues, and any character of
 * `empties` (default `.` and `0`) for an empty cell. Surrounding white space is ignored.
 * Throws a {@link PuzzleError} naming the cell and the reason.
 */
export function parsePuzzle(text: string, empties: string = ONE_LINE_EMPTY): Grid {
  const line = text.trim();
  if (line.length !== CELLS) {
    throw new PuzzleError("length", `expected ${CELLS} characters, got ${line.length}`);
  }
  const grid = new Uint8Array(CELLS);
  for (let cell = 0; cell < CELLS; cell++) {
    const code = line.charCodeAt(cell);
    if (code >= 49 && code <= 57) grid[cell] = code - 48;
    else if (!empties.includes(line[cell])) {
      throw new PuzzleError("character", `${describeCell(cell)} contains invalid character '${line[cell]}'`, cell);
    }
  }
  checkClues(grid);
  return grid;
}

/** Unit kinds, in the order used by {@link findConflict}. */
export type UnitKind = "row" | "column" | "box";

export interface Conflict {
  unit: UnitKind;
  /** 0-based index of the row, column or box. */
  index: number;
  digit: number;
  /** The two 0-based cells that hold the same digit. */
  cells: [number, number];
}

/** The cells of each unit: 9 rows, then 9 columns, then 9 boxes. */
export const UNITS: readonly (readonly number[])[] = (() => {
  const units: number[][] = [];
  for (let r = 0; r < SIZE; r++) units.push(Array.from({ length: SIZE }, (_, c) => r * SIZE + c));
  for (let c = 0; c < SIZE; c++) units.push(Array.from({ length: SIZE }, (_, r) => r * SIZE + c));
  for (let b = 0; b < SIZE; b++) {
    const top = Math.floor(b / 3) * 3, left = (b % 3) * 3;
    units.push(Array.from({ length: SIZE }, (_, i) => (top + Math.floor(i / 3)) * SIZE + left + (i % 3)));
  }
  return units;
})();

const UNIT_KINDS: readonly UnitKind[] = ["row", "column", "box"];

/** The first clue repeated in a unit, or null. Digits outside 1–9 are ignored. */
export function findConflict(grid: Grid): Conflict | null {
  for (let u = 0; u < UNITS.length; u++) {
    const seenAt = new Int8Array(SIZE + 1).fill(-1);
    for (const cell of UNITS[u]) {
      const digit = grid[cell];
      if (digit < 1 || digit > SIZE) continue;
      if (seenAt[digit] >= 0) {
        return { unit: UNIT_KINDS[Math.floor(u / SIZE)], index: u % SIZE, digit, cells: [UNITS[u][seenAt[digit]], cell] };
      }
      seenAt[digit] = UNITS[u].indexOf(cell);
    }
  }
  return null;
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
  let out = "";
  for (let cell = 0; cell < CELLS; cell++) out += grid[cell] === 0 ? empty : String.fromCharCode(48 + grid[cell]);
  return out;
}

/** True when `solution` is a complete valid grid that keeps every clue of `puzzle`. */
export function isValidSolution(puzzle: Grid, solution: Grid): boolean {
  for (let cell = 0; cell < CELLS; cell++) {
    if (solution[cell] < 1 || solution[cell] > SIZE) return false;
    if (puzzle[cell] !== 0 && puzzle[cell] !== solution[cell]) return false;
  }
  return findConflict(solution) === null;
}
