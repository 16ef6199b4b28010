/**
 * Format detection: turns one file's lines into records, one format per record.
 *
 * Each line is trimmed; blank lines end a grid in progress and are skipped, as are lines
 * starting with `#`. Otherwise the first reader that claims the line reads it, in the order
 * line (N² cells) → colon (`puzzle:count`; see colon.ts) → csv (has a comma) → grid (a row or separator).
 * Grids and lines of every size (4×4, 9×9, 16×16, 25×25) may mix in one file.
 * A grid in progress keeps the lines it claims. A line nobody claims reads as one invalid
 * one-line record, so every non-blank, non-comment line ends up in exactly one record.
 * `--in FMT` skips detection and gives every line to that format's reader.
 */
import type { EmitRecord, ReadHints } from "../record.js";
import { colonFormat } from "./colon.js";
import { csvFormat } from "./csv.js";
import type { InputFormat, InputFormatName } from "./format.js";
import { gridFormat } from "./grid.js";
import { lineFormat } from "./line.js";

/** Reads the lines of one file (in order, in pieces) and emits its records. */
export class RecordReader {
  private lineNumber = 0;
  private readonly formats: readonly InputFormat[];
  private readonly grid: InputFormat;
  private readonly fallback: InputFormat;
  private readonly forced: InputFormat | null;

  constructor(
    private readonly emit: EmitRecord,
    format: InputFormatName = "auto",
    hints: ReadHints = {},
  ) {
    this.fallback = lineFormat(hints);
    // Detection reads a run of 4×4-looking 16-character lines as 4×4 puzzles unless the alphabet says 16×16.
    this.grid = gridFormat(format === "auto" && hints.alphabet?.length !== 16);
    this.formats = [this.fallback, colonFormat(), csvFormat(), this.grid];
    this.forced = format === "auto" ? null : this.formats.find((f) => f.name === format)!;
  }

  /** Reads the next lines of the file (without their line ends). */
  readLines(lines: readonly string[]): void {
    for (const raw of lines) this.readLine(raw);
  }

  /** The end of the file: finishes a grid in progress. */
  end(): void {
    this.grid.flush(this.emit);
  }

  private readLine(raw: string): void {
    const lineNumber = ++this.lineNumber;
    const line = needsTrim(raw) ? raw.trim() : raw;
    if (line.length === 0) return this.grid.flush(this.emit);
    if (line.charCodeAt(0) === 35 /* # */) return;
    if (this.forced) return this.forced.read(line, lineNumber, this.emit);
    if (this.grid.open) {
      if (this.grid.claims(line)) return this.grid.read(line, lineNumber, this.emit);
      this.grid.flush(this.emit);
    }
    const reader = this.formats.find((format) => format.claims(line)) ?? this.fallback;
    reader.read(line, lineNumber, this.emit);
  }
}

/** True when the line starts or ends with white space (most lines do not; trim is skipped). */
function needsTrim(line: string): boolean {
  return line.length > 0 && (line.charCodeAt(0) <= 32 || line.charCodeAt(line.length - 1) <= 32);
}
