// Text in and out for the CLI's byte path: the host hands 9×9 text to the kernel's batch and
// reads output bytes back, and these entry points (exported by index.ts, the module's entry) do
// the conversions over a whole batch or chunk, 16 bytes a step, byte for byte what the host's
// text readers and writers do (src/formats):
//   cellsFromText   81 bytes of text per puzzle to cells, in place (and whether each was a digit or `.`)
//   solutionsText   a solved batch's solutions as text, in place
//   lineOutput      the `line` output of a solved batch, over its puzzles
//   reserveRecords, recordsOutput   the `jsonl` and `csv` records of a solved batch
//   reserveScan, scanLines          a chunk of input split into lines, the 9×9 lines' cells copied out
// The batch's layout and the block it lives in are in batch.ts; nothing here solves.

import { CELLS, MAX_BATCH_BYTES, batchBase, countsAt, outsideReservedBatch, roomFor, solutionsAt } from "./batch";

// ── Cells in, lines out ─────────────────────────────────────────────────────────────────────
// The host copies 9×9 lines into a batch as they were read (81 bytes of text each) and gets
// `line` output back as bytes: both conversions run here over the whole batch.

/**
 * Turns the puzzles of the batch at `base`, written as text (81 bytes each: `1`–`9` a clue, any
 * other byte an empty cell), into cells (1–9, 0 empty) in place. Returns `count` when every byte
 * was a digit or `.`, -2 when some other byte was (the cells are written all the same), or -1
 * when that is not the batch reserved.
 */
export function cellsFromText(base: usize, count: i32): i32 {
  if (outsideReservedBatch(base, count)) return -1;
  const end = base + <usize>count * CELLS;
  const zero = i8x16.splat(48);
  const one = i8x16.splat(1);
  const eight = i8x16.splat(8);
  const nine = i8x16.splat(9);
  const dot = i8x16.splat(46);
  let other = v128.splat<i32>(0); // lanes that held a byte neither a digit nor `.`
  let at = base;
  for (; at + 16 <= end; at += 16) {
    const bytes = v128.load(at);
    const value = i8x16.sub(bytes, zero);
    other = v128.or(other, v128.not(v128.or(i8x16.le_u(value, nine), i8x16.eq(bytes, dot))));
    v128.store(at, v128.and(value, i8x16.le_u(i8x16.sub(value, one), eight))); // 1–9 stay, the rest 0
  }
  let clean = !v128.any_true(other);
  for (; at < end; at++) {
    const byte = <u32>load<u8>(at);
    const value = byte - 48;
    if (value > 9 && byte != 46) clean = false;
    store<u8>(at, value - 1 <= 8 ? <u8>value : 0);
  }
  return clean ? count : -2;
}

/**
 * Writes the solutions of the solved batch at `base` as text over them (`1`–`9` per cell), for a
 * host that reads them as text. Returns `count`, or -1 when that is not the batch reserved. The
 * bytes of a puzzle without a solution stay undefined.
 */
export function solutionsText(base: usize, count: i32): i32 {
  if (outsideReservedBatch(base, count)) return -1;
  const end = solutionsAt(base, count) + <usize>count * CELLS;
  const zero = i8x16.splat(48);
  let at = solutionsAt(base, count);
  for (; at + 16 <= end; at += 16) v128.store(at, i8x16.add(v128.load(at), zero));
  for (; at < end; at++) store<u8>(at, load<u8>(at) + 48);
  return count;
}

const UNSOLVABLE_LINE = memory.data<u8>([117, 110, 115, 111, 108, 118, 97, 98, 108, 101, 10]); // "unsolvable\n"
const MULTIPLE_LINE = memory.data<u8>([109, 117, 108, 116, 105, 112, 108, 101, 10]); // "multiple\n"
const TIMEOUT_LINE = memory.data<u8>([116, 105, 109, 101, 111, 117, 116, 10]); // "timeout\n"

