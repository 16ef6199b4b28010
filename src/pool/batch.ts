/**
 * Batches: the unit of work that crosses to a worker thread, and what comes back.
 *
 *   main thread                                   worker (or main thread with --threads 0)
 *   BatchBuilder ── BatchTask ──────────────────► solveBatch(kernel, task)
 *     texts  "t0\nt1\n…"   one string per batch      parseRecord each text → grid | error
 *     lines  Int32Array    transferred               kernel.input(n) ← grids, kernel.run(n, limit)
 *     readErrors [[i, msg]] (rare)                   format each record with the --out format
 *                ◄──────────────── BatchOutcome ───  text (the batch's output), tally, errors
 *
 * Strings cross the thread boundary once per batch, never per puzzle. A batch holds the
 * records of one file, consecutive in the run, so `firstIndex + i` is record i's index.
 */
import { type SolveRecord, invalidRecord, statusOf } from "../solver.js";
import { type PuzzleRecord, type ReadRecord, type GridShape, SHAPE_9, parseRecord } from "../formats/record.js";
import { type OutputFormatName, outputFormats } from "../formats/output/index.js";
import type { WasmKernel } from "../wasm.js";

/** The records of one batch, as columns. */
export interface BatchTask {
  file: string;
  /** Run-wide 0-based index of the first record. */
  firstIndex: number;
  /** Each record's text, joined by "\n" (texts never hold a line end). */
  texts: string;
  /** Each record's 1-based start line in its file. */
  lines: Int32Array;
  /** Records the reader could not read: [position in the batch, message]. */
  readErrors: [number, string][];
  limit: number;
  output: OutputFormatName;
}

/** Tally positions, in summary order. */
export const TALLY_STATUSES = ["solved", "unsolvable", "multiple", "invalid"] as const;

/** What a worker sends back for one batch. */
export interface BatchOutcome {
  /** The batch's output text, one output record per input record, in order. */
  text: string;
  /** Records per status, in {@link TALLY_STATUSES} order. */
  tally: number[];
  /** The first few error messages of the batch (for the summary on stderr). */
  errors: string[];
}

/** Error messages a batch reports back at most. */
const ERRORS_PER_BATCH = 10;
const ASCII_ZERO = 48;

/** Collects records into batches of at most `size`; a batch never spans two files. */
export class BatchBuilder {
  private file = "";
  private firstIndex = 0;
  private texts: string[] = [];
  private lines: number[] = [];
  private readErrors: [number, string][] = [];
  private ready: BatchTask[] = [];

  constructor(
    private readonly size: number,
    private readonly limit: number,
    private readonly output: OutputFormatName,
  ) {}

  /** Records added from now on come from `file`; the batch of the previous file is sealed. */
  startFile(file: string): void {
    this.seal();
    this.file = file;
  }

  /** Adds one record (an {@link EmitRecord} callback). */
  add(line: number, text: string, error: string | null): void {
    if (error !== null) this.readErrors.push([this.texts.length, error]);
    this.texts.push(text);
    this.lines.push(line);
    if (this.texts.length === this.size) this.seal();
  }

  /** Seals the batch in progress, if any; it becomes ready. */
  seal(): void {
    if (this.texts.length === 0) return;
    this.ready.push({
      file: this.file,
      firstIndex: this.firstIndex,
      texts: this.texts.join("\n"),
      lines: Int32Array.from(this.lines),
      readErrors: this.readErrors,
      limit: this.limit,
      output: this.output,
    });
    this.firstIndex += this.texts.length;
    this.texts = [];
    this.lines = [];
    this.readErrors = [];
  }

  /** The sealed batches not yet taken, oldest first. */
  takeReady(): BatchTask[] {
    const ready = this.ready;
    this.ready = [];
    return ready;
  }
}

/** The records of a task, parsed: a grid or an error each. */
function parseTask(task: BatchTask, shape: GridShape): PuzzleRecord[] {
  const texts = task.texts.split("\n");
  const readErrors = new Map(task.readErrors);
  return texts.map((text, i): PuzzleRecord => {
    const read: ReadRecord = { index: task.firstIndex + i, line: task.lines[i], file: task.file, text, error: readErrors.get(i) ?? null };
    return parseRecord(read, shape);
  });
}

/**
 * Solves one batch on `kernel`: parses every text, solves the valid grids in one kernel
 * call, and formats every record with the task's output format. Shared by the worker
 * and the in-process (`--threads 0`) path.
 */
export function solveBatch(kernel: WasmKernel, task: BatchTask, shape: GridShape = SHAPE_9): BatchOutcome {
  const records = parseTask(task, shape);
  const slots = new Int32Array(records.length).fill(-1);
  const input = kernel.input(records.length);
  let solvable = 0;
  records.forEach((record, i) => {
    if (record.grid === null) return;
    input.set(record.grid, solvable * shape.cells);
    slots[i] = solvable++;
  });
  const results = solvable > 0 ? kernel.run(solvable, task.limit) : null;
  const solutions = results ? asciiSolutions(results.solutions) : null;

  const format = outputFormats[task.output];
  const tally = [0, 0, 0, 0];
  const errors: string[] = [];
  let text = "";
  records.forEach((record, i) => {
    const slot = slots[i];
    const result: SolveRecord =
      slot < 0 ? invalidRecord(record.error!) : kernelRecord(results!.counts[slot], results!.guesses[slot], solutions!, slot, shape);
    tally[TALLY_STATUSES.indexOf(result.status as (typeof TALLY_STATUSES)[number])]++;
    if (result.error && errors.length < ERRORS_PER_BATCH) errors.push(result.error);
    text += format.format(record, result);
  });
  return { text, tally, errors };
}

/** The result of one kernel slot as a {@link SolveRecord}. */
function kernelRecord(count: number, guesses: number, solutions: Buffer, slot: number, shape: GridShape): SolveRecord {
  if (count < 0) return invalidRecord("the kernel rejected the puzzle's bytes");
  const start = slot * shape.cells;
  return {
    status: statusOf(count),
    count,
    solution: count > 0 ? solutions.toString("latin1", start, start + shape.cells) : null,
    guesses,
  };
}

/** Turns the kernel's solution digits (1–9) into ASCII in place; returns a Buffer over them (no copy). */
function asciiSolutions(solutions: Uint8Array): Buffer {
  for (let i = 0; i < solutions.length; i++) solutions[i] += ASCII_ZERO;
  return Buffer.from(solutions.buffer, solutions.byteOffset, solutions.length);
}
