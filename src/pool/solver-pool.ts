/**
 * sudoku-wasm/pool: the library on every core (Node only). A pool of worker threads, each with
 * its own engines, over the CLI's worker pool (pool/pool.ts, piscina) and its batch core:
 *
 *   const pool = await createPool({ threads: 4 });
 *   const records = await pool.solveMany(lines);                    // one record per line, in order
 *   for await (const record of pool.solveStream(readLines(file))) … // in order, bounded memory
 *   await pool.close();
 *
 * The main thread writes each batch of 9×9 lines as bytes in a few native calls (solver.ts
 * linesText; any other batch it reads itself, readInputs), a worker reads and solves it
 * (records-task.ts), and the main thread makes the records from the results; between batches
 * the event loop runs, so a service stays responsive while a pool solves. What this module
 * needs of the worker pool is one function, {@link openRecordsSolver}.
 */
import { availableParallelism } from "node:os";
import { type Grid, DIGITS } from "../model/puzzle.js";
import type { SolverId } from "../solvers/registry.js";
import {
  type CheckedOptions,
  type ReadBatch,
  type SolveOptions,
  type SolveRecord,
  checkOptions,
  DigitLines,
  SolutionWriter,
  Solver,
  linesText,
  orderedRecords,
  readInputs,
  readsDigitLines,
} from "../solvers/solver.js";
import { SHAPE_9 } from "../model/shape.js";
import { excerpt } from "../model/excerpt.js";
import { TASKS_PER_WORKER, openWorkerPool, workerFile } from "./pool.js";
import type { WorkerData } from "./solve-task.js";
import { loadBatchEngines } from "./engines.js";
import { WORKER_NICE } from "./priority.js";
import { type RecordsOutcome, type RecordsTask, BatchMemory, linesTask, recordsTask } from "./records-task.js";
import { compiledKernels } from "../kernel/wasm.js";

export interface PoolOptions {
  /** Worker threads. @default the machine's available parallelism (os.availableParallelism()) */
  threads?: number;
  /** A registry id, or several, as for createSolver: each grid size on the first listed that takes it (each must solve batches). @default each size's default */
  solver?: SolverId | readonly SolverId[];
  /** Inputs per batch sent to a worker: larger batches cost less per puzzle, smaller ones answer sooner. @default 4096 */
  batchSize?: number;
}

/** The default {@link PoolOptions.batchSize}. */
export const POOL_BATCH_SIZE = 4096;

/** A pool's inputs: an array or any iterable, sync or async (a readline interface, a generator). */
export type PoolInputs = Iterable<string | Grid> | AsyncIterable<string | Grid>;

/** The error a pool's calls reject with once it is closed. */
const CLOSED = "sudoku-wasm: the pool is closed";

/**
 * What the pool needs of the worker threads (the seam to pool/pool.ts): the threads in use, a
 * batch solved on one of them (retried once on a fresh worker when its worker fails; rejects when
 * that fails too), and the end of all of them.
 */
interface RecordsSolver {
  readonly threads: number;
  solve(task: RecordsTask, retry: RecordsTask): Promise<RecordsOutcome>;
  close(): Promise<void>;
}

/**
 * The worker threads of a pool: `threads` piscina workers of the CLI's worker module, on the
 * engines `solverIds` name, which load here first (a bad id, or an engine that cannot solve
 * batches, rejects before any worker starts) and are compiled once for all the workers.
 * `filename` replaces the worker module (tests).
 */
async function openRecordsSolver(threads: number, solverIds: readonly string[], filename = workerFile()): Promise<{ solver: RecordsSolver; main: Solver }> {
  const engines = await loadBatchEngines(solverIds);
  const workerData: WorkerData = { solvers: [...solverIds], kernels: await compiledKernels(), nice: WORKER_NICE };
  const workers = openWorkerPool(threads, { filename, workerData });
  return { solver: { threads, solve: (task, retry) => workers.solveRecords!(task, retry), close: () => workers.close() }, main: new Solver(engines) };
}

/** A pool of worker threads solving puzzles; see {@link createPool}. */
export class SolverPool {
  private closed = false;

  /** @internal use {@link createPool} */
  constructor(
    private readonly workers: RecordsSolver,
    /** A solver of the same engines on this thread: its engines say whether 9×9 lines are read as digits and whether guesses are reported. */
    private readonly main: Solver,
    private readonly batchSize: number,
  ) {}

  /** Worker threads in use. */
  get threads(): number {
    return this.workers.threads;
  }

