/**
 * What the host's record writer (`grid`, format.ts) writes into: a growing byte buffer
 * ({@link ByteOutput}) and one record as it reads it ({@link OutputRecord}): a fast 9×9 record's
 * solution from bytes (no string made), the others' from text.
 */
import { STATUSES, type Status, grown } from "../../solvers/solver.js";

/** One record to write, filled anew for each. The solution is text, or bytes when the text is null (fast 9×9 records). */
export interface OutputRecord {
  status: Status;
  /** The first solution found, as text, or null: its 81 digits in `solutionBytes` from `solutionAt`, or (that null too) none. */
  solution: string | null;
  solutionBytes: Uint8Array | null;
  solutionAt: number;
  /** Why the record is invalid or failed, or null. */
  error: string | null;
}

export function outputRecord(): OutputRecord {
  return { status: "solved", solution: null, solutionBytes: null, solutionAt: 0, error: null };
}

/** The cells of a 9×9 puzzle: the bytes of a solution given as bytes. */
const NINE_CELLS = 81;

/**
 * The `count` 9×9 solutions of `cells` (81 cells each, 1–9) as their digits, in `into` when it
 * has room (else in a new array, returned): four cells at a time.
 */
export function solutionDigits(cells: Uint8Array, count: number, into: Uint8Array): Uint8Array {
  const length = count * NINE_CELLS;
  const room = Math.ceil(length / 4) * 4;
  const digits = into.length >= room && into.byteOffset % 4 === 0 ? into : new Uint8Array(room);
  digits.set(cells.subarray(0, length));
  // Each byte masked to 4 bits first (a cell is at most 9; the bytes of a puzzle without a solution are undefined): no carry.
  const words = new Uint32Array(digits.buffer, digits.byteOffset, room / 4);
  for (let w = 0; w < words.length; w++) words[w] = ((words[w] & 0x0f0f0f0f) + 0x30303030) >>> 0;
  return digits;
}

const encoder = new TextEncoder();

/** Bytes written one piece after another into a buffer that grows as needed ({@link room} for a record's fixed-size pieces at once). */
export class ByteOutput {
  /** Bytes written: `bytes[0 .. at)`. */
  at = 0;

  constructor(private buffer: Uint8Array = new Uint8Array(256)) {}

  /** Room for `n` more bytes. */
  room(n: number): void {
    if (this.at + n > this.buffer.length) this.buffer = grown(this.buffer, this.at + n);
  }

  /** The bytes written so far (a view). */
  written(): Uint8Array {
    return this.buffer.subarray(0, this.at);
  }

  /** `bytes` (room made first). */
  put(bytes: Uint8Array): void {
    this.copy(bytes, 0, bytes.length);
  }

  /** One byte (room made first). */
  byte(value: number): void {
    this.buffer[this.at++] = value;
  }

  /** `length` bytes of `from` from `start` (room made first). */
  copy(from: Uint8Array, start: number, length: number): void {
    const buffer = this.buffer;
    for (let i = 0; i < length; i++) buffer[this.at + i] = from[start + i];
    this.at += length;
  }

  /** Text in UTF-8 (makes its own room). */
  text(text: string): void {
    this.room(text.length * 3);
    this.at += encoder.encodeInto(text, this.buffer.subarray(this.at)).written;
  }
}

/** The status words, in UTF-8. */
export const STATUS_WORDS = Object.fromEntries(STATUSES.map((status) => [status, encoder.encode(status)])) as Readonly<Record<Status, Uint8Array>>;
