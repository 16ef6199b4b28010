/**
 * What the output formats write into: a growing byte buffer ({@link ByteOutput}) and one record as
 * every format reads it ({@link OutputRecord}). Each format has one host writer, for every record
 * the 9×9 kernel does not write itself: fast 9×9 lines from bytes (no string made), others from text.
 */
import { STATUSES, type Status, grown } from "../../solvers/solver.js";

/**
 * One record to write, filled anew for each. The puzzle and solution are text, or bytes when the
 * text is null (fast 9×9 lines: ASCII that needs no quoting or escaping in any format).
 */
export interface OutputRecord {
  /** 0-based in the run. */
  index: number;
  /** 1-based, where the record starts in its file. */
  line: number;
  /** The cells as read; null: they are the 81 bytes of `puzzleBytes` from `puzzleAt`. */
  puzzle: string | null;
  puzzleBytes: Uint8Array;
  puzzleAt: number;
  status: Status;
  /** Solutions found up to the limit. */
  count: number;
  /** The first solution found, as text, or null: its 81 digits in `solutionBytes` from `solutionAt`, or (that null too) none. */
  solution: string | null;
  solutionBytes: Uint8Array | null;
  solutionAt: number;
  /** Null: the solver cannot tell (NaN too). */
  guesses: number | null;
  /** Why the record is invalid or failed, or null. */
  error: string | null;
}

export function outputRecord(): OutputRecord {
  return {
    index: 0,
    line: 0,
    puzzle: "",
    puzzleBytes: new Uint8Array(0),
    puzzleAt: 0,
    status: "solved",
    count: 0,
    solution: null,
    solutionBytes: null,
    solutionAt: 0,
    guesses: null,
    error: null,
  };
}

/** The cells of a 9×9 puzzle: the bytes of a puzzle or solution given as bytes. */
export const NINE_CELLS = 81;

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

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A piece of text a format writes again and again: its UTF-8 bytes, and a view of them to copy them four at a time. */
export class Piece {
  readonly bytes: Uint8Array;
  readonly view: DataView;

  constructor(text: string) {
    this.bytes = encoder.encode(text);
    this.view = viewOf(this.bytes);
  }
}

/** The bytes past which a copy is one call (a view and a memory copy) rather than four bytes at a time. */
const LONG_COPY = 256;

/** Copies `length` bytes of `from` from `start` into `to` at `at`, four at a time; returns the end. */
function copyBytes(to: DataView, at: number, from: DataView, start: number, length: number): number {
  let i = start;
  for (const end = start + length - 3; i < end; i += 4, at += 4) to.setUint32(at, from.getUint32(i));
  for (const end = start + length; i < end; i++) to.setUint8(at++, from.getUint8(i));
  return at;
}

/**
 * Bytes written one piece after another into a buffer that grows as needed ({@link room} for a
 * record's fixed-size pieces at once), copied four at a time through DataViews kept across copies.
 */
export class ByteOutput {
  /** Bytes written: `bytes[0 .. at)`. */
  at = 0;
  private view: DataView;
  private lastSource: Uint8Array | null = null;
  private lastView: DataView | null = null;
  private otherSource: Uint8Array | null = null;
  private otherView: DataView | null = null;

  constructor(private buffer: Uint8Array = new Uint8Array(256)) {
    this.view = viewOf(buffer);
  }

  /** The buffer written into (a new one after {@link room} grew it). */
  get bytes(): Uint8Array {
    return this.buffer;
  }

  /** Room for `n` more bytes. */
  room(n: number): void {
    if (this.at + n <= this.buffer.length) return;
    this.buffer = grown(this.buffer, this.at + n);
    this.view = viewOf(this.buffer);
  }

  /** The bytes written so far (a view). */
  written(): Uint8Array {
    return this.buffer.subarray(0, this.at);
  }

  /** A piece (room made first). */
  put(piece: Piece): void {
    this.at = copyBytes(this.view, this.at, piece.view, 0, piece.bytes.length);
  }

  /** One byte (room made first). */
  byte(value: number): void {
    this.buffer[this.at++] = value;
  }

  /** `length` bytes of `from` from `start` (room made first). */
  copy(from: Uint8Array, start: number, length: number): void {
    if (length > LONG_COPY) {
      this.buffer.set(from.subarray(start, start + length), this.at);
      this.at += length;
    } else this.at = copyBytes(this.view, this.at, this.sourceView(from), start, length);
  }

  /** The DataView of `from`, kept for the next call. */
  private sourceView(from: Uint8Array): DataView {
    if (from === this.lastSource) return this.lastView!;
    if (from === this.otherSource) {
      this.otherSource = this.lastSource;
      const view = this.otherView!;
      this.otherView = this.lastView;
      this.lastSource = from;
      return (this.lastView = view);
    }
    this.otherSource = this.lastSource;
    this.otherView = this.lastView;
    this.lastSource = from;
    return (this.lastView = viewOf(from));
  }

  /** A number as `String(value)` writes it: a whole number of up to 31 bits digit by digit (room made first), any other through the string. */
  number(value: number): void {
    if ((value | 0) !== value) return this.text(String(value)); // past 31 bits, a fraction, NaN (-0 is 0, as String gives)
    if (value < 0) {
      if (value === -0x80000000) return this.text(String(value));
      this.buffer[this.at++] = 45; // "-"
      value = -value;
    }
    let digits = 1;
    for (let power = 10; digits < 10 && value >= power; power *= 10) digits++;
    const bytes = this.buffer;
    for (let i = this.at + digits - 1; i >= this.at; i--) {
      const tenth = (value / 10) | 0;
      bytes[i] = 48 + value - 10 * tenth;
      value = tenth;
    }
    this.at += digits;
  }

  /** Text in UTF-8 (makes its own room). */
  text(text: string): void {
    this.room(text.length * 3);
    this.at += encoder.encodeInto(text, this.buffer.subarray(this.at)).written;
  }
}

export const STATUS_WORDS = Object.fromEntries(STATUSES.map((status) => [status, new Piece(status)])) as Readonly<Record<Status, Piece>>;
