/**
 * Format detection: turns one file's lines into records, one format per record. Lines are trimmed;
 * blank lines end a grid in progress and are skipped, as are `#` comment lines. The first reader
 * that claims a line reads it: line (N² cells) → colon → csv (a comma) → grid (a row or separator);
 * sizes may mix. A line nobody claims is one invalid record, except a *header*: a line with a word
 * (two lowercase letters, not both `x` or of the `--alphabet`) directly followed by a grid's first
 * row is a title and skipped (Project Euler 96's `Grid 01`); rows hold no words, so a typo never
 * shifts later grids. `--in FMT` gives every line to that format's reader.
 *
 * The fast path: a line of exactly 81 cell bytes (`1`–`9`, the empty marks, maybe trailing white
 * space; the kernel's scan finds them, src/stream/input.ts) read while no grid is open and no
 * header is held is the record the line reader would make, so it goes to {@link EmitCells} from
 * the bytes without ever becoming a string.
 */
import type { EmitRecord, ReadHints } from "../record.js";
import { type LineSink, type LongLine, MAX_LINE_LENGTH } from "../../stream/input.js";
import { readsNineByNineAsDigits } from "../../model/puzzle.js";
import { shapeOfSide } from "../../model/shape.js";
import { EXCERPT_LENGTH, escapeText } from "../../model/excerpt.js";
import { commaGrouped } from "../../model/whole-number.js";
import { colonFormat } from "./colon.js";
import { csvFormat } from "./csv.js";
import type { InputFormat, InputFormatName } from "./format.js";
import { gridFormat, isSeparatorRow, rowCells } from "./grid.js";
import { lineFormat } from "./line.js";

/** Receives `count` fast-path records of the lines from `line` on: 81 cell bytes each from `start` of `bytes` (read them before returning). */
export type EmitCells = (line: number, bytes: Uint8Array, start: number, count: number) => void;

/** Reads the lines of one file (in order, in pieces) and emits its records; a {@link LineSink} for the file's bytes. */
export class RecordReader implements LineSink {
  private lineNumber = 0;
  /** The format and alphabet let the fast path read 9×9 digit lines (it still waits for an idle reader). */
  private readonly fastFormat: boolean;
  private readonly emitCells: EmitCells | null;
  private readonly formats: readonly InputFormat[];
  private readonly grid: InputFormat;
  private readonly fallback: InputFormat;
  private readonly forced: InputFormat | null;
  private readonly alphabet: string;

  /** `emitCells`, when given, takes the fast-path records; without it every record goes to `emit`. */
  constructor(
    private readonly emit: EmitRecord,
    format: InputFormatName = "auto",
    hints: ReadHints = {},
    emitCells: EmitCells | null = null,
  ) {
    this.emitCells = emitCells;
    this.fastFormat = emitCells !== null && (format === "auto" || format === "line") && readsNineByNineAsDigits(hints.alphabet);
    this.fallback = lineFormat(hints);
    this.alphabet = hints.alphabet ?? "";
    // Detection reads a run of 4×4-looking 16-character lines as 4×4 puzzles unless the alphabet says 16×16.
    this.grid = gridFormat(format === "auto" && hints.alphabet?.length !== 16);
    this.formats = [this.fallback, colonFormat(), csvFormat(), this.grid];
    this.forced = format === "auto" ? null : this.formats.find((f) => f.name === format)!;
  }

  /** A possible header (see the file comment), held until the next line shows whether a grid starts. */
  private held: { line: string; lineNumber: number } | null = null;

  /** Reads the next lines of the file (without their line ends); `longLines` are the ones cut at the maximum length. */
  readLines(lines: readonly string[], longLines?: readonly LongLine[]): void {
    if (longLines === undefined || longLines.length === 0) {
      for (const raw of lines) this.readLine(raw);
      return;
    }
    const long = new Map(longLines.map(({ at, length }) => [at, length]));
    lines.forEach((raw, i) => {
      const length = long.get(i);
      if (length === undefined) this.readLine(raw);
      else this.readLongLine(raw, length);
    });
  }

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
    if (this.held !== null) {
      if (this.startsGrid(line))
        this.held = null; // it was a header
      else this.releaseHeld();
    }
    if (this.forced) {
      if (this.forced === this.grid && this.mayBeHeader(line)) return void (this.held = { line, lineNumber });
      return this.forced.read(line, lineNumber, this.emit);
    }
    if (this.grid.open) {
      if (this.grid.claims(line)) return this.grid.read(line, lineNumber, this.emit);
      this.grid.flush(this.emit);
    }
    const reader = this.formats.find((format) => format.claims(line)) ?? this.fallback;
    if ((reader === this.grid || reader === this.fallback || reader.name === "colon") && this.mayBeHeader(line)) return void (this.held = { line, lineNumber });
    reader.read(line, lineNumber, this.emit);
  }

  /** A line over the maximum length: one invalid record (it ends a grid in progress). */
  private readLongLine(start: string, length: number): void {
    const lineNumber = ++this.lineNumber;
    this.releaseHeld();
    this.grid.flush(this.emit);
    const limit = commaGrouped(MAX_LINE_LENGTH);
    this.emit(
      lineNumber,
      start.trim(),
      `the line is ${commaGrouped(length)} characters long, over the limit of ${limit} for one record (it starts '${escapeText(start.trim().slice(0, EXCERPT_LENGTH))}…')`,
    );
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

  /** Reads a held line as an ordinary line after all: it was no header. */
  private releaseHeld(): void {
    if (this.held === null) return;
    const { line, lineNumber } = this.held;
    this.held = null;
    const reader = this.forced ?? this.formats.find((format) => format.claims(line)) ?? this.fallback;
    reader.read(line, lineNumber, this.emit);
  }
}

/** True when the line starts or ends with white space (most lines do not; trim is skipped). */
function needsTrim(line: string): boolean {
  return line.length > 0 && (line.charCodeAt(0) <= 32 || line.charCodeAt(line.length - 1) <= 32);
}

/** True when `line` has two lowercase letters in a row, not both `x` (an empty mark) and not both symbols of `alphabet`. */
export function hasWord(line: string, alphabet = ""): boolean {
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
