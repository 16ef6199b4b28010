// Text in and out for the CLI: the host hands 9×9 text to the kernel's batch and reads output
// bytes back, and these entry points (exported by index.ts, the module's entry) do the work over a
// whole batch or chunk, 16 bytes a step: reading lines byte for byte as the host's text reader
// does (src/formats/input), and writing every record of every output format (src/formats/output
// says what each format holds):
//   cellsFromText   81 bytes of text per puzzle to cells, in place (and whether each was a digit or `.`)
//   solutionsText   a solved batch's solutions as text, in place
//   reserveRecords, writeRecords    every record of a batch in `line`, `jsonl`, `csv` or `grid`
//   reserveScan, scanLines          a chunk of input split into lines, the 9×9 lines' cells copied out
// The batch's layout and the block it lives in are in batch.ts; nothing here solves.

import { CELLS, MAX_BATCH_BYTES, batchBase, countsAt, outsideReservedBatch, roomFor, solutionsAt } from "./batch";

// ── Cells in, solutions out ─────────────────────────────────────────────────────────────────
// The host copies 9×9 lines into a batch as they were read (81 bytes of text each), and may read
// the solutions back as text: both conversions run here over the whole batch.

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

// ── Records out: every record of a batch in `line`, `jsonl`, `csv` or `grid` ─────────────────
// The one writer of the four formats. A record is *fast*: a 9×9
// puzzle of the solved batch at `base` (its results at its position there, its text as read in
// the texts below), or *given*: a record the host solved or worded itself (another size, an
// unreadable line, a failed batch), whose variable fields the host hands over as tokens already
// encoded for the format (a JSON string with its quotes, a CSV field as csvField gives it, the
// guesses as the host prints them).
//   records area (reserveRecords(bytes)), laid out by the host:
//     texts fast×81 u8 │ (align 4) lines count×i32 │ sources count×i32 │ given G × GIVEN_FIELDS i32 │
//     piece u8 │ arena u8 │ output
//   lines: each record's line in its file (none for `line` and `grid`, which print none). sources: per record
//   its fast puzzle's position in the batch, or -1 - g for given record g (none: record k is fast
//   puzzle k). given, per given record: its status (the host's order: solved, unsolvable,
//   multiple, invalid, timeout, error), its count, and four tokens as (offset in the arena,
//   length; offset -1: none, printed null or empty): puzzle, solution, guesses, error.
//   piece: the file's name as the format writes it, with what stands around it
//   (`,"file":NAME,"line":` or `,NAME,`; none for `line` and `grid`).

let recordsBase: usize = 0;
let recordsRoom: i32 = 0;

/** i32 fields per given record (layout above). */
const GIVEN_FIELDS: i32 = 10;
const STATUS: i32 = 0;
const COUNT: i32 = 1;
const PUZZLE: i32 = 2;
const SOLUTION: i32 = 4;
const GUESSES: i32 = 6;
const ERROR: i32 = 8;

/** The given statuses, in the host's order (STATUSES in src/solvers/solver.ts). */
const SOLVED: i32 = 0;
const UNSOLVABLE: i32 = 1;
const MULTIPLE: i32 = 2;
const TIMEOUT: i32 = 4;

/**
 * The output bytes of one record at most, besides its file piece and its tokens: two grids of
 * text, the fixed words and three numbers (a line number past 2^31 is negative, as the host
 * writes it), and the 15 bytes `put` may write past its piece.
 */
export const RECORD_ROOM: i32 = 2 * CELLS + 160;

/**
 * A records area of `bytes` bytes (layout above); returns its base, or 0 for a size out of range
 * or an area that would end past 2^31 (an i32: an entry point with no binding of its own, so
 * that on a kernel without it the host sees none). A larger area replaces the last one, with room
 * for a power of two of bytes (see reserve in batch.ts: memory stays bounded by a few times the
 * largest). May grow memory.
 */
export function reserveRecords(bytes: i32): i32 {
  if (bytes < 0 || <u64>bytes > MAX_BATCH_BYTES) return 0;
  if (bytes > recordsRoom) {
    let room = roomFor(bytes);
    if (<u64>room > MAX_BATCH_BYTES) room = bytes;
    // The new block starts at or below the end of memory: one that could end past 2^31 is refused
    // before anything is freed or allocated, so memory does not grow (the host's views stay valid).
    if ((<u64>memory.size() << 16) + <u64>room + 64 > <u64>i32.MAX_VALUE) return 0;
    if (recordsBase != 0) heap.free(recordsBase);
    recordsBase = heap.alloc(<usize>room);
    recordsRoom = room;
  }
  return <i32>recordsBase;
}

