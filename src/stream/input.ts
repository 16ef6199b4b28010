/**
 * The input side of the streaming core: one input of a run as bytes, chunk by chunk, then as
 * lines, then as records.
 *
 * Chunks: a file through two reused buffers ({@link fileChunks}), a stream as it comes; an input
 * in UTF-16 or UTF-32 is refused before any of it is read ({@link utf8Chunks}), and a failure
 * while reading is an {@link InputReadError} naming the input ({@link inputChunks}).
 *
 * Lines ({@link LineSplitter}): a line is decoded only when its reader needs a string. Line ends
 * are `\n`, `\r\n` or a lone `\r` (all ASCII, so UTF-8 is never cut inside a character); the last
 * line needs none; a leading UTF-8 byte order mark is dropped. With a {@link LineScan} (the
 * kernel's scan, the one place 9×9 lines are recognised) runs of them go to `sink.fastLines` as
 * packed cells; every other line, and every line without a scanner, is given as text to
 * `sink.line`. Each byte is scanned once; a line over {@link MAX_LINE_LENGTH} keeps only its
 * first {@link LONG_LINE_EXCERPT} characters and its length, so one endless line cannot exhaust
 * memory.
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
import { StringDecoder } from "node:string_decoder";
import { InputReadError } from "../cli-kit/errors.js";
import type { LineScan } from "../solvers/solver.js";
import type { EmitRecord } from "../formats/record.js";
import { type Alphabet, readsNineByNineAsDigits } from "../model/puzzle.js";
import { shapeOfSide } from "../model/shape.js";
import { EXCERPT_LENGTH, escapeText } from "../model/excerpt.js";
import { commaGrouped } from "../model/whole-number.js";
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

/** Byte order marks of other encodings, longest first: read as UTF-8, such a file would give one garbled record per line. */
const FOREIGN_BYTE_ORDER_MARKS: readonly { name: string; bytes: readonly number[] }[] = [
  { name: "UTF-32 LE", bytes: [0xff, 0xfe, 0x00, 0x00] },
  { name: "UTF-32 BE", bytes: [0x00, 0x00, 0xfe, 0xff] },
  { name: "UTF-16 LE", bytes: [0xff, 0xfe] },
  { name: "UTF-16 BE", bytes: [0xfe, 0xff] },
];

/** Throws, naming the encoding, when `head` (the first bytes of an input) starts with a UTF-16 or UTF-32 byte order mark. */
export function checkUtf8Start(head: Uint8Array): void {
  const mark = FOREIGN_BYTE_ORDER_MARKS.find(({ bytes }) => head.length >= bytes.length && bytes.every((byte, i) => head[i] === byte));
  if (mark) {
    const hex = mark.bytes.map((byte) => byte.toString(16).toUpperCase().padStart(2, "0")).join(" ");
    throw new Error(
      `the input is ${mark.name} text (it starts with the byte order mark ${hex}); sudoku-wasm reads UTF-8: convert it first, e.g. iconv -f ${mark.name.replace(" ", "")} -t UTF-8`,
    );
  }
}

