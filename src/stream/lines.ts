/**
 * Input bytes to lines, for the CLI's records (input.ts) and the library's pools (pool-core.ts). No Node module is imported
 * here (the browser pool uses it too): a file is read through Node's fs reached at run time.
 *
 * Line ends are `\n`, `\r\n` or a lone `\r` (all ASCII, so UTF-8 is never cut inside a character); a UTF-8 byte order
 * mark at the start of the input or of any line is dropped (files joined by `cat` keep each file's). With a
 * {@link LineScan} (the kernel's scan, the one place 9×9 lines are recognised) runs of them go to `sink.fastLines` as
 * packed cells; every other line goes as text to `sink.line`, decoded only then. A line over {@link MAX_LINE_LENGTH}
 * keeps only its start and its length, so one endless line cannot exhaust memory.
 */
import type { Readable } from "node:stream";
import type { LineScan } from "../solvers/solver.js";
import { InputReadError } from "../cli-kit/errors.js";
import { nodeBuiltin } from "../kernel/kernel-source.js";
import { EXCERPT_LENGTH, escapeText } from "../model/excerpt.js";
import { commaGrouped } from "../model/whole-number.js";

/** Node's Buffer, where there is one. */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
/** UTF-8 as Buffer decodes it: a byte order mark inside the text is kept, bad bytes become U+FFFD. */
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const utf8Encoder = new TextEncoder();
const NO_BYTES = NodeBuffer ? NodeBuffer.alloc(0) : new Uint8Array(0);

