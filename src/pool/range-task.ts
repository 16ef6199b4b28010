/**
 * Ranges: a byte range of a regular input file, read, scanned and solved on the thread that
 * solves it, so the main thread touches none of its bytes (see the ranged phase in
 * ../cli/pipeline.ts). It serves the common bulk run: a file of 9×9 lines in `line` output.
 *
 *   main thread                         the solving thread (a worker, or the main one)
 *   RangeTask: fd, from, to ──────────► solveRange: read the bytes → the kernel's scanLines →
 *     (+ output room, transferred)        every line a 9×9 line of cell bytes? → solve them →
 *                                         the kernel's line output into the room
 *             ◄──────────────────────── RangeOutcome: bytes, tally, lines, start, end
 *                                         or fellBack: the main thread reads the range itself
 *
 * Which lines a range holds: those that start in [from, to). Boundaries are put only after a
 * `\n` (a `\r` alone ends a line too, as in lines.ts, but is never taken for a boundary): a
 * range's first line starts after the first `\n` at or after `from - 1`, and its last line ends
 * with the first `\n` at or after `to - 1`, the same rule on both sides of a boundary, whichever
 * thread reads it. The first range of a phase starts at `from` itself (`exact`: the main thread
 * has read up to that line start). A last line of the file without a line end is in no range:
 * the main thread reads it, after the phase, as it reads the end of any file.
 *
 * A range is solved only when every line in it is a 9×9 line of cell bytes (81 of `1`–`9` and
 * the empty marks, maybe spaces or tabs after them): then each line is one record of the line
 * reader's fast path, and its output does not depend on its line number. Anything else (a
 * blank line, a comment, a grid, a header, a puzzle with a clue repeated, whose error names its
 * line) makes the range fall back: the main thread reads it as any input, from its start.
 */
import { readSync } from "node:fs";
import { CELLS, SHAPE_9 } from "../shape.js";
import { STATUSES, solveGroup } from "../solver.js";
import { LineScanner } from "../wasm.js";
import { type BatchEngines, kernelLines } from "./solve-task.js";
import type { BatchOutcome } from "./task.js";

/** A byte range of a file to solve, in `line` output. */
export interface RangeTask {
  kind: "range";
  /**
   * A descriptor of the file, open on the main thread for the whole phase (a worker shares the
   * process's descriptors; a range is read by position, so the file is read where it stands even
   * if it is renamed or deleted meanwhile).
   */
  fd: number;
  /** The range is the lines that start in [from, to). */
  from: number;
  to: number;
  /** `from` is a line start (the first range of a phase): no line end is looked for before it. */
  exact: boolean;
  limit: number;
  /** Search nodes per puzzle (`--budget`); see BatchTask.budget. */
  budget?: number;
  /** Room for the output, at least {@link rangeOutputRoom} bytes, written into and handed back. */
  out: Uint8Array;
}

/** What a range gives back. */
export interface RangeOutcome extends BatchOutcome {
  /** Records (lines) in the range; 0 when it fell back. */
  lines: number;
  /**
   * File offsets of its first line's start and of the end of its last line end (the next
   * range's start); when it fell back, where it was found to (at most its first line's start);
   * -1 for a range after the start of the file's last line, when that line has no line end
   * (the main thread reads it).
   */
  start: number;
  end: number;
  /** Why the range was not solved here (then `bytes` is empty and the main thread reads it); absent when it was. */
  fellBack?: string;
}

/**
 * Bytes read past `to` to find the end of the line that crosses it: longer than any line a
 * range solves (81 cells and a few spaces); a longer line there makes the range fall back.
 */
export const RANGE_OVERLAP = 1 << 12;

/**
 * The largest range, so that the bytes it is read in (the byte before it, the range, its
 * overlap) fit 1 MiB, and its output (never more bytes than its lines: 82 a record) one 1 MiB
 * buffer of the pool (buffers.ts).
 */
export const MAX_RANGE_BYTES = (1 << 20) - RANGE_OVERLAP - 1;

/** The most bytes a range is read in. */
const MAX_READ_BYTES = 1 + MAX_RANGE_BYTES + RANGE_OVERLAP;

/** The output room a range of these bounds needs: at most the bytes its lines take (from its first line's start, which may be `from`, to its last line end, at most RANGE_OVERLAP past `to`). */
export function rangeOutputRoom(from: number, to: number): number {
  return to - from + RANGE_OVERLAP;
}

const LF = 10;
const CR = 13;

/** The buffer ranges are read into on this thread (one range at a time), made at the largest size on first use. */
let readBuffer = Buffer.alloc(0);

/** This thread's scanner for ranges (a kernel instance of its own), made for the first. */
let threadScanner: Promise<LineScanner> | undefined;

/** {@link solveRange} with this thread's scanner, made for its first range. */
export async function solveRangeHere(engines: BatchEngines, task: RangeTask): Promise<RangeOutcome> {
  return solveRange(engines, await (threadScanner ??= LineScanner.create()), task);
}

