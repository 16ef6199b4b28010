/**
 * Turning a public source file into a dataset file: one puzzle per line, `\n` endings, row-major,
 * `.` for an empty cell, no header, no comments, no repeated line.
 *
 *   9×9     81 characters, givens 1-9
 *   16×16   256 characters, givens 1-9 then A-G (A = 10 … G = 16), boxes 4×4
 *   25×25   625 characters, givens A-Y (A = 1 … Y = 25), boxes 5×5
 *
 * Glossary: a *source line* is a physical line of the downloaded file, numbered from 1; a
 * *format* says how its lines become puzzles ({@link SourceFormat}); *set aside* lines are source
 * lines left out on purpose (a fixed random sample held back), listed by number.
 *
 * What every format shares: `0`, `_` and `-` become `.`; blank lines, `#` comments and a lone
 * count line are dropped; each puzzle is checked (length, symbols, no given repeated in a row,
 * column or box), and a bad one is an error naming the source line and the reason; exact
 * duplicates are dropped after the first, across all the sources of a set.
 */
import { counted } from "../model/whole-number.js";

/** How the lines of one source file become puzzles. */
export type SourceFormat =
  | {
      /** One puzzle per line, possibly a field of a CSV or whitespace-separated record. */
      kind: "lines";
      /** How fields are separated (default: whitespace). */
      separator?: "," | "whitespace";
      /** The field that holds the puzzle, from 0 (default 0). */
      column?: number;
      /** The first record line is a header, dropped. */
      header?: boolean;
      /** Keep only records whose field `column` is a number of at least `min`. */
      minRating?: { column: number; min: number };
    }
  | {
      /** Rows of numbers (1 … size, 0 or nothing for an empty cell) separated by commas or whitespace; every `size` rows are one puzzle. */
      kind: "grid";
    };

/** The grid sizes a dataset can hold, with the symbols of the givens 1 … size. */
export const ALPHABETS: Readonly<Record<number, string>> = {
  9: "123456789",
  16: "123456789ABCDEFG",
  25: "ABCDEFGHIJKLMNOPQRSTUVWXY",
};

/** A source line that is not a puzzle of the expected form. */
export class NormaliseError extends Error {
  override name = "NormaliseError";
}

/** Line numbers from their delta encoding (`"10,45,15"` → 10, 55, 70). */
export function decodeLineNumbers(deltas: string): Set<number> {
  const lines = new Set<number>();
  let line = 0;
  for (const part of deltas.split(",")) {
    if (part.trim() === "") continue;
    const step = Number(part);
    if (!Number.isInteger(step) || step <= 0) throw new NormaliseError(`bad set-aside list: '${part}' is not a positive whole number`);
    line += step;
    lines.add(line);
  }
  return lines;
}

/** Why `puzzle` is not a valid size×size puzzle, or null when it is. */
export function puzzleProblem(puzzle: string, size: number): string | null {
  const alphabet = ALPHABETS[size];
  if (alphabet === undefined) return `unsupported grid size ${size}`;
  if (puzzle.length !== size * size) return `${counted(puzzle.length, "cell")}, expected ${size * size}`;
  const box = Math.round(Math.sqrt(size));
  const seen = new Set<string>();
  for (let cell = 0; cell < puzzle.length; cell++) {
    const symbol = puzzle[cell];
    if (symbol === ".") continue;
    if (!alphabet.includes(symbol)) return `cell ${cell + 1} holds '${symbol}', not one of ${alphabet} or '.'`;
    const row = Math.floor(cell / size);
    const column = cell % size;
    const boxIndex = Math.floor(row / box) * box + Math.floor(column / box);
    for (const unit of [`r${row}`, `c${column}`, `b${boxIndex}`]) {
      const key = `${unit}:${symbol}`;
      if (seen.has(key)) return `cell ${cell + 1}: '${symbol}' repeats in its ${{ r: "row", c: "column", b: "box" }[unit[0]]}`;
      seen.add(key);
    }
  }
  return null;
}

/** Whether a line holds nothing but whitespace and control characters (a DOS end-of-file mark, say). */
function isBlank(line: string): boolean {
  return /^[\s\x00-\x1f\x7f]*$/.test(line);
}

/** One puzzle and the source line it came from. */
interface SourcePuzzle {
  puzzle: string;
  line: number;
}

