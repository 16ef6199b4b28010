/**
 * The library's pool, whatever runs its workers: a {@link SolverPool} sends batches of inputs to
 * a {@link RecordsSolver} (Node's worker threads in solver-pool.ts, a browser's Web Workers in
 * web-pool.ts) and makes the records from their results, in input order:
 *
 *   const pool = await createPool({ threads: 4 });
 *   const records = await pool.solveMany(lines);                   // one record per line, in order
 *   for await (const record of pool.solveStream(lines)) …          // in order, bounded memory
 *   await pool.close();
 *
 * The main thread writes or reads each batch, a worker solves it (records-task.ts), and the main
 * thread makes the records; the event loop runs between batches, so the caller stays responsive.
 */
import type { Grid } from "../model/puzzle.js";
import type { GivenKernels } from "../kernel/wasm.js";
import { KERNEL_NAMES } from "../kernel/kernel-source.js";
import { DIGITS } from "../model/puzzle.js";
import { type SolverId, solverIds } from "../solvers/registry.js";
import {
  type BatchInput,
  type CheckedOptions,
  type LineScan,
  type Puzzles,
  type RecordSite,
  type ReadBatch,
  type SolveOptions,
  type SolveRecord,
  checkOptions,
  checkPuzzles,
  checkOptionNames,
  described,
  DigitLines,
  type Solver,
  SolutionWriter,
  UnreadInput,
  linesText,
  orderedRecords,
  readInputs,
  readsDigitLines,
  takenInput,
} from "../solvers/solver.js";
import { CELLS, SHAPE_9 } from "../model/shape.js";
import { excerpt } from "../model/excerpt.js";
import { type RecordsOutcome, type RecordsTask, BatchMemory, linesTask, recordsTask } from "./records-task.js";
import { TASKS_PER_WORKER } from "./batch.js";
import { LineSplitter, longLineReason, utf8Chunks } from "../stream/lines.js";

/** Waits for the event loop's next turn: setImmediate in Node, a MessageChannel's message in a browser (nested timers are clamped there). */
const nextTurn: () => Promise<void> = typeof setImmediate === "function" ? () => new Promise((resolve) => setImmediate(resolve)) : messageTurns();

function messageTurns(): () => Promise<void> {
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
}

export interface PoolOptions {
  /** Worker threads, 1 to 1,024. @default the machine's available parallelism (Node: os.availableParallelism(); a browser: navigator.hardwareConcurrency) */
  threads?: number | null;
  /** A registry id, or several, as for createSolver: each grid size on the first listed that takes it (each must solve batches). @default each size's default */
  solver?: SolverId | readonly SolverId[] | null;
  /** Inputs per batch sent to a worker, 1 to 65,536: larger batches cost less per puzzle, smaller ones answer sooner. @default 4096 */
  batchSize?: number | null;
  /**
   * The WASM kernels (`wasm`: 9×9, `general`: N×N) as createSolver takes them, for a bundle that does not copy the files beside
   * this package; compiled once, they become this thread's and its workers' kernels. @default {}
   */
  kernels?: GivenKernels | null;
}

/** The default {@link PoolOptions.batchSize}. */
export const POOL_BATCH_SIZE = 4096;
/** The largest {@link PoolOptions.batchSize}: 16 times the default, a batch of 25×25 puzzles well within a kernel's memory. */
export const MAX_BATCH_SIZE = 65_536;
/** The most {@link PoolOptions.threads}: each worker holds its own engines (some MB), so more is a mistake, not a machine. */
export const MAX_THREADS = 1024;

/**
 * A pool's inputs: any iterable of lines or grids, sync or async (a Node Readable, a generator, a web ReadableStream), or a
 * stream of bytes (`process.stdin`, a `fetch` body) read as lines: see {@link SolverPool.solveStream}. Not one string (a
 * type error, and a TypeError at run time), as for `Solver.solveMany`.
 */
export type PoolInputs = Puzzles | AsyncIterable<string | Grid> | WebStream<string | Grid>;