/**
 * Writes the `line` output of the solved batch at `base` over its puzzles, from the start of
 * the batch: per puzzle its solution as 81 digits, or `unsolvable`, `multiple` or `timeout`,
 * each with `\n`. Record i's line ends by byte 82(i+1), before the solutions it has still to
 * read (from 81·count + 81·i), so nothing is overwritten before it is read. Returns the bytes
 * written, or -1 when a puzzle was rejected (count < 0: the host words why) or that is not the
 * batch reserved; nothing is written then.
 */
export function lineOutput(base: usize, count: i32): i32 {
  if (outsideReservedBatch(base, count)) return -1;
  const solutions = solutionsAt(base, count);
  const counts = countsAt(base, count);
  const nodeCounts = counts + <usize>count * 8;
  for (let i = 0; i < count; i++) if (load<i32>(counts + (<usize>i << 2)) < 0) return -1;
  const digit = i8x16.splat(48);
  let out = base;
  for (let i = 0; i < count; i++) {
    const found = load<i32>(counts + (<usize>i << 2));
    if (load<i32>(nodeCounts + (<usize>i << 2)) < 0) {
      memory.copy(out, TIMEOUT_LINE, 8);
      out += 8;
    } else if (found == 1) {
      const from = solutions + <usize>i * CELLS;
      const a = v128.load(from);
      const b = v128.load(from, 16);
      const c = v128.load(from, 32);
      const d = v128.load(from, 48);
      const e = v128.load(from, 64);
      const last = load<u8>(from, 80);
      v128.store(out, i8x16.add(a, digit));
      v128.store(out, i8x16.add(b, digit), 16);
      v128.store(out, i8x16.add(c, digit), 32);
      v128.store(out, i8x16.add(d, digit), 48);
      v128.store(out, i8x16.add(e, digit), 64);
      store<u8>(out, last + 48, 80);
      store<u8>(out, 10, 81);
      out += CELLS + 1;
    } else if (found == 0) {
      memory.copy(out, UNSOLVABLE_LINE, 11);
      out += 11;
    } else {
      memory.copy(out, MULTIPLE_LINE, 9);
      out += 9;
    }
  }
  return <i32>(out - base);
}

// ── Records out: `jsonl` and `csv` rows of the solved batch ─────────────────────────────────
// The host's byte formats for 9×9 lines read as cell bytes: each record written here from the
// batch's results and the puzzle as read, byte for byte what the host's text writers give.
//   records area (reserveRecords(count, piece)):
//     texts count×81 u8 │ (align 4) lines count×i32 │ positions count×i32 │ ends count×i32 │
//     piece u8 │ output count × (RECORD_ROOM + piece) u8
//   texts: the 81 cell bytes as read; lines: each record's line in its file; positions: its place
//   in the host's batch (its index is firstIndex + position × step); piece: the file's name as
//   the format writes it, with what stands around it (`,"file":NAME,"line":` or `,NAME,`);
//   ends: where each record's output ends (a rejected puzzle writes nothing: the host words it).

let recordsBase: usize = 0;
let recordsCapacity: i32 = 0;
let recordsPiece: i32 = 0;

/**
 * The output bytes of one record at most, besides the file's piece: two grids of text, the fixed
 * words and four numbers (306 at most: a line number past 2^31 is negative, as the host writes
 * it), and the 15 bytes `put` may write past its piece.
 */
const RECORD_ROOM: i32 = 2 * CELLS + 160;

@inline function recordsLinesAt(base: usize, count: i32): usize {
  return (base + <usize>count * CELLS + 3) & ~(<usize>3);
}

@inline function recordsPieceAt(base: usize, count: i32): usize {
  return recordsLinesAt(base, count) + <usize>count * 12;
}

@inline function recordsOutputAt(base: usize, count: i32, piece: i32): usize {
  return recordsPieceAt(base, count) + <usize>piece;
}