// The fixed words of the formats, as bytes.
const JSON_INDEX = memory.data<u8>([123, 34, 105, 110, 100, 101, 120, 34, 58]); // {"index":
const JSON_PUZZLE = memory.data<u8>([44, 34, 112, 117, 122, 122, 108, 101, 34, 58]); // ,"puzzle":
const JSON_STATUS = memory.data<u8>([44, 34, 115, 116, 97, 116, 117, 115, 34, 58, 34]); // ,"status":"
const JSON_SOLUTION = memory.data<u8>([34, 44, 34, 115, 111, 108, 117, 116, 105, 111, 110, 34, 58]); // ","solution":
const JSON_COUNT = memory.data<u8>([44, 34, 99, 111, 117, 110, 116, 34, 58]); // ,"count":
const JSON_GUESSES = memory.data<u8>([44, 34, 103, 117, 101, 115, 115, 101, 115, 34, 58]); // ,"guesses":
const JSON_ERROR = memory.data<u8>([44, 34, 101, 114, 114, 111, 114, 34, 58]); // ,"error":
const JSON_NULL = memory.data<u8>([110, 117, 108, 108]); // null
const JSON_END = memory.data<u8>([125, 10]); // }\n
/** The status words, in the host's order, 12 bytes apart: length, then the word. */
const WORDS = memory.data<u8>([
  6, 115, 111, 108, 118, 101, 100, 0, 0, 0, 0, 0, // solved
  10, 117, 110, 115, 111, 108, 118, 97, 98, 108, 101, 0, // unsolvable
  8, 109, 117, 108, 116, 105, 112, 108, 101, 0, 0, 0, // multiple
  7, 105, 110, 118, 97, 108, 105, 100, 0, 0, 0, 0, // invalid
  7, 116, 105, 109, 101, 111, 117, 116, 0, 0, 0, 0, // timeout
  5, 101, 114, 114, 111, 114, 0, 0, 0, 0, 0, 0, // error
]);

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

/** Copies `length` bytes (a token of any length) from `from` to `to`; returns the end. */
@inline function putToken(to: usize, from: usize, length: i32): usize {
  memory.copy(to, from, <usize>length);
  return to + <usize>length;
}

/** The two digits of each number under 100 ("00" to "99"), two bytes each, so that a number is written two digits a step. */
const DIGIT_PAIRS = memory.data(200);
for (let n: u32 = 0; n < 100; n++) store<u16>(DIGIT_PAIRS + (<usize>n << 1), <u16>(48 + n / 10) | (<u16>(48 + n % 10) << 8));

/** 10^k for k from 0 to 9. */
const POWERS_OF_TEN = memory.data<u32>([1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000]);

/** How many decimal digits `value` has (1 for 0): from its bit length (log10 2 ≈ 1233 / 4096), one comparison to settle it. */
@inline function decimalDigits(value: u32): i32 {
  const odd = value | 1; // (0 has one digit; no power of ten past 1 is odd, so the count is unchanged)
  const guess = ((32 - <i32>clz(odd)) * 1233) >> 12;
  return guess + 1 - <i32>(odd < load<u32>(POWERS_OF_TEN + (<usize>guess << 2)));
}

