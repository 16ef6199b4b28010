/**
 * The puzzle model, for every grid size (shape.ts). A grid of box size B has N = B² symbols and
 * N² cells, stored as N² bytes in row-major order: 0 empty, 1..N a symbol; on text, symbol s is
 * character s-1 of an *alphabet*. Every puzzle is read here ({@link readPuzzle}: parsePuzzle for
 * 9×9 digits, parseSymbols for an alphabet, readBytes for cell values; each ending in checkClues),
 * or a PuzzleError names the cell and the reason. A *unit* is a row, a column or a box.
 */
import { EMPTY_MARKS, isEmptySymbol, symbolEmpties } from "./empty-cells.js";
import { excerpt, quoteCharacter, quoteCharacterAt } from "./excerpt.js";
import { type Shape, CELLS, SHAPES, SHAPE_9, SYMBOL_COUNTS, describeCell, shapeName, shapeOfCells, shapeOfSide, gridTables } from "./shape.js";
import { isWhole } from "./whole-number.js";

/** N² bytes: 0 empty, 1..N (81 for 9×9). */
export type Grid = Uint8Array;

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

/** Unit kinds, in the order used by {@link findConflict}. */
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

/** A puzzle read: its shape, the alphabet its solution is written in, and its grid. */
export interface Puzzle {
  shape: Shape;
  alphabet: Alphabet;
  grid: Grid;
}

// ── alphabets ───────────────────────────────────────────────────────────────────────────────

/** The symbols of a grid as characters: the character at index s-1 stands for symbol s. */
export type Alphabet = string;

/** The symbols of a 9×9 grid, and the first nine of the 16×16 and 25×25 alphabets with digits. */
export const DIGITS: Alphabet = "123456789";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY";

/** The alphabets recognised unnamed, per symbol count, in the order tried (`A`–`P` for 16×16 is POJ 3076's). */
export const KNOWN_ALPHABETS: ReadonlyMap<number, readonly Alphabet[]> = new Map([
  [4, [DIGITS.slice(0, 4)]],
  [9, [DIGITS]],
  [16, [DIGITS + LETTERS.slice(0, 7), LETTERS.slice(0, 16)]],
  [25, [LETTERS, DIGITS + LETTERS.slice(0, 16)]],
]);

/** The alphabet a grid of `shape` is written in when none is named: its size's first known one (digits for 9×9). */
export const defaultAlphabet = (shape: Shape): Alphabet => KNOWN_ALPHABETS.get(shape.size)![0];

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
  const shape = shapeOfSide(alphabet.length);
  // a symbol is one UTF-16 unit, as a cell of a line is: an emoji (two) would be counted twice
  const wide = [...alphabet].find((ch) => ch.length > 1);
  if (wide !== undefined)
    throw new RangeError(`alphabet '${excerpt(alphabet)}' holds ${quoteCharacter(wide)}, a character of two UTF-16 units: each symbol must be one`);
  if (!shape) throw new RangeError(`an alphabet needs ${SYMBOL_COUNTS} symbols, got ${alphabet.length} ('${excerpt(alphabet)}')`);
  const space = [...alphabet].find((ch) => /\s/.test(ch));
  if (space !== undefined) throw new RangeError(`alphabet '${excerpt(alphabet)}' holds white space (${quoteCharacter(space)}), which separates cells`);
  if (new Set(alphabet).size !== alphabet.length) throw new RangeError(`alphabet '${excerpt(alphabet)}' repeats a character`);
  const mark = [...EMPTY_MARKS.symbols].find((ch) => alphabet.includes(ch));
  if (mark) throw new RangeError(`alphabet '${excerpt(alphabet)}' uses '${mark}', which marks an empty cell`);
  return shape;
}

// ── reading ─────────────────────────────────────────────────────────────────────────────────

