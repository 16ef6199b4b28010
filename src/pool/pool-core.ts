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
 * The main thread writes each batch of 9×9 lines as bytes in a few native calls (solver.ts
 * linesText; a stream of bytes: the entry's {@link ByteReader}; any other batch it reads itself,
 * readInputs), a worker reads and solves it (records-task.ts), and the main thread makes the
 * records from the results; between batches the event loop runs, so a service or a page stays
 * responsive while a pool solves.
 */
import type { Grid } from "../model/puzzle.js";
import type { KernelSource } from "../kernel/kernel-source.js";
import { DIGITS } from "../model/puzzle.js";
import { type SolverId, solverIds } from "../solvers/registry.js";
import {
  type BatchInput,
  type CheckedOptions,
  type LineScan,
  type RecordSite,
  type ReadBatch,
  type SolveOptions,
  type SolveRecord,
  checkOptions,
  checkPuzzles,
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

/**
 * Waits for the event loop's next turn: setImmediate in Node, a MessageChannel's message in a
 * browser (a timer there waits at least 4 ms once timers nest).
 */
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
  threads?: number;
  /** A registry id, or several, as for createSolver: each grid size on the first listed that takes it (each must solve batches). @default each size's default */
  solver?: SolverId | readonly SolverId[];
  /** Inputs per batch sent to a worker, 1 to 65,536: larger batches cost less per puzzle, smaller ones answer sooner. @default 4096 */
  batchSize?: number;
  /**
   * The WASM kernels, as createSolver takes them (a URL, bytes, a fetch Response or a compiled
   * Module; `wasm`: 9×9, `general`: N×N), when not from the files beside this package (a bundle
   * that does not copy them): compiled once, they are this thread's kernels from then on, and its
   * workers'. @default {}
   */
  kernels?: { wasm?: KernelSource; general?: KernelSource };
}

/** The default {@link PoolOptions.batchSize}. */
export const POOL_BATCH_SIZE = 4096;
/** The largest {@link PoolOptions.batchSize}: 16 times the default, a batch of 25×25 puzzles well within a kernel's memory. */
export const MAX_BATCH_SIZE = 65_536;
/** The most {@link PoolOptions.threads}: each worker holds its own engines (some MB), so more is a mistake, not a machine. */
export const MAX_THREADS = 1024;

/**
 * A pool's inputs: an array or any iterable of lines or grids, sync or async (a readline
 * interface, a generator, a web ReadableStream), or a stream of bytes (`fs.createReadStream(file)`,
 * `process.stdin`, a `fetch` response's body), read as lines: see {@link SolverPool.solveStream}.
 * (A Node Readable is an async iterable.)
 */
export type PoolInputs = Iterable<string | Grid> | AsyncIterable<string | Grid> | ReadableStream<string | Grid>;

/** The error a pool's calls reject with once it is closed. */
export const CLOSED = "sudoku-wasm: the pool is closed";

/**
 * What the pool needs of its workers (Node's in solver-pool.ts, a browser's in web-pool.ts): the
 * threads in use, a batch solved on one of them (retried once on a fresh worker when its worker
 * fails; rejects when that fails too), and the end of all of them. A batch's memory that crossed
 * to the worker rather than being shared comes back with its outcome ({@link RecordsOutcome.memory}).
 */
export interface RecordsSolver {
  readonly threads: number;
  solve(task: RecordsTask, retry: RecordsTask): Promise<RecordsOutcome>;
  close(): Promise<void>;
}

/**
 * How an entry reads a stream of bytes as lines: the batches of `puzzles` when they are a stream of
 * bytes it reads (`scanner`: the 9×9 kernel's line scan, when 9×9 lines are read as digits), else
 * null. When `ended` aborts (the call ended early, or the pool closed), the stream is cancelled,
 * a read waiting on it too.
 */
export type ByteReader = (puzzles: PoolInputs, size: number, scanner: () => LineScan | null, ended: AbortSignal) => AsyncIterable<PoolBatch> | null;

