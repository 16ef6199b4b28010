/**
 * Classic online-judge Sudoku problems: each is a reader (the whole input text → grids)
 * and a writer (results → the exact expected output). Input errors throw a
 * {@link PuzzleError} whose message names the line, the cell and the reason.
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
 * These problems promise solvable puzzles; should one have none, the writers print
 * `no solution` where its grid would go (sicily1317 has its own wording). With several
 * solutions they print the first one found (sicily1317 prints the count, exact below
 * {@link EXACT_COUNT_LIMIT}: "has at least 1000000 solutions" at the cap).
 *
 * Several inputs (files) are read as one: each ends with a line end and they are joined in
 * order; an error then names the input and its own line (`b.txt:3: …`).
 */
import { type Grid, PuzzleError, SIZE, parsePuzzle } from "../puzzle.js";
import { type Alphabet, parseGeneralPuzzle } from "../puzzle-general.js";
import type { Solver } from "../solver.js";
import type { SolveRecord } from "../solver.js";
import { excerpt } from "../excerpt.js";
import { rowCells } from "./input/grid.js";
import { splitLines, withoutByteOrderMark } from "./lines.js";
import { EXACT_COUNT_LIMIT } from "./record.js";

/** Judge names for `--format`. */
export const JUDGE_FORMATS = ["leetcode37", "hdu1426", "poj2676", "poj2918", "poj3074", "poj3076", "sicily1317"] as const;
export type JudgeFormatName = (typeof JUDGE_FORMATS)[number];

/** One judge problem's reader and writer. */
export interface JudgeFormat {
  readonly name: JudgeFormatName;
  /** Solutions to look for: 1 to find one, {@link EXACT_COUNT_LIMIT} to count them. */
  readonly limit: number;
  /** The symbols of its puzzles when they are not 9×9 digits (they are then lines of text). */
  readonly alphabet?: Alphabet;
  /** The puzzles of the whole input, in order: 9×9 grids, or checked lines in {@link alphabet}. */
  read(text: string): (Grid | string)[];
  /** The whole expected output for the results, in input order. */
  write(results: readonly SolveRecord[]): string;
}

const NO_SOLUTION = "no solution";

/** The N rows of a solution of N² symbols, each row's symbols joined by `separator`. */
function solutionRows(solution: string, separator = ""): string[] {
  const size = Math.round(Math.sqrt(solution.length));
  const rows: string[] = [];
  for (let row = 0; row < size; row++) rows.push(solution.slice(row * size, (row + 1) * size).split("").join(separator));
  return rows;
}

/** The solution's rows as lines, or the `no solution` line. */
function solutionBlock(result: SolveRecord, separator = ""): string {
  return result.solution === null ? NO_SOLUTION + "\n" : solutionRows(result.solution, separator).join("\n") + "\n";
}

/** A judge input error: the 1-based line (of the named input, if any) and the reason without the place. */
export class JudgeInputError extends PuzzleError {
  constructor(
    reason: PuzzleError["reason"],
    readonly line: number,
    readonly detail: string,
    cell = -1,
    /** The input's name: the message then reads `name:line: detail` instead of `line N: detail`. */
    readonly input?: string,
  ) {
    super(reason, input === undefined ? `line ${line}: ${detail}` : `${input}:${line}: ${detail}`, cell);
  }
}

/** A PuzzleError from parsing, restated with the 1-based input line of the cell's row (rows of `size` cells). */
function placedError(error: unknown, rowLines: readonly number[], size = SIZE): never {
  if (!(error instanceof PuzzleError)) throw error;
  const line = rowLines[error.cell >= 0 ? Math.floor(error.cell / size) : 0];
  throw new JudgeInputError(error.reason, line, error.message, error.cell);
}

/** Turns a grid's cells (its rows joined) into a puzzle, or throws a PuzzleError naming the cell. */
type CellParser<T> = (cells: string) => T;

/** The 9×9 parser with the given empty marks. */
const digitGrid =
  (empties: string): CellParser<Grid> =>
  (cells) =>
    parsePuzzle(cells, empties);

/**
 * Reads `size` non-blank lines from `lines[at]` on as one grid of `size` × `size` cells;
 * returns it and the index after it.
 */
