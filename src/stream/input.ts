/**
 * The records of the streaming core, from the lines of lines.ts ({@link RecordReader}): format detection, one format per
 * record (the formats are in src/formats/input/). Lines are trimmed; blank lines end a grid in progress and are skipped, as
 * are `#` comment lines. The first format that claims a line reads it: line (N² cells) → colon → csv (a comma) → grid (a row
 * or separator); sizes may mix. A line nobody claims is one invalid record, except a *header*: a line with a word
 * ({@link hasWord}) directly followed by a grid's first row, or by its top border (`+---+---+---+`), is a title and skipped
 * (Project Euler 96's `Grid 01`). Rows hold no words, so a typo never shifts later grids; a line that holds a whole puzzle (a
 * note after it or not) is never a title; a line with a word ends a run of 4×4 lines (grid.ts) as it ends a 9×9 line.
 * `--in FMT` gives every line to that format's reader. The fast path: a run of 9×9 lines the scan found, read while no grid
 * is open and no header is held, are the records the line format would make, so they go to {@link EmitCells} from the
 * bytes without ever becoming strings.
 */
import type { EmitRecord } from "../formats/record.js";
import { type Alphabet, readsNineByNineAsDigits } from "../model/puzzle.js";
import { shapeOfSide } from "../model/shape.js";
import { type LineSink, longLineReason } from "./lines.js";
import { colonFormat, holdsColonPuzzle } from "../formats/input/colon.js";
import { csvFormat } from "../formats/input/csv.js";
import type { InputFormat, InputFormatName } from "../formats/input/format.js";
import { type GridFormat, gridFormat, holdsWholePuzzle, isLowercaseRow, isSeparatorRow, rowCells, wordLineMessage } from "../formats/input/grid.js";
import { lineFormat } from "../formats/input/line.js";

/** Receives `count` fast-path records of the lines from `line` on: 81 cell bytes each from `start` of `bytes` (read them before returning). */
export type EmitCells = (line: number, bytes: Uint8Array, start: number, count: number) => void;

/** Reads the lines of one file (in order, in pieces) and emits its records; a {@link LineSink} for the file's bytes. */
export class RecordReader implements LineSink {
  private lineNumber = 0;
  /** The format and alphabet let the fast path read 9×9 digit lines (it still waits for an idle reader). */
  private readonly fastFormat: boolean;
  private readonly emitCells: EmitCells | null;
  private readonly formats: readonly InputFormat[];
  private readonly grid: GridFormat;
  private readonly fallback: InputFormat;
  private readonly forced: InputFormat | null;
  private readonly alphabet: string;

  /** `alphabet`: the `--alphabet`, if given. `emitCells`, when given, takes the fast-path records; without it every record goes to `emit`. */
  constructor(
    private readonly emit: EmitRecord,
    format: InputFormatName = "auto",
    alphabet?: Alphabet,
    emitCells: EmitCells | null = null,
  ) {
    this.emitCells = emitCells;
    this.fastFormat = emitCells !== null && (format === "auto" || format === "line") && readsNineByNineAsDigits(alphabet);
    this.fallback = lineFormat(alphabet);
    this.alphabet = alphabet ?? "";
    // Detection reads a run of 4×4-looking 16-character lines as 4×4 puzzles unless the alphabet says 16×16.
    this.grid = gridFormat(format === "auto" && alphabet?.length !== 16, alphabet);
    this.formats = [this.fallback, colonFormat(), csvFormat(), this.grid];
    this.forced = format === "auto" ? null : this.formats.find((f) => f.name === format)!;
  }

  /** A possible header (see the file comment), held until the next line shows whether a grid starts. */
  private held: { line: string; lineNumber: number } | null = null;

  /** {@link LineSink.line}: one line of text (`length` set for a line over the maximum, holding its start). */
  line(text: string, length?: number): void {
    if (length === undefined) this.readLine(text);
    else this.readLongLine(text, length);
  }

  /** {@link LineSink.fastLines}: takes a run of fast lines (already checked) when the reader is idle. */
  fastLines(cells: Uint8Array, start: number, count: number): number {
    if (!this.fastFormat || this.held !== null || this.grid.open) return 0;
    this.emitCells!(this.lineNumber + 1, cells, start, count);
    this.lineNumber += count;
    return count;
  }

  /** The end of the file: finishes a grid in progress. */
  end(): void {
    this.releaseHeld();
    this.grid.flush(this.emit);
  }