/** The bytes of a records area for `count` puzzles and a piece of `piece` bytes (the layout above), in 64 bits. */
@inline function recordsBytes(count: i32, piece: i32): u64 {
  return <u64>recordsOutputAt(0, 0, piece) + <u64>count * <u64>(CELLS + 12 + RECORD_ROOM + piece) + 3;
}

/**
 * Room for the records of `count` puzzles with a file piece of `piece` bytes (layout above);
 * returns its base, or 0 for a count or piece out of range, or an area that would end past 2^31
 * (an i32, as lineOutput's: an entry point with no binding of its own, so that on a kernel
 * without it the host sees none). A larger area replaces the last one, with room for a power
 * of two of records and of piece bytes (see reserve in batch.ts: memory stays bounded by a few
 * times the largest). May grow memory.
 */
export function reserveRecords(count: i32, piece: i32): i32 {
  if (count < 0 || piece < 0 || piece > 1 << 20) return 0;
  if (recordsBytes(count, piece) > MAX_BATCH_BYTES) return 0;
  if (count > recordsCapacity || piece > recordsPiece) {
    let capacity = max(roomFor(count), recordsCapacity);
    let room = max(roomFor(piece), recordsPiece);
    if (recordsBytes(capacity, room) > MAX_BATCH_BYTES) {
      capacity = count; // checked above
      room = piece;
    }
    // The new block starts at or below the end of memory: one that could end past 2^31 is refused
    // before anything is freed or allocated, so memory does not grow (the host's views stay valid).
    if ((<u64>memory.size() << 16) + recordsBytes(capacity, room) + 64 > <u64>i32.MAX_VALUE) return 0;
    if (recordsBase != 0) heap.free(recordsBase);
    recordsBase = heap.alloc(<usize>recordsBytes(capacity, room));
    recordsCapacity = capacity;
    recordsPiece = room;
  }
  return <i32>recordsBase;
}

// The fixed words of both formats, as bytes.
const JSON_INDEX = memory.data<u8>([123, 34, 105, 110, 100, 101, 120, 34, 58]); // {"index":
const JSON_PUZZLE = memory.data<u8>([44, 34, 112, 117, 122, 122, 108, 101, 34, 58, 34]); // ,"puzzle":"
const JSON_STATUS = memory.data<u8>([34, 44, 34, 115, 116, 97, 116, 117, 115, 34, 58, 34]); // ","status":"
const JSON_SOLUTION = memory.data<u8>([34, 44, 34, 115, 111, 108, 117, 116, 105, 111, 110, 34, 58, 34]); // ","solution":"
const JSON_NO_SOLUTION = memory.data<u8>([34, 44, 34, 115, 111, 108, 117, 116, 105, 111, 110, 34, 58, 110, 117, 108, 108]); // ","solution":null
const JSON_COUNT = memory.data<u8>([44, 34, 99, 111, 117, 110, 116, 34, 58]); // ,"count":
const JSON_GUESSES = memory.data<u8>([44, 34, 103, 117, 101, 115, 115, 101, 115, 34, 58]); // ,"guesses":
const JSON_END = memory.data<u8>([44, 34, 101, 114, 114, 111, 114, 34, 58, 110, 117, 108, 108, 125, 10]); // ,"error":null}\n
const WORD_SOLVED = memory.data<u8>([115, 111, 108, 118, 101, 100]); // solved
const WORD_UNSOLVABLE = memory.data<u8>([117, 110, 115, 111, 108, 118, 97, 98, 108, 101]); // unsolvable
const WORD_MULTIPLE = memory.data<u8>([109, 117, 108, 116, 105, 112, 108, 101]); // multiple
const WORD_TIMEOUT = memory.data<u8>([116, 105, 109, 101, 111, 117, 116]); // timeout

/**
 * Copies the `length` bytes at `from` to `to`, 16 at a time; returns the end. It may write up
 * to 15 bytes past the end (the next piece overwrites them; RECORD_ROOM leaves room for them).
 */
@inline function put(to: usize, from: usize, length: i32): usize {
  let at: usize = 0;
  do {
    v128.store(to + at, v128.load(from + at));
    at += 16;
  } while (at < <usize>length);
  return to + <usize>length;
}

