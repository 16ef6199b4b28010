/**
 * Classic online-judge Sudoku problems, each a reader (lines in, one at a time → each puzzle once
 * its last line is read) and a writer (one result → its part of the exact expected output), so a
 * judge input of any length streams (src/cli/judge.ts). Input errors name the line, the cell and the reason.
 *
 *   name        input                                         output per puzzle
 *   leetcode37  JSON 9×9 array of "1"–"9" / "."                the same JSON shape, solved
 *   hdu1426     9 lines of 9 tokens (`?` empty), blank-separated  9 lines "d d … d", blank between
 *   poj2676     T, then 9 lines of 9 digits (`0` empty)        9 lines of 9 digits
 *   poj2918     n, then 9 lines of 9 digits, blank lines ok    "Scenario #i:", 9 lines, blank line
 *   poj3074     81-character lines (`.` empty) until `end`     one 81-digit line
 *   poj3076     16×16: 16 lines of 16 of `A`–`P` (`-` empty),  16 solved lines, blank between
 *               cases separated by blank lines
 *   sicily1317  N, then 9 lines of 9 characters (`_` empty)    "Puzzle i solution is" + 9 lines,
 *                                                              "Puzzle i has no solution" or
 *                                                              "Puzzle i has K solutions"; blank between
 *
 * These problems promise solvable puzzles; one with none (repeated givens included: read, not
 * refused) gets `no solution` where its grid would go, sicily1317 its own wording and its count,
 * exact below {@link EXACT_COUNT_LIMIT}. Several inputs are read as one, joined in order; an error
 * names the input and its own line (`b.txt:3: …`).
 */
import { type Alphabet, type Grid, parsePuzzle, parseSymbols, PuzzleError } from "../model/puzzle.js";
import { SIZE } from "../model/shape.js";
import type { SolveRecord } from "../solvers/solver.js";
import { excerpt } from "../model/excerpt.js";
import { rowCells } from "./input/grid.js";
import { MAX_LINE_LENGTH } from "../stream/lines.js";
import { EXACT_COUNT_LIMIT } from "./record.js";
import { solutionRows } from "./output/format.js";
import { commaGrouped, counted, isWhole } from "../model/whole-number.js";

export const JUDGE_FORMATS = ["leetcode37", "hdu1426", "poj2676", "poj2918", "poj3074", "poj3076", "sicily1317"] as const;
export type JudgeFormatName = (typeof JUDGE_FORMATS)[number];

/** One line of judge input: its text (no line end), its 1-based number, and its input's name (none: errors say `line N`). */
export interface JudgeLine {
  text: string;
  line: number;
  input?: string;
}

/** A judge's reader, fed one line at a time (null at the end): emits each puzzle once read, throws a {@link JudgeInputError}, returns when done. */
export type JudgeReader = Generator<void, void, JudgeLine | null>;

/** Where a reader is: the last line fed to it, and the input being read with its lines so far. */
export interface JudgeCursor {
  /** The last line fed to the reader (line 0 of the first input before any). */
  last: JudgeLine;
  /** The input being read (the last one begun) and how many lines of it were read. */
  input?: string;
  linesRead: number;
}

/** The place after the last line of the input being read: where an input that ended too soon is reported. */
const afterInput = (cursor: JudgeCursor): JudgeLine => ({ text: "", line: cursor.linesRead + 1, input: cursor.input });

/** A puzzle of a judge input: a 9×9 grid, or a checked line in the judge's {@link JudgeFormat.alphabet}. */
export type JudgePuzzle = Grid | string;

export interface JudgeFormat {
  /** Solutions to look for: 1 to find one, {@link EXACT_COUNT_LIMIT} to count them. */
  readonly limit: number;
  /** The symbols of its puzzles when they are not 9×9 digits (they are then lines of text). */
  readonly alphabet?: Alphabet;
  /** A reader of the whole input, line by line, handing each puzzle to `emit` in order. */
  reader(emit: (puzzle: JudgePuzzle) => void, cursor: JudgeCursor): JudgeReader;
  /** The expected output for one result; `index` is its puzzle's 0-based place in the input. */
  record(result: SolveRecord, index: number): string;
  /** What goes between the outputs of two puzzles (a blank line for some judges). @default "" */
  readonly between?: string;
}

const NO_SOLUTION = "no solution";

/** The solution's rows as lines, or the `no solution` line. */
function solutionBlock(result: SolveRecord, separator = ""): string {
  return result.solution === null ? NO_SOLUTION + "\n" : solutionRows(result.solution, separator).join("\n") + "\n";
}

/** A judge input error at `place`: `name:line: detail`, or `line N: detail` for an unnamed input. */
export class JudgeInputError extends PuzzleError {
  constructor(place: JudgeLine, reason: PuzzleError["reason"], detail: string, cell = -1) {
    super(reason, `${place.input === undefined ? "line " : `${place.input}:`}${place.line}: ${detail}`, cell);
  }
}