/** True when a text of `cells` characters is read by {@link parseSymbols} rather than {@link parsePuzzle}. */
function readsAsSymbols(cells: number, alphabet: Alphabet | undefined): boolean {
  if (cells === CELLS) return alphabet !== undefined && alphabet.length === 9 && alphabet !== DIGITS;
  return shapeOfCells(cells) !== undefined;
}

/** True when 81-character lines are read with digits (the CLI's fast path applies). */
export const readsNineByNineAsDigits = (alphabet: Alphabet | undefined): boolean => !readsAsSymbols(CELLS, alphabet);

/** Reads one puzzle of any supported size (`alphabet` applies to puzzles with as many symbols); throws a {@link PuzzleError}. */
export function readPuzzle(puzzle: string | Grid, alphabet?: Alphabet, empties: string = EMPTY_MARKS.nine): Puzzle {
  if (puzzle instanceof String) puzzle = puzzle.valueOf(); // new String(line)
  if (typeof puzzle !== "string") {
    const read = readBytes(asCellValues(puzzle));
    return alphabet?.length === read.shape.size ? { ...read, alphabet } : read; // cell values carry no symbols: `alphabet` names them
  }
  if (puzzle.length === CELLS && alphabet === undefined) return { shape: SHAPE_9, alphabet: DIGITS, grid: parsePuzzle(puzzle, empties) };
  const cells = puzzle.trim().length;
  if (!readsAsSymbols(cells, alphabet)) return { shape: SHAPE_9, alphabet: DIGITS, grid: parseNine(puzzle, empties, cells) };
  return parseSymbols(puzzle, { alphabet: alphabet?.length === Math.sqrt(cells) ? alphabet : undefined }); // for lines of as many symbols
}

/** `: a 6×6 grid, which no solver here takes (…)` for a grid of side `side` that no shape has, from 5 up (smaller squares are rows or scraps); "" otherwise. */
export function untakenGridNote(side: number): string {
  if (!Number.isInteger(side) || side < 5 || shapeOfSide(side) !== undefined) return "";
  const article = side === 8 || side === 11 || side === 18 || (side >= 80 && side < 90) ? "an" : "a"; // an eight, an eleven…
  return `: ${article} ${side}×${side} grid, which no solver here takes (${SHAPES.map(shapeName).join(", ")})`;
}

/** {@link parsePuzzle}, whose length error for a longer line names the grid size it is, or is nearest to (100: 10×10; 255: 16×16 has 256). */
function parseNine(puzzle: string, empties: string, cells: number): Grid {
  try {
    return parsePuzzle(puzzle, empties);
  } catch (error) {
    if (!(error instanceof PuzzleError) || error.reason !== "length") throw error;
    const untaken = cells > CELLS ? untakenGridNote(Math.sqrt(cells)) : ""; // a shorter line is most likely a 9×9 one cut short
    if (untaken !== "") throw new PuzzleError("length", `${error.message}${untaken}`);
    const near = SHAPES.reduce((best, shape) => (Math.abs(shape.cells - cells) < Math.abs(best.cells - cells) ? shape : best), SHAPE_9);
    if (near === SHAPE_9 || cells < CELLS) throw error;
    throw new PuzzleError("length", `${error.message}; a ${shapeName(near)} puzzle has ${near.cells}`);
  }
}

/** Characters that mean "empty" in the one-line 9×9 format: the library's set of empty-cells.ts. */
export const ONE_LINE_EMPTY = EMPTY_MARKS.nine;

/**
 * For a line of the wrong length holding a control character or an invisible one (a zero-width space or joiner, a direction
 * mark, a byte order mark inside the line): ` (character 82 is '\x00', a NUL)`, naming the first; "" otherwise.
 */
export function controlCharacterNote(line: string): string {
  const at = line.search(/[\u0000-\u001f\u007f\u200b-\u200f\u2060\ufeff]/);
  if (at < 0) return "";
  const code = line.charCodeAt(at);
  return ` (character ${at + 1} is ${quoteCharacter(line[at])}, ${code === 0 ? "a NUL" : code < 0x80 ? "a control character" : "an invisible character"})`;
}