/** Writes `value` in decimal at `to`; returns the end. */
function putNumber(to: usize, value: u64): usize {
  if (value > <u64>u32.MAX_VALUE) {
    const high = value / 1000000000;
    const end = putNumber(to, high);
    return putDigits(end, <u32>(value - high * 1000000000), 9);
  }
  let rest = <u32>value;
  const end = to + <usize>decimalDigits(rest);
  let at = end;
  while (rest >= 100) {
    const hundredth = rest / 100;
    at -= 2;
    store<u16>(at, load<u16>(DIGIT_PAIRS + (<usize>(rest - hundredth * 100) << 1)));
    rest = hundredth;
  }
  if (rest >= 10) store<u16>(at - 2, load<u16>(DIGIT_PAIRS + (<usize>rest << 1)));
  else store<u8>(at - 1, <u8>(48 + rest));
  return end;
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

/** Writes the 81 cells at `from` as their digits, nine to a row, a line end between rows; returns the end. */
function putRows(to: usize, from: usize): usize {
  for (let row: usize = 0; row < 9; row++) {
    if (row > 0) store<u8>(to++, 10);
    for (let column: usize = 0; column < 9; column++) store<u8>(to++, load<u8>(from + row * 9 + column) + 48);
  }
  return to;
}

/** Writes status word `status` (the host's order); returns the end. */
@inline function putWord(to: usize, status: i32): usize {
  const word = WORDS + <usize>status * 12;
  return put(to, word + 1, <i32>load<u8>(word));
}

/** The status of a fast record: `timeout` when the search ran out of nodes, else by its count. */
@inline function fastStatus(found: i32, node: i32): i32 {
  return node < 0 ? TIMEOUT : found == 0 ? UNSOLVABLE : found == 1 ? SOLVED : MULTIPLE;
}

/** True when token `field` of the given record at `row` is absent or lies inside an arena of `length` bytes. */
@inline function tokenFits(row: usize, field: i32, length: i32): bool {
  const offset = load<i32>(row + (<usize>field << 2));
  const size = load<i32>(row + (<usize>(field + 1) << 2));
  return offset < 0 || (size >= 0 && offset <= length && size <= length - offset);
}

/** Copies token `field` of the given record at `row` from the arena to `to`; returns the end. */
@inline function putField(to: usize, arena: usize, row: usize, field: i32): usize {
  return putToken(to, arena + <usize>load<i32>(row + (<usize>field << 2)), load<i32>(row + (<usize>(field + 1) << 2)));
}

/** True when the given record at `row` has token `field`. */
@inline function hasField(row: usize, field: i32): bool {
  return load<i32>(row + (<usize>field << 2)) >= 0;
}

/**
 * Writes the `count` records of a batch (the layout above) in `format` (0 `line`, 1 `jsonl`, 2
 * `csv`, 3 `grid`) at `output`: the fast ones from the `fast` puzzles of the solved batch at `base`, the
 * `givens` others from the host's fields. Record k's index is `firstIndex + k × step`;
 * `withGuesses` 0 writes no guesses for fast records (null in jsonl, empty in csv). `lines` 0: no
 * line numbers (`line` and `grid` only); `sources` 0: record k is fast puzzle k. Returns the bytes written,
 * or -1 when that is not the batch or the area reserved, an entry is out of range, or the output
 * could run past the area (nothing is written then). (Flags are i32, not bool, for the reason
 * given at reserveRecords.)
 */
export function writeRecords(
  base: usize, fast: i32, count: i32, format: i32, texts: usize, lines: usize, sources: usize, given: usize, givens: i32,
  piece: usize, pieceLength: i32, arena: usize, arenaLength: i32, output: usize, firstIndex: f64, step: f64, withGuesses: i32,
): i32 {
  if (fast > 0 && outsideReservedBatch(base, fast)) return -1;
  if (count < 0 || fast < 0 || givens < 0 || pieceLength < 0 || arenaLength < 0 || format < 0 || format > 3) return -1;
  if ((lines == 0 && format != 0 && format != 3) || (sources == 0 && (fast != count || givens != 0))) return -1;
  // the parts in order, inside the area
  if (texts != recordsBase || <u64>texts + <u64>fast * CELLS > <u64>given) return -1;
  if (lines != 0 && (<u64>lines < <u64>texts + <u64>fast * CELLS || <u64>lines + <u64>count * 4 > <u64>given)) return -1;
  if (sources != 0 && (<u64>sources < <u64>texts + <u64>fast * CELLS || <u64>sources + <u64>count * 4 > <u64>given)) return -1;
  if (<u64>given + <u64>givens * GIVEN_FIELDS * 4 > <u64>piece || <u64>piece + <u64>pieceLength > <u64>arena) return -1;
  if (<u64>arena + <u64>arenaLength > <u64>output) return -1;
  if (<u64>output + <u64>count * <u64>(RECORD_ROOM + pieceLength) + <u64>arenaLength > <u64>recordsBase + <u64>recordsRoom) return -1;
  const counts = countsAt(base, fast);
  for (let k = 0; k < count; k++) {
    const source = sources != 0 ? load<i32>(sources + (<usize>k << 2)) : k;
    if (source >= fast || source < -givens) return -1;
    if (source >= 0 && load<i32>(counts + (<usize>source << 2)) < 0) return -1; // a rejected puzzle: the host words it
  }
  for (let g = 0; g < givens; g++) {
    const row = given + <usize>g * GIVEN_FIELDS * 4;
    const status = load<i32>(row, STATUS << 2);
    if (status < 0 || status > 5 || load<i32>(row, COUNT << 2) < 0) return -1;
    if (!(tokenFits(row, PUZZLE, arenaLength) && tokenFits(row, SOLUTION, arenaLength) && tokenFits(row, GUESSES, arenaLength) && tokenFits(row, ERROR, arenaLength))) return -1;
  }
  const solutions = solutionsAt(base, fast);
  const guessCounts = counts + <usize>fast * 4;
  const nodeCounts = guessCounts + <usize>fast * 4;
  const first = <u64>firstIndex;
  const stride = <u64>step;
  let out = output;
  for (let k = 0; k < count; k++) {
    const source = sources != 0 ? load<i32>(sources + (<usize>k << 2)) : k;
    const row = given + <usize>(-1 - source) * GIVEN_FIELDS * 4; // a given record's
    const solution = solutions + <usize>source * CELLS; // a fast record's
    let status: i32;
    let found: i32;
    if (source >= 0) {
      found = load<i32>(counts + (<usize>source << 2));
      status = fastStatus(found, load<i32>(nodeCounts + (<usize>source << 2)));
    } else {
      found = load<i32>(row, COUNT << 2);
      status = load<i32>(row, STATUS << 2);
    }
    if (format == 0 || format == 3) {
      // `line`: the solution when there is exactly one, else the status word; `grid` the same with the solution one row a
      // line and the host's error after the word, then a blank line
      const grid = format == 3;
      if (source >= 0 && status == SOLVED) out = grid ? putRows(out, solution) : putGrid(out, solution, 48);
      else if (source < 0 && status == SOLVED && hasField(row, SOLUTION)) out = putField(out, arena, row, SOLUTION);
      else {
        out = putWord(out, status);
        if (source < 0 && hasField(row, ERROR)) out = putField(out, arena, row, ERROR);
      }
      store<u8>(out++, 10);
      if (grid) store<u8>(out++, 10);
      continue;
    }
    const json = format == 1;
    if (json) out = put(out, JSON_INDEX, 9);
    out = putNumber(out, first + <u64>k * stride);
    out = put(out, piece, pieceLength);
    out = putSigned(out, load<i32>(lines + (<usize>k << 2))); // signed, as the host prints it
    if (json) out = put(out, JSON_PUZZLE, 10);
    else store<u8>(out++, 44); // ,
    if (source >= 0) {
      const text = texts + <usize>source * CELLS;
      // csv: a text starting with `-` could be read as a formula: quoted, behind an apostrophe (the host's csvField)
      const quoted = json || load<u8>(text) == 45;
      if (quoted) store<u8>(out++, 34); // "
      if (!json && quoted) store<u8>(out++, 39); // '
      out = putGrid(out, text, 0);
      if (quoted) store<u8>(out++, 34);
    } else if (hasField(row, PUZZLE)) out = putField(out, arena, row, PUZZLE);
    if (json) out = put(out, JSON_STATUS, 11);
    else store<u8>(out++, 44);
    out = putWord(out, status);
    if (json) out = put(out, JSON_SOLUTION, 13);
    else store<u8>(out++, 44);
    if (source >= 0 && found > 0) {
      if (json) store<u8>(out++, 34);
      out = putGrid(out, solution, 48);
      if (json) store<u8>(out++, 34);
    } else if (source < 0 && hasField(row, SOLUTION)) out = putField(out, arena, row, SOLUTION);
    else if (json) out = put(out, JSON_NULL, 4);
    if (json) out = put(out, JSON_COUNT, 9);
    else store<u8>(out++, 44);
    out = putNumber(out, <u64>found);
    if (json) out = put(out, JSON_GUESSES, 11);
    else store<u8>(out++, 44);
    if (source >= 0 && withGuesses != 0) out = putSigned(out, load<i32>(guessCounts + (<usize>source << 2)));
    else if (source < 0 && hasField(row, GUESSES)) out = putField(out, arena, row, GUESSES);
    else if (json) out = put(out, JSON_NULL, 4);
    if (json) out = put(out, JSON_ERROR, 9);
    else store<u8>(out++, 44);
    if (source < 0 && hasField(row, ERROR)) out = putField(out, arena, row, ERROR);
    else if (json) out = put(out, JSON_NULL, 4);
    if (json) out = put(out, JSON_END, 2);
    else store<u8>(out++, 10);
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

/** Where {@link scanLines} writes its table in the room reserved: per line its start, its end and its number among the fast lines or -1 (3 × i32). */
export function scanTable(): usize {
  return scanLinesAt(scanBase, scanRoom);
}

/** Where {@link scanLines} writes the 81 cell bytes of each fast line, in order. */
export function scanCells(): usize {
  return scanCellsAt(scanBase, scanRoom);
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