  /**
   * Solves every input (as `Solver.solveMany` does, with the same options and records), on the
   * workers; one record per input, in input order. Bad options reject with a RangeError; a bad
   * puzzle gives an `invalid` record; a batch whose worker failed twice gives `error` records.
   */
  async solveMany(puzzles: PoolInputs, options: SolveOptions | null = {}): Promise<SolveRecord[]> {
    // An array's records are as many as its inputs: made to length at once, the array is not copied as it grows.
    const records: SolveRecord[] = Array.isArray(puzzles) ? new Array(puzzles.length) : [];
    let at = 0;
    // Every record is kept, so each batch's solutions are one string (a slice each): at the default batch size too large for
    // V8's young generation, so the collector never copies it.
    for await (const batch of this.batches(puzzles, options, true)) for (let i = 0; i < batch.count; i++) records[at++] = batch.record(i);
    records.length = at; // (an array the caller shortened meanwhile gave fewer)
    return records;
  }

  /**
   * The records of `puzzles`, one per input, in input order, as they are solved: the inputs are
   * read a batch at a time, and at most two batches per worker (and one being read) are held at
   * once, whatever the input's length. Ending the loop early stops reading the input.
   */
  solveStream(puzzles: PoolInputs, options: SolveOptions | null = {}): AsyncIterableIterator<SolveRecord> {
    // Each record from the batch in hand, made as it is taken (so the garbage collector finds at most one alive), without a
    // generator's delegation per record (yield* costs several promises each).
    const batches = this.batches(puzzles, options, false);
    let batch = NO_BATCH;
    let at = 0;
    const next = async (): Promise<IteratorResult<SolveRecord, undefined>> => {
      while (at === batch.count) {
        const step = await batches.next();
        if (step.done) return { done: true, value: undefined };
        batch = step.value;
        at = 0;
      }
      return { done: false, value: batch.record(at++) };
    };
    return {
      next: () => (at < batch.count ? Promise.resolve({ done: false, value: batch.record(at++) }) : next()),
      return: async () => {
        await batches.return();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** Ends the workers. Calls in progress reject (a batch in flight is not waited for), and so does every later call. */
  async close(): Promise<void> {
    this.closed = true;
    await this.workers.close();
  }

  /**
   * The batches of `puzzles`, in order, with at most TASKS_PER_WORKER batches per worker in
   * flight. A batch's records are made when they are taken, not when its worker answers: the
   * batches answered ahead of it wait as the results their workers wrote into their memory
   * (records-task.ts BatchMemory), and a batch of 9×9 lines makes each record when it is asked
   * for. So the records of a stream die young, one at a time: the garbage collector neither
   * copies nor promotes them, and the old generation does not grow for the full collections that
   * pause the event loop. `kept`: the caller keeps every record (solveMany): each batch's
   * solutions are one string ({@link SolutionWriter}'s constructor), and the records are not made
   * as a stream's are (solver.ts passingRecord).
   */
  private async *batches(puzzles: PoolInputs, options: SolveOptions | null, kept: boolean): AsyncGenerator<TakenBatch, void, undefined> {
    if (this.closed) throw new Error(CLOSED);
    checkNotByteStream(puzzles);
    const checked = checkOptions(options); // the Solver's rule: a RangeError naming a bad option
    const most = this.threads * TASKS_PER_WORKER;
    const writer = new SolutionWriter(DIGITS, kept ? this.batchSize : undefined); // this call's own: it holds the batch being taken's solutions
    const sent: Promise<Answer>[] = [];
    let taken: TakenBatch | null = null;
    // The batch taken before is done with (its records were all asked for) once the next is wanted: its memory goes back.
    const take = async (answer: Promise<Answer>) => {
      taken?.done();
      taken = null;
      const next = await answer;
      if (this.closed) throw new Error(CLOSED);
      return (taken = next(writer, !kept));
    };
    try {
      for await (const inputs of inBatches(puzzles, this.batchSize)) {
        sent.push(this.solveBatch(inputs, checked));
        await new Promise(setImmediate); // the event loop runs between batches, however fast the input comes
        if (this.closed) throw new Error(CLOSED);
        while (sent.length >= most) yield await take(sent.shift()!);
      }
      while (sent.length > 0) yield await take(sent.shift()!);
    } finally {
      (taken as TakenBatch | null)?.done(); // (assigned in `take`, which TypeScript's narrowing does not follow)
    }
  }

  /**
   * Solves a batch on a worker; never rejects (a failure gives `error` records). A batch of 9×9
   * lines goes as their text, which the worker reads; any other is read here.
   */
  private async solveBatch(inputs: (string | Grid)[], options: CheckedOptions): Promise<Answer> {
    const memory = new BatchMemory(inputs.length);
    const digitLines = readsDigitLines(this.main.engines, options.alphabet);
    const text = digitLines && linesText(inputs, memory.text(inputs.length));
    const batch = text ? null : readInputs(inputs, options.alphabet, digitLines ? new DigitLines(inputs.length) : null);
    const task = batch === null ? linesTask(memory, inputs.length, options) : recordsTask(memory, batch, options);
    // The cells go to the worker (transferred): the retry gets a copy. The text stays in the memory, so the task serves again.
    const retry = batch === null ? task : { ...task, cells: task.cells.slice() };
    const done = () => memory.release();
    try {
      const outcome = await this.workers.solve(task, retry);
      const read = batch ?? outcome.read!;
      const reportsGuesses = this.reportsGuesses();
      const solved = {
        digits: read.digitCount > 0 ? memory.result(read.digitCount) : null,
        puzzles: outcome.puzzles,
        rejected: outcome.rejected,
        solutionsText: outcome.solutionsText,
      };
      return (writer, passing) => ({ count: read.count, record: orderedRecords(read, solved, reportsGuesses, writer, passing), done });
    } catch (error) {
      done();
      return () => {
        const records = failedRecords(batch ?? readInputs(inputs, options.alphabet, null), error);
        return { count: records.length, record: (i) => records[i], done: () => {} };
      };
    }
  }

  private reportsGuesses(): boolean {
    return this.main.engines.get(SHAPE_9.size)?.reportsGuesses ?? false;
  }
}

/** A batch the workers answered: takes it, with `writer` for its solutions (called once, when the batch is taken); `passing`: see orderedRecords. */
type Answer = (writer: SolutionWriter, passing: boolean) => TakenBatch;

/** A batch taken: its `count` records, one per input in input order, record(i) for i from 0 up (each asked for once); done() once they are. */
interface TakenBatch {
  readonly count: number;
  record(i: number): SolveRecord;
  done(): void;
}

/** The batch a stream holds before its first. */
const NO_BATCH: TakenBatch = {
  count: 0,
  done: () => {},
  record: () => {
    throw new RangeError("an empty batch has no records");
  },
};

/**
 * Refuses a stream of bytes (`fs.createReadStream(file)`, `process.stdin`): its chunks are not
 * lines, and each would be one `invalid` record of the wrong size. A stream in object mode (of
 * lines, `Readable.from(lines)`) is taken.
 */
function checkNotByteStream(puzzles: PoolInputs): void {
  const stream = puzzles as { pipe?: unknown; readableObjectMode?: unknown };
  if (typeof stream.pipe === "function" && stream.readableObjectMode === false) {
    throw new TypeError(
      "sudoku-wasm: a pool takes lines or grids, not a stream of bytes (its chunks are not lines): read it line by line, e.g. createInterface({ input: stream }) from node:readline",
    );
  }
}

/**
 * The inputs of `puzzles` in batches of `size`: an array or any other synchronous iterable read
 * a batch at a time without a promise per input; an asynchronous one an input at a time.
 */
async function* inBatches(puzzles: PoolInputs, size: number): AsyncGenerator<(string | Grid)[], void, undefined> {
  if (Array.isArray(puzzles)) {
    for (let first = 0; first < puzzles.length; first += size) yield puzzles.slice(first, first + size);
    return;
  }
  let batch: (string | Grid)[] = [];
  if (Symbol.iterator in puzzles) {
    for (const input of puzzles) {
      batch.push(input);
      if (batch.length < size) continue;
      yield batch;
      batch = [];
    }
  } else {
    for await (const input of puzzles) {
      batch.push(input);
      if (batch.length < size) continue;
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** The records of a batch the workers failed on twice: `error` for each input solved, each other input's own (`invalid`) record. */
function failedRecords(batch: ReadBatch, failure: unknown): SolveRecord[] {
  const reason = failure instanceof Error ? failure.message : String(failure);
  const error = `the solver failed on this puzzle's batch (twice): ${excerpt(reason, 200)}`;
  const records = new Array<SolveRecord>(batch.count);
  for (let i = 0; i < batch.count; i++) records[i] = { status: "error", count: 0, solution: null, guesses: null, error };
  batch.recordSlots.forEach((slot, k) => (records[slot] = batch.records[k]));
  return records;
}

/**
 * A pool of `threads` worker threads, each with its own engines (the fastest of each grid size,
 * or those `solver` names), ready once its engines have loaded here. Node only: in a browser,
 * use createSolver (in a Web Worker of your own to keep the page responsive).
 */
export async function createPool(options: PoolOptions = {}): Promise<SolverPool> {
  const threads = options.threads ?? availableParallelism();
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a whole number from 1, got ${String(threads)}`);
  const batchSize = options.batchSize ?? POOL_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number from 1, got ${String(batchSize)}`);
  const ids = options.solver === undefined ? [] : typeof options.solver === "string" ? [options.solver] : [...options.solver];
  const { solver, main } = await openRecordsSolver(threads, ids, poolWorkerFile);
  return new SolverPool(solver, main, batchSize);
}

/** The worker module of the pools made from now on; undefined: the CLI's (tests replace it, see {@link usePoolWorker}). */
let poolWorkerFile: string | undefined;

/** @internal Makes the pools created from now on run `filename` as their worker module (undefined: the CLI's); for tests. */
export function usePoolWorker(filename: string | undefined): void {
  poolWorkerFile = filename;
}