/** What a line of cells written as numbers with spaces between them (`10 2 0 16 …`) gets in its error: a cell is one symbol. */
export function numberedCellsNote(line: string): string {
  // tokens of one or two digits, or one other symbol (an empty mark), at least one of two digits
  const number = /^\s*(?:\d\d?|\S)(?:\s+(?:\d\d?|\S))+\s*$/.test(line) ? /(?:^|\s)(\d\d)(?=\s|$)/.exec(line) : null;
  if (number === null) return "";
  return ` (the numbers between spaces, such as '${number[1]}', are not cells: write each cell as one symbol, 1–9 then A–G in a 16×16, or give an alphabet)`;
}

/** The characters (code points) of `text`, without making an array of them (a line may be a mebibyte). */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Parses the one-line 9×9 format: 81 characters, `1`–`9` clues, any of `empties` empty, white space around ignored. */
export function parsePuzzle(text: string, empties: string = ONE_LINE_EMPTY): Grid {
  const line = text.trim();
  if (line.length !== CELLS) {
    // 81 characters of which some lie outside the BMP (an emoji is two UTF-16 units): the first such is the fault, not the length
    const count = codePoints(line);
    const characters = count === CELLS ? [...line] : [];
    const cell = characters.findIndex((ch) => ch.length > 1);
    if (cell >= 0) throw new PuzzleError("character", `${describeCell(cell)} contains invalid character ${quoteCharacter(characters[cell])}`, cell);
    throw new PuzzleError("length", `expected ${CELLS} characters, got ${count}${controlCharacterNote(line)}${numberedCellsNote(line)}`);
  }
  const grid = new Uint8Array(CELLS);
  const cell = readDigits(line, grid, 0, empties);
  if (cell >= 0) throw new PuzzleError("character", `${describeCell(cell)} contains invalid character ${quoteCharacterAt(line, cell)}`, cell);
  checkClues(grid);
  return grid;
}

/** A byte of {@link digitTable} for a character that is neither a digit nor an empty mark. */
const NOT_A_CELL = 255;
/** The byte of a {@link digitTable} past its 256 codes: 1 when every empty mark is ASCII (below 128). */
const ASCII_MARKS = 256;
const digitTables = new Map<string, Uint8Array>();

/** The cell value of each character code below 256 under `empties` (NOT_A_CELL for a non-cell), then {@link ASCII_MARKS}. */
function digitTable(empties: string): Uint8Array {
  let table = digitTables.get(empties);
  if (table) return table;
  table = new Uint8Array(257).fill(NOT_A_CELL);
  for (const mark of empties) if (mark.charCodeAt(0) < 256) table[mark.charCodeAt(0)] = 0;
  for (let digit = 1; digit <= 9; digit++) table[48 + digit] = digit;
  table[ASCII_MARKS] = [...empties].every((mark) => mark.charCodeAt(0) < 128) ? 1 : 0;
  if (digitTables.size < 16) digitTables.set(empties, table); // a few sets in practice (empty-cells.ts); a caller's own are not all kept
  return table;
}

const ONE_LINE_TABLE = digitTable(ONE_LINE_EMPTY);

/** Node's Buffer, where there is one: it writes a line's bytes natively. */
const NodeBuffer = (globalThis as { Buffer?: { alloc(size: number): LineBytes } }).Buffer;
interface LineBytes extends Uint8Array {
  write(text: string, offset: number, length: number, encoding: "utf8"): number;
  /** Node's own writer behind write(…, "utf8"), without its argument handling. */
  utf8Write?(text: string, offset: number, length: number): number;
}
/** The UTF-8 bytes of the line {@link readDigits} reads (Node only). */
const lineBytes = NodeBuffer?.alloc(CELLS);

