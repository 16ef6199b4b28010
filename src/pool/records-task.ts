/**
 * The library's batches (solver-pool.ts): a batch of inputs solved on a worker, whose results
 * come back as columns, not records. A batch of 9×9 lines (strings of 81 ASCII characters, the
 * common case) crosses as their text, which the worker reads; any other batch the main thread
 * reads first (solver.ts readInputs).
 *
 *   main thread                                       worker
 *   the lines' text, or readInputs ── RecordsTask ──► solveRecordsHere(engines, task)
 *     text      81 bytes per line                       readTextLines: the digit lines as cells,
 *     cells     81 bytes per 9×9 line of digits           the other lines read whole
 *     puzzles   the other puzzles, read (rare)          solveRead: the digit lines in one kernel
 *     (cells transferred, text copied)                    call, the other puzzles by size
 *   batchRecordsInOrder ◄───────────── RecordsOutcome ─ counts, guesses, nodes, solutions
 *     one record per input, in order                    (transferred), the other puzzles' records,
 *                                                       where the lines read from text went
 *
 * The records are made on the main thread from the columns: a record object cloned across
 * threads costs more than solving its puzzle.
 */
import type { Puzzle } from "../model/puzzle.js";
import { CELLS } from "../model/shape.js";
import {
  type BatchResult,
  type CheckedOptions,
  type ReadBatch,
  type SizeEngine,
  type SolveRecord,
  DigitLines,
  readTextLines,
  rejectedDigitRecords,
  solveRead,
} from "../solvers/solver.js";

/** A batch as it crosses to a worker: its lines' text, or what {@link solveRead} needs of it read. */
export interface RecordsTask {
  kind: "records";
  /** The batch's lines as text, 81 bytes each (copied into the message, so that the task serves for a retry too); null when the main thread read the batch. */
  text: Uint8Array | null;
  /** The 9×9 lines of digits, 81 cell bytes each (transferred). */
  cells: Uint8Array;
  digitCount: number;
  /** The other puzzles of the batch, read. */
  puzzles: Puzzle[];
  options: CheckedOptions;
}

/** What a worker sends back for a {@link RecordsTask}. */
export interface RecordsOutcome {
  /** The digit lines' results (their buffers transferred), or null when there were none. */
  digits: BatchResult | null;
  /** The records of the other puzzles, in order. */
  puzzles: SolveRecord[];
  /**
   * For a task of text: the batch as the worker read it, without its puzzles or cells (the
   * digit lines' slots transferred, and left out when every line is one); null otherwise.
   */
  read: ReadBatch | null;
  /** For a task of text: the records of the digit lines the kernel rejected (a repeated clue), by index among them. */
  rejected?: Map<number, SolveRecord>;
}

/** The task of a batch the main thread read (its cells are transferred with it: the caller keeps a copy if it needs one). */
export function recordsTask(batch: ReadBatch, options: CheckedOptions): RecordsTask {
  return { kind: "records", text: null, cells: batch.cells, digitCount: batch.digitCount, puzzles: batch.puzzles, options };
}

/** The task of a batch of lines written as text, 81 bytes each (solver.ts linesText). */
export function textTask(text: Uint8Array, options: CheckedOptions): RecordsTask {
  return { kind: "records", text, cells: new Uint8Array(0), digitCount: 0, puzzles: [], options };
}

/** Solves a records task on this thread's engines; the results are copies, safe to transfer. */
export function solveRecordsHere(engines: ReadonlyMap<number, SizeEngine>, task: RecordsTask): RecordsOutcome {
  if (task.text !== null) {
    const count = task.text.length / CELLS;
    const read = readTextLines(task.text, count, task.options.alphabet, new DigitLines(count));
    const solved = solveRead(engines, read, task.options);
    const rejected = solved.digits === null ? undefined : rejectedDigitRecords(read, solved.digits);
    const digits = solved.digits === null ? null : copyResult(solved.digits);
    const digitSlots = read.digitCount === count ? NO_SLOTS : read.digitSlots;
    return { digits, puzzles: solved.puzzles, read: { ...read, puzzles: [], cells: NO_CELLS, digitSlots }, rejected };
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
  const digits = solved.digits === null ? null : copyResult(solved.digits);
  return { digits, puzzles: solved.puzzles, read: null };
}

const NO_CELLS = new Uint8Array(0);
const NO_SLOTS = new Int32Array(0);

/** Copies of a batch's results (a kernel's are views into its memory). */
function copyResult(result: BatchResult): BatchResult {
  return { counts: result.counts.slice(), guesses: result.guesses.slice(), nodes: result.nodes.slice(), solutions: result.solutions.slice() };
}

/** The buffers of an outcome, to transfer to the main thread. */
export function recordsOutcomeBuffers(outcome: RecordsOutcome): ArrayBuffer[] {
  const buffers: ArrayBufferLike[] = [];
  const { digits, read } = outcome;
  if (digits !== null) buffers.push(digits.counts.buffer, digits.guesses.buffer, digits.nodes.buffer, digits.solutions.buffer);
  if (read !== null && read.digitSlots.length > 0) buffers.push(read.digitSlots.buffer);
  return buffers as ArrayBuffer[];
}
