/**
 * The batch solvers the CLI can use: N piscina worker threads, each with engines of its own (engines.ts), or the main
 * thread's (0 threads). Both run {@link runTask}, so their output is the same byte for byte.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import type { Piscina } from "piscina";
import { packageRoot } from "../kernel/paths.js";
import { attempt } from "../cli-kit/errors.js";
import type { LineScan, ScanKernel } from "../solvers/solver.js";
import { type BatchOutcome, type BatchTask, TASKS_PER_WORKER, copyTask, giveBackCopy, joinOutcomes, sliceTask, taskBuffers, transferable } from "./batch.js";
import { type WorkerData, ENGINES_LOADED, failedBatch, runTask } from "./solve-task.js";
import { type BatchEngines, ThreadEngines } from "./engines.js";
import { compiledKernels } from "../kernel/wasm.js";
import { SHAPE_9 } from "../model/shape.js";
import type { RecordsOutcome, RecordsTask } from "./records-task.js";

/** Solves batches, in order of submission or not; the caller keeps the order. */
export interface BatchSolver {
  /** Worker threads in use (0: the main thread). */
  readonly threads: number;
  /** Batches it would start on at once now ({@link TASKS_PER_WORKER} per loaded worker, minus those out); Infinity when it takes any number. */
  room(): number;
  /** Solves a batch; `recordsToCome`, when known, lets a solver that starts its workers late weigh them against their start. */
  solve(task: BatchTask, recordsToCome?: number | null): Promise<BatchOutcome>;
  /** Worker threads started so far, when it starts them late ({@link sharedWithMain}); else {@link threads}. */
  threadsStarted?(): number;
  /** The main thread's 9×9 kernel instance, for the reader's line scan (pipeline.ts); null when that engine is no 9×9 kernel. */
  readonly scanner?: LineScan | null;
  /** Solves a library pool batch (records-task.ts) on a worker, and on failure once more with `retry` on a fresh one. Only on a pool of workers. */
  solveRecords?(task: RecordsTask, retry: RecordsTask): Promise<RecordsOutcome>;
  close(): Promise<void>;
}

/** This module's file; in a CommonJS bundle, which has no `import.meta.url`, the bundle's. */
const moduleFile = (): string => (typeof import.meta.url === "string" ? fileURLToPath(import.meta.url) : __filename);
let requireCommonJs: NodeRequire | undefined;
const requireHere = (): NodeRequire => (requireCommonJs ??= createRequire(moduleFile()));
let piscina: typeof import("piscina") | undefined;
/** piscina's pool class, loaded when the first pool opens: a main-thread run never pays for it. */
const PiscinaPool = (): typeof Piscina => (piscina ??= requireHere()("piscina") as typeof import("piscina")).Piscina;

/** Young-generation cap per worker, in MB: a worker's garbage is short-lived, and a smaller young generation keeps its RSS down. */
const WORKER_YOUNG_GENERATION_MB = 8;

/** The worker's entry (worker-entry.cts) next to this file, or under dist/ when this runs from src/ or the bundled CLI; from a bundle of this module, the installed package's. */
export function workerFile(): string {
  const here = moduleFile();
  const root = attempt(packageRoot); // none above a bundle deployed alone, nor in a CommonJS bundle
  const beside = here.endsWith(".js") ? join(dirname(here), "worker-entry.cjs") : entryIn(root ?? dirname(here));
  const missing = (path: string) => [path, join(dirname(path), "..", "..", "cli", "worker.mjs")].find((file) => !existsSync(file));
  const lacking = missing(beside);
  if (lacking === undefined) return beside;
  if (root !== undefined && isPackage(root))
    throw new Error(`sudoku-wasm: ${lacking} is missing: the package is incomplete (in a clone of sudoku-wasm, \`npm run build\` makes it)`);
  // A bundle of this module (esbuild, webpack for Node): the workers run the installed package's files, which a bundle does not hold.
  const installed = attempt(() => entryIn(dirname(requireHere().resolve("sudoku-wasm/package.json"))));
  if (installed !== undefined && missing(installed) === undefined) return installed;
  throw new Error(
    `sudoku-wasm: the pool's worker files are not beside ${here}, and no installed sudoku-wasm was found from there: the workers of a bundle of sudoku-wasm/pool for Node run the installed package's files (dist/src/pool/worker-entry.cjs and dist/cli/): install sudoku-wasm where the bundle runs, or leave it out of the bundle (esbuild --external:sudoku-wasm)`,
  );
}