/** A range not solved, for `reason` (the main thread reads it itself). */
export function rangeNotSolved(task: RangeTask, reason: string): RangeOutcome {
  return noRecords(task, task.from, task.from, reason);
}

/** An outcome with no records: a range that fell back (`reason`), or one no line starts in. */
function noRecords(task: RangeTask, start: number, end: number, reason?: string): RangeOutcome {
  const outcome: RangeOutcome = { bytes: new Uint8Array(0), tally: STATUSES.map(() => 0), errors: [], lines: 0, start, end, spent: [task.out.buffer as ArrayBuffer] };
  if (reason !== undefined) outcome.fellBack = reason;
  return outcome;
}

/** Reads the bytes of `fd` from `position` into `bytes` up to `wanted` (fewer at the file's end); returns how many were read. */
function readAt(fd: number, bytes: Buffer, position: number, wanted: number): number {
  let length = 0;
  for (let got = -1; length < wanted && got !== 0; length += got) got = readSync(fd, bytes, length, wanted - length, position + length);
  return length;
}

/**
 * Reads `task`'s range of its file, and when every line in it is a 9×9 line of cell bytes,
 * solves them on `engines`' 9×9 engine and writes their `line` output into `task.out`; otherwise
 * tells why not ({@link RangeOutcome.fellBack}). `scanner` finds the lines (the kernel's scan).
 */
export function solveRange(engines: BatchEngines, scanner: LineScanner, task: RangeTask): RangeOutcome {
  const began = performance.now();
  const exact = task.exact || task.from === 0;
  const readFrom = exact ? task.from : task.from - 1;
  const wanted = task.to + RANGE_OVERLAP - readFrom;
  if (wanted > MAX_READ_BYTES) throw new RangeError(`a range is at most ${MAX_RANGE_BYTES} bytes, not ${task.to - task.from}`);
  if (readBuffer.length === 0) readBuffer = Buffer.allocUnsafe(MAX_READ_BYTES); // the largest at once: its size never changes
  scanner.reserve(MAX_READ_BYTES);
  const bytes = readBuffer;
  let length: number;
  try {
    length = readAt(task.fd, bytes, readFrom, wanted);
  } catch (error) {
    return rangeNotSolved(task, `reading it failed: ${String(error)}`); // the main thread reads it, and reports the failure
  }
  /** The position after the first `\n` at or after `at` in what was read, or -1. */
  const afterLineEnd = (at: number): number => {
    const lineEnd = at < length ? bytes.indexOf(LF, at) : -1;
    return lineEnd >= 0 && lineEnd < length ? lineEnd + 1 : -1;
  };
  const atEnd = length < wanted; // the file ends before the range's overlap does
  const start = exact ? 0 : afterLineEnd(0);
  if (start < 0) {
    if (!atEnd) return rangeNotSolved(task, "no line end near the range's start");
    return noRecords(task, -1, -1); // the file ends in a line begun before the range, which an earlier range left to the main thread
  }
  let end = afterLineEnd(task.to - 1 - readFrom);
  if (end < 0) {
    if (!atEnd) return noRecords(task, readFrom + start, readFrom + start, "no line end near the range's end");
    // At the file's end, the range ends with its last line end: a last line without one is left
    // to the main thread's reader (which reads on from the range's end), as is a line still
    // being written to a file that grows.
    end = start;
    for (let at = length - 1; at >= start; at--) {
      if (bytes[at] === LF || bytes[at] === CR) {
        end = at + 1;
        break;
      }
    }
  }
  const startAt = readFrom + start;
  const endAt = readFrom + end;
  if (start >= end) return noRecords(task, startAt, endAt);
  const { count, table, cells } = scanner.scan(bytes.subarray(0, end), start);
  for (let i = 0; i < count; i++) if (table[3 * i + 2] < 0) return noRecords(task, startAt, startAt, `line ${i + 1} of the range is not a 9×9 line`);
  // Every byte up to the range's end is in a line the scan took (a `\r\n` is one line end).
  const lastEnd = count === 0 ? -1 : table[3 * count - 2];
  if (lastEnd + (bytes[lastEnd] === CR && lastEnd + 1 < end && bytes[lastEnd + 1] === LF ? 2 : 1) !== end) return noRecords(task, startAt, startAt, "the range's last line is not a 9×9 line");
  const { engine } = engines.get(SHAPE_9.size)!;
  const result = solveGroup(engine, CELLS, count, { text: cells.subarray(0, count * CELLS) }, task.limit, task.budget);
  const written = kernelLines(engine, count, result, task.out);
  if (written === null) return noRecords(task, startAt, startAt, "no line output: a clue repeated (its error names its line), or an engine that writes none");
  return {
    ...written,
    spent: [task.out.buffer as ArrayBuffer], // handed back with the bytes (once, if they are in it)
    lines: count,
    start: startAt,
    end: endAt,
    solveMs: performance.now() - began,
  };
}
