/**
 * Batches: the unit of work that crosses to a worker thread, and what comes back, in bytes.
 *
 *   main thread                                    worker (or the main thread with --threads 0)
 *   BatchBuilder (builder.ts) ── BatchTask ───────► solveTask(engines, task) (solve-task.ts)
 *     cells    81 bytes per 9×9 digit line           fast records: cells → kernel memory → output bytes
 *     lines    Int32Array                            other records: parseRecord, grouped by size and alphabet
 *     textAt, texts   the other records (rare)       one solveGroup call per group (solver.ts)
 *     readErrors, alphabet, budget                   each record in the --out format, in order
 *     (transferred; a copy kept for one retry)
 *                ◄─────────────────── BatchOutcome ─ bytes (the batch's output), tally, errors
 *
 * This file holds what both sides share: the two shapes, and the copying, slicing and joining of
 * their buffers (which come from, and go back to, each thread's pool: buffers.ts). A fast record
 * (reader.ts: a line of 81 cell bytes) never becomes a string or an object: its bytes go from the
 * input chunk to `cells`, to the kernel's memory, and its solution from the kernel's memory to the
 * output bytes. A batch holds the records of one file, consecutive in the run (or in its shard),
 * so `firstIndex + i × indexStep` is record i's index.
 */
import type { Alphabet } from "../model/puzzle.js";
import { CELLS } from "../model/shape.js";
import type { OutputFormatName } from "../formats/output/index.js";
import { STATUSES } from "../solvers/solver.js";
import { type BufferPool, batchBuffers } from "./buffers.js";

/** What a canon batch (canon-task.ts) writes besides each form. */
export interface CanonRequest {
  /** The number of transformations that map each puzzle onto itself. */
  automorphisms: boolean;
  /** Whether each puzzle is minimal: uniquely solvable, and not once any clue is removed. */
  minimal: boolean;
}

/** The records of one batch, as columns. */
export interface BatchTask {
  file: string;
  /** Run-wide 0-based index of the first record. */
  firstIndex: number;
  /** How far apart the indexes of consecutive records are (N with `--shard K/N`). @default 1 */
  indexStep?: number;
  /** Each record's 1-based start line in its file; its length is the batch's record count. */
  lines: Int32Array;
  /** The 81 cell bytes, as read, of each fast record (a 9×9 line, see reader.ts), in order. */
  cells: Uint8Array;
  /** Positions in the batch of the other records, ascending; every other position is a fast record. */
  textAt: Int32Array;
  /** The texts of the other records, in the order of `textAt`. */
  texts: string[];
  /** Records the reader could not read: [position in the batch, message]. */
  readErrors: [number, string][];
  limit: number;
  output: OutputFormatName;
  /** The `--alphabet` (symbols of the grids of its size); null or absent for none. */
  alphabet?: Alphabet | null;
  /**
   * Search nodes per puzzle (`--budget`; Infinity for none); a puzzle over it gets status `timeout`.
   * @default see budgetFor in solver.ts: none for 9×9, LARGE_GRID_BUDGET for the other sizes
   */
  budget?: number;
  /** Room for the batch's output ({@link outputRoom} bytes), written into and handed back (buffers.ts); absent: the solver makes its own. */
  out?: Uint8Array;
  /** Set: the batch's work is `canon` (minlex forms, canon-task.ts), not solving. */
  canon?: CanonRequest;
}

/** The output bytes a batch of `count` records usually fits in (a record that does not fit grows the buffer). */
export function outputRoom(task: Pick<BatchTask, "output" | "file">, count: number): number {
  return Math.max(64, count * (task.output === "line" ? CELLS + 1 : 2 * CELLS + 160 + 3 * task.file.length));
}

/** The distinct buffers of `pieces`, views or buffers (a buffer may appear only once in a transfer list). */
function buffersOf(pieces: readonly (ArrayBufferView | ArrayBuffer | undefined)[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const piece of pieces) {
    if (piece === undefined) continue;
    const buffer = (ArrayBuffer.isView(piece) ? piece.buffer : piece) as ArrayBuffer;
    if (!buffers.includes(buffer)) buffers.push(buffer);
  }
  return buffers;
}

/** The buffers of a task, to transfer to a worker. */
export function taskBuffers(task: BatchTask): ArrayBuffer[] {
  return buffersOf([task.lines, task.cells, task.textAt, task.out]);
}

/** The buffers of an outcome and of the task it came from, to hand back (transfer from a worker, then {@link giveBack}). */
export function outcomeBuffers(outcome: BatchOutcome): ArrayBuffer[] {
  return buffersOf([outcome.bytes, ...(outcome.spent ?? [])]);
}

/** Gives the buffers of a written outcome, and of its task, back to this thread's pool. */
export function giveBack(outcome: BatchOutcome): void {
  for (const buffer of outcomeBuffers(outcome)) batchBuffers.give(buffer);
}

/** Gives a task's buffers back to this thread's pool (a copy kept for a retry that was not needed). */
export function giveBackTask(task: BatchTask): void {
  for (const buffer of taskBuffers(task)) batchBuffers.give(buffer);
}

/**
 * The plain typed-array class of `array`: Int32Array or Uint8Array, also for a Node Buffer (a
 * Uint8Array whose constructor, called with new, is deprecated: DEP0005).
 */
