/**
 * The N×N puzzle model: the generalisation of puzzle.ts to box sizes 2–5.
 *
 * A grid of box size B has N = B² symbols and N² cells, stored as N² bytes in row-major order:
 * 0 for an empty cell, 1..N for a symbol. On text, symbols are the characters of an
 * *alphabet* (symbol s is the alphabet's character s-1), e.g. `1`–`9` then `A`–`G` for 16×16.
 * Cells are 0-based here and named 1-based in messages, as puzzle.ts does: "cell 17 (row 2,
 * column 1)".
 *
 * Glossary: as in puzzle.ts — a *unit* is a row, a column or a box; a *clue* is a given symbol.
 */
import { EMPTY_MARKS, isEmptySymbol } from "./empty-cells.js";
import { excerpt, quoteCharacter } from "./excerpt.js";

/** Why a puzzle cannot be read: its length, a cell's character or value, a repeated clue, or a value that is no puzzle at all (`type`). */
export type PuzzleErrorReason = "length" | "character" | "conflict" | "type";

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

/** Unit kinds, in the order used by {@link findGeneralConflict}. */
export type UnitKind = "row" | "column" | "box";

/** A clue repeated in a unit. */
export interface Conflict {
  unit: UnitKind;
  /** 0-based index of the row, column or box. */
  index: number;
  digit: number;
  /** The two 0-based cells that hold the same symbol. */
  cells: [number, number];
}

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

const SHAPES: readonly Shape[] = BOX_SIZES.map(shapeOf);

/** The largest shape handled (25×25): what buffers sized for any grid hold. */
export const LARGEST_SHAPE: Shape = SHAPES[SHAPES.length - 1];

/** "16×16" for a shape. */
export const shapeName = (shape: Shape): string => `${shape.size}×${shape.size}`;

/** "cell 17 (row 2, column 1)" for the 0-based cell 16 of a grid of `size` columns. */
export function describeCellOf(cell: number, size: number): string {
  return `cell ${cell + 1} (row ${Math.floor(cell / size) + 1}, column ${(cell % size) + 1})`;
}

// ── alphabets ───────────────────────────────────────────────────────────────────────────────

/** The symbols of a grid as characters: the character at index s-1 stands for symbol s. */
export type Alphabet = string;

/** The symbols of a 9×9 grid, and the first nine of the 16×16 and 25×25 alphabets with digits. */
export const DIGITS: Alphabet = "123456789";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY";

/**
 * The alphabets recognised without being named, per symbol count, in the order tried:
 * 4×4 `1`–`4`; 9×9 `1`–`9`; 16×16 `1`–`9A`–`G` then `A`–`P` (POJ 3076); 25×25 `A`–`Y` then
 * `1`–`9A`–`P`.
 */
export const KNOWN_ALPHABETS: ReadonlyMap<number, readonly Alphabet[]> = new Map([
  [4, [DIGITS.slice(0, 4)]],
  [9, [DIGITS]],
  [16, [DIGITS + LETTERS.slice(0, 7), LETTERS.slice(0, 16)]],
  [25, [LETTERS, DIGITS + LETTERS.slice(0, 16)]],
]);

/** "1-9A-G" for "123456789ABCDEFG": runs of consecutive characters joined by a dash. */
export function alphabetName(alphabet: Alphabet): string {
  let name = "";
  for (let i = 0; i < alphabet.length; ) {
    let j = i;
    while (j + 1 < alphabet.length && alphabet.charCodeAt(j + 1) === alphabet.charCodeAt(j) + 1) j++;
    name += j - i >= 2 ? `${alphabet[i]}-${alphabet[j]}` : alphabet.slice(i, j + 1);
    i = j + 1;
  }
  return name;
}

/** Checks an explicit alphabet: N distinct characters for a supported N, none of them an empty mark. */
export function checkAlphabet(alphabet: Alphabet): Shape {
  const shape = SHAPES.find((s) => s.size === alphabet.length);
  if (!shape) {
    const sizes = SHAPES.map((s) => s.size);
    throw new RangeError(`an alphabet needs ${sizes.slice(0, -1).join(", ")} or ${sizes.at(-1)} symbols, got ${alphabet.length} ('${excerpt(alphabet)}')`);
  }
  const space = [...alphabet].find((ch) => /\s/.test(ch));
  if (space !== undefined) throw new RangeError(`alphabet '${excerpt(alphabet)}' holds white space (${quoteCharacter(space)}), which separates cells`);
  if (new Set(alphabet).size !== alphabet.length) throw new RangeError(`alphabet '${excerpt(alphabet)}' repeats a character`);
  const mark = [...EMPTY_MARKS.symbols].find((ch) => alphabet.includes(ch));
  if (mark) throw new RangeError(`alphabet '${excerpt(alphabet)}' uses '${mark}', which marks an empty cell`);
  return shape;
}

/** The first cell (0-based) whose character is neither empty nor in `alphabet`, or -1. */
function firstForeignCell(line: string, alphabet: Alphabet): number {
  for (let cell = 0; cell < line.length; cell++) {
    const ch = line[cell];
    if (!isEmptySymbol(ch, alphabet) && !alphabet.includes(ch)) return cell;
  }
  return -1;
}

/**
 * The alphabet of `line` among the known ones of its size: the first that holds every character.
 * When none does, a "character" PuzzleError at the first cell that the best fitting one rejects.
 */