/** The worker's entry in the package at `root`. */
const entryIn = (root: string): string => join(root, "dist", "src", "pool", "worker-entry.cjs");

/** True when `folder` holds sudoku-wasm's own package.json. */
const isPackage = (folder: string): boolean => attempt(() => JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).name) === "sudoku-wasm";

/**
 * Runs a batch, on failure once more with `retry` (a fresh worker), and when that fails too every record gets status `error`:
 * no batch is lost. With `transfers` (the buffers go to a worker) each attempt gets its own copy.
 */
export async function withRetry(
  task: BatchTask,
  run: (attempt: BatchTask) => Promise<BatchOutcome>,
  retry: (attempt: BatchTask) => Promise<BatchOutcome> = run,
  transfers = true,
): Promise<BatchOutcome> {
  const kept = transfers ? copyTask(task) : task;
  try {
    return await run(task);
  } catch {
    try {
      return await retry(transfers ? copyTask(kept) : task);
    } catch (error) {
      return failedBatch(kept, error);
    }
  } finally {
    if (transfers) giveBackCopy(kept);
  }
}

export interface WorkerSpec {
  filename: string;
  workerData: unknown;
}

/** A pool of `threads` piscina workers. A failed batch is retried on a worker of its own; the failed worker ends itself (retire.ts). */
export function openWorkerPool(threads: number, worker: WorkerSpec): BatchSolver {
  // No garbage collection of WebAssembly code, process-wide: it posts a task to every isolate with WebAssembly code, and one
  // that piscina is terminating then aborts the process (`NodePlatform::ForIsolate … Assertion failed`). Little is lost.
  setFlagsFromString("--no-wasm-code-gc");
  const settings = {
    ...worker,
    idleTimeout: 60_000,
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  };
  let closing = false;
  let closed: Promise<void> | undefined;
  /** A piscina pool of these workers; once closing, a worker that still answers a batch (piscina's "Unexpected message") is let go quietly. */
  const workers = (minThreads: number, maxThreads: number) =>
    new (PiscinaPool())<BatchTask, BatchOutcome>({ ...settings, minThreads, maxThreads, concurrentTasksPerWorker: TASKS_PER_WORKER }).on("error", (error) => {
      if (!closing) throw error;
    });
  const pool = workers(threads, threads);
  let loaded = 0; // workers that have said ENGINES_LOADED (piscina's own idle count includes workers still starting)
  pool.on("message", (message) => {
    if (message === ENGINES_LOADED) loaded++;
  });
  const runOn = (on: Piscina<BatchTask, BatchOutcome>, attempt: BatchTask) =>
    unlessWorkersGone(on, on.run(attempt, { transferList: transferable(taskBuffers(attempt)) }));
  const retries = new Set<Piscina<BatchTask, BatchOutcome>>();
  /** Runs `run` on a worker started for it (none is kept: minThreads 0), then ends that worker. */
  const onFresh = async <Outcome>(run: (on: Piscina<BatchTask, BatchOutcome>) => Promise<Outcome>): Promise<Outcome> => {
    if (closing) throw new Error("the worker pool was closed"); // a batch cut off by close() starts no worker
    const fresh = workers(0, 1);
    retries.add(fresh);
    try {
      return await run(fresh);
    } finally {
      retries.delete(fresh);
      await fresh.destroy();
    }
  };
  const onFreshWorker = (attempt: BatchTask) => onFresh((fresh) => runOn(fresh, attempt));
  let out = 0; // batches sent and not yet answered
  /** Workers that can take a batch: those that said so, or (a worker module that does not say it) all once one has answered. */
  const loadedWorkers = () => (loaded > 0 ? Math.min(loaded, threads) : pool.completed > 0 ? threads : 0);
  /** Runs a library batch on `on`, its cells transferred. */
  const runRecords = (on: Piscina<BatchTask, BatchOutcome>, task: RecordsTask) =>
    unlessWorkersGone(
      on,
      on.run(task as unknown as BatchTask, {
        transferList: task.cells.byteLength > 0 ? [task.cells.buffer as ArrayBuffer] : [],
      }) as unknown as Promise<RecordsOutcome>,
    );
  const solveRecords = async (task: RecordsTask, retry: RecordsTask): Promise<RecordsOutcome> => {
    try {
      return await runRecords(pool, task);
    } catch {
      return onFresh((fresh) => runRecords(fresh, retry));
    }
  };
  return {
    threads,
    solveRecords,
    room: () => loadedWorkers() * TASKS_PER_WORKER - out,
    solve: async (task) => {
      out++;
      try {
        return await withRetry(task, (attempt) => runOn(pool, attempt), onFreshWorker);
      } finally {
        out--;
      }
    },
    // Every worker, the retries' too; once, however often it is called.
    close: () => {
      closing = true;
      return (closed ??= Promise.all([pool, ...retries].map((each) => each.destroy())).then(() => {}));
    },
  };
}

