// Text in for the CLI's byte path: the host hands 9×9 text to the kernel, and these entry points
// (exported by index.ts, the module's entry) do the conversions over a whole batch or chunk, 16
// bytes a step, byte for byte what the host's text readers do (src/formats/input):
//   cellsFromText   81 bytes of text per puzzle to cells, in place
//   reserveScan, scanLines          a chunk of input split into lines, the 9×9 lines' cells copied out
// The output formats are written on the host (src/formats/output), for every record alike.
// The batch's layout and the block it lives in are in batch.ts; nothing here solves.

import { CELLS, outsideReservedBatch } from "./batch";

// ── Cells in ────────────────────────────────────────────────────────────────────────────────
// The host copies 9×9 lines into a batch as they were read (81 bytes of text each); they become
// cells here, over the whole batch.

/**
 * Turns the puzzles of the batch at `base`, written as text (81 bytes each: `1`–`9` a clue, any
 * other byte an empty cell), into cells (1–9, 0 empty) in place. Returns `count`, or -1 when
 * that is not the batch reserved.
 */
export function cellsFromText(base: usize, count: i32): i32 {
  if (outsideReservedBatch(base, count)) return -1;
  const end = base + <usize>count * CELLS;
  const zero = i8x16.splat(48);
  const one = i8x16.splat(1);
  const eight = i8x16.splat(8);
  let at = base;
  for (; at + 16 <= end; at += 16) {
    const value = i8x16.sub(v128.load(at), zero);
    v128.store(at, v128.and(value, i8x16.le_u(i8x16.sub(value, one), eight))); // 1–9 stay, the rest 0
  }
  for (; at < end; at++) {
    const value = <u32>load<u8>(at) - 48;
    store<u8>(at, value - 1 <= 8 ? <u8>value : 0);
  }
  return count;
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