/** `parse(cells)`, its PuzzleError restated at the line of its cell: `places` holds a line per `size` cells, or is one line for all. */
function parseAt<T>(parse: CellParser<T>, cells: string, places: JudgeLine | readonly JudgeLine[], size = SIZE): T {
  try {
    return parse(cells);
  } catch (error) {
    if (!(error instanceof PuzzleError)) throw error;
    const place = Array.isArray(places) ? places[error.cell >= 0 ? Math.floor(error.cell / size) : 0] : (places as JudgeLine);
    throw new JudgeInputError(place, error.reason, error.message, error.cell);
  }
}

/** Turns a grid's cells (its rows joined) into a puzzle, or throws a PuzzleError naming the cell. */
type CellParser<T> = (cells: string) => T;

/** `parse(cells)`, except that repeated givens make `unsolvable(cells)`: the judge answers it as one without a solution. */
function readingRepeats<T>(parse: CellParser<T>, unsolvable: CellParser<T>): CellParser<T> {
  return (cells) => {
    try {
      return parse(cells);
    } catch (error) {
      if (!(error instanceof PuzzleError) || error.reason !== "conflict") throw error;
      return unsolvable(cells);
    }
  };
}

/** 9×9 cells that parsePuzzle has read up to their repeated givens, as bytes (0 for an empty mark). */
const conflictingGrid: CellParser<Grid> = (cells) => Uint8Array.from(cells.trim(), (ch) => (ch >= "1" && ch <= "9" ? ch.charCodeAt(0) - 48 : 0));

/** The 9×9 parser with the given empty marks; repeated givens are read (see {@link readingRepeats}). */
const digitGrid = (empties: string): CellParser<Grid> => readingRepeats((cells) => parsePuzzle(cells, empties), conflictingGrid);

const isBlank = (line: JudgeLine): boolean => line.text.trim() === "";

/**
 * Reads `size` rows as one grid, from `first` on (or the next line), skipping lines without cells (blank, or only `|`).
 * An input that ends before the grid's first row is told at the line after its last, as before `which` (`puzzle 2 of …`).
 */
function* gridRows<T>(size: number, parse: CellParser<T>, cursor: JudgeCursor, first?: JudgeLine, which = "a grid"): Generator<void, T, JudgeLine | null> {
  const rows: string[] = [];
  const rowPlaces: JudgeLine[] = [];
  let line = first ?? (yield);
  for (;;) {
    if (line === null && rows.length === 0) throw new JudgeInputError(afterInput(cursor), "length", `the input ends before ${which}`);
    if (line === null) throw new JudgeInputError(cursor.last, "length", `the input ends inside a grid (${rows.length} of ${size} rows)`);
    const cells = rowCells(line.text);
    if (cells.length > 0) {
      if (cells.length !== size) throw new JudgeInputError(line, "length", `expected a row of ${size} cells, got ${cells.length}`);
      rows.push(cells);
      rowPlaces.push(line);
      if (rows.length === size) break;
    }
    line = yield;
  }
  return parseAt(parse, rows.join(""), rowPlaces, size);
}

/** Reads grids of `size` rows until the input ends (blank lines between them are skipped). */
function* allGrids<T extends JudgePuzzle>(size: number, parse: CellParser<T>, emit: (puzzle: T) => void, cursor: JudgeCursor): JudgeReader {
  for (let line = yield; line !== null; line = yield) {
    if (!isBlank(line)) emit(yield* gridRows(size, parse, cursor, line));
  }
}

/** Reads a count line, then that many grids; anything but blank lines after them is an error. */
function* countedGrids(empties: string, emit: (puzzle: Grid) => void, cursor: JudgeCursor): JudgeReader {
  let line = yield;
  while (line !== null && isBlank(line)) line = yield;
  const text = line?.text.trim() ?? "";
  const count = /^\d+$/.test(text) ? Number(text) : NaN; // digits only: not 0x2, 1e3, 1.0 or +3, which Number() reads as counts
  if (!isWhole(count, 0)) {
    throw new JudgeInputError(line ?? afterInput(cursor), "length", `expected the number of puzzles, got '${excerpt(text)}'`);
  }
  for (let read = 0; read < count; read++) {
    emit(yield* gridRows(SIZE, digitGrid(empties), cursor, undefined, `puzzle ${read + 1} of the ${count} its count line announces`));
  }
  for (line = yield; line !== null; line = yield) {
    if (!isBlank(line)) throw new JudgeInputError(line, "length", `more input after the ${counted(count, "puzzle")}`);
  }
}