/** A web `ReadableStream`, as much of it as the pool reads: the DOM lib's and Node's both are one, and the pool's types need neither. */
export interface WebStream<T> {
  getReader(): {
    read(): Promise<{ done: false; value: T } | { done: true; value?: T }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
}

/** An `AbortSignal`, as much of it as the pool's readers use (declared here for the same reason). */
export interface EndSignal {
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** The error a pool's calls reject with once it is closed. */
export const CLOSED = "sudoku-wasm: the pool is closed";

/**
 * What the pool needs of its workers: `solve` retries a batch once on a fresh worker and rejects when that fails too; memory
 * transferred to the worker rather than shared comes back with the outcome ({@link RecordsOutcome.memory}).
 */
export interface RecordsSolver {
  readonly threads: number;
  solve(task: RecordsTask, retry: RecordsTask): Promise<RecordsOutcome>;
  close(): Promise<void>;
}

/**
 * How an entry reads a stream of bytes as lines: its batches, or null when `puzzles` is no such stream. `scanner`: the 9×9
 * kernel's line scan, when 9×9 lines are read as digits. `ended` aborting cancels the stream, a pending read too.
 */
export type ByteReader = (puzzles: PoolInputs, size: number, scanner: () => LineScan | null, ended: EndSignal) => AsyncIterable<PoolBatch> | null;

/** {@link PoolOptions} checked (a TypeError for an unknown name, a RangeError naming a bad value): `threads`, `batchSize`, the solver ids and the kernels. */
export function checkPoolOptions(
  given: PoolOptions | null,
  defaultThreads: number,
): { threads: number; batchSize: number; ids: string[]; kernels: PoolOptions["kernels"] } {
  const options = checkOptionNames("createPool", given, ["threads", "solver", "batchSize", "kernels"]) ?? {}; // null values read as not given
  checkOptionNames("createPool's kernels", options.kernels, KERNEL_NAMES);
  const threads = options.threads ?? Math.min(defaultThreads, MAX_THREADS);
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS)
    throw new RangeError(`threads must be a whole number from 1 to ${MAX_THREADS}, got ${described(threads)}`);
  const batchSize = options.batchSize ?? POOL_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE)
    throw new RangeError(`batchSize must be a whole number from 1 to ${MAX_BATCH_SIZE}, got ${described(batchSize)}`);
  return { threads, batchSize, ids: solverIds(options.solver), kernels: options.kernels };
}

/** A pool of worker threads solving puzzles; see {@link createPool}. */
export class SolverPool {
  private closed = false;
  /** The calls in progress: close() ends each, a call waiting on its input too. */
  private readonly calls = new Set<AbortController>();

  /** @internal use {@link createPool} */
  constructor(
    private readonly workers: RecordsSolver,
    /** A solver of the same engines on this thread: its engines say whether 9×9 lines are read as digits and whether guesses are reported. */
    private readonly main: Solver,
    private readonly batchSize: number,
    /** Reads a stream of bytes as lines, in the entry's way. */
    private readonly readBytes: ByteReader,
  ) {}

  /** Worker threads in use. */
  get threads(): number {
    return this.workers.threads;
  }

  /**
   * `Solver.solveMany` on the workers: one record per input, in order. Bad options reject with a RangeError; a bad puzzle gives
   * an `invalid` record; a batch whose worker failed twice gives `error` records.
   */
  async solveMany(puzzles: PoolInputs, options: SolveOptions | null = {}): Promise<SolveRecord[]> {
    // An array's records are as many as its inputs: made to length at once, the array is not copied as it grows.
    const records: SolveRecord[] = Array.isArray(puzzles) ? new Array(puzzles.length) : [];
    let at = 0;
    for await (const batch of this.batches(puzzles, options, true, new AbortController()))
      for (let i = 0; i < batch.count; i++) records[at++] = batch.record(i);
    records.length = at; // (an array the caller shortened meanwhile gave fewer)
    return records;
  }