function readGridRows<T>(lines: readonly string[], at: number, size: number, parse: CellParser<T>): { grid: T; next: number } {
  const rows: string[] = [];
  const rowLines: number[] = [];
  let next = at;
  while (rows.length < size && next < lines.length) {
    const cells = rowCells(lines[next++]);
    if (cells.length === 0) continue;
    if (cells.length !== size) {
      throw new JudgeInputError("length", next, `expected a row of ${size} cells, got ${cells.length}`);
    }
    rows.push(cells);
    rowLines.push(next);
  }
  if (rows.length < size) throw new JudgeInputError("length", next, `the input ends inside a grid (${rows.length} of ${size} rows)`);
  try {
    return { grid: parse(rows.join("")), next };
  } catch (error) {
    placedError(error, rowLines, size);
  }
}

/** Reads grids of `size` rows until the input ends (blank lines between them are skipped). */
function readAllGrids<T>(lines: readonly string[], at: number, size: number, parse: CellParser<T>): T[] {
  const grids: T[] = [];
  for (let next = skipBlank(lines, at); next < lines.length; next = skipBlank(lines, next)) {
    const read = readGridRows(lines, next, size, parse);
    grids.push(read.grid);
    next = read.next;
  }
  return grids;
}

/** Reads a count line, then that many grids; anything but blank lines after them is an error. */
function readCountedGrids(text: string, empties: string): Grid[] {
  const lines = splitLines(text);
  const first = skipBlank(lines, 0);
  const count = Number(lines[first]?.trim());
  if (!Number.isInteger(count) || count < 0) {
    throw new JudgeInputError("length", first + 1, `expected the number of puzzles, got '${excerpt(lines[first]?.trim() ?? "")}'`);
  }
  const grids: Grid[] = [];
  let next = first + 1;
  while (grids.length < count) {
    const read = readGridRows(lines, next, SIZE, digitGrid(empties));
    grids.push(read.grid);
    next = read.next;
  }
  const extra = skipBlank(lines, next);
  if (extra < lines.length) throw new JudgeInputError("length", extra + 1, `more input after the ${count} puzzles`);
  return grids;
}

function skipBlank(lines: readonly string[], at: number): number {
  while (at < lines.length && lines[at].trim() === "") at++;
  return at;
}

/** The JSON value of `text`, or a PuzzleError that says why it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new JudgeInputError("character", 1, `not a JSON board (${excerpt((error as Error).message, 200)})`);
  }
}

const leetcode37: JudgeFormat = {
  name: "leetcode37",
  limit: 1,
  read(text) {
    const board = parseJson(text);
    const valid = Array.isArray(board) && board.length === SIZE && board.every((row) => Array.isArray(row) && row.length === SIZE);
    if (!valid) throw new JudgeInputError("length", 1, `expected a JSON array of ${SIZE} rows of ${SIZE} strings`);
    const cells = (board as unknown[][]).flat().map((cell, i) => {
      if (typeof cell !== "string" || cell.length !== 1) {
        throw new JudgeInputError("character", 1, `board[${Math.floor(i / SIZE)}][${i % SIZE}] is ${excerpt(JSON.stringify(cell) ?? String(cell))}, expected one character`, i);
      }
      return cell;
    });
    try {
      return [parsePuzzle(cells.join(""), ".")];
    } catch (error) {
      placedError(error, Array(SIZE).fill(1));
    }
  },
  write: (results) =>
    results.map((result) => (result.solution === null ? JSON.stringify(NO_SOLUTION) : JSON.stringify(solutionRows(result.solution).map((row) => row.split(""))))).join("\n") + "\n",
};

const hdu1426: JudgeFormat = {
  name: "hdu1426",
  limit: 1,
  read: (text) => readAllGrids(splitLines(text), 0, SIZE, digitGrid("?")),
  write: (results) => results.map((result) => solutionBlock(result, " ")).join("\n"),
};

const poj2676: JudgeFormat = {
  name: "poj2676",
  limit: 1,
  read: (text) => readCountedGrids(text, "0"),
  write: (results) => results.map((result) => solutionBlock(result)).join(""),
};

const poj2918: JudgeFormat = {
  name: "poj2918",
  limit: 1,
  read: (text) => readCountedGrids(text, "0"),
  write: (results) => results.map((result, i) => `Scenario #${i + 1}:\n${solutionBlock(result)}\n`).join(""),
};

const poj3074: JudgeFormat = {
  name: "poj3074",
  limit: 1,
  read(text) {
    const grids: Grid[] = [];
    for (const [i, raw] of splitLines(text).entries()) {
      const line = raw.trim();
      if (line === "end") break;
      if (line === "") continue;
      try {
        grids.push(parsePuzzle(line, "."));
      } catch (error) {
        placedError(error, Array(SIZE).fill(i + 1));
      }
    }
    return grids;
  },
  write: (results) => results.map((result) => (result.solution ?? NO_SOLUTION) + "\n").join(""),
};

/** POJ 3076's symbols: `A` is 1 … `P` is 16. */
const POJ3076_ALPHABET: Alphabet = "ABCDEFGHIJKLMNOP";
const POJ3076_SIZE = POJ3076_ALPHABET.length;

