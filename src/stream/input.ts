/**
 * The input side of the streaming core: one input of a run as bytes, chunk by chunk, then as
 * lines (lines.ts), then as records.
 *
 * Chunks: a file through two reused buffers ({@link fileChunks}), a stream as it comes; an input
 * in UTF-16 or UTF-32 is refused before any of it is read (lines.ts utf8Chunks), and a failure
 * while reading is an {@link InputReadError} naming the input ({@link inputChunks}).
 *
 * Records ({@link RecordReader}, the line sink of a run): format detection, one format per record
 * (the formats themselves are in src/formats/input/). Lines are trimmed; blank lines end a grid
 * in progress and are skipped, as are `#` comment lines. The first format that claims a line
 * reads it: line (N² cells) → colon → csv (a comma) → grid (a row or separator); sizes may mix. A
 * line nobody claims is one invalid record, except a *header*: a line with a word (two lowercase
 * letters, not both `x` or of the `--alphabet`) directly followed by a grid's first row is a
 * title and skipped (Project Euler 96's `Grid 01`); rows hold no words, so a typo never shifts
 * later grids. `--in FMT` gives every line to that format's reader. The fast path: a run of 9×9
 * lines the scan found, read while no grid is open and no header is held, are the records the
 * line format would make, so they go to {@link EmitCells} from the bytes without ever becoming
 * strings.
 */
import { read } from "node:fs";
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { InputReadError } from "../cli-kit/errors.js";
import type { EmitRecord } from "../formats/record.js";
import { type Alphabet, readsNineByNineAsDigits } from "../model/puzzle.js";
import { shapeOfSide } from "../model/shape.js";
import { type LineSink, LineSplitter, longLineReason, utf8Chunks } from "./lines.js";
import { colonFormat } from "../formats/input/colon.js";
import { csvFormat } from "../formats/input/csv.js";
import type { InputFormat, InputFormatName } from "../formats/input/format.js";
import { gridFormat, isSeparatorRow, rowCells } from "../formats/input/grid.js";
import { lineFormat } from "../formats/input/line.js";

/** One input of a run. */
export interface SolveInput {
  /** The name records and errors carry (the path, or `<stdin>`). */
  name: string;
  open(): Readable;
  /** A regular file's path, or descriptor (standard input redirected from a file): read through {@link fileChunks}, not `open()`. */
  file?: string | number;
}

/** The bytes of `input`, chunk by chunk (its file's, else `stream`'s); a read failure or UTF-16/32 input is an {@link InputReadError} naming it. */
export function inputChunks(input: SolveInput, stream: Readable | null, chunkBytes?: number): AsyncGenerator<Uint8Array> {
  return named(input.name, utf8Chunks(stream ?? fileChunks(input.file!, chunkBytes)));
}

/** The line chunks of one input; a failure while reading it is an {@link InputReadError} naming it. */
export function namedChunks(name: string, stream: Readable): AsyncGenerator<LineChunk> {
  return named(name, readLineChunks(stream));
}

async function* named<T>(name: string, source: AsyncGenerator<T>): AsyncGenerator<T> {
  const chunks = source[Symbol.asyncIterator]();
  let next: IteratorResult<T>;
  try {
    for (;;) {
      try {
        next = await chunks.next();
      } catch (error) {
        throw new InputReadError(name, error);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await chunks.return(undefined); // a source left early closes its file
  }
}

/** Bytes a file is read in at a time: each chunk costs a round of the event loop and a read on libuv's thread pool. */
export const FILE_CHUNK_BYTES = 1 << 20;

/**
 * The bytes of the file at `path`, read into two reused buffers in turn: the next
 * chunk is read while the consumer takes this one, which must be done with it by the next request
 * (LineSplitter.push copies what it keeps). A file stream's buffer per chunk would be garbage held
 * until a full collection.
 */
export async function* fileChunks(path: string | number, chunkBytes = FILE_CHUNK_BYTES): AsyncGenerator<Uint8Array> {
  // A number is a descriptor that stays open, read from where it stands.
  const handle = typeof path === "number" ? null : await open(path, "r");
  const fd = handle?.fd ?? (path as number);
  let position = handle === null ? null : 0;
  const buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)];
  let reading: Promise<{ bytesRead: number }> | null = null;
  try {
    let which = 0;
    reading = readAhead(fd, buffers[which], chunkBytes, position);
    for (;;) {
      const { bytesRead } = await reading;
      reading = null;
      if (bytesRead === 0) return;
      const chunk = buffers[which].subarray(0, bytesRead);
      which ^= 1;
      if (position !== null) position += bytesRead;
      reading = readAhead(fd, buffers[which], chunkBytes, position); // the next chunk, while this one is taken
      yield chunk;
    }
  } finally {
    await reading?.catch(() => {}); // a read ahead still under way: done before the file closes
    await handle?.close();
  }
}

/** fs.read as a promise: reads from `position`, or from the descriptor's current position for null. */
const readAt = promisify(read);

/** Starts reading the next `bytes` of `fd` into `buffer`; its failure is handled at once (thrown where awaited), never an unhandled rejection. */
function readAhead(fd: number, buffer: Buffer, bytes: number, position: number | null): Promise<{ bytesRead: number }> {
  const reading = readAt(fd, buffer, 0, bytes, position);
  reading.catch(() => {});
  return reading;
}

/** Yields the lines of `stream` in order as text, chunk by chunk (judge mode, tests); UTF-16 and UTF-32 input throws (see {@link utf8Chunks}). */
export async function* readLineChunks(stream: AsyncIterable<Buffer | string>): AsyncGenerator<LineChunk> {
  let lines: string[] = [];
  let longLines: LongLine[] = [];
  const splitter = new LineSplitter({
    line(text, length) {
      if (length !== undefined) longLines.push({ at: lines.length, length });
      lines.push(text);
    },
  });
  const take = (): LineChunk => {
    const chunk: LineChunk = { lines, bytesRead: splitter.bytesRead };
    if (longLines.length > 0) chunk.longLines = longLines;
    lines = [];
    longLines = [];
    return chunk;
  };
  for await (const chunk of utf8Chunks(stream)) {
    splitter.push(chunk);
    if (lines.length > 0) yield take();
  }
  splitter.end();
  if (lines.length > 0) yield take();
}

/** A line over {@link MAX_LINE_LENGTH}: its position in {@link LineChunk.lines} and its full length in characters. */
export interface LongLine {
  at: number;
  length: number;
}

/** The complete lines of one chunk and the bytes read so far. */
export interface LineChunk {
  /** The lines, without line ends; an over-long line holds only its first characters. */
  lines: string[];
  bytesRead: number;
  /** The lines of `lines` that were over {@link MAX_LINE_LENGTH} (absent when none). */
  longLines?: LongLine[];
}

// ── records ─────────────────────────────────────────────────────────────────────────────────

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
    this.grid = gridFormat(format === "auto" && alphabet?.length !== 16);
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
    this.emit(lineNumber, start.trim(), longLineReason(start, length));
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
export function hasWord(line: string, alphabet: string): boolean {
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