/** Reads the first 81 characters of `line` as 9×9 cells into `cells` from `at`: -1, or the first cell holding another character. */
export function readDigits(line: string, cells: Uint8Array, at: number, empties: string = ONE_LINE_EMPTY): number {
  const table = empties === ONE_LINE_EMPTY ? ONE_LINE_TABLE : digitTable(empties);
  if (lineBytes !== undefined && table[ASCII_MARKS] === 1 && line.length >= CELLS) {
    // In Node, the line's UTF-8 bytes are written natively, then looked up (cheaper than charCodeAt per character). A character
    // over 127 is bytes over 127, none of them a cell; the bytes up to it are the characters up to it, one each.
    const written = lineBytes.utf8Write ? lineBytes.utf8Write(line, 0, CELLS) : lineBytes.write(line, 0, CELLS, "utf8");
    const bad = readCellBytes(lineBytes, 0, written, cells, at, table);
    return bad >= 0 ? bad : written < CELLS ? written : -1; // short of 81 bytes: a character of several bytes at `written`
  }
  for (let cell = 0; cell < CELLS; cell++) {
    const code = line.charCodeAt(cell);
    const value = code < 256 ? table[code] : empties.includes(line[cell]) ? 0 : NOT_A_CELL;
    if (value === NOT_A_CELL) return cell;
    cells[at + cell] = value;
  }
  return -1;
}

/** Reads one 9×9 line written as bytes, 81 from `from`, as {@link readDigits} reads a line: -1, or the first non-cell. */
export function readDigitBytes(text: Uint8Array, from: number, cells: Uint8Array, at: number): number {
  return readCellBytes(text, from, CELLS, cells, at, ONE_LINE_TABLE);
}

/** `count` bytes of `bytes` from `from` looked up in a {@link digitTable} into `cells` from `at`: -1, or the first that is not a cell. */
function readCellBytes(bytes: Uint8Array, from: number, count: number, cells: Uint8Array, at: number, table: Uint8Array): number {
  for (let cell = 0; cell < count; cell++) {
    const value = table[bytes[from + cell]];
    if (value === NOT_A_CELL) return cell;
    cells[at + cell] = value;
  }
  return -1;
}

export interface ParseOptions {
  /** The symbols in order (e.g. "ABCDEFGHIJKLMNOP"); detected from the characters when absent. */
  alphabet?: Alphabet;
}

/** The shape whose cell count is `length`, or a "length" PuzzleError naming the sizes accepted. */
function shapeForLength(length: number, expected?: Shape): Shape {
  const shape = expected ? (expected.cells === length ? expected : undefined) : shapeOfCells(length);
  if (shape) return shape;
  const accepted = expected ? [expected] : SHAPES;
  const list = accepted.map((s) => `${s.cells} (${shapeName(s)})`).join(", ");
  throw new PuzzleError("length", `expected ${accepted.length > 1 ? "one of " : ""}${list} characters, got ${length}`);
}

/**
 * Parses one line of N² symbols, `.` or `-` (or `0` outside the alphabet) empty; without an alphabet, in the first known one
 * of its size that holds every character. Throws a {@link PuzzleError}.
 */
export function parseSymbols(text: string, options: ParseOptions = {}): Puzzle {
  const line = text.trim();
  const given = options.alphabet === undefined ? undefined : checkAlphabet(options.alphabet);
  const shape = shapeForLength(line.length, given);
  const alphabets = options.alphabet === undefined ? KNOWN_ALPHABETS.get(shape.size)! : [options.alphabet];
  const grid = new Uint8Array(shape.cells);
  let bestCell = -1; // where the alphabet that fits longest fails
  for (const alphabet of alphabets) {
    const cell = readSymbols(line, alphabet, grid);
    if (cell < 0) {
      checkClues(grid, shape, alphabet);
      return { shape, alphabet, grid };
    }
    bestCell = Math.max(bestCell, cell);
  }
  const allowed = alphabets.map(alphabetName).join(" or ");
  const empty = [...symbolEmpties(alphabets.join(""))].join(" "); // `0` too when no alphabet tried holds it
  const message = `${describeCell(bestCell, shape.size)} contains invalid character ${quoteCharacterAt(line, bestCell)} (symbols ${allowed}, empty ${empty})`;
  throw new PuzzleError("character", message, bestCell);
}

