/**
 * sudoku-wasm/pool in a browser (package.json's "browser" condition): the same {@link SolverPool} as Node's, its workers Web
 * Workers (web-pool-worker.ts) on the kernels this page compiled. A batch whose worker fails is solved once more on a fresh
 * worker, and the failed one is replaced; a second failure gives `error` records. A worker that ends with no error event
 * (self.close()) is found through a Web Lock it holds for its life, where the page has Web Locks (a secure context).
 */
import { Solver } from "../solvers/solver.js";
import { compiledKernels, withGivenKernels } from "../kernel/wasm.js";
import { loadBatchEngines } from "./engines.js";
import { type RecordsOutcome, type RecordsTask, retryMemory } from "./records-task.js";
import { batchBuffers } from "./batch.js";
import type { FromWorker, LockRequests, ToWorker } from "./web-pool-worker.js";
import { type PoolOptions, type RecordsSolver, CLOSED, SolverPool, checkPoolOptions, webStreamBatches } from "./pool-core.js";

export { type PoolInputs, type PoolOptions, POOL_BATCH_SIZE, SolverPool } from "./pool-core.js";

/** A pool of `threads` Web Workers (default: navigator.hardwareConcurrency), ready once every worker has loaded its engines; rejects if one cannot. */
export async function createPool(given: PoolOptions | null = {}): Promise<SolverPool> {
  const { threads, batchSize, ids, kernels } = checkPoolOptions(given, globalThis.navigator?.hardwareConcurrency || 1);
  return withGivenKernels(kernels, async () => {
    const engines = await loadBatchEngines(ids); // a bad id rejects here, before any worker starts
    const start: ToWorker = { kind: "start", kernels: await compiledKernels(), solvers: ids };
    const workers = await openWebWorkers(threads, start);
    return new SolverPool(workers, new Solver(engines), batchSize, webStreamBatches);
  });
}

/** Pool workers started on this page: a part of each one's lock name (Web Locks are shared by the origin's pages). */
let lockCount = 0;

/** A batch sent to a worker, waiting for its answer. */
interface Pending {
  resolve(outcome: RecordsOutcome): void;
  reject(error: WorkerFailure): void;
}

/** A batch's failure on a worker, with the batch's memory when it came back (not shared). */
type WorkerFailure = Error & { memory?: ArrayBuffer };

/** One Web Worker of a pool and the batches it holds. */
class PoolWorker {
  readonly pending = new Map<number, Pending>();
  /** Replaced after a failure: it takes no more batches, and ends once those it holds are answered. */
  private retired = false;
  /** Why the worker failed (its module, an uncaught error): every batch given it from then on fails at once, so that it is replaced. */
  private broken: Error | null = null;
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  /** Settles {@link ready}: once, with the engines loaded or the error that stopped the worker (a later call does nothing). */
  private loaded: (error?: Error) => void = () => {};

  constructor(start: ToWorker) {
    // This expression, whole, is what bundlers recognise as a worker module to build and ship.
    this.worker = new Worker(new URL("./web-pool-worker.js", import.meta.url), { type: "module" });
    this.ready = new Promise((resolve, reject) => (this.loaded = (error) => (error ? reject(error) : resolve())));
    this.ready.catch(() => {}); // (a replacement worker's start is awaited by its first batch, or by nobody)
    const locks = (globalThis as { navigator?: { locks?: LockRequests } }).navigator?.locks;
    const lock = locks === undefined ? undefined : `sudoku-wasm pool worker ${Math.random().toString(36).slice(2)} ${++lockCount}`;
    this.worker.onmessage = ({ data }: MessageEvent<FromWorker>) => {
      // The worker holds its lock: granted to this request once the worker has ended. An end without an error event
      // (self.close()) fails its batches as an error does; an end this side made (terminate) finds no batch.
      if (data.kind === "watch") {
        const ended = () => this.died(new Error("sudoku-wasm: a pool worker ended with no error event (it closed itself, or the browser ended it)"));
        locks?.request(lock!, ended).catch(() => {});
        return;
      }
      if (data.kind === "ready")
        return this.loaded(data.error === undefined ? undefined : new Error(`sudoku-wasm: a pool worker could not load its engines: ${data.error}`));
      const waiting = this.pending.get(data.id);
      this.pending.delete(data.id);
      if (data.kind === "solved") waiting?.resolve(data.outcome);
      else waiting?.reject(Object.assign(new Error(data.error), { memory: data.memory }));
      if (this.retired && this.pending.size === 0) this.worker.terminate();
    };
    // The module did not load, or the worker died: every batch it holds fails (the pool retries each on a fresh worker).
    this.worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.died(new Error(`sudoku-wasm: a pool worker failed: ${event.message || notLoaded()}`));
    };
    this.worker.postMessage(lock === undefined ? start : { ...start, lock });
  }

  /** The worker failed or ended: its start, every batch it holds and every batch given it from now on fail with `error`. */
  private died(error: Error): void {
    this.broken = error;
    this.loaded(error);
    this.fail(error);
  }

  /** Resolves once the worker's engines have loaded. */
  started(): Promise<void> {
    return this.ready;
  }

  /** Solves `task` on this worker once it has started; its memory (when not shared) and cells are transferred, not copied. */
  solve(id: number, task: RecordsTask): Promise<RecordsOutcome> {
    if (this.broken !== null) return Promise.reject(this.broken);
    const answer = new Promise<RecordsOutcome>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.ready.then(
      () => {
        if (!this.pending.has(id)) return; // failed meanwhile
        const transfer: Transferable[] = task.memory instanceof ArrayBuffer ? [task.memory] : [];
        if (task.cells.byteLength > 0) transfer.push(task.cells.buffer as ArrayBuffer);
        const message: ToWorker = { kind: "batch", id, task };
        try {
          this.worker.postMessage(message, transfer);
        } catch (error) {
          this.pending.get(id)?.reject(error as Error); // (a buffer already gone with a worker that died)
          this.pending.delete(id);
        }
      },
      (error: Error) => this.fail(error),
    );
    return answer;
  }

  /** Takes no more batches, and ends once those it holds are answered. */
  retire(): void {
    this.retired = true;
    if (this.pending.size === 0) this.worker.terminate();
  }

  fail(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  end(): void {
    const closed = new Error(CLOSED);
    this.loaded(closed); // a start still under way is awaited by nobody then
    this.fail(closed);
    this.worker.terminate();
  }
}