/** How often a batch waiting on a pool checks that the pool still has a worker, in ms. */
const WORKERS_CHECK_MS = 100;

/**
 * `task`, or a rejection once `on` has no worker left while it waits. piscina starts no worker again after one ended
 * while it started (so as not to start failing workers for ever): a batch queued there then waits for good, and
 * the call with it. Rejected, it is retried on a worker of its own, or becomes `error` records, as any failed batch.
 */
function unlessWorkersGone<T>(on: Piscina<BatchTask, BatchOutcome>, task: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const check = setInterval(() => {
      if (on.threads.length === 0) reject(new Error("its worker thread ended as it started, and none is left to take the batch"));
    }, WORKERS_CHECK_MS);
    check.unref(); // (a batch keeps the process alive through its worker)
    task.then(resolve, reject).finally(() => clearInterval(check));
  });
}

/** The line scan of the 9×9 engine of `engines` when it is the kernel, else of the kernel that writes their records. */
function scannerOf(engines: BatchEngines): ScanKernel | null {
  return engines.get(SHAPE_9.size)?.engine.lineScanner?.() ?? engines.writer.lineScanner?.() ?? null;
}

/** Solves on the main thread; a failed batch is retried on fresh engines from `load`, which replace the failed ones (the scanner too). */
export function mainThreadSolver(engines: BatchEngines, load: () => Promise<BatchEngines>): BatchSolver {
  let current = engines;
  const first = scannerOf(engines);
  const scanner: LineScan | null = first === null ? null : { kernel: first };
  const onFreshEngines = async (attempt: BatchTask): Promise<BatchOutcome> => {
    current = await load();
    const fresh = scannerOf(current);
    if (scanner !== null && fresh !== null) scanner.kernel = fresh;
    return runTask(current, attempt);
  };
  return {
    threads: 0,
    room: () => Infinity,
    scanner,
    solve: (task) => withRetry(task, async (attempt) => runTask(current, attempt), onFreshEngines, false),
    close: async () => {},
  };
}

/** Milliseconds of solving in one slice the main thread takes (see {@link sharedWithMain}). */
export const MAIN_SLICE_MS = 5;
/** Records in the main thread's first slice, before it knows their solving time. */
export const FIRST_SLICE = 64;

/** Main-thread solving time after which the workers start: a small input never starts one. */
export const START_WORKERS_AFTER_MS = 50;

/** What starting the workers costs the run, in ms of the main thread's solving: they start only when they take more off it. */
export const WORKER_START_MS = 150;

/** When {@link sharedWithMain} starts the workers, and how much the main thread takes at a time. */
export interface SharingOptions {
  /** Main-thread solving time after which the workers start (when the solving left pays for their start; see {@link WORKER_START_MS}). @default START_WORKERS_AFTER_MS */
  startAfterMs?: number;
  /** Records per main-thread slice. @default about MAIN_SLICE_MS of solving (FIRST_SLICE at first) */
  sliceRecords?: number;
  /** The main thread also solves once the workers have started, when they have no room (worth it only with a core to spare). @default true */
  mainHelps?: boolean;
  /** The cores the threads share. @default os.availableParallelism() */
  cores?: number;
}

/** A batch not yet wholly given out: the records from `at` on are still to solve. */
interface Shared {
  task: BatchTask;
  at: number;
  parts: Promise<BatchOutcome>[];
  done(outcome: Promise<BatchOutcome>): void;
}

/**
 * The workers, with the main thread solving a slice (about {@link MAIN_SLICE_MS}) at a time whenever they have no room. The
 * workers start after `startAfterMs` of main-thread solving, once the solving left (at the main thread's rate) pays for
 * their start ({@link WORKER_START_MS}); at once when that cannot be told. A batch's parts are joined in order.
 */