export function detectAlphabet(line: string, size: number): Alphabet {
  const candidates = KNOWN_ALPHABETS.get(size) ?? [];
  let best = candidates[0];
  let bestCell = -1;
  for (const alphabet of candidates) {
    const cell = firstForeignCell(line, alphabet);
    if (cell < 0) return alphabet;
    if (cell > bestCell) [best, bestCell] = [alphabet, cell];
  }
  throw foreignCharacter(line, bestCell, size, candidates.length > 1 ? candidates : [best]);
}

function foreignCharacter(line: string, cell: number, size: number, alphabets: readonly Alphabet[]): PuzzleError {
  const allowed = alphabets.map(alphabetName).join(" or ");
  return new PuzzleError(
    "character",
    `${describeCellOf(cell, size)} contains invalid character ${quoteCharacter(line[cell])} (symbols ${allowed}, empty ${[...EMPTY_MARKS.symbols].join(" ")})`,
    cell,
  );
}

// ── parsing and formatting ──────────────────────────────────────────────────────────────────

/** A parsed N×N puzzle. */
export interface GeneralPuzzle {
  shape: Shape;
  /** The alphabet read (or given); solutions are written in it. */
  alphabet: Alphabet;
  /** N² bytes: 0 empty, 1..N. */
  grid: Uint8Array;
}

export interface ParseOptions {
  /** The symbols in order (e.g. "ABCDEFGHIJKLMNOP"); detected from the characters when absent. */
  alphabet?: Alphabet;
}

/** The shape whose cell count is `length`, or a "length" PuzzleError naming the sizes accepted. */
function shapeForLength(length: number, expected?: Shape): Shape {
  const shape = expected ? (expected.cells === length ? expected : undefined) : SHAPES.find((s) => s.cells === length);
  if (shape) return shape;
  const accepted = expected ? [expected] : SHAPES;
  const list = accepted.map((s) => `${s.cells} (${shapeName(s)})`).join(", ");
  throw new PuzzleError("length", `expected ${accepted.length > 1 ? "one of " : ""}${list} characters, got ${length}`);
}

/**
 * Parses one line of N² characters (surrounding white space ignored): symbols of the alphabet,
 * `.` or `-` (or `0` when the alphabet lacks it) for empty cells. Throws a {@link PuzzleError}
 * naming the cell and the reason (length, character, or a clue repeated in a unit).
 */
export function parseGeneralPuzzle(text: string, options: ParseOptions = {}): GeneralPuzzle {
  const line = text.trim();
  const given = options.alphabet === undefined ? undefined : checkAlphabet(options.alphabet);
  const shape = shapeForLength(line.length, given);
  const alphabet = options.alphabet ?? detectAlphabet(line, shape.size);
  const grid = new Uint8Array(shape.cells);
  for (let cell = 0; cell < shape.cells; cell++) {
    const ch = line[cell];
    if (isEmptySymbol(ch, alphabet)) continue;
    const symbol = alphabet.indexOf(ch) + 1;
    if (symbol === 0) throw foreignCharacter(line, cell, shape.size, [alphabet]);
    grid[cell] = symbol;
  }
  checkGeneralClues(grid, shape, alphabet);
  return { shape, alphabet, grid };
}

/** The line of a grid in `alphabet`, `empty` for empty cells. */
export function formatGeneralGrid(grid: Uint8Array, alphabet: Alphabet, empty = "."): string {
  // One array joined once: a flat string, not a rope of N² pieces (see formatPuzzle).
  const symbols = new Array<string>(grid.length);
  for (let cell = 0; cell < grid.length; cell++) symbols[cell] = grid[cell] === 0 ? empty : alphabet[grid[cell] - 1];
  return symbols.join("");
}

// ── units and conflicts ─────────────────────────────────────────────────────────────────────

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

const UNIT_KINDS: readonly UnitKind[] = ["row", "column", "box"];

/** The first clue repeated in a unit (in the order rows, columns, boxes), or null. Bytes over N are ignored. */
export function findGeneralConflict(grid: Uint8Array, shape: Shape): Conflict | null {
  const units = unitsOf(shape.box);
  const seenAt = new Int32Array(shape.size + 1);
  for (let u = 0; u < units.length; u++) {
    seenAt.fill(-1);
    for (const cell of units[u]) {
      const digit = grid[cell];
      if (digit < 1 || digit > shape.size) continue;
      if (seenAt[digit] >= 0) {
        return { unit: UNIT_KINDS[Math.floor(u / shape.size)], index: u % shape.size, digit, cells: [seenAt[digit], cell] };
      }
      seenAt[digit] = cell;
    }
  }
  return null;
}

/** Throws a "conflict" {@link PuzzleError} when a clue is repeated in a unit, naming both cells. */
export function checkGeneralClues(grid: Uint8Array, shape: Shape, alphabet: Alphabet): void {
  const conflict = findGeneralConflict(grid, shape);
  if (!conflict) return;
  const { unit, index, digit, cells } = conflict;
  throw new PuzzleError(
    "conflict",
    `${describeCellOf(cells[1], shape.size)}: symbol '${alphabet[digit - 1]}' is repeated in ${unit} ${index + 1} (also at ${describeCellOf(cells[0], shape.size)})`,
    cells[1],
  );
}

/** True when `solution` is a complete valid grid of `shape` that keeps every clue of `puzzle`. */
export function isValidGeneralSolution(puzzle: Uint8Array, solution: Uint8Array, shape: Shape): boolean {
  if (solution.length !== shape.cells) return false;
  for (let cell = 0; cell < shape.cells; cell++) {
    if (solution[cell] < 1 || solution[cell] > shape.size) return false;
    if (puzzle[cell] !== 0 && puzzle[cell] !== solution[cell]) return false;
  }
  return findGeneralConflict(solution, shape) === null;
}