/** Reads `line` in `alphabet` into every cell of `grid`: -1, or the first cell whose character is neither empty nor in it (the cells from it on not written). */
function readSymbols(line: string, alphabet: Alphabet, grid: Grid): number {
  for (let cell = 0; cell < grid.length; cell++) {
    const ch = line[cell];
    const symbol = alphabet.indexOf(ch) + 1; // 0 for an empty mark: no alphabet holds one
    if (symbol === 0 && !isEmptySymbol(ch, alphabet)) return cell;
    grid[cell] = symbol;
  }
  return -1;
}

/** What the library accepts besides text: N² cell values, as a Uint8Array or any array of numbers. */
type CellValues = ArrayLike<unknown>;

/** `puzzle` as cell values, or a PuzzleError (`type`) when it is neither text nor an array of cells (undefined, a number, an object). */
function asCellValues(puzzle: unknown): CellValues {
  const isArrayLike = Array.isArray(puzzle) || ArrayBuffer.isView(puzzle);
  if (puzzle instanceof BigInt64Array || puzzle instanceof BigUint64Array) {
    throw new PuzzleError("type", `expected a puzzle as text or an array of cell values as numbers, got a ${puzzle.constructor.name} (its cells are bigints)`);
  }
  if (!isArrayLike || puzzle instanceof DataView)
    throw new PuzzleError("type", `expected a puzzle as text or an array of cell values, got ${describeValue(puzzle)}`);
  return puzzle as CellValues;
}

/** "undefined", "null", "the number 5", "an object", "a Map", "a Uint8Array": what a value is, for a message. */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return `the ${typeof value} ${String(value)}`;
  if (typeof value !== "object") return `a ${typeof value}`;
  const name = (value as object).constructor?.name;
  return name && name !== "Object" ? `${/^[AEIO]/.test(name) ? "an" : "a"} ${name}` : "an object"; // "a Uint8Array", "a URL"
}

/** N² whole cell values 0..N as a puzzle, no clue repeated; the grid is the caller's when it is a Uint8Array, else a copy. */
function readBytes(values: CellValues): Puzzle {
  const shape = shapeOfCells(values.length);
  if (!shape) {
    // Text with line breaks (a byte over 25 is no cell value): most likely a chunk of a stream of text not read as lines (a DecompressionStream's).
    const lines = values instanceof Uint8Array && (values.includes(10) || values.includes(13)) && values.some((byte) => byte > 25);
    const hint = lines
      ? " (bytes of text with line breaks: a chunk of a stream? give each line as a string, or the pool (sudoku-wasm/pool) the stream of bytes itself, which it reads as lines)"
      : "";
    throw new PuzzleError("length", `expected ${SHAPES.map((s) => s.cells).join(", ")} cells, got ${values.length}${hint}`);
  }
  for (let cell = 0; cell < values.length; cell++) {
    const value = values[cell];
    if (typeof value !== "number" || !isWhole(value, 0, shape.size)) {
      const shown =
        typeof value === "string"
          ? `'${excerpt(value)}'`
          : typeof value === "number"
            ? String(value)
            : typeof value === "bigint"
              ? `the bigint ${value}n`
              : describeValue(value);
      // A byte of a digit or `.` in bytes: most likely a text's bytes, which the library takes as a string.
      const text = ArrayBuffer.isView(values) && typeof value === "number" && Number.isInteger(value) && /^[0-9.]$/.test(String.fromCharCode(value));
      const hint = text ? ` (the byte of '${String.fromCharCode(value as number)}': for text, give the puzzle as a string)` : "";
      throw new PuzzleError("character", `${describeCell(cell, shape.size)} holds ${shown}, not 0-${shape.size}${hint}`, cell);
    }
  }
  const grid = values instanceof Uint8Array ? values : Uint8Array.from(values as ArrayLike<number>);
  const alphabet = defaultAlphabet(shape);
  checkClues(grid, shape, shape === SHAPE_9 ? undefined : alphabet);
  return { shape, alphabet, grid };
}