/** Writes `value` in decimal at `to`; returns the end. */
function putNumber(to: usize, value: u64): usize {
  if (value > <u64>u32.MAX_VALUE) {
    const high = value / 1000000000;
    const end = putNumber(to, high);
    return putDigits(end, <u32>(value - high * 1000000000), 9);
  }
  const small = <u32>value;
  let digits: i32 = 1;
  for (let rest = small; rest >= 10; rest /= 10) digits++;
  return putDigits(to, small, digits);
}

/** Writes the last `digits` decimal digits of `value` at `to` (leading zeros included); returns the end. */
@inline function putDigits(to: usize, value: u32, digits: i32): usize {
  for (let i = digits - 1; i >= 0; i--) {
    const tenth = value / 10;
    store<u8>(to + <usize>i, <u8>(48 + value - tenth * 10));
    value = tenth;
  }
  return to + <usize>digits;
}

/** Writes `value`, maybe negative, in decimal at `to`; returns the end. */
@inline function putSigned(to: usize, value: i32): usize {
  if (value >= 0) return putNumber(to, <u64>value);
  store<u8>(to, 45); // -
  return putNumber(to + 1, <u64>(-<i64>value));
}

/** Copies the 81 bytes at `from` to `to`, adding `add` to each (48: cells 1–9 to their digits); returns the end. */
@inline function putGrid(to: usize, from: usize, add: u8): usize {
  const shift = i8x16.splat(add);
  v128.store(to, i8x16.add(v128.load(from), shift));
  v128.store(to, i8x16.add(v128.load(from, 16), shift), 16);
  v128.store(to, i8x16.add(v128.load(from, 32), shift), 32);
  v128.store(to, i8x16.add(v128.load(from, 48), shift), 48);
  v128.store(to, i8x16.add(v128.load(from, 64), shift), 64);
  store<u8>(to, load<u8>(from, 80) + add, 80);
  return to + CELLS;
}

/** Writes the status word of a result: `timeout` when the search ran out of nodes, else by its count. */
function putStatus(to: usize, found: i32, node: i32): usize {
  if (node < 0) return put(to, WORD_TIMEOUT, 7);
  if (found == 0) return put(to, WORD_UNSOLVABLE, 10);
  if (found == 1) return put(to, WORD_SOLVED, 6);
  return put(to, WORD_MULTIPLE, 8);
}

/**
 * Writes the `jsonl` (csv 0) or `csv` (csv 1) record of each of the `count` puzzles of the
 * solved batch at `base` into the records area at `area` (layout above: its texts, lines, piece
 * and, with `positioned` 1, positions filled by the host; with 0 record k is at position k), and
 * each record's end into ends. `withGuesses` 0 writes no guesses (null in jsonl, empty in csv).
 * Returns the output bytes, or -1 when that is not the batch or the area reserved. (Flags are
 * i32, not bool, for the reason given at reserveRecords.)
 */