function kindOf<T extends Int32Array | Uint8Array>(array: T): new (buffer: ArrayBuffer, offset: number, length: number) => T {
  return (array instanceof Int32Array ? Int32Array : Uint8Array) as unknown as new (
    buffer: ArrayBuffer,
    offset: number,
    length: number,
  ) => T;
}

/** `source`'s elements in a typed array over a buffer from `pool`, or a copy of their own without one. */
function copied<T extends Int32Array | Uint8Array>(source: T, pool: BufferPool | undefined): T {
  if (pool === undefined) return source.slice() as T;
  const Kind = kindOf(source);
  const copy = new Kind(pool.take(source.byteLength), 0, source.length);
  copy.set(source);
  return copy;
}

/** Output room for `task` from `pool` (none without a pool). */
function pooledRoom(task: BatchTask, count: number, pool: BufferPool | undefined): Uint8Array | undefined {
  if (pool === undefined) return undefined;
  const bytes = outputRoom(task, count);
  return new Uint8Array(pool.take(bytes), 0, bytes);
}

/**
 * A copy of `task` with buffers of its own (a task's buffers go with it to the worker), from
 * `pool` when given; without output room (a retry, its only use, makes its own).
 */
export function copyTask(task: BatchTask, pool?: BufferPool): BatchTask {
  return {
    ...task,
    lines: copied(task.lines, pool),
    cells: copied(task.cells, pool),
    textAt: task.textAt.slice(),
    texts: task.texts.slice(),
    readErrors: task.readErrors.slice(),
    out: undefined,
  };
}

/** `task` with output room from `pool` (its other buffers are its own already: a batch sealed whole, builder.ts). */
export function withOutputRoom(task: BatchTask, pool: BufferPool): BatchTask {
  return { ...task, out: pooledRoom(task, task.lines.length, pool) };
}

/** Records `start` to `end` of `task` as a task of their own, with buffers of its own (from `pool` when given). */
export function sliceTask(task: BatchTask, start: number, end: number, pool?: BufferPool): BatchTask {
  let first = 0; // the first of textAt at or after `start`
  while (first < task.textAt.length && task.textAt[first] < start) first++;
  let last = first;
  while (last < task.textAt.length && task.textAt[last] < end) last++;
  const fastStart = start - first; // fast records before `start`
  const fastEnd = end - last;
  return {
    ...task,
    firstIndex: task.firstIndex + start * (task.indexStep ?? 1),
    lines: copied(task.lines.subarray(start, end), pool),
    cells: copied(task.cells.subarray(fastStart * CELLS, fastEnd * CELLS), pool),
    textAt: task.textAt.slice(first, last).map((at) => at - start),
    texts: task.texts.slice(first, last),
    readErrors: task.readErrors.filter(([at]) => at >= start && at < end).map(([at, message]) => [at - start, message]),
    out: pooledRoom(task, end - start, pool),
  };
}

/** One outcome of the outcomes of consecutive slices of a batch, in order. */
export function joinOutcomes(parts: readonly BatchOutcome[]): BatchOutcome {
  if (parts.length === 1) return parts[0];
  const length = parts.reduce((sum, part) => sum + part.bytes.length, 0);
  const bytes = new Uint8Array(batchBuffers.take(length), 0, length); // given back with the outcome (giveBack)
  let at = 0;
  for (const part of parts) {
    bytes.set(part.bytes, at);
    at += part.bytes.length;
  }
  const tally = STATUSES.map((_, i) => parts.reduce((sum, part) => sum + (part.tally[i] ?? 0), 0));
  const solveMs = parts.reduce((sum, part) => sum + (part.solveMs ?? 0), 0);
  return { bytes, tally, errors: parts.flatMap((part) => part.errors).slice(0, ERRORS_PER_BATCH), spent: parts.flatMap(outcomeBuffers), solveMs };
}

/** A task of records given as texts (each read as the reader would; none takes the fast path): for tests and benches. */
export function textTask(
  settings: Omit<BatchTask, "cells" | "textAt" | "texts" | "lines" | "readErrors"> & { texts: readonly string[]; lines?: Int32Array },
): BatchTask {
  const { texts, lines, ...rest } = settings;
  return {
    ...rest,
    lines: lines ?? Int32Array.from(texts, (_, i) => i + 1),
    cells: new Uint8Array(0),
    textAt: Int32Array.from(texts, (_, i) => i),
    texts: [...texts],
    readErrors: [],
  };
}

/** What a worker sends back for one batch. */
export interface BatchOutcome {
  /** The batch's output, one output record per input record, in order, as UTF-8 bytes. */
  bytes: Uint8Array;
  /** Records per status, in {@link STATUSES} order. */
  tally: number[];
  /** The first few error messages of the batch (for the summary on stderr). */
  errors: string[];
  /** The task's buffers, handed back with the outcome to be used again once `bytes` are written (see buffers.ts). */
  spent?: ArrayBuffer[];
  /** Milliseconds the batch took to solve, on its thread (batches are sized by it, see pipeline.ts). */
  solveMs?: number;
}

/** Error messages a batch reports back at most. */
export const ERRORS_PER_BATCH = 10;

export { grown } from "../solvers/solver.js";