/** Where each value `depth` arrays deep in a JSON text starts: a board's rows (depth 1) or cells (depth 2), for errors to name a line by. */
function valueOffsets(text: string, depth: number): number[] {
  const offsets: number[] = [];
  let level = 0;
  let awaiting = false; // a value starts at the next character that is not blank
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") continue;
    if (awaiting) offsets.push(i);
    awaiting = false;
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (ch === "[" || ch === "{") {
      awaiting = ++level === depth && ch === "[";
    } else if (ch === "]" || ch === "}") {
      level--;
    } else if (ch === "," && level === depth) {
      awaiting = true;
    }
  }
  return offsets;
}

/**
 * Where the fault of a JSON text that does not parse lies, when the parser does not say: the end of
 * its first line through which the text already fails for another reason than ending early (as
 * V8 words that reason: "Unexpected end of JSON input").
 */
function faultEnd(text: string): number {
  const ends = [...text.matchAll(/\n/g)].map((match) => match.index).concat(text.length);
  const failsThrough = (end: number): boolean => {
    try {
      JSON.parse(text.slice(0, end));
      return false;
    } catch (error) {
      return !(error as Error).message.startsWith("Unexpected end of JSON input");
    }
  };
  // Failing so is kept by every longer prefix: the first such line, by halves.
  let [low, high] = [0, ends.length - 1];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (failsThrough(ends[middle])) high = middle;
    else low = middle + 1;
  }
  return ends[low];
}

/** LeetCode 37's board (a JSON array of 9 rows of 9 one-character strings) as a grid; `placeOf(offset)` gives the line an error names. */
function readBoard(text: string, placeOf: (offset: number) => JudgeLine): Grid {
  let board: unknown;
  try {
    board = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = / in JSON at position (\d+)/.exec(message); // (an "Unexpected token" message quotes the text, which may hold the words)
    throw new JudgeInputError(placeOf(position ? Number(position[1]) : faultEnd(text)), "character", `not a JSON board (${excerpt(message, 200)})`);
  }
  const expected = `expected a JSON array of ${SIZE} rows of ${SIZE} strings`;
  if (!Array.isArray(board)) throw new JudgeInputError(placeOf(0), "length", expected);
  // named at the first row that is not an array of 9, or the row past the ninth, or (fewer rows) the board's end
  const bad = board.findIndex((row, i) => i >= SIZE || !Array.isArray(row) || row.length !== SIZE);
  if (bad >= 0 || board.length < SIZE) {
    const row: unknown = board[bad];
    const [at, what] =
      bad < 0
        ? [text.trimEnd().length - 1, `it has ${counted(board.length, "row")}`]
        : bad >= SIZE
          ? [valueOffsets(text, 1)[bad] ?? 0, `it has ${counted(board.length, "row")}`]
          : [valueOffsets(text, 1)[bad] ?? 0, `row ${bad + 1} ${Array.isArray(row) ? `has ${counted(row.length, "value")}` : "is not an array"}`];
    throw new JudgeInputError(placeOf(at), "length", `${expected}: ${what}`);
  }
  const offsets = valueOffsets(text, 2);
  const cellPlace = (cell: number): JudgeLine => placeOf(offsets[cell] ?? 0);
  const cells = (board as unknown[][]).flat().map((cell, i) => {
    if (typeof cell !== "string" || cell.length !== 1) {
      throw new JudgeInputError(
        cellPlace(i),
        "character",
        `board[${Math.floor(i / SIZE)}][${i % SIZE}] is ${excerpt(JSON.stringify(cell) ?? String(cell))}, expected one character`,
        i,
      );
    }
    return cell;
  });
  return parseAt(
    digitGrid("."),
    cells.join(""),
    Array.from({ length: SIZE * SIZE }, (_, cell) => cellPlace(cell)),
    1,
  );
}

const leetcode37: JudgeFormat = {
  limit: 1,
  *reader(emit, cursor) {
    // One board: the whole input is its JSON text, over as many lines as it likes; an error names the line of the cell or character at fault.
    const lines: JudgeLine[] = [];
    let length = 0;
    for (let line = yield; line !== null; line = yield) {
      lines.push(line);
      length += line.text.length + 1;
      if (length > MAX_LINE_LENGTH) throw new JudgeInputError(lines[0], "length", `not a JSON board (over ${commaGrouped(MAX_LINE_LENGTH)} characters)`);
    }
    const placeOf = (offset: number): JudgeLine => {
      for (const line of lines) {
        if (offset <= line.text.length) return line;
        offset -= line.text.length + 1; // the lines are joined by "\n"
      }
      return lines.at(-1) ?? afterInput(cursor);
    };
    emit(readBoard(lines.map((line) => line.text).join("\n"), placeOf));
  },
  record: (result) =>
    (result.solution === null ? JSON.stringify(NO_SOLUTION) : JSON.stringify(solutionRows(result.solution).map((row) => row.split("")))) + "\n",
};