export function recordsOutput(base: i32, count: i32, area: i32, piece: i32, csv: i32, firstIndex: f64, step: f64, positioned: i32, withGuesses: i32): i32 {
  if (outsideReservedBatch(<usize>base, count)) return -1;
  if (<usize>area != recordsBase || count > recordsCapacity || piece < 0 || piece > recordsPiece) return -1;
  const solutions = solutionsAt(batchBase, count);
  const counts = countsAt(batchBase, count);
  const guessCounts = counts + <usize>count * 4;
  const nodeCounts = guessCounts + <usize>count * 4;
  const lines = recordsLinesAt(recordsBase, count);
  const positions = lines + <usize>count * 4;
  const ends = positions + <usize>count * 4;
  const pieceAt = recordsPieceAt(recordsBase, count);
  const output = recordsOutputAt(recordsBase, count, piece);
  const first = <u64>firstIndex;
  const stride = <u64>step;
  let out = output;
  for (let k = 0; k < count; k++) {
    const found = load<i32>(counts + (<usize>k << 2));
    if (found >= 0) {
      const position = positioned != 0 ? <u64>load<i32>(positions + (<usize>k << 2)) : <u64>k;
      const index = first + position * stride;
      const line = load<i32>(lines + (<usize>k << 2)); // signed, as the host's writers print it
      const node = load<i32>(nodeCounts + (<usize>k << 2));
      const text = recordsBase + <usize>k * CELLS;
      const solution = solutions + <usize>k * CELLS;
      if (csv == 0) {
        out = put(out, JSON_INDEX, 9);
        out = putNumber(out, index);
        out = put(out, pieceAt, piece);
        out = putSigned(out, line);
        out = put(out, JSON_PUZZLE, 11);
        out = putGrid(out, text, 0);
        out = put(out, JSON_STATUS, 12);
        out = putStatus(out, found, node);
        if (found > 0) {
          out = put(out, JSON_SOLUTION, 14);
          out = putGrid(out, solution, 48);
          store<u8>(out++, 34); // "
        } else out = put(out, JSON_NO_SOLUTION, 17);
        out = put(out, JSON_COUNT, 9);
        out = putNumber(out, <u64>found);
        out = put(out, JSON_GUESSES, 11);
        if (withGuesses != 0) out = putSigned(out, load<i32>(guessCounts + (<usize>k << 2)));
        else out = put(out, JSON_NO_SOLUTION + 13, 4); // null
        out = put(out, JSON_END, 15);
      } else {
        out = putNumber(out, index);
        out = put(out, pieceAt, piece);
        out = putSigned(out, line);
        store<u8>(out++, 44); // ,
        // A text starting with `-` could be read as a formula: quoted, behind an apostrophe (the host's csvField).
        const defused = load<u8>(text) == 45;
        if (defused) {
          store<u8>(out, 34); // "
          store<u8>(out, 39, 1); // '
          out += 2;
        }
        out = putGrid(out, text, 0);
        if (defused) store<u8>(out++, 34);
        store<u8>(out++, 44);
        out = putStatus(out, found, node);
        store<u8>(out++, 44);
        if (found > 0) out = putGrid(out, solution, 48);
        store<u8>(out++, 44);
        out = putNumber(out, <u64>found);
        store<u8>(out++, 44);
        if (withGuesses != 0) out = putSigned(out, load<i32>(guessCounts + (<usize>k << 2)));
        store<u8>(out, 44);
        store<u8>(out, 10, 1);
        out += 2;
      }
    }
    store<i32>(ends + (<usize>k << 2), <i32>(out - output));
  }
  return <i32>(out - output);
}

// ── Lines in: a chunk of input split into lines ─────────────────────────────────────────────
// The host's line reader hands each chunk of input here to find its lines and the 9×9 lines it
// can take as they are (81 cell bytes, maybe spaces or tabs, then the line end): one call per
// chunk, 16 bytes a step, instead of a loop over every byte in JavaScript.
//   scan area (reserveScan(room)): chunk room u8 │ (align 4) lines (room + 1) × 3 i32 │ cells room u8
//   a line: its start, its end (the position of its `\n` or `\r`), its number among the fast
//   lines or -1; the fast lines' 81 bytes are copied one after another into cells.

let scanBase: usize = 0;
let scanRoom: i32 = 0;

/** The largest chunk a scan takes (the reader's chunks are 64 KiB). */
const MAX_SCAN_BYTES: i32 = 1 << 24;

@inline function scanLinesAt(base: usize, room: i32): usize {
  return (base + <usize>room + 3) & ~(<usize>3);
}

@inline function scanCellsAt(base: usize, room: i32): usize {
  return scanLinesAt(base, room) + (<usize>room + 1) * 12;
}