/** The puzzles of a one-puzzle-per-line source. */
function linePuzzles(lines: readonly string[], format: Extract<SourceFormat, { kind: "lines" }>, size: number, setAside: Set<number>): SourcePuzzle[] {
  const fieldsOf = (line: string) => (format.separator === "," ? line.split(",").map((field) => field.trim()) : line.trim().split(/\s+/));
  const puzzles: SourcePuzzle[] = [];
  let headerDue = format.header === true;
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (setAside.has(line) || isBlank(raw) || raw.trimStart().startsWith("#")) return;
    if (headerDue) {
      headerDue = false;
      return;
    }
    if (/^\s*\d+\s*$/.test(raw) && raw.trim().length < size * size) return; // a count line
    const fields = fieldsOf(raw);
    if (format.minRating) {
      const rating = Number(fields[format.minRating.column]);
      if (!Number.isFinite(rating)) throw new NormaliseError(`line ${line}: field ${format.minRating.column + 1} is not a rating`);
      if (rating < format.minRating.min) return;
    }
    const field = fields[format.column ?? 0];
    if (field === undefined) throw new NormaliseError(`line ${line}: no field ${(format.column ?? 0) + 1}`);
    puzzles.push({ puzzle: field.replace(/[0_-]/g, "."), line });
  });
  return puzzles;
}

/** The puzzles of a source of numeric rows. */
function gridPuzzles(lines: readonly string[], size: number, setAside: Set<number>): SourcePuzzle[] {
  const alphabet = ALPHABETS[size];
  const puzzles: SourcePuzzle[] = [];
  let rows: string[] = [];
  let firstLine = 0;
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (setAside.has(line) || isBlank(raw) || raw.trimStart().startsWith("#")) return;
    const cells = raw.includes(",") ? raw.split(",").map((cell) => cell.trim()) : raw.trim().split(/\s+/);
    if (cells.length !== size) throw new NormaliseError(`line ${line}: ${counted(cells.length, "cell")} in the row, expected ${size}`);
    const row = cells.map((cell) => {
      if (cell === "" || cell === "0" || cell === "." || cell === "_" || cell === "-") return ".";
      const value = Number(cell);
      if (!/^\d+$/.test(cell) || value < 1 || value > size) throw new NormaliseError(`line ${line}: '${cell}' is not a number from 1 to ${size}`);
      return alphabet[value - 1];
    });
    if (rows.length === 0) firstLine = line;
    rows.push(row.join(""));
    if (rows.length === size) {
      puzzles.push({ puzzle: rows.join(""), line: firstLine });
      rows = [];
    }
  });
  if (rows.length > 0) throw new NormaliseError(`line ${firstLine}: a puzzle of ${counted(rows.length, "row")}, expected ${size}`);
  return puzzles;
}

/** One source of a set, as the normaliser needs it. */
export interface NormaliseSource {
  /** The file's text. */
  text: string;
  format: SourceFormat;
  /** Source lines left out (delta-encoded line numbers, {@link decodeLineNumbers}). */
  setAside?: string;
  /** What to call the source in an error (its URL). */
  label: string;
}

/**
 * The dataset file made from `sources`, in order: checked puzzles, duplicates dropped after the
 * first, one per line. Throws a {@link NormaliseError} naming the source, the line and the reason.
 */
export function normalise(sources: readonly NormaliseSource[], size: number): { text: string; count: number } {
  const kept = new Set<string>();
  const out: string[] = [];
  for (const source of sources) {
    const lines = source.text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    const setAside = decodeLineNumbers(source.setAside ?? "");
    let found: SourcePuzzle[];
    try {
      found = source.format.kind === "grid" ? gridPuzzles(lines, size, setAside) : linePuzzles(lines, source.format, size, setAside);
    } catch (error) {
      throw error instanceof NormaliseError ? new NormaliseError(`${source.label} ${error.message}`) : error;
    }
    for (const { puzzle, line } of found) {
      const problem = puzzleProblem(puzzle, size);
      if (problem !== null) throw new NormaliseError(`${source.label} line ${line}: ${problem}`);
      if (kept.has(puzzle)) continue;
      kept.add(puzzle);
      out.push(puzzle);
    }
  }
  return { text: out.length === 0 ? "" : out.join("\n") + "\n", count: out.length };
}