  private readLine(raw: string): void {
    const lineNumber = ++this.lineNumber;
    const line = needsTrim(raw) ? raw.trim() : raw;
    if (line.length === 0) {
      this.releaseHeld();
      return this.grid.flush(this.emit);
    }
    if (line.charCodeAt(0) === 35 /* # */) return;
    // A grid's top border (`+---+---+---+`) between a title and the grid's first row: skipped as any band separator, the title still held
    if (this.held !== null && isSeparatorRow(line)) return;
    if (this.held !== null) {
      // A grid's first row holds no word: a line with one after a held line is no row (detected, it is a record or a title; with
      // --in grid, a title: it is held in turn), so the held line was no header, and with --in grid its grid ends with it, as it
      // does before a whole puzzle's line.
      if (this.startsGrid(line) && !hasWord(line, this.alphabet))
        this.held = null; // it was a header
      else this.releaseHeld(this.forced === this.grid && (hasWord(line, this.alphabet) || holdsWholePuzzle(line)));
    }
    if (this.forced) {
      if (this.forced === this.grid && this.mayBeHeader(line)) return void (this.held = { line, lineNumber });
      return this.forced.read(line, lineNumber, this.emit);
    }
    if (this.grid.open) {
      if (this.grid.claims(line) && !this.endsLineRun(line)) return this.grid.read(line, lineNumber, this.emit);
      this.grid.flush(this.emit);
    }
    const claimer = this.formats.find((format) => format.claims(line));
    if (this.mayBeTitle(claimer, line) && this.mayBeHeader(line)) return void (this.held = { line, lineNumber });
    (claimer ?? this.fallback).read(line, lineNumber, this.emit);
  }

  /**
   * Whether `line` could be a title, by the format that claims it: a grid's row, a line no format
   * claims, or a colon line (`2024-01-05: daily puzzle`). Not a line that holds a puzzle as written
   * (N² cells, then anything; a colon line's puzzle before its colon) nor a CSV row.
   */
  private mayBeTitle(claimer: InputFormat | undefined, line: string): boolean {
    if (claimer === undefined || claimer === this.grid) return true;
    return claimer.name === "colon" && !holdsColonPuzzle(line);
  }

  /** A line over the maximum length: one invalid record (it ends a grid in progress). */
  private readLongLine(start: string, length: number): void {
    const lineNumber = ++this.lineNumber;
    this.releaseHeld();
    this.grid.flush(this.emit);
    this.emit(lineNumber, start.trim(), longLineReason(start, length));
  }

  /**
   * True for a line with a word after a run of 4×4 lines (16-cell rows the grid reader would read as such): no row, so the run
   * ends before it, and the line may be the title of a grid after it, as after a 9×9 line.
   */
  private endsLineRun(line: string): boolean {
    return this.grid.lineRun && hasWord(line, this.alphabet);
  }

  /** True for a line that could be a header: no grid is open and the line has a word in it. */
  private mayBeHeader(line: string): boolean {
    return !this.grid.open && hasWord(line, this.alphabet);
  }

  /** True when `line` would start a grid: a row of a grid width, while no grid is open. */
  private startsGrid(line: string): boolean {
    if (this.grid.open || isSeparatorRow(line)) return false;
    const claimed = this.forced ?? this.formats.find((format) => format.claims(line));
    return claimed === this.grid && shapeOfSide(rowCells(line).length) !== undefined;
  }

  /**
   * Reads a held line as an ordinary line after all. Detected, it is a record of its own (as a grid's first row it would
   * shift the rows after it); with `--in grid` it is a row, as every line is, unless the grid ends with it (`alone`: a
   * blank line, the end or a line of a whole puzzle follows). A grid of this one line keeps the line as written in its invalid record, spaces and all.
   */
  private releaseHeld(alone = true): void {
    if (this.held === null) return;
    const { line, lineNumber } = this.held;
    this.held = null;
    const reader = this.forced ?? this.formats.find((format) => format.claims(line)) ?? this.fallback;
    if (reader !== this.grid || (this.forced !== null && !alone)) return reader.read(line, lineNumber, this.emit);
    // A line with a word is no row of any grid, whatever its width (as a grid of one row, 16 cells were a 4×4 puzzle's line when
    // detected, and 4, 16 or 25 cells a 4×4, 16×16 or 25×25 grid cut short): one record of its own as written, saying so
    if (!holdsWholePuzzle(line)) return this.emit(lineNumber, line, wordLineMessage(line));
    const asWritten: EmitRecord = (at, text, error) => this.emit(at, error === null ? text : line, error);
    this.grid.read(line, lineNumber, asWritten);
    this.grid.flush(asWritten);
  }
}

/** True when the line starts or ends with white space (most lines do not; trim is skipped). */
function needsTrim(line: string): boolean {
  return line.length > 0 && (line.charCodeAt(0) <= 32 || line.charCodeAt(line.length - 1) <= 32);
}

/**
 * True when `line` has two lowercase letters in a row, not both `x` (an empty mark) and not both symbols of `alphabet`. Without
 * an alphabet, a 16×16 or 25×25 row written in lowercase letters ({@link isLowercaseRow}) has none: it is a row, not a title.
 */
export function hasWord(line: string, alphabet: string): boolean {
  if (alphabet === "" && isLowercaseRow(line)) return false;
  for (let i = 1; i < line.length; i++) {
    const a = line.charCodeAt(i - 1);
    const b = line.charCodeAt(i);
    if (a < 97 || a > 122 || b < 97 || b > 122) continue;
    if (a === 120 && b === 120) continue;
    if (alphabet.includes(line[i - 1]) && alphabet.includes(line[i])) continue;
    return true;
  }
  return false;
}
