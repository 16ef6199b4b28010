/**
 * The library pool's batches: solved on a worker, their results come back as columns in a {@link BatchMemory}, and the main
 * thread makes the records (cloning record objects across threads would cost more than solving their puzzles).
 *
 *   main thread                                       worker
 *   the lines' text into the memory,                  solveRecordsHere(engines, task)
 *   or readInputs ──────────── RecordsTask ─────────►   text: solveText (solver.ts), in the
 *     memory    shared: text, then results              kernel when it is digits and `.` only
 *     cells     81 bytes per 9×9 line of digits         read: solveRead, the digit lines in one
 *     puzzles   the other puzzles, read (rare)          kernel call, the other puzzles by size;
 *     (cells transferred)                               their counts, guesses, nodes, solutions
 *                                                       (as text from the kernel) into the memory
 *   orderedRecords ◄────────────── RecordsOutcome ─ the other puzzles' records, where the lines
 *     one record per input, in order, each            read from text went
 *     made when it is taken
 */
import type { Puzzle } from "../model/puzzle.js";
import { CELLS } from "../model/shape.js";
import { batchBuffers } from "./batch.js";
import {
  type BatchResult,
  type CheckedOptions,
  type ReadBatch,
  type SizeEngine,
  type SolveRecord,
  DigitLines,
  solveRead,
  solveText,
} from "../solvers/solver.js";

/**
 * A batch's memory, shared by the main thread and its worker and reused from batch to batch (from {@link batchBuffers}), so
 * no external memory is allocated per batch to trigger full collections. Where nothing can be shared (a page without
 * cross-origin isolation) it is an ArrayBuffer that goes to the worker and comes back ({@link adopt}).
 *
 *   guesses  f64 × room │ nodes  f64 × room │ counts  i32 × room │ text  81 × room │ solutions  81 × room
 */
export class BatchMemory {
  /** The memory, or (not shared) the buffer it came back in. */
  buffer: ArrayBufferLike;

  constructor(readonly room: number) {
    this.buffer = batchBuffers.take(room * BYTES_PER_INPUT, SHARED_MEMORY);
  }

  /** The memory as it came back from the worker, when it crossed rather than being shared. */
  adopt(buffer: ArrayBuffer): void {
    this.buffer = buffer;
  }

  /** Gives the memory back for a later batch; neither thread reads or writes it any more. */
  release(): void {
    batchBuffers.give(this.buffer);
  }

  /** The text of `count` lines, 81 bytes each. */
  text(count: number): Uint8Array {
    return textOf(this.buffer, this.room, count);
  }

  /** The results of the first `count` digit lines, as the worker wrote them. */
  result(count: number): BatchResult {
    return resultOf(this.buffer, this.room, count);
  }
}

/** Whether this thread can share memory with its workers: not in a browser page without cross-origin isolation. */
const SHARED_MEMORY = typeof SharedArrayBuffer !== "undefined" && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;

/** Bytes of a {@link BatchMemory} per input. */
const BYTES_PER_INPUT = 8 + 8 + 4 + CELLS + CELLS;

function textOf(memory: ArrayBufferLike, room: number, count: number): Uint8Array {
  return new Uint8Array(memory, room * 20, count * CELLS);
}

function resultOf(memory: ArrayBufferLike, room: number, count: number): BatchResult {
  return {
    guesses: new Float64Array(memory, 0, count),
    nodes: new Float64Array(memory, room * 8, count),
    counts: new Int32Array(memory, room * 16, count),
    solutions: new Uint8Array(memory, room * (20 + CELLS), count * CELLS),
  };
}

/** A batch as it crosses to a worker: its lines' text in its memory, or what {@link solveRead} needs of it read. */
export interface RecordsTask {
  kind: "records";
  /** The batch's {@link BatchMemory} (shared, or transferred and sent back: not copied): the worker writes the digit lines' results there. */
  memory: ArrayBufferLike;
  /** The inputs its layout has room for ({@link BatchMemory.room}). */
  room: number;
  /** Lines of text in the memory, 81 bytes each (the task serves for a retry too); 0 when the main thread read the batch. */
  textCount: number;
  /** The 9×9 lines of digits, 81 cell bytes each (transferred). */
  cells: Uint8Array;
  digitCount: number;
  /** The other puzzles of the batch, read. */
  puzzles: Puzzle[];
  options: CheckedOptions;
}