/**
 * Why a worker failed when the browser gives no message: its module did not load (a bundle that did not ship it). Names the
 * module's URL and how to ship it with a bundler that does not build `new Worker(new URL(…))` itself.
 */
function notLoaded(): string {
  // (a string, not a URL made of a literal and import.meta.url: bundlers would take that for an asset and ship the file unbundled)
  const url = import.meta.url.replace(/[^/]*$/, "web-pool-worker.js");
  return (
    `its module did not load (${url}); a bundler that does not build \`new Worker(new URL(…, import.meta.url))\` (esbuild) must ship ` +
    "dist/src/pool/web-pool-worker.js of sudoku-wasm beside the page's bundle, as a second entry named web-pool-worker " +
    "(esbuild page.js web-pool-worker=node_modules/sudoku-wasm/dist/src/pool/web-pool-worker.js --bundle --format=esm --outdir=out)"
  );
}

/** `threads` Web Workers, once each has loaded its engines (the first that cannot rejects, and all end). */
async function openWebWorkers(threads: number, start: ToWorker): Promise<RecordsSolver> {
  const workers = Array.from({ length: threads }, () => new PoolWorker(start));
  try {
    await Promise.all(workers.map((worker) => worker.started()));
  } catch (error) {
    for (const worker of workers) worker.end();
    throw error;
  }
  const fresh = new Set<PoolWorker>(); // workers started for a retry
  const retired = new Set<PoolWorker>(); // workers replaced after a failure, ending once their batches are answered
  let closed = false;
  let ids = 0;

  /**
   * Solves `task` on `worker`. Memory that goes to the worker is copied first: a failure hands back the memory the worker
   * returned, or else that copy (the worker died with it), so a retry, or the failed batch's records, still have the lines.
   */
  const attempt = async (worker: PoolWorker, task: RecordsTask): Promise<RecordsOutcome> => {
    const copy = task.memory instanceof ArrayBuffer ? retryMemory(task) : undefined;
    try {
      const outcome = await worker.solve(ids++, task);
      if (copy !== undefined) batchBuffers.give(copy);
      return outcome;
    } catch (error) {
      const failure = error as WorkerFailure;
      if (failure.memory !== undefined && copy !== undefined) batchBuffers.give(copy);
      throw Object.assign(new Error(failure.message, { cause: failure }), { memory: failure.memory ?? copy });
    }
  };

  /** Solves `task` on a worker started for it, which then ends. */
  const onFresh = async (task: RecordsTask): Promise<RecordsOutcome> => {
    if (closed) throw new Error(CLOSED);
    const worker = new PoolWorker(start);
    fresh.add(worker);
    try {
      await worker.started().catch((error: Error) => {
        // (the batch's memory, when not shared, is still here: the records of its lines are read from it)
        throw Object.assign(new Error(error.message, { cause: error }), { memory: task.memory instanceof ArrayBuffer ? task.memory : undefined });
      });
      return await attempt(worker, task);
    } finally {
      fresh.delete(worker);
      worker.end();
    }
  };

  const solve = async (task: RecordsTask, retry: RecordsTask): Promise<RecordsOutcome> => {
    if (closed) throw new Error(CLOSED);
    // The worker holding the fewest batches (the pool sends at most two per worker).
    const at = workers.reduce((best, worker, k) => (worker.pending.size < workers[best].pending.size ? k : best), 0);
    const worker = workers[at];
    try {
      return await attempt(worker, task);
    } catch (error) {
      if (closed) throw error;
      if (workers[at] === worker) {
        worker.retire(); // its kernel may be in any state: a new worker takes its place
        retired.add(worker);
        workers[at] = new PoolWorker(start);
      }
      // The batch's memory (when not shared) came back with the failure: the retry reads its text and writes its results there.
      const { memory } = error as WorkerFailure;
      return onFresh(memory === undefined ? retry : { ...retry, memory });
    }
  };

  return {
    threads,
    solve,
    close: async () => {
      closed = true;
      for (const worker of [...workers, ...fresh, ...retired]) worker.end();
    },
  };
}