/** `bytes` as the splitter reads them: a Buffer over the same memory in Node (no copy), else as they are. */
function ownBytes(bytes: Uint8Array): Uint8Array {
  if (NodeBuffer === undefined || NodeBuffer.isBuffer(bytes)) return bytes;
  return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The bytes of `pieces` one after another (a Buffer in Node). */
function joinBytes(pieces: readonly Uint8Array[]): Uint8Array {
  if (NodeBuffer) return NodeBuffer.concat(pieces);
  const joined = new Uint8Array(pieces.reduce((length, piece) => length + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  return joined;
}

/** The UTF-8 text of `bytes` (from {@link ownBytes} or {@link joinBytes}) from `start` to `end`. */
function utf8Text(bytes: Uint8Array, start: number, end: number): string {
  return NodeBuffer ? (bytes as Buffer).toString("utf8", start, end) : utf8Decoder.decode(bytes.subarray(start, end));
}

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
  try {
    yield* source; // (a source left early is returned, and closes its file)
  } catch (error) {
    throw new InputReadError(name, error);
  }
}

/** Bytes a file is read in at a time: each chunk costs a round of the event loop and a read on libuv's thread pool. */
export const FILE_CHUNK_BYTES = 1 << 20;

/**
 * The bytes of the file at `path`, read into two reused buffers in turn (the next is read while this one is taken): the
 * consumer must be done with a chunk by its next request. A fresh buffer per chunk would be garbage until a full collection.
 */
export async function* fileChunks(path: string | number, chunkBytes = FILE_CHUNK_BYTES): AsyncGenerator<Uint8Array> {
  const fs = nodeFs();
  // A number is a descriptor that stays open, read from where it stands.
  const handle = typeof path === "number" ? null : await fs.promises.open(path, "r");
  const fd = handle?.fd ?? (path as number);
  let position = handle === null ? null : 0;
  const buffers = [new Uint8Array(chunkBytes), new Uint8Array(chunkBytes)];
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

/** Node's fs, reached when a file is read (so that no bundler meets a Node import in this module). */
function nodeFs(): typeof import("node:fs") {
  const fs = nodeBuiltin<typeof import("node:fs")>("node:fs");
  if (fs === undefined) throw new Error("sudoku-wasm: reading a file by its path needs Node");
  return fs;
}

/** Starts reading `bytes` of `fd` into `buffer` from `position` (null: where it stands); a failure is thrown where awaited, never unhandled. */
function readAhead(fd: number, buffer: Uint8Array, bytes: number, position: number | null): Promise<{ bytesRead: number }> {
  const reading = new Promise<{ bytesRead: number }>((resolve, reject) =>
    nodeFs().read(fd, buffer, 0, bytes, position, (error, bytesRead) => (error ? reject(error) : resolve({ bytesRead }))),
  );
  reading.catch(() => {});
  return reading;
}

/** Yields the lines of `stream` in order as text, chunk by chunk (judge mode, tests); UTF-16 and UTF-32 input throws (see {@link utf8Chunks}). */
export async function* readLineChunks(stream: AsyncIterable<Buffer | string>): AsyncGenerator<LineChunk> {
  let chunk: LineChunk = { lines: [], bytesRead: 0 };
  const splitter = new LineSplitter({
    line(text, length) {
      if (length !== undefined) (chunk.longLines ??= []).push({ at: chunk.lines.length, length });
      chunk.lines.push(text);
    },
  });
  const take = (): LineChunk => {
    const taken = { ...chunk, bytesRead: splitter.bytesRead };
    chunk = { lines: [], bytesRead: 0 };
    return taken;
  };
  for await (const bytes of utf8Chunks(stream)) {
    splitter.push(bytes);
    if (chunk.lines.length > 0) yield take();
  }
  splitter.end();
  if (chunk.lines.length > 0) yield take();
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

/** The chunks of `stream` as bytes (Buffers in Node); UTF-16 or UTF-32 input (its byte order mark) throws before any of it is read. */
export async function* utf8Chunks(stream: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  let head: Uint8Array | null = NO_BYTES;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? ownBytes(utf8Encoder.encode(chunk)) : ownBytes(chunk);
    if (head === null) {
      yield bytes;
      continue;
    }
    head = joinBytes([head, bytes]);
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

/** The longest line kept whole, in characters (a 25×25 grid on one line is 625; CSV rows carry more columns). */
export const MAX_LINE_LENGTH = 1 << 20;

/** How many characters of an over-long line are kept, to show where it starts. */
export const LONG_LINE_EXCERPT = 64;

const LF = 10;
const CR = 13;
const LINE_END = Uint8Array.of(LF);

/** The room for a line's pieces kept between lines (a longer line's is let go once it ends). */
const CARRY_ROOM_KEPT = 1 << 16;

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
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private pieces: string[] = [];
  private length = 0;

  /** Adds bytes that continue the line (no line end inside). */
  add(bytes: Uint8Array): void {
    this.addText(this.decoder.decode(bytes, { stream: true }));
  }

  private addText(piece: string): void {
    if (piece.length === 0) return;
    if (this.length <= MAX_LINE_LENGTH) {
      this.pieces.push(piece);
      if (this.length + piece.length > MAX_LINE_LENGTH) this.pieces = [this.pieces.join("").slice(0, LONG_LINE_EXCERPT)];
    }
    this.length += piece.length;
  }

  /** Ends the line and gives it to `sink`. */
  end(sink: LineSink): void {
    this.addText(this.decoder.decode());
    const text = this.pieces.join("");
    if (this.length > MAX_LINE_LENGTH) sink.line(text, this.length);
    else sink.line(text);
  }
}

/** Splits the chunks it is given into lines for one {@link LineSink}. */
export class LineSplitter {
  /** The bytes of a line begun in an earlier chunk (empty when none); once kept over a chunk's end, a view of {@link carryRoom}. */
  private carry: Uint8Array = NO_BYTES;
  /** Where {@link keep} gathers a line's pieces (a Buffer in Node): it grows by doubling, so a line over many chunks is copied a few times, not once per chunk. */
  private carryRoom: Uint8Array = NO_BYTES;
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
    let bytes = ownBytes(chunk);
    if (this.atStart) {
      // A byte order mark may itself be cut by a chunk edge: keep the first bytes until there are 3.
      if (this.carry.length + bytes.length < 3 && isByteOrderMarkStart(joinBytes([this.carry, bytes]))) {
        this.carry = joinBytes([this.carry, bytes]);
        return;
      }
      bytes = this.carry.length > 0 ? joinBytes([this.carry, bytes]) : bytes;
      this.carry = NO_BYTES;
      this.atStart = false;
      if (hasByteOrderMark(bytes, 0, bytes.length)) bytes = bytes.subarray(3);
    }
    let start = 0;
    if (this.afterCarriageReturn && bytes.length > 0) {
      this.afterCarriageReturn = false;
      if (bytes[0] === LF) start = 1;
    }
    const end = bytes.length;
    const hasCarriageReturns = bytes.indexOf(CR, start) >= 0;
    if (this.long !== null || this.carry.length > 0) {
      const lineEnd = findLineEnd(bytes, start, end, hasCarriageReturns);
      if (lineEnd < 0) return this.keep(bytes, start, end);
      this.finishCarried(bytes, start, lineEnd);
      start = this.skipLineEnd(bytes, lineEnd, end);
    }
    if (this.scans && start < end) return this.pushScanned(bytes, start, end);
    while (start < end) {
      const lineEnd = findLineEnd(bytes, start, end, hasCarriageReturns);
      if (lineEnd < 0) return this.keep(bytes, start, end);
      this.textLine(bytes, start, lineEnd);
      start = this.skipLineEnd(bytes, lineEnd, end);
    }
  }

  /** Gives the sink the line `bytes[start..end)`, as text; one of over {@link MAX_LINE_LENGTH} characters as its start and length. */
  private textLine(bytes: Uint8Array, start: number, end: number): void {
    if (hasByteOrderMark(bytes, start, end)) start += 3; // a file's mark, met mid-stream where files were joined
    if (end - start <= MAX_LINE_LENGTH) return this.sink.line(utf8Text(bytes, start, end)); // (never more characters than bytes)
    const long = new LongLineText();
    long.add(bytes.subarray(start, end));
    long.end(this.sink);
  }

  /** True when runs of 9×9 lines are found by the scanner and taken by the sink. */
  private get scans(): boolean {
    return this.scanner !== null && this.sink.fastLines !== undefined;
  }

  /** Splits `bytes` from `start` with the scanner: runs of fast lines go to the sink whole. */
  private pushScanned(bytes: Uint8Array, start: number, end: number): void {
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
      this.textLine(bytes, table[3 * i], table[3 * i + 1]);
      i++;
    }
    const next = count === 0 ? start : this.skipLineEnd(bytes, table[3 * count - 2], end);
    if (next < end) this.keep(bytes, next, end);
  }

  /**
   * Scans the complete lines of `bytes` from `start` on the scanner's kernel; the views it gives are valid until the next scan.
   * The room is asked for at each scan: another splitter on the same instance may have grown, and so moved, it.
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
      if (isByteOrderMarkStart(this.carry) && this.carry.length === 3) this.carry = NO_BYTES;
    }
    if (this.long !== null) {
      this.long.end(this.sink);
      this.long = null;
    } else if (this.carry.length > 0) {
      // Read like any other line: with a line end added, so the scanner sees it whole.
      const last = joinBytes([this.carry, LINE_END]);
      this.carry = NO_BYTES;
      this.oneLine(last);
    }
  }

  /** Keeps the bytes of a line that goes on in the next chunk. */
  private keep(bytes: Uint8Array, start: number, end: number): void {
    if (this.long !== null) return this.long.add(bytes.subarray(start, end));
    const kept = this.carry.length;
    const length = kept + end - start;
    const inRoom = this.carry.buffer === this.carryRoom.buffer && this.carry.byteOffset === this.carryRoom.byteOffset;
    if (length > this.carryRoom.length) {
      const size = Math.max(length, 2 * this.carryRoom.length, 1024);
      const room = NodeBuffer ? NodeBuffer.allocUnsafeSlow(size) : new Uint8Array(size); // (not from Node's pool: the room is compared by its buffer)
      room.set(this.carry);
      this.carryRoom = room;
    } else if (!inRoom) this.carryRoom.set(this.carry);
    this.carryRoom.set(bytes.subarray(start, end), kept);
    this.carry = this.carryRoom.subarray(0, length);
    if (this.carry.length > MAX_LINE_LENGTH) {
      // Past the longest line kept: from here on it is read as text (its start and its length).
      this.long = new LongLineText();
      this.long.add(this.carry.subarray(hasByteOrderMark(this.carry, 0, this.carry.length) ? 3 : 0));
      this.carry = NO_BYTES;
    }
  }

  /** Ends the line carried from earlier chunks with `bytes[start..lineEnd)`. */
  private finishCarried(bytes: Uint8Array, start: number, lineEnd: number): void {
    if (this.long !== null) {
      this.long.add(bytes.subarray(start, lineEnd));
      this.long.end(this.sink);
      this.long = null;
      return;
    }
    const line = joinBytes([this.carry, bytes.subarray(start, lineEnd + 1)]);
    this.carry = NO_BYTES;
    if (this.carryRoom.length > CARRY_ROOM_KEPT) this.carryRoom = NO_BYTES; // a long line's room is not held for the rest of the input
    this.oneLine(line);
  }

  /** One whole line with its line end (its last byte), pieced together from chunks: scanned like the rest. */
  private oneLine(line: Uint8Array): void {
    if (line.length - 1 > MAX_LINE_LENGTH) return this.textLine(line, 0, line.length - 1); // its end came before the carry outgrew the limit
    if (this.scans) {
      const { count, table, cells } = this.scan(line, 0);
      if (count === 1 && table[2] >= 0 && this.sink.fastLines!(cells, table[2] * 81, 1) > 0) return;
    }
    this.textLine(line, 0, line.length - 1);
  }

  /** The position after the line end at `lineEnd` (`\r\n` is one; a `\r` at the chunk's end may be followed by the next chunk's `\n`). */
  private skipLineEnd(bytes: Uint8Array, lineEnd: number, end: number): number {
    if (bytes[lineEnd] !== CR) return lineEnd + 1;
    if (lineEnd + 1 < end) return bytes[lineEnd + 1] === LF ? lineEnd + 2 : lineEnd + 1;
    this.afterCarriageReturn = true;
    return end;
  }
}

/** The position of the first line end (`\n` or `\r`) from `start`, or -1. */
function findLineEnd(bytes: Uint8Array, start: number, end: number, hasCarriageReturns: boolean): number {
  if (!hasCarriageReturns) return bytes.indexOf(LF, start);
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte === LF || byte === CR) return i;
  }
  return -1;
}

/** True when `bytes[start..end)` starts with a UTF-8 byte order mark (EF BB BF). */
function hasByteOrderMark(bytes: Uint8Array, start: number, end: number): boolean {
  return end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf;
}

/** UTF-8's byte order mark. */
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/** True when `bytes` are the start of a UTF-8 byte order mark (EF BB BF). */
function isByteOrderMarkStart(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 3).every((byte, i) => byte === BYTE_ORDER_MARK[i]);
}