/** What a worker sends back for a {@link RecordsTask}; the digit lines' results are in the task's memory. */
export interface RecordsOutcome {
  /** The records of the other puzzles, in order. */
  puzzles: SolveRecord[];
  /** For a task of text: the batch as the worker read it, without its puzzles or cells (digit slots left out when every line is one); else null. */
  read: ReadBatch | null;
  /** The records of the digit lines the kernel rejected (a repeated clue), by index among them. */
  rejected?: ReadonlyMap<number, SolveRecord>;
  /** True when the digit lines' solutions in the memory are text (`1`–`9`), not cells. */
  solutionsText?: boolean;
  /** The task's memory, back from the worker, when it was transferred rather than shared (a browser's pool). */
  memory?: ArrayBuffer;
}

/** A copy of a task's lines' text, kept for a retry while transferred memory is with a worker that may die with it. Give it back when unused. */
export function retryMemory(task: RecordsTask): ArrayBuffer {
  const copy = batchBuffers.take(task.memory.byteLength);
  const text = textOf(task.memory, task.room, task.textCount);
  new Uint8Array(copy, text.byteOffset, text.length).set(text);
  return copy;
}

/** The task of a batch the main thread read (its cells are transferred with it: the caller keeps a copy if it needs one). */
export function recordsTask(memory: BatchMemory, batch: ReadBatch, options: CheckedOptions): RecordsTask {
  return {
    kind: "records",
    memory: memory.buffer,
    room: memory.room,
    textCount: 0,
    cells: batch.cells,
    digitCount: batch.digitCount,
    puzzles: batch.puzzles,
    options,
  };
}

/** The task of a batch of `count` lines written as text in `memory` (solver.ts linesText). */
export function linesTask(memory: BatchMemory, count: number, options: CheckedOptions): RecordsTask {
  return { kind: "records", memory: memory.buffer, room: memory.room, textCount: count, cells: NO_CELLS, digitCount: 0, puzzles: [], options };
}

/** The digit lines of this thread's tasks, read from text (one task at a time). */
const digitLines = new DigitLines();

/** Solves a records task on this thread's engines: the digit lines' results into the task's memory. */
export function solveRecordsHere(engines: ReadonlyMap<number, SizeEngine>, task: RecordsTask): RecordsOutcome {
  try {
    return solveRecords(engines, task);
  } finally {
    digitLines.release(); // read afresh by the next task (it keeps no count of this one's lines)
  }
}

function solveRecords(engines: ReadonlyMap<number, SizeEngine>, task: RecordsTask): RecordsOutcome {
  const { room } = task;
  if (task.textCount > 0) {
    const count = task.textCount;
    const { read, solved } = solveText(engines, textOf(task.memory, room, count), count, task.options, digitLines);
    const { digits, puzzles, rejected, solutionsText } = solved;
    if (digits !== null) keep(digits, resultOf(task.memory, room, read.digitCount));
    const digitSlots = read.digitCount === count ? NO_SLOTS : read.digitSlots.slice();
    return { puzzles, read: { ...read, puzzles: [], cells: NO_CELLS, digitSlots }, rejected, solutionsText };
  }
  const batch: ReadBatch = {
    count: task.digitCount + task.puzzles.length,
    cells: task.cells,
    digitSlots: new Int32Array(0),
    digitCount: task.digitCount,
    puzzles: task.puzzles,
    puzzleSlots: [],
    records: [],
    recordSlots: [],
  };
  const solved = solveRead(engines, batch, task.options);
  if (solved.digits !== null) keep(solved.digits, resultOf(task.memory, room, task.digitCount));
  return { puzzles: solved.puzzles, read: null, rejected: solved.rejected };
}

const NO_CELLS = new Uint8Array(0);
const NO_SLOTS = new Int32Array(0);

/** Copies a batch's results (a kernel's are views into its memory) into `to`. */
function keep(result: BatchResult, to: BatchResult): void {
  to.counts.set(result.counts);
  to.guesses.set(result.guesses);
  to.nodes.set(result.nodes);
  to.solutions.set(result.solutions.subarray(0, to.solutions.length));
}

/** The buffers of an outcome, to transfer to the main thread. */
export function recordsOutcomeBuffers(outcome: RecordsOutcome): ArrayBuffer[] {
  const { read } = outcome;
  return read !== null && read.digitSlots.length > 0 ? [read.digitSlots.buffer as ArrayBuffer] : [];
}
