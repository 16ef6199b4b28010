/**
 * Reading one input of a run, as bytes, chunk by chunk: a file through two reused buffers
 * ({@link fileChunks}), a stream as it comes; an input in UTF-16 or UTF-32 is refused before any
 * of it is read ({@link utf8Chunks}), and a failure while reading is an {@link InputReadError}
 * naming the input ({@link inputChunks}). formats/lines.ts splits the chunks into lines.
 */
import { read } from "node:fs";
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { InputReadError } from "../cli-kit/errors.js";
import { type LineChunk, type LongLine, LineSplitter, asBuffer } from "../formats/lines.js";

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
 * The bytes of the file at `path` (from `from`), read into two reused buffers in turn: the next
 * chunk is read while the consumer takes this one, which must be done with it by the next request
 * (LineSplitter.push copies what it keeps). A file stream's buffer per chunk would be garbage held
 * until a full collection.
 */
export async function* fileChunks(path: string | number, chunkBytes = FILE_CHUNK_BYTES, from?: number): AsyncGenerator<Uint8Array> {
  // A number is a descriptor that stays open, read from where it stands unless `from` is given.
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