  /**
   * The records of `puzzles`, one per input, in input order, as they are solved. At most two batches per worker (and the one
   * being read) are held, whatever the input's length. Ending the loop early (or `close()`) stops reading at once, even
   * mid-read: a stream of bytes is cancelled, an iterable asked to `return()`.
   *
   * A stream of bytes (a Node Readable not in object mode, a web ReadableStream of a byte source) is read as UTF-8 lines as
   * `node:readline` gives them with `crlfDelay: Infinity` (a blank line is an input, its record `invalid`); a UTF-8 byte
   * order mark at the start of the stream or of any line is dropped, UTF-16 or UTF-32 bytes reject, and a line over a
   * mebibyte gets an `invalid` record.
   */
  solveStream(puzzles: PoolInputs, options: SolveOptions | null = {}): AsyncIterableIterator<SolveRecord> {
    // Not a generator: yield* would cost several promises per record. Each record is made as it is taken; calls made before
    // the last is answered are answered in turn, and once the stream ends every call is done, those waiting at return() too.
    const call = new AbortController();
    const batches = this.batches(puzzles, options, false, call);
    let batch = NO_BATCH;
    let at = 0;
    let ended = false;
    const end = (): IteratorResult<SolveRecord, undefined> => {
      ended = true;
      batch = NO_BATCH; // its memory may be another call's now
      at = 0;
      return { done: true, value: undefined };
    };
    const take = async (): Promise<IteratorResult<SolveRecord, undefined>> => {
      try {
        if (this.closed && !ended) {
          // the records of a batch in hand are not handed out after close() either; the batches' end gives their memory back
          void batches.return().catch(() => {});
          throw new Error(CLOSED);
        }
        while (!ended && at === batch.count) {
          const step = await batches.next();
          if (ended || step.done) return end();
          batch = step.value;
          at = 0;
        }
        return ended ? end() : { done: false, value: batch.record(at++) };
      } catch (error) {
        end();
        throw error;
      }
    };
    /** The last call still waiting for its answer, if any: a later call waits for it. */
    let waiting: Promise<unknown> | null = null;
    return {
      next: () => {
        if (waiting === null && at < batch.count && !this.closed) return Promise.resolve({ done: false, value: batch.record(at++) });
        const answer = waiting === null ? take() : waiting.then(take, take);
        waiting = answer;
        const settled = () => {
          if (waiting === answer) waiting = null;
        };
        answer.then(settled, settled);
        return answer;
      },
      return: async () => {
        end();
        call.abort(); // a batches() waiting on the input wakes and ends, so its return() is answered
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
    for (const call of this.calls) call.abort();
    await this.workers.close();
  }

  /**
   * The batches of `puzzles`, in order, at most TASKS_PER_WORKER per worker in flight. Records are made when taken, not when
   * a worker answers (answered batches wait as results in their BatchMemory), so a stream's records die young, one at a time,
   * and never grow the old generation. `kept`: the caller keeps every record (solveMany; see solver.ts RecordSite). While the
   * input keeps it waiting, the oldest answered batch is handed out. `call` aborting ends it at once, even mid-read.
   */
  private async *batches(puzzles: PoolInputs, options: SolveOptions | null, kept: boolean, call: AbortController): AsyncGenerator<TakenBatch, void, undefined> {
    if (this.closed) throw new Error(CLOSED);
    if (typeof ReadableStream === "undefined" || !(puzzles instanceof ReadableStream)) checkPuzzles(puzzles, kept ? "solveMany" : "solveStream", true); // (not every browser iterates one)
    const checked = checkOptions(options, kept ? "solveMany" : "solveStream"); // the Solver's rule: a RangeError naming a bad option
    const most = this.threads * TASKS_PER_WORKER;
    const writer = new SolutionWriter(DIGITS, kept ? this.batchSize : undefined); // this call's own: it holds the batch being taken's solutions
    const site = kept ? "pool" : "stream";
    const sent: Promise<Answer>[] = [];
    let taken: TakenBatch | null = null;
    // The batch taken before is done with (its records were all asked for) once the next is wanted: its memory goes back.
    const take = async (answer: Promise<Answer>) => {
      taken?.done();
      taken = null;
      const next = await answer;
      if (this.closed) {
        next.release();
        throw new Error(CLOSED);
      }
      return (taken = next.take(writer, site));
    };
    // The call's end wakes the race below: a promise of each turn's own (one for the whole call would gather a reaction a turn).
    let wake: ((end: "ended") => void) | null = null;
    call.signal.addEventListener("abort", () => wake?.("ended"), { once: true });
    const scanner = () => (readsDigitLines(this.main.engines, checked.alphabet) ? this.scanner() : null);
    const input = (this.readBytes(puzzles, this.batchSize, scanner, call.signal) ?? inBatches(puzzles, this.batchSize, call.signal))[Symbol.asyncIterator]();
    this.calls.add(call); // (once nothing before the loop can throw: the loop's end takes it out)
    let reading: Promise<IteratorResult<PoolBatch, void>> | null = null;
    let finished = false;
    try {
      for (;;) {
        reading ??= input.next();
        // An answer counts only after an event loop's turn, so an input that is ready (an array, a busy stream) keeps the workers fed.
        const answered = sent.length > 0 ? [sent[0].then(nextTurn).then(() => "answered" as const)] : [];
        const ended = call.signal.aborted ? Promise.resolve("ended" as const) : new Promise<"ended">((resolve) => (wake = resolve));
        const first = await Promise.race([reading.then(() => "read" as const), ...answered, ended]);
        wake = null;
        if (this.closed) throw new Error(CLOSED);
        if (first === "ended") return;
        if (first === "answered") {
          yield await take(sent.shift()!);
          continue;
        }
        const step = await reading;
        reading = null;
        if (step.done) break;
        sent.push(this.solveBatch(step.value, checked));
        await nextTurn(); // the event loop runs between batches, however fast the input comes
        if (this.closed) throw new Error(CLOSED);
        while (sent.length >= most) yield await take(sent.shift()!);
      }
      finished = true;
      while (sent.length > 0) yield await take(sent.shift()!);
    } finally {
      this.calls.delete(call);
      if (!finished) {
        // Ended early: the input is asked to stop, not waited for (an iterable waiting on its input answers return() only later).
        call.abort();
        void Promise.resolve()
          .then(() => input.return?.())
          .catch(() => {});
        // a batch read after the end (a read under way while batches were handed out) gives its memory back
        void reading?.then(
          (step) => step.done || Array.isArray(step.value) || step.value.memory.release(),
          () => {},
        );
      }
      (taken as TakenBatch | null)?.done(); // (assigned in `take`, which TypeScript's narrowing does not follow)
      // Ended early (the loop left, an input's error): the batches still with the workers give their memory back when answered.
      for (const answer of sent.splice(0))
        void answer.then(
          (left) => left.release(),
          () => {},
        );
    }
  }

  /** Solves a batch on a worker; never rejects (a failure gives `error` records). 9×9 lines go as text for the worker to read. */
  private async solveBatch(inputs: PoolBatch, options: CheckedOptions): Promise<Answer> {
    const written = Array.isArray(inputs) ? null : inputs;
    const given = written === null ? (inputs as BatchInput[]) : [];
    const count = written?.count ?? given.length;
    const memory = written?.memory ?? new BatchMemory(count);
    const digitLines = readsDigitLines(this.main.engines, options.alphabet);
    const text = written !== null || (digitLines && linesText(given, memory.text(count)));
    const batch = text ? null : readInputs(given, options.alphabet, digitLines ? new DigitLines(count) : null);
    const task = batch === null ? linesTask(memory, count, options) : recordsTask(memory, batch, options);
    // The cells go to the worker (transferred): the retry gets a copy. The text stays in the memory, so the task serves again.
    const retry = batch === null ? task : { ...task, cells: task.cells.slice() };
    // Once the pool is closed, a batch's memory is not reused: a worker being ended may still write its results there.
    const done = () => this.closed || memory.release();
    try {
      const outcome = await this.workers.solve(task, retry);
      if (outcome.memory !== undefined) memory.adopt(outcome.memory); // it crossed to the worker and back
      const read = batch ?? outcome.read!;
      const reportsGuesses = this.reportsGuesses();
      const solved = {
        digits: read.digitCount > 0 ? memory.result(read.digitCount) : null,
        puzzles: outcome.puzzles,
        rejected: outcome.rejected,
        solutionsText: outcome.solutionsText,
      };
      return { take: (writer, site) => ({ count: read.count, record: orderedRecords(read, solved, reportsGuesses, writer, site), done }), release: done };
    } catch (error) {
      // A memory that went to the worker (not shared) comes back with the failure, for the records of the written lines.
      const back = (error as { memory?: ArrayBuffer }).memory;
      if (back !== undefined) memory.adopt(back);
      let failed: FailedBatch = { count, recordSlots: [], records: [] }; // every input an `error` record, when the lines cannot be read back
      try {
        // read again line by line (not as digit lines, whose repeated clues the kernel would have found): a bad line's record is
        // `invalid` however its batch was read
        failed = readInputs(written !== null ? writtenLines(written) : given, options.alphabet, null);
      } catch {
        // the written lines went with a worker that died: their records are `error` records
      }
      done();
      const take = () => {
        const records = failedRecords(failed, error);
        return { count: records.length, record: (i: number) => records[i], done: () => {} };
      };
      return { take, release: () => {} };
    }
  }

  /** The line scan of this thread's 9×9 kernel (a stream of bytes is read with it), or null when the engines have none. */
  private scanner(): LineScan | null {
    const kernel = this.main.engines.get(SHAPE_9.size)?.engine.lineScanner?.() ?? null;
    return kernel === null ? null : { kernel };
  }

  private reportsGuesses(): boolean {
    return this.main.engines.get(SHAPE_9.size)?.reportsGuesses ?? false;
  }
}

/** A batch the workers answered: `take` it once, or `release` its memory when the call ends before it is taken. */
interface Answer {
  take(writer: SolutionWriter, site: RecordSite): TakenBatch;
  release(): void;
}

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

/** A batch as read: its inputs, or the 9×9 lines a line scan found, written as text (81 bytes each) into the worker's memory. */
export type PoolBatch = BatchInput[] | WrittenLines;

export interface WrittenLines {
  memory: BatchMemory;
  count: number;
}

/** The lines of `written` as strings (a batch that turns out to hold other lines too, or fails). */
export function writtenLines(written: WrittenLines): string[] {
  const text = new TextDecoder("latin1").decode(written.memory.text(written.count).slice()); // (a copy: no decoder takes shared memory in a browser)
  return Array.from({ length: written.count }, (_, k) => text.slice(k * CELLS, (k + 1) * CELLS));
}

/**
 * The lines of UTF-8 `chunks` in batches of `size`. With a `scanner`, a batch whose lines are all 9×9 lines it found is
 * written straight into the worker's memory, no line ever a string; a batch with any other line is a batch of strings.
 */
export async function* byteBatches(chunks: AsyncIterable<Uint8Array>, size: number, scanner: LineScan | null): AsyncGenerator<PoolBatch, void, undefined> {
  const ready: PoolBatch[] = [];
  let written: WrittenLines | null = null; // the batch so far, while each of its lines was found by the scan
  let inputs: BatchInput[] = []; // the batch so far, once one of its lines was not
  const splitter = new LineSplitter(
    {
      line(text, length) {
        if (written !== null) {
          inputs = writtenLines(written);
          written.memory.release();
          written = null;
        }
        inputs.push(length === undefined ? text : new UnreadInput(longLineReason(text, length)));
        if (inputs.length < size) return;
        ready.push(inputs);
        inputs = [];
      },
      fastLines(cells, start, count) {
        if (inputs.length > 0) return 0; // the batch is strings already: these lines come to line() too
        written ??= { memory: new BatchMemory(size), count: 0 };
        const taken = Math.min(count, size - written.count);
        written.memory.text(size).set(cells.subarray(start, start + taken * CELLS), written.count * CELLS);
        written.count += taken;
        if (written.count === size) {
          ready.push(written);
          written = null;
        }
        return taken;
      },
    },
    scanner,
  );
  // A chunk is split a piece at a time, each piece's batches handed on before the next: a large chunk (a stream's
  // choice) would otherwise fill a batch's memory for each of its batches at once.
  const piece = Math.max(1 << 12, size * (CELLS + 1));
  try {
    for await (const chunk of chunks) {
      for (let at = 0; at < chunk.length; at += piece) {
        splitter.push(chunk.subarray(at, at + piece));
        while (ready.length > 0) yield ready.shift()!;
      }
    }
    splitter.end();
    if (written !== null) ready.push(written);
    if (inputs.length > 0) ready.push(inputs);
    written = null;
    while (ready.length > 0) yield ready.shift()!;
  } finally {
    // Ended early (the loop over the stream left, an error): the memory of the batches not sent goes back.
    for (const batch of [...ready, ...(written === null ? [] : [written])]) if (!Array.isArray(batch)) batch.memory.release();
  }
}

/**
 * The inputs of `puzzles` in batches of `size`; a synchronous iterable without a promise per input. When `ended` aborts, an
 * asynchronous one is asked to `return()` at once (leaving a `for await` would wait for the pending read), a Node stream destroyed.
 */
async function* inBatches(puzzles: PoolInputs, size: number, ended?: EndSignal): AsyncGenerator<PoolBatch, void, undefined> {
  if (Array.isArray(puzzles)) {
    for (let first = 0; first < puzzles.length; first += size) yield puzzles.slice(first, first + size);
    return;
  }
  let batch: BatchInput[] = [];
  if (Symbol.iterator in puzzles) {
    for (const input of puzzles) {
      batch.push(takenInput(input));
      if (batch.length < size) continue;
      yield batch;
      batch = [];
    }
  } else {
    const inputs = (puzzles as AsyncIterable<string | Grid>)[Symbol.asyncIterator]();
    const node = puzzles as { pipe?: unknown; destroy?: () => void };
    const stop = () => {
      void Promise.resolve()
        .then(() => inputs.return?.())
        .catch(() => {});
      if (typeof node.pipe === "function") node.destroy?.();
    };
    ended?.addEventListener("abort", stop, { once: true });
    try {
      for (let step = await inputs.next(); !step.done; step = await inputs.next()) {
        batch.push(takenInput(step.value));
        if (batch.length < size) continue;
        yield batch;
        batch = [];
      }
    } finally {
      ended?.removeEventListener("abort", stop);
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * The batches of a web ReadableStream, read with its reader (not every browser iterates one): a byte source (one that gives a
 * "byob" reader) as UTF-8 lines, any other as its items; null for any other input.
 */
export function webStreamBatches(puzzles: PoolInputs, size: number, scanner: () => LineScan | null, ended: EndSignal): AsyncIterable<PoolBatch> | null {
  if (typeof ReadableStream === "undefined" || !(puzzles instanceof ReadableStream)) return null;
  try {
    puzzles.getReader({ mode: "byob" }).releaseLock();
  } catch {
    return inBatches(chunksOf<string | Grid>(puzzles, ended), size); // not a byte source
  }
  return byteBatches(utf8Chunks(chunksOf<Uint8Array>(puzzles, ended)), size, scanner());
}

/** The chunks of `stream`, read with its reader; ending early, or `ended` aborting (a read waiting then ends), cancels the stream. */
async function* chunksOf<T>(stream: WebStream<T>, ended: EndSignal): AsyncGenerator<T, void, undefined> {
  const reader = stream.getReader();
  let done = false;
  const cancel = () => void reader.cancel().catch(() => {}); // (released already: nothing left to cancel)
  ended.addEventListener("abort", cancel, { once: true });
  try {
    while (true) {
      const step = await reader.read();
      if (step.done) {
        done = true;
        return;
      }
      yield step.value;
    }
  } finally {
    ended.removeEventListener("abort", cancel);
    if (!done) await reader.cancel();
    reader.releaseLock();
  }
}

/** What {@link failedRecords} needs of a batch: its inputs' count and the records of those it could not read. */
type FailedBatch = Pick<ReadBatch, "count" | "recordSlots" | "records">;

/** The records of a batch the workers failed on twice: `error` for each input solved, each other input's own (`invalid`) record. */
function failedRecords(batch: FailedBatch, failure: unknown): SolveRecord[] {
  const reason = failure instanceof Error ? failure.message : String(failure);
  const error = `the solver failed on this puzzle's batch (twice): ${excerpt(reason, 200)}`;
  const records = new Array<SolveRecord>(batch.count);
  for (let i = 0; i < batch.count; i++) records[i] = { status: "error", count: 0, solution: null, guesses: null, error };
  batch.recordSlots.forEach((slot, k) => (records[slot] = batch.records[k]));
  return records;
}