export function sharedWithMain(start: () => BatchSolver, main: BatchSolver, threads: number, options: SharingOptions = {}): BatchSolver {
  const startAfterMs = options.startAfterMs ?? START_WORKERS_AFTER_MS;
  let workers: BatchSolver | null = null;
  const waiting: Shared[] = [];
  let mainMs = 0;
  let mainRecords = 0;
  let stepping = false;
  let warm = false; // the workers have had room
  const mainHelps = options.mainHelps ?? true;
  const cores = options.cores ?? availableParallelism();
  let toCome: number | null = null; // the records the run expects after the batches handed here, when it can tell

  /** Whether the solving left, at the main thread's rate so far, takes off it more than the workers' start costs. */
  const workersPay = (): boolean => {
    if (toCome === null) return true;
    if (mainRecords === 0) return false; // no rate yet: decided after the first slice
    const left = waiting.reduce((records, shared) => records + shared.task.lines.length - shared.at, toCome);
    // Threads beyond the cores solve no faster, and each starts on a core that would otherwise solve.
    const solvers = Math.min(threads + (mainHelps ? 1 : 0), cores);
    return ((left * mainMs) / mainRecords) * (1 - 1 / solvers) >= WORKER_START_MS * Math.ceil(threads / cores);
  };

  /** Gives waiting batches, oldest first, to the workers while they have room; else lets the main thread take a slice. */
  const handOut = () => {
    while (workers !== null && waiting.length > 0 && workers.room() > 0) {
      warm = true;
      const shared = waiting.shift()!;
      const { task, at } = shared;
      const part = workers.solve(at === 0 ? task : sliceTask(task, at, task.lines.length));
      part.then(handOut, handOut); // its room is free again
      shared.parts.push(part);
      finish(shared);
    }
    if (waiting.length > 0 && !stepping && (mainHelps || !warm)) {
      stepping = true;
      setImmediate(mainStep);
    }
  };

  /** The main thread solves one slice of the oldest waiting batch. */
  const mainStep = () => {
    stepping = false;
    const shared = waiting[0];
    if (shared === undefined) return;
    if (workers === null && mainMs >= startAfterMs && workersPay()) workers = start();
    const { task, at } = shared;
    const count = task.lines.length;
    const slice = options.sliceRecords ?? (mainRecords === 0 ? FIRST_SLICE : Math.max(1, Math.round((MAIN_SLICE_MS * mainRecords) / mainMs)));
    const end = Math.min(count, at + slice);
    const began = performance.now();
    shared.parts.push(main.solve(at === 0 && end === count ? task : sliceTask(task, at, end)));
    mainMs += performance.now() - began;
    mainRecords += end - at;
    shared.at = end;
    if (end === count) {
      waiting.shift();
      finish(shared);
    }
    handOut();
  };

  /** Settles a batch once all its parts are solved: one outcome, its parts' bytes in order. */
  const finish = (shared: Shared) => {
    const { task, parts } = shared;
    shared.done(
      Promise.all(parts).then((solved) => {
        if (solved.length === 1) return solved[0];
        const joined = joinOutcomes(solved);
        return { ...joined, spent: [...joined.spent!, ...taskBuffers(task)] }; // the sliced task's own buffers, too
      }),
    );
  };

  const solve = (task: BatchTask, recordsToCome: number | null = null): Promise<BatchOutcome> =>
    new Promise((resolve) => {
      toCome = recordsToCome;
      waiting.push({ task, at: 0, parts: [], done: resolve });
      handOut();
    });
  return {
    threads,
    threadsStarted: () => (workers === null ? 0 : threads),
    room: () => Infinity,
    scanner: main.scanner,
    solve,
    close: () => Promise.all([workers?.close(), main.close()]).then(() => {}),
  };
}

/** The workers a CLI run starts when `--threads` is not given: one fewer than the cores (at least one), as the main thread solves beside them. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * A pool of `threads` workers, or the main thread when `threads` is 0. The main thread solves beside the workers unless
 * `warmUp` is false (puzzles that can take minutes: the main thread stays free for signals).
 */
export async function openBatchSolver(threads: number, solverIds: readonly string[] = [], options: { warmUp?: boolean } = {}): Promise<BatchSolver> {
  const filename = threads === 0 ? "" : workerFile(); // a missing worker module fails here, not when the workers start mid-run
  const load = () => ThreadEngines.open(solverIds);
  const engines = await load(); // a bad id fails here, before any worker starts
  const main = mainThreadSolver(engines, load);
  if (threads === 0) return main;
  // The workers instantiate the modules the main thread compiled: no compiling, and V8's optimised code is shared.
  const workerData: WorkerData = { solvers: [...solverIds], kernels: await compiledKernels() };
  const start = () => openWorkerPool(threads, { filename, workerData });
  if (options.warmUp === false) return { ...start(), scanner: main.scanner }; // the main thread's engines only scan
  return sharedWithMain(start, main, threads, { mainHelps: threads < availableParallelism() });
}