const hdu1426: JudgeFormat = {
  limit: 1,
  reader: (emit, cursor) => allGrids(SIZE, digitGrid("?"), emit, cursor),
  record: (result) => solutionBlock(result, " "),
  between: "\n",
};

const poj2676: JudgeFormat = {
  limit: 1,
  reader: (emit, cursor) => countedGrids("0", emit, cursor),
  record: (result) => solutionBlock(result),
};

const poj2918: JudgeFormat = {
  limit: 1,
  reader: (emit, cursor) => countedGrids("0", emit, cursor),
  record: (result, i) => `Scenario #${i + 1}:\n${solutionBlock(result)}\n`,
};

const poj3074: JudgeFormat = {
  limit: 1,
  *reader(emit) {
    for (let line = yield; line !== null; line = yield) {
      const text = line.text.trim();
      if (text === "end") return;
      if (text === "") continue;
      emit(parseAt(digitGrid("."), text, line));
    }
  },
  record: (result) => (result.solution ?? NO_SOLUTION) + "\n",
};

/** POJ 3076's symbols: `A` is 1 … `P` is 16. */
const POJ3076_ALPHABET: Alphabet = "ABCDEFGHIJKLMNOP";
const POJ3076_SIZE = POJ3076_ALPHABET.length;

/** POJ 3076's cells, checked (a PuzzleError names a bad cell); repeated givens are read (see {@link readingRepeats}). */
const poj3076Cells = readingRepeats<string>(
  (cells) => {
    parseSymbols(cells, { alphabet: POJ3076_ALPHABET });
    return cells;
  },
  (cells) => cells,
);

const poj3076: JudgeFormat = {
  limit: 1,
  alphabet: POJ3076_ALPHABET,
  reader: (emit, cursor) => allGrids(POJ3076_SIZE, poj3076Cells, emit, cursor),
  record: (result) => solutionBlock(result),
  between: "\n",
};

const sicily1317: JudgeFormat = {
  limit: EXACT_COUNT_LIMIT,
  reader: (emit, cursor) => countedGrids("_", emit, cursor),
  record(result, i) {
    if (result.count === 1) return `Puzzle ${i + 1} solution is\n${solutionBlock(result)}`;
    if (result.count === 0) return `Puzzle ${i + 1} has no solution\n`;
    return `Puzzle ${i + 1} has ${result.count >= EXACT_COUNT_LIMIT ? "at least " : ""}${result.count} solutions\n`;
  },
  between: "\n",
};

export const judgeFormats: Readonly<Record<JudgeFormatName, JudgeFormat>> = { leetcode37, hdu1426, poj2676, poj2918, poj3074, poj3076, sicily1317 };

/** One pass of a judge over its input: lines go in ({@link read}, then {@link end}), puzzles wait in {@link puzzles} until taken. */
export class JudgeRun {
  /** Puzzles read and not yet taken, in input order. */
  readonly puzzles: JudgePuzzle[] = [];
  private readonly cursor: JudgeCursor;
  private readonly reader: JudgeReader;
  private finished = false;
  private written = 0;

  constructor(
    readonly judge: JudgeFormat,
    /** The name of the first input (for an error before any line). */
    firstInput?: string,
  ) {
    this.cursor = { last: { text: "", line: 0, input: firstInput }, input: firstInput, linesRead: 0 };
    this.reader = judge.reader((puzzle) => this.puzzles.push(puzzle), this.cursor);
    this.reader.next(); // runs it to its first request for a line
  }

  /** The lines fed from now on come from the input `name` (none: standard input alone). */
  startInput(name?: string): void {
    this.cursor.input = name;
    this.cursor.linesRead = 0;
  }

  /** Feeds the next line of the input being read; false once the judge needs no more input (the rest is not read). */
  read(line: JudgeLine): boolean {
    if (this.finished) return false;
    this.cursor.last = line;
    this.cursor.linesRead = line.line;
    this.finished = this.reader.next(line).done === true;
    return !this.finished;
  }

  /** Tells the reader the input has ended (an unfinished grid or a missing count throws here). */
  end(): void {
    if (!this.finished) this.reader.next(null);
    this.finished = true;
  }

  /** Removes and returns the first `count` puzzles read (all by default). */
  take(count = this.puzzles.length): JudgePuzzle[] {
    return this.puzzles.splice(0, count);
  }

  /** The judge's output for the next results, in order. */
  output(results: readonly SolveRecord[]): string {
    const between = this.judge.between ?? "";
    let text = "";
    for (const result of results) {
      if (this.written > 0) text += between;
      text += this.judge.record(result, this.written++);
    }
    return text;
  }
}