const poj3076: JudgeFormat = {
  name: "poj3076",
  limit: 1,
  alphabet: POJ3076_ALPHABET,
  read: (text) =>
    readAllGrids(splitLines(text), 0, POJ3076_SIZE, (cells) => {
      parseGeneralPuzzle(cells, { alphabet: POJ3076_ALPHABET }); // throws, naming the cell, on a bad puzzle
      return cells;
    }),
  write: (results) => results.map((result) => solutionBlock(result)).join("\n"),
};

const sicily1317: JudgeFormat = {
  name: "sicily1317",
  limit: EXACT_COUNT_LIMIT,
  read: (text) => readCountedGrids(text, "_"),
  write: (results) =>
    results
      .map((result, i) => {
        if (result.count === 1) return `Puzzle ${i + 1} solution is\n${solutionBlock(result)}`;
        if (result.count === 0) return `Puzzle ${i + 1} has no solution\n`;
        return `Puzzle ${i + 1} has ${result.count >= EXACT_COUNT_LIMIT ? "at least " : ""}${result.count} solutions\n`;
      })
      .join("\n"),
};

/** Every judge format, by its `--format` name. */
export const judgeFormats: Readonly<Record<JudgeFormatName, JudgeFormat>> = { leetcode37, hdu1426, poj2676, poj2918, poj3074, poj3076, sicily1317 };

/** The judge's whole expected output for the whole input `text`, solved by `solver` in one batch per kernel. */
export function solveJudge(judge: JudgeFormat, text: string, solver: Solver): string {
  return judge.write(solver.solveMany(judge.read(withoutByteOrderMark(text)), { limit: judge.limit, alphabet: judge.alphabet }));
}

/** One input of a judge run: its whole text and, for a file, its name. */
export interface JudgeInput {
  /** The name errors carry; without one (standard input alone) they say `line N`. */
  name?: string;
  text: string;
}

/**
 * {@link solveJudge} over several inputs read as one: each without its byte order mark and
 * ending with a line end, joined in order. An input error names the input and its own line.
 */
export function solveJudgeInputs(judge: JudgeFormat, inputs: readonly JudgeInput[], solver: Solver): string {
  const texts = inputs.map(({ text }) => {
    const own = withoutByteOrderMark(text);
    return own.length === 0 || own.endsWith("\n") ? own : own + "\n";
  });
  try {
    return solveJudge(judge, texts.join(""), solver);
  } catch (error) {
    if (!(error instanceof JudgeInputError)) throw error;
    throw placeInInputs(error, inputs, texts);
  }
}

/** The error restated at its input and that input's line (`b.txt:3: …`), or as it is when the input has no name. */
function placeInInputs(error: JudgeInputError, inputs: readonly JudgeInput[], texts: readonly string[]): JudgeInputError {
  let before = 0;
  for (const [i, text] of texts.entries()) {
    const lines = splitLines(text).length;
    if (error.line <= before + lines || i === texts.length - 1) {
      const name = inputs[i].name;
      return name === undefined ? error : new JudgeInputError(error.reason, error.line - before, error.detail, error.cell, name);
    }
    before += lines;
  }
  return error;
}