/** The chunks of `stream` as bytes; UTF-16 or UTF-32 input (its byte order mark) throws before any of it is read. */
export async function* utf8Chunks(stream: AsyncIterable<Uint8Array | string>): AsyncGenerator<Buffer> {
  let head: Buffer | null = Buffer.alloc(0);
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : asBuffer(chunk);
    if (head === null) {
      yield bytes;
      continue;
    }
    head = Buffer.concat([head, bytes]);
    if (head.length < 4) continue;
    checkUtf8Start(head);
    yield head;
    head = null;
  }
  if (head !== null && head.length > 0) {
    checkUtf8Start(head);
    yield head;
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

/** The longest line kept whole, in characters (a 25×25 grid on one line is 625; CSV rows carry more columns). */
export const MAX_LINE_LENGTH = 1 << 20;

/** How many characters of an over-long line are kept, to show where it starts. */
export const LONG_LINE_EXCERPT = 64;

const LF = 10;
const CR = 13;

/** The largest piece of a chunk given to a {@link LineScan} at once. */
const SCAN_PIECE = 1 << 20;

/** Where the lines of a {@link LineSplitter} go, in order. */
export interface LineSink {
  /** The next line, without its line end; `length` is set (its length in characters) when it was over {@link MAX_LINE_LENGTH} and `text` holds only its start. */
  line(text: string, length?: number): void;
  /** Offered a run of `count` fast lines' 81 cell bytes each from `start`: how many it took (0: the first comes through {@link line}). */
  fastLines?(cells: Uint8Array, start: number, count: number): number;
}

/** Why a line over {@link MAX_LINE_LENGTH} is no record: its length, the limit, and its `start` (as a {@link LineSink} was given it). */
export function longLineReason(start: string, length: number): string {
  const limit = commaGrouped(MAX_LINE_LENGTH);
  return `the line is ${commaGrouped(length)} characters long, over the limit of ${limit} for one record (it starts '${escapeText(start.trim().slice(0, EXCERPT_LENGTH))}…')`;
}

/** Collects a line too long to keep in bytes, as text: its first characters and its length. */
class LongLineText {
  private readonly decoder = new StringDecoder("utf8");
  private pieces: string[] = [];
  private length = 0;

  /** Adds bytes that continue the line (no line end inside). */
  add(bytes: Uint8Array): void {
    const piece = this.decoder.write(bytes as Buffer);
    if (piece.length === 0) return;
    if (this.length <= MAX_LINE_LENGTH) {
      this.pieces.push(piece);
      if (this.length + piece.length > MAX_LINE_LENGTH) this.pieces = [this.pieces.join("").slice(0, LONG_LINE_EXCERPT)];
    }
    this.length += piece.length;
  }

  /** Ends the line and gives it to `sink`. */
  end(sink: LineSink): void {
    this.add(Buffer.from(this.decoder.end()));
    const text = this.pieces.join("");
    if (this.length > MAX_LINE_LENGTH) sink.line(text, this.length);
    else sink.line(text);
  }
}

/** Bytes as a Node Buffer (no copy), for its UTF-8 decoding. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Splits the chunks it is given into lines for one {@link LineSink}. */
export class LineSplitter {
  /** The bytes of a line begun in an earlier chunk (empty when none). */
  private carry: Buffer = Buffer.alloc(0);
  /** The line in progress when it outgrew the bytes kept (see {@link MAX_LINE_LENGTH}). */
  private long: LongLineText | null = null;
  private atStart = true;
  /** The previous chunk ended with `\r`: a `\n` starting this one belongs to that line end. */
  private afterCarriageReturn = false;
  /** Bytes given so far. */
  bytesRead = 0;

  /** With a `scanner`, the lines of each chunk are found by its kernel (the sink takes runs of fast lines, {@link LineSink.fastLines}). */
  constructor(
    private readonly sink: LineSink,
    private readonly scanner: LineScan | null = null,
  ) {}

  /** Splits the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    if (this.scanner !== null && chunk.length > SCAN_PIECE) {
      for (let at = 0; at < chunk.length; at += SCAN_PIECE) this.push(chunk.subarray(at, at + SCAN_PIECE));
      return;
    }
    this.bytesRead += chunk.length;
    let bytes = asBuffer(chunk);
    if (this.atStart) {
      // A byte order mark may itself be cut by a chunk edge: keep the first bytes until there are 3.
      if (this.carry.length + bytes.length < 3 && isByteOrderMarkStart(Buffer.concat([this.carry, bytes]))) {
        this.carry = Buffer.concat([this.carry, bytes]);
        return;
      }
      bytes = this.carry.length > 0 ? Buffer.concat([this.carry, bytes]) : bytes;
      this.carry = Buffer.alloc(0);
      this.atStart = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    let start = 0;
    if (this.afterCarriageReturn && bytes.length > 0) {
      this.afterCarriageReturn = false;
      if (bytes[0] === LF) start = 1;
    }
    const end = bytes.length;
    const hasCarriageReturns = bytes.indexOf(CR, start) >= 0;
    if (this.long !== null || this.carry.length > 0) {
      // The line begun earlier: finish it first, on its own.
      const lineEnd = findLineEnd(bytes, start, end, hasCarriageReturns);
      if (lineEnd < 0) return this.keep(bytes, start, end);
      this.finishCarried(bytes, start, lineEnd);
      start = this.skipLineEnd(bytes, lineEnd, end);
    }
    const sink = this.sink;
    if (this.scans && start < end) return this.pushScanned(bytes, start, end);
    while (start < end) {
      const lineEnd = findLineEnd(bytes, start, end, hasCarriageReturns);
      if (lineEnd < 0) return this.keep(bytes, start, end);
      sink.line(bytes.toString("utf8", start, lineEnd));
      start = this.skipLineEnd(bytes, lineEnd, end);
    }
  }

  /** True when runs of 9×9 lines are found by the scanner and taken by the sink. */
  private get scans(): boolean {
    return this.scanner !== null && this.sink.fastLines !== undefined;
  }

  /** Splits `bytes` from `start` with the scanner: runs of fast lines go to the sink whole. */
  private pushScanned(bytes: Buffer, start: number, end: number): void {
    const sink = this.sink;
    const { count, table, cells } = this.scan(bytes, start);
    for (let i = 0; i < count; ) {
      const fast = table[3 * i + 2];
      if (fast >= 0) {
        let run = 1;
        while (i + run < count && table[3 * (i + run) + 2] >= 0) run++;
        const taken = sink.fastLines!(cells, fast * 81, run);
        if (taken > 0) {
          i += taken;
          continue;
        }
      }
      sink.line(bytes.toString("utf8", table[3 * i], table[3 * i + 1]));
      i++;
    }
    const next = count === 0 ? start : this.skipLineEnd(bytes, table[3 * count - 2], end);
    if (next < end) this.keep(bytes, next, end);
  }

  /**
   * Scans the complete lines of `bytes` from `start` on the scanner's kernel: copies them into its
   * scan room and gives views of what it found, valid until the next scan. The room is asked for
   * at each scan (one call when the kernel has it already): another splitter on the same instance
   * (a pool's streams side by side) may have grown it since, which moves it. The kernel never
   * frees a smaller room, so the first chunks (the largest) set it.
   */
  private scan(bytes: Uint8Array, start: number): { count: number; table: Int32Array; cells: Uint8Array } {
    const kernel = this.scanner!.kernel;
    const room = Math.max(bytes.length, 1 << 16);
    const base = kernel.reserveScan(room);
    if (base === 0) throw new RangeError(`the kernel could not reserve a scan of ${room} bytes (at most 2^24)`);
    const buffer = kernel.memory.buffer;
    new Uint8Array(buffer, base, bytes.length).set(bytes);
    const count = kernel.scanLines(base, start, bytes.length);
    if (count < 0) throw new RangeError("scanLines: the kernel refused the chunk");
    return { count, table: new Int32Array(buffer, kernel.scanTable(), count * 3), cells: new Uint8Array(buffer, kernel.scanCells(), room) };
  }

  /** The end of the stream: the last line, if it had no line end. */
  end(): void {
    if (this.atStart) {
      this.atStart = false;
      if (isByteOrderMarkStart(this.carry) && this.carry.length === 3) this.carry = Buffer.alloc(0);
    }
    if (this.long !== null) {
      this.long.end(this.sink);
      this.long = null;
    } else if (this.carry.length > 0) {
      // Read like any other line: with a line end added, so the scanner sees it whole.
      const last = Buffer.concat([this.carry, Buffer.of(LF)]);
      this.carry = Buffer.alloc(0);
      this.oneLine(last);
    }
  }

  /** Keeps the bytes of a line that goes on in the next chunk. */
  private keep(bytes: Buffer, start: number, end: number): void {
    if (this.long !== null) return this.long.add(bytes.subarray(start, end));
    this.carry = Buffer.concat([this.carry, bytes.subarray(start, end)]);
    if (this.carry.length > MAX_LINE_LENGTH) {
      // Past the longest line kept: from here on it is read as text (its start and its length).
      this.long = new LongLineText();
      this.long.add(this.carry);
      this.carry = Buffer.alloc(0);
    }
  }

  /** Ends the line carried from earlier chunks with `bytes[start..lineEnd)`. */
  private finishCarried(bytes: Buffer, start: number, lineEnd: number): void {
    if (this.long !== null) {
      this.long.add(bytes.subarray(start, lineEnd));
      this.long.end(this.sink);
      this.long = null;
      return;
    }
    const line = Buffer.concat([this.carry, bytes.subarray(start, lineEnd + 1)]);
    this.carry = Buffer.alloc(0);
    this.oneLine(line);
  }

  /** One whole line with its line end (its last byte), pieced together from chunks: scanned like the rest. */
  private oneLine(line: Buffer): void {
    if (this.scans) {
      const { count, table, cells } = this.scan(line, 0);
      if (count === 1 && table[2] >= 0 && this.sink.fastLines!(cells, table[2] * 81, 1) > 0) return;
    }
    this.sink.line(line.toString("utf8", 0, line.length - 1));
  }

  /** The position after the line end at `lineEnd` (`\r\n` is one; a `\r` at the chunk's end may be followed by the next chunk's `\n`). */
  private skipLineEnd(bytes: Buffer, lineEnd: number, end: number): number {
    if (bytes[lineEnd] !== CR) return lineEnd + 1;
    if (lineEnd + 1 < end) return bytes[lineEnd + 1] === LF ? lineEnd + 2 : lineEnd + 1;
    this.afterCarriageReturn = true;
    return end;
  }
}

/** The position of the first line end (`\n` or `\r`) from `start`, or -1. */
function findLineEnd(bytes: Buffer, start: number, end: number, hasCarriageReturns: boolean): number {
  if (!hasCarriageReturns) return bytes.indexOf(LF, start);
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte === LF || byte === CR) return i;
  }
  return -1;
}

/** True when `bytes` are the start of a UTF-8 byte order mark (EF BB BF). */
function isByteOrderMarkStart(bytes: Uint8Array): boolean {
  const mark = [0xef, 0xbb, 0xbf];
  for (let i = 0; i < bytes.length && i < 3; i++) if (bytes[i] !== mark[i]) return false;
  return true;
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