/** `threads` and `batchSize` of {@link PoolOptions} checked (a RangeError naming a bad one), and the solver ids. */
export function checkPoolOptions(options: PoolOptions, defaultThreads: number): { threads: number; batchSize: number; ids: string[] } {
  const threads = options.threads ?? Math.min(defaultThreads, MAX_THREADS);
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS)
    throw new RangeError(`threads must be a whole number from 1 to ${MAX_THREADS}, got ${described(threads)}`);
  const batchSize = options.batchSize ?? POOL_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE)
    throw new RangeError(`batchSize must be a whole number from 1 to ${MAX_BATCH_SIZE}, got ${described(batchSize)}`);
  return { threads, batchSize, ids: solverIds(options.solver) };
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
    for await (const batch of this.batches(puzzles, options, true, new AbortController()))
      for (let i = 0; i < batch.count; i++) records[at++] = batch.record(i);
    records.length = at; // (an array the caller shortened meanwhile gave fewer)
    return records;
  }

  /**
   * The records of `puzzles`, one per input, in input order, as they are solved: the inputs are
   * read a batch at a time, and at most two batches per worker (and what is being read) are held at
   * once, whatever the input's length; while the input keeps the pool waiting, the batches solved
   * so far are handed out. Ending the loop early (or `close()`) stops reading the input, at once
   * even while a read waits: a stream of bytes is cancelled, and an iterable is asked to `return()`.
   *
   * A stream of bytes (in Node a Readable not in object mode; a web ReadableStream of a byte
   * source, as a `fetch` response's body) is read as UTF-8 lines, one input per line, as
   * `node:readline` gives them with `crlfDelay: Infinity` (`\n`, `\r\n` or `\r` ends a line; the
   * last needs none; a blank line is an input, and its record `invalid`), but without a promise
   * per line; a leading byte order mark is dropped, UTF-16 or UTF-32 bytes reject, and a line
   * over a mebibyte gets an `invalid` record that gives its length. In a browser, a web
   * ReadableStream of a byte source is read the same way.
   */
  solveStream(puzzles: PoolInputs, options: SolveOptions | null = {}): AsyncIterableIterator<SolveRecord> {
    // Each record from the batch in hand, made as it is taken (so the garbage collector finds at most one alive), without a
    // generator's delegation per record (yield* costs several promises each). Calls made before the last is answered are
    // answered in turn, as a generator's; once the stream ends (its end, an error, return()) every call is done, those
    // still waiting at return() too.
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
        if (waiting === null && at < batch.count) return Promise.resolve({ done: false, value: batch.record(at++) });
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
   * The batches of `puzzles`, in order, with at most TASKS_PER_WORKER batches per worker in
   * flight. A batch's records are made when they are taken, not when its worker answers: the
   * batches answered ahead of it wait as the results their workers wrote into their memory
   * (records-task.ts BatchMemory), and a batch of 9×9 lines makes each record when it is asked
   * for. So the records of a stream die young, one at a time: the garbage collector neither
   * copies nor promotes them, and the old generation does not grow for the full collections that
   * pause the event loop. `kept`: the caller keeps every record (solveMany): each batch's
   * solutions are one string ({@link SolutionWriter}'s constructor), and the records are made at
   * a literal of their own, not a stream's nor a Solver's (solver.ts RecordSite). While the input
   * keeps it waiting (for an event loop's turn or more), the oldest batch answered is handed out.
   * `call` aborted (the caller's return(), or close()) ends it at once, even mid-read.
   */
  private async *batches(puzzles: PoolInputs, options: SolveOptions | null, kept: boolean, call: AbortController): AsyncGenerator<TakenBatch, void, undefined> {
    if (this.closed) throw new Error(CLOSED);
    if (typeof ReadableStream === "undefined" || !(puzzles instanceof ReadableStream)) checkPuzzles(puzzles, kept ? "solveMany" : "solveStream", true); // (not every browser iterates one)
    const checked = checkOptions(options); // the Solver's rule: a RangeError naming a bad option
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
        // Ended early: the input is asked to stop, not waited for (an iterable waiting on its own input answers return() only once it
        // goes on; a stream of bytes is cancelled at once, by the signal).
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

  /**
   * Solves a batch on a worker; never rejects (a failure gives `error` records). A batch of 9×9
   * lines goes as their text, which the worker reads (written here, or already by a stream's
   * reading); any other is read here.
   */
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

/**
 * A batch the workers answered: `take` it (once, with `writer` for its solutions; `site`: see
 * orderedRecords), or, when the call ends before it is taken, `release` its memory.
 */
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

/**
 * A batch as the pool's reading gives it: its inputs, or the 9×9 lines a line scan found in a
 * stream of bytes, written as text (81 bytes each) into the memory their worker reads.
 */
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
 * The lines of a stream of bytes (its `chunks`, checked to be UTF-8: lines.ts utf8Chunks) in
 * batches of `size`, split by the streaming core's line splitter. With a `scanner` (the 9×9 kernel's line scan), a batch whose lines are all 9×9 lines
 * it found is written as their text straight into the memory the worker reads, no line ever a
 * string; a batch with any other line (a blank, a comment, another size) is a batch of strings.
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
 * The inputs of `puzzles` in batches of `size`: an array or any other synchronous iterable read
 * a batch at a time without a promise per input, an asynchronous one an input at a time (a
 * stream of bytes is read by the entry's {@link ByteReader}). When `ended` aborts, an
 * asynchronous one is asked to `return()` at once, not after a read waiting on it (as leaving a
 * `for await` would), and a Node stream destroyed.
 */
async function* inBatches(puzzles: PoolInputs, size: number, ended?: AbortSignal): AsyncGenerator<PoolBatch, void, undefined> {
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
 * The batches of a web ReadableStream, read with its reader (not every browser iterates one): a
 * byte source (a `fetch` response's body: one that gives a reader in "byob" mode) as UTF-8 lines
 * ({@link byteBatches}), any other as its chunks, lines or grids; null for any other input. Both
 * entries' {@link ByteReader}s read web streams with it.
 */
export function webStreamBatches(puzzles: PoolInputs, size: number, scanner: () => LineScan | null, ended: AbortSignal): AsyncIterable<PoolBatch> | null {
  if (typeof ReadableStream === "undefined" || !(puzzles instanceof ReadableStream)) return null;
  try {
    puzzles.getReader({ mode: "byob" }).releaseLock();
  } catch {
    return inBatches(chunksOf(puzzles, ended), size); // not a byte source
  }
  return byteBatches(utf8Chunks(chunksOf(puzzles as ReadableStream<Uint8Array>, ended)), size, scanner());
}

/** The chunks of `stream`, read with its reader; ending early, or `ended` aborting (a read waiting then ends), cancels the stream. */
async function* chunksOf<T>(stream: ReadableStream<T>, ended: AbortSignal): AsyncGenerator<T, void, undefined> {
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
