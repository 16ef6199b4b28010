/**
 * Splits a byte stream into lines, in bytes: a chunk at a time, a line decoded to a
 * string only when its reader needs one. Line ends are `\n`, `\r\n` or a lone `\r` (old Mac
 * files); every line end is ASCII, so UTF-8 is never cut inside a character and each line is
 * decoded whole. The last line needs no line end. A UTF-8 byte order mark (EF BB BF) at the
 * start of the stream is dropped, so the first line reads like any other.
 *
 *   chunk ─► LineSplitter ─┬─ with a ChunkScanner (the kernel's scanLines, 16 bytes a step):
 *                          │    sink.fastLines(cells, start, n)  a run of 9×9 lines, their cells packed
 *                          │    sink.line(text)                  every other line
 *                          └─ without one, per line: sink.fast(bytes, start) takes it from the
 *                               bytes, or (-1) sink.line(text); so do lines carried across chunks
 *
 * Reading is linear in the input: each byte is scanned once, and a line begun in one chunk is
 * carried into the next. A line over {@link MAX_LINE_LENGTH} characters is not kept at all:
 * only its first {@link LONG_LINE_EXCERPT} characters and its length are, and the sink is told
 * its length (the reader makes it one invalid record), so one endless line cannot exhaust memory.
 */
import { read } from "node:fs";
import { open } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { promisify } from "node:util";

/** The longest line kept whole, in characters (a 25×25 grid on one line is 625; CSV rows carry more columns). */
export const MAX_LINE_LENGTH = 1 << 20;

/** How many characters of an over-long line are kept, to show where it starts. */
export const LONG_LINE_EXCERPT = 64;

const LF = 10;
const CR = 13;

/** Finds the lines of a chunk (the 9×9 kernel's scan: src/kernel/wasm.ts LineScanner). */
export interface ChunkScanner {
  scan(bytes: Uint8Array, start: number): { count: number; table: Int32Array; cells: Uint8Array };
}

/** The largest piece of a chunk given to a {@link ChunkScanner} at once. */
const SCAN_PIECE = 1 << 20;

/** Where the lines of a {@link LineSplitter} go, in order. */
export interface LineSink {
  /**
   * Offered each line that starts in a chunk (the bytes from `start` to `end`, the chunk's end,
   * hold the line and what follows): returns the position of the line's end (a `\n` or `\r`
   * byte) when it has read the line from the bytes, or -1 to get it through {@link line}.
   * A line that does not end before `end` must be left (-1): it continues in the next chunk.
   */
  fast(bytes: Uint8Array, start: number, end: number): number;
  /** The next line, without its line end; `length` is set (its length in characters) when it was over {@link MAX_LINE_LENGTH} and `text` holds only its start. */
  line(text: string, length?: number): void;
  /**
   * Offered a run of `count` lines a scanner found to be fast lines, their 81 cell bytes one
   * after another from `start` of `cells`: returns how many it took (all of them, or 0 to get
   * the first through {@link line}, then the rest offered again).
   */
  fastLines?(cells: Uint8Array, start: number, count: number): number;
}

const noFast = (): number => -1;

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
function asBuffer(bytes: Uint8Array): Buffer {
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

  /** With a `scanner`, the lines of each chunk are found by it (the sink takes runs of fast lines, {@link LineSink.fastLines}). */
  constructor(
    private readonly sink: LineSink,
    private readonly scanner: ChunkScanner | null = null,
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
    if (this.scanner !== null && sink.fastLines !== undefined && start < end) return this.pushScanned(bytes, start, end);
    const fast = sink.fast === noFast ? null : sink.fast.bind(sink);
    while (start < end) {
      let lineEnd = fast === null ? -1 : fast(bytes, start, end);
      if (lineEnd < 0) {
        lineEnd = findLineEnd(bytes, start, end, hasCarriageReturns);
        if (lineEnd < 0) return this.keep(bytes, start, end);
        sink.line(bytes.toString("utf8", start, lineEnd));
      }
      start = this.skipLineEnd(bytes, lineEnd, end);
    }
  }

  /** Splits `bytes` from `start` with the scanner: runs of fast lines go to the sink whole. */
  private pushScanned(bytes: Buffer, start: number, end: number): void {
    const sink = this.sink;
    const { count, table, cells } = this.scanner!.scan(bytes, start);
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
      // Read like any other line: with a line end added, so the sink's fast path sees it whole.
      const last = Buffer.concat([this.carry, Buffer.of(LF)]);
      this.carry = Buffer.alloc(0);
      if (this.sink.fast(last, 0, last.length) < 0) this.sink.line(last.toString("utf8", 0, last.length - 1));
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
    if (this.sink.fast(line, 0, line.length) < 0) this.sink.line(line.toString("utf8", 0, line.length - 1));
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

/**
 * Byte order marks of the encodings read as something else, longest first: a file that starts
 * with one is not UTF-8, and reading it as UTF-8 would give one garbled record per line.
 */
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

/**
 * The chunks of `stream` as bytes; an input that starts with a UTF-16 or UTF-32 byte order mark
 * throws, naming the encoding, before any of it is read (the first 4 bytes are held for that).
 */
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

/**
 * Bytes a file is read in at a time. Each chunk costs a round of the event loop and a read on
 * libuv's thread pool, whose wake-ups cost tens of µs on a VM. A `--threads 0` run of 3M lines
 * with the kernel's call skipped (the host's work alone, start-up included) took 0.88–1.01 s
 * with 64 KiB chunks (800 lines), a fifth of it waiting for reads, and 0.46–0.48 s with 1 MiB
 * (AMD EPYC, 2 cores).
 */
export const FILE_CHUNK_BYTES = 1 << 20;

/**
 * The bytes of the file at `path` (from offset `from`, when given), chunk by chunk, read into
 * two buffers in turn: while the consumer takes one chunk, the next is read into the other
 * buffer, so the run never waits for the disk (or the page cache) between chunks. A chunk's buffer is read into again once the
 * consumer asks for the next chunk, so it must be done with a chunk by then (as
 * {@link LineSplitter.push} is: it copies what it keeps). A file stream would allocate a
 * buffer per chunk, and those are garbage the run holds until a full collection (see pool/batch.ts).
 */
export async function* fileChunks(path: string | number, chunkBytes = FILE_CHUNK_BYTES, from?: number): AsyncGenerator<Uint8Array> {
  // A number is a file descriptor that stays open (standard input redirected from a file), read
  // from where it stands unless `from` is given.
  const handle = typeof path === "number" ? null : await open(path, "r");
  const fd = handle?.fd ?? (path as number);
  let position = from ?? (handle === null ? null : 0);
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

/**
 * Starts reading the next `bytes` of `fd` (from `position`, or where it stands) into `buffer`.
 * Its failure is handled at once (and thrown again where the read is awaited): while the
 * consumer takes the chunk before it, a failed read must not end the process as an unhandled
 * rejection.
 */
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
    fast: noFast,
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

/** `text` without a leading byte order mark (U+FEFF), which editors on Windows put before UTF-8 text. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** All lines of a whole text (for the judge formats, which read all input first); a leading byte order mark is dropped; `\n`, `\r\n` and `\r` end lines. */
export function splitLines(text: string): string[] {
  const own = withoutByteOrderMark(text);
  const lines = own.includes("\r") ? own.split(/\r\n|\r|\n/) : own.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