// ── units and conflicts ─────────────────────────────────────────────────────────────────────

const UNIT_KINDS: readonly UnitKind[] = ["row", "column", "box"];

/** The first clue repeated in a unit (in the order rows, columns, boxes), or null. Bytes over N are ignored. */
export function findConflict(grid: Grid, shape: Shape = shapeOfCells(grid.length) ?? SHAPE_9): Conflict | null {
  const { size, cells } = shape;
  const { unitCells } = gridTables(shape.box);
  for (let start = 0; start < 3 * cells; start += size) {
    let seen = 0;
    for (let at = start; at < start + size; at++) {
      const digit = grid[unitCells[at]];
      const bit = digit <= size ? (1 << digit) & ~1 : 0;
      if (seen & bit) {
        let first = start;
        while (grid[unitCells[first]] !== digit) first++;
        const unit = start / size;
        return { unit: UNIT_KINDS[Math.floor(unit / size)], index: unit % size, digit, cells: [unitCells[first], unitCells[at]] };
      }
      seen |= bit;
    }
  }
  return null;
}

/** Throws a "conflict" {@link PuzzleError} naming both cells and the clue ("symbol 'A'" of `alphabet`, else "digit 5"). */
export function checkClues(grid: Grid, shape: Shape = SHAPE_9, alphabet?: Alphabet): void {
  const conflict = findConflict(grid, shape);
  if (!conflict) return;
  const { unit, index, digit, cells } = conflict;
  const clue = alphabet === undefined ? `digit ${digit}` : `symbol '${alphabet[digit - 1]}'`;
  throw new PuzzleError(
    "conflict",
    `${describeCell(cells[1], shape.size)}: ${clue} is repeated in ${unit} ${index + 1} (also at ${describeCell(cells[0], shape.size)})`,
    cells[1],
  );
}

/** True when `solution` is a complete valid grid of the puzzle's shape (from its length) that keeps every clue of `puzzle`. */
export function isValidSolution(puzzle: Grid, solution: Grid, shape: Shape | undefined = shapeOfCells(puzzle.length)): boolean {
  if (shape === undefined || solution.length !== shape.cells) return false;
  for (let cell = 0; cell < shape.cells; cell++) {
    if (solution[cell] < 1 || solution[cell] > shape.size) return false;
    if (puzzle[cell] !== 0 && puzzle[cell] !== solution[cell]) return false;
  }
  return findConflict(solution, shape) === null;
}

// ── formatting ──────────────────────────────────────────────────────────────────────────────

/** The line of a grid in `alphabet` (default: its size's first known one), `empty` for empty cells; of no known size, its values joined by commas. */
export function formatGrid(grid: Grid, alphabet?: Alphabet, empty = "."): string {
  if (alphabet === undefined) {
    const shape = shapeOfCells(grid.length);
    if (!shape) return Array.from(grid).join(",");
    alphabet = defaultAlphabet(shape);
  }
  // One array joined once: a flat string (`+=` per cell builds a rope of N² pieces, far larger when kept).
  const symbols = new Array<string>(grid.length);
  for (let cell = 0; cell < grid.length; cell++) symbols[cell] = grid[cell] === 0 ? empty : alphabet[grid[cell] - 1];
  return symbols.join("");
}

/** The one-line text of a 9×9 grid in digits, `empty` (`.`) for empty cells. */
export function formatPuzzle(grid: Grid, empty = "."): string {
  return formatGrid(grid, DIGITS, empty);
}
