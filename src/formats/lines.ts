/**
 * Splits a byte stream into lines, a chunk at a time: one `await` per chunk (64 KiB),
 * not per line. Line ends are `\n`, `\r\n` or a lone `\r` (old Mac files); UTF-8 sequences
 * cut by a chunk edge are kept whole. The last line needs no line end. A UTF-8 byte order
 * mark (U+FEFF) at the start of the text is dropped, so the first line reads like any other.
 *
 * Reading is linear in the input: each chunk is split once, and a line longer than a chunk is
 * kept as a list of pieces until its end arrives. A line over {@link MAX_LINE_LENGTH}
 * characters is not kept at all: only its first {@link LONG_LINE_EXCERPT} characters and its
 * length are, and it is reported in {@link LineChunk.longLines} (the reader makes it one
 * invalid record), so one endless line cannot exhaust memory.
 */
import { StringDecoder } from "node:string_decoder";

/** The longest line kept whole, in characters (a 25×25 grid on one line is 625; CSV rows carry more columns). */
export const MAX_LINE_LENGTH = 1 << 20;

/** How many characters of an over-long line are kept, to show where it starts. */
export const LONG_LINE_EXCERPT = 64;

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

const ANY_LINE_END = /\r\n|\r|\n/;

/** Collects the pieces of lines that span chunks; cuts a line once it passes the maximum. */
class LineAssembler {
  private pieces: string[] = [];
  private length = 0;
  lines: string[] = [];
  longLines: LongLine[] = [];

  /** Adds text that continues the current line (no line end inside). */
  add(piece: string): void {
    if (piece.length === 0) return;
    if (this.length <= MAX_LINE_LENGTH) {
      this.pieces.push(piece);
      if (this.length + piece.length > MAX_LINE_LENGTH) this.pieces = [this.pieces.join("").slice(0, LONG_LINE_EXCERPT)];
    }
    this.length += piece.length;
  }

  /** Ends the current line. */
  end(): void {
    if (this.length > MAX_LINE_LENGTH) this.longLines.push({ at: this.lines.length, length: this.length });
    this.lines.push(this.pieces.length === 1 ? this.pieces[0] : this.pieces.join(""));
    this.pieces = [];
    this.length = 0;
  }

  /** True when a line has begun and not ended. */
  get open(): boolean {
    return this.length > 0;
  }

  /** The lines completed since the last call. */
  take(bytesRead: number): LineChunk {
    const chunk: LineChunk = { lines: this.lines, bytesRead };
    if (this.longLines.length > 0) chunk.longLines = this.longLines;
    this.lines = [];
    this.longLines = [];
    return chunk;
  }
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
    throw new Error(`the input is ${mark.name} text (it starts with the byte order mark ${hex}); sudoku-wasm reads UTF-8: convert it first, e.g. iconv -f ${mark.name.replace(" ", "")} -t UTF-8`);
  }
}

/** Yields the lines of `stream` in order, chunk by chunk; an input in UTF-16 or UTF-32 (by its byte order mark) throws, naming the encoding. */
export async function* readLineChunks(stream: AsyncIterable<Buffer | string>): AsyncGenerator<LineChunk> {
  const decoder = new StringDecoder("utf8");
  const assembler = new LineAssembler();
  let bytesRead = 0;
  let atStart = true;
  /** The previous chunk ended with `\r`: a `\n` starting this one belongs to that line end. */
  let afterCarriageReturn = false;
  for await (const chunk of stream) {
    bytesRead += chunk.length;
    let text = typeof chunk === "string" ? chunk : decoder.write(chunk);
    if (text.length === 0) continue;
    if (atStart) {
      if (typeof chunk !== "string") checkUtf8Start(chunk);
      text = withoutByteOrderMark(text);
      atStart = false;
    }
    if (afterCarriageReturn && text.charCodeAt(0) === 10) text = text.slice(1);
    afterCarriageReturn = text.charCodeAt(text.length - 1) === 13;
    const parts = text.includes("\r") ? text.split(ANY_LINE_END) : text.split("\n");
    for (let i = 0; i < parts.length - 1; i++) {
      assembler.add(parts[i]);
      assembler.end();
    }
    assembler.add(parts[parts.length - 1]);
    const ready = assembler.take(bytesRead);
    if (ready.lines.length > 0) yield ready;
  }
  assembler.add(decoder.end());
  if (assembler.open) assembler.end();
  const last = assembler.take(bytesRead);
  if (last.lines.length > 0) yield last;
}

/** `text` without a leading byte order mark (U+FEFF), which editors on Windows put before UTF-8 text. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** All lines of a whole text (for the judge formats, which read all input first); a leading byte order mark is dropped; `\n`, `\r\n` and `\r` end lines. */
export function splitLines(text: string): string[] {
  const own = withoutByteOrderMark(text);
  const lines = own.includes("\r") ? own.split(ANY_LINE_END) : own.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