/** Room to scan chunks of up to `room` bytes; returns the chunk's base, or 0 for a room out of range. Grow-only. */
export function reserveScan(room: i32): usize {
  if (room < 0 || room > MAX_SCAN_BYTES) return 0;
  if (room > scanRoom) {
    scanBase = heap.alloc(scanCellsAt(0, room) + <usize>room);
    scanRoom = room;
  }
  return scanBase;
}

/** True when the 16 bytes are all cell bytes of the fast path: `1`–`9` and the empty marks `.0_?-*xX`. */
@inline function cellBytes(bytes: v128): bool {
  let ok = v128.or(i8x16.le_u(i8x16.sub(bytes, i8x16.splat(48)), i8x16.splat(9)), i8x16.eq(bytes, i8x16.splat(46)));
  if (i8x16.all_true(ok)) return true; // digits and `.`: nearly every line
  ok = v128.or(ok, v128.or(i8x16.eq(bytes, i8x16.splat(95)), i8x16.eq(bytes, i8x16.splat(63)))); // _ ?
  ok = v128.or(ok, v128.or(i8x16.eq(bytes, i8x16.splat(45)), i8x16.eq(bytes, i8x16.splat(42)))); // - *
  ok = v128.or(ok, v128.or(i8x16.eq(bytes, i8x16.splat(120)), i8x16.eq(bytes, i8x16.splat(88)))); // x X
  return i8x16.all_true(ok);
}

@inline function cellByte(byte: u32): bool {
  return byte - 48 <= 9 || byte == 46 || byte == 95 || byte == 63 || byte == 45 || byte == 42 || byte == 120 || byte == 88;
}

/**
 * Finds the complete lines of the chunk of `length` bytes at `base` (from reserveScan), from
 * `start`, and writes them to the scan area (layout above). A line ends at `\n` or `\r` (a
 * `\r\n` is one line end); a line that runs to the end of the chunk is left for the next.
 * Returns the number of lines, or -1 when `base` is not the scan area or `length` is past it.
 */
export function scanLines(base: usize, start: i32, length: i32): i32 {
  if (base != scanBase || length < 0 || length > scanRoom || start < 0) return -1;
  const table = scanLinesAt(base, scanRoom);
  const cells = scanCellsAt(base, scanRoom);
  let lines = 0;
  let fast = 0;
  let at = start;
  while (at < length) {
    let end = -1;
    let fastLine = false;
    if (at + CELLS < length) {
      const from = base + <usize>at;
      if (
        cellBytes(v128.load(from)) &&
        cellBytes(v128.load(from, 16)) &&
        cellBytes(v128.load(from, 32)) &&
        cellBytes(v128.load(from, 48)) &&
        cellBytes(v128.load(from, 64)) &&
        cellByte(load<u8>(from, 80))
      ) {
        let next = at + CELLS;
        let byte = <u32>load<u8>(base + <usize>next);
        while ((byte == 32 || byte == 9) && ++next < length) byte = load<u8>(base + <usize>next);
        if (next < length && (byte == 10 || byte == 13)) {
          end = next;
          fastLine = true;
          const to = cells + <usize>fast * CELLS;
          v128.store(to, v128.load(from));
          v128.store(to, v128.load(from, 16), 16);
          v128.store(to, v128.load(from, 32), 32);
          v128.store(to, v128.load(from, 48), 48);
          v128.store(to, v128.load(from, 64), 64);
          store<u8>(to, load<u8>(from, 80), 80);
        }
      }
    }
    if (end < 0) {
      for (let i = at; i < length; i++) {
        const byte = load<u8>(base + <usize>i);
        if (byte == 10 || byte == 13) {
          end = i;
          break;
        }
      }
      if (end < 0) break; // the line goes on in the next chunk
    }
    const entry = table + <usize>lines * 12;
    store<i32>(entry, at);
    store<i32>(entry, end, 4);
    store<i32>(entry, fastLine ? fast++ : -1, 8);
    lines++;
    at = end + 1;
    if (load<u8>(base + <usize>end) == 13 && at < length && load<u8>(base + <usize>at) == 10) at++;
  }
  return lines;
}
