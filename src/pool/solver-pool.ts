/**
 * sudoku-wasm/pool in Node: a {@link SolverPool} over the CLI's piscina worker pool (pool.ts), each worker with its own
 * engines. A browser's bundler takes web-pool.ts instead: the same interface over Web Workers.
 */
import { availableParallelism } from "node:os";
import type { Readable } from "node:stream";
import { type LineScan, Solver } from "../solvers/solver.js";
import { openWorkerPool, workerFile } from "./pool.js";
import type { WorkerData } from "./solve-task.js";
import { loadBatchEngines } from "./engines.js";
import { WORKER_NICE } from "./priority.js";
import { compiledKernels, withGivenKernels } from "../kernel/wasm.js";
import { utf8Chunks } from "../stream/lines.js";
import {
  type EndSignal,
  type PoolBatch,
  type PoolInputs,
  type PoolOptions,
  type RecordsSolver,
  SolverPool,
  byteBatches,
  checkPoolOptions,
  webStreamBatches,
} from "./pool-core.js";

export { type PoolInputs, type PoolOptions, type WebStream, POOL_BATCH_SIZE, SolverPool } from "./pool-core.js";

/**
 * `threads` piscina workers of the CLI's worker module on the engines `solverIds` name, loaded here first (a bad id rejects
 * before any worker starts). `filename` replaces the worker module (tests).
 */
async function openRecordsSolver(threads: number, solverIds: readonly string[], filename = workerFile()): Promise<{ solver: RecordsSolver; main: Solver }> {
  const engines = await loadBatchEngines(solverIds);
  const workerData: WorkerData = { solvers: [...solverIds], kernels: await compiledKernels(), nice: WORKER_NICE };
  const workers = openWorkerPool(threads, { filename, workerData });
  return { solver: { threads, solve: (task, retry) => workers.solveRecords!(task, retry), close: () => workers.close() }, main: new Solver(engines) };
}

/** The batches of a stream of bytes (a Node Readable not in object mode, or a web ReadableStream); null for any other input. */
const readNodeBytes = (puzzles: PoolInputs, size: number, scanner: () => LineScan | null, ended: EndSignal): AsyncIterable<PoolBatch> | null => {
  const node = puzzles as { pipe?: unknown; readableObjectMode?: unknown };
  if (typeof node.pipe !== "function" || node.readableObjectMode !== false) return webStreamBatches(puzzles, size, scanner, ended);
  // ended early, the stream is destroyed, as leaving a for await loop over it does, a read waiting on it too
  ended.addEventListener("abort", () => (puzzles as Readable).destroy(), { once: true });
  return byteBatches(utf8Chunks(puzzles as Readable), size, scanner());
};

/** A pool of `threads` worker threads, each with its own engines (each size's default, or those `solver` names). */
export async function createPool(given: PoolOptions | null = {}): Promise<SolverPool> {
  const { threads, batchSize, ids, kernels } = checkPoolOptions(given, availableParallelism());
  return withGivenKernels(kernels, async () => {
    const { solver, main } = await openRecordsSolver(threads, ids, poolWorkerFile);
    return new SolverPool(solver, main, batchSize, readNodeBytes);
  });
}

/** The worker module of the pools made from now on; undefined: the CLI's (tests replace it, see {@link usePoolWorker}). */
let poolWorkerFile: string | undefined;

/** @internal Makes the pools created from now on run `filename` as their worker module (undefined: the CLI's); for tests. */
export function usePoolWorker(filename: string | undefined): void {
  poolWorkerFile = filename;
}
