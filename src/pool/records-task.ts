/**
 * The library's batches (solver-pool.ts): a batch of inputs the main thread has read
 * (solver.ts readInputs), solved on a worker, whose results come back as columns, not records.
 *
 *   main thread                                       worker
 *   readInputs ── RecordsTask ──────────────────────► solveRecordsHere(engines, task): solveRead
 *     cells     81 bytes per 9×9 line of digits         the digit lines in one kernel call,
 *     puzzles   the other puzzles, read (rare)          the other puzzles by size and alphabet
 *     (cells transferred, not copied)
 *   batchRecordsInOrder ◄───────────── RecordsOutcome ─ counts, guesses, nodes, solutions
 *     one record per input, in order                    (transferred), the other puzzles' records
 *
 * The records are made on the main thread from the columns: a record object cloned across
 * threads costs more than solving its puzzle.
 */
import type { Puzzle } from "../puzzle.js";
import { type BatchResult, type CheckedOptions, type ReadBatch, type SizeEngine, type SolveRecord, solveRead } from "../solver.js";

/** A read batch as it crosses to a worker: what {@link solveRead} needs of it. */
export interface RecordsTask {
  kind: "records";
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
}

/** The task of a read batch (its cells are transferred with it: the caller keeps a copy if it needs one). */
export function recordsTask(batch: ReadBatch, options: CheckedOptions): RecordsTask {
  return { kind: "records", cells: batch.cells, digitCount: batch.digitCount, puzzles: batch.puzzles, options };
}

/** Solves a records task on this thread's engines; the results are copies, safe to transfer. */
export function solveRecordsHere(engines: ReadonlyMap<number, SizeEngine>, task: RecordsTask): RecordsOutcome {
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
  return { digits, puzzles: solved.puzzles };
}

/** Copies of a batch's results (a kernel's are views into its memory). */
function copyResult(result: BatchResult): BatchResult {
  return { counts: result.counts.slice(), guesses: result.guesses.slice(), nodes: result.nodes.slice(), solutions: result.solutions.slice() };
}

/** The buffers of an outcome, to transfer to the main thread. */
export function recordsOutcomeBuffers(outcome: RecordsOutcome): ArrayBuffer[] {
  const digits = outcome.digits;
  if (digits === null) return [];
  return [digits.counts.buffer, digits.guesses.buffer, digits.nodes.buffer, digits.solutions.buffer] as ArrayBuffer[];
}
