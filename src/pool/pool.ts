/**
 * The batch solvers the CLI can use: a piscina pool of N worker threads, each with its own
 * engine of each grid size (registry ids, `solve --solver`), or (with 0 threads) one of each on
 * the main thread. The engines are loaded here first (a bad id fails before any worker starts);
 * both paths run {@link solveBatch}, so their output is the same byte for byte.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { packageRoot } from "../paths.js";
import { type BatchOutcome, type BatchTask, failedBatch, loadBatchEngines, solveBatch } from "./batch.js";

/** Solves batches, in order of submission or not; the caller keeps the order. */
export interface BatchSolver {
  /** Worker threads in use (0: the main thread). */
  readonly threads: number;
  solve(task: BatchTask): Promise<BatchOutcome>;
  /** Stops the workers. */
  close(): Promise<void>;
}

/** Young-generation cap per worker, in MB (measured: RSS −90 MB on 300k puzzles, no slowdown). */
const WORKER_YOUNG_GENERATION_MB = 8;

/** The compiled worker next to this file, or under dist/ when this file runs from src/ (tsx, vitest). */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  const path = here.endsWith(".js") ? join(dirname(here), "worker.js") : join(packageRoot(), "dist", "src", "pool", "worker.js");
  if (!existsSync(path)) throw new Error(`sudoku-wasm: ${path} is missing; run \`npm run build\` first`);
  return path;
}

/**
 * Runs a batch; when the solver throws or its worker dies, runs it once more (piscina replaces a
 * dead worker), and when that fails too, gives every record of the batch status `error` naming
 * its line and the reason: no batch, and nothing after it, is lost. Each attempt gets its own
 * copy of the line numbers (they are transferred to the worker).
 */
export async function withRetry(task: BatchTask, run: (attempt: BatchTask) => Promise<BatchOutcome>): Promise<BatchOutcome> {
  const lines = task.lines.slice();
  try {
    return await run(task);
  } catch {
    try {
      return await run({ ...task, lines: lines.slice() });
    } catch (error) {
      return failedBatch(task, lines, error);
    }
  }
}

/** A pool of `threads` workers, or the main thread when `threads` is 0, solving on the engines `solverIds` name (registry ids; default: each size's fastest). */
export async function openBatchSolver(threads: number, solverIds: readonly string[] = []): Promise<BatchSolver> {
  const engines = await loadBatchEngines(solverIds);
  if (threads === 0) return { threads, solve: (task) => withRetry(task, async (attempt) => solveBatch(engines, attempt)), close: async () => {} };
  const pool = new Piscina<BatchTask, BatchOutcome>({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    workerData: { solvers: [...solverIds] },
    // A small young generation keeps each worker's heap (and the run's RSS) flat: a batch's
    // garbage is short-lived, and the default lets every worker grow tens of MB before scavenging.
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
  return {
    threads,
    solve: (task) => withRetry(task, (attempt) => pool.run(attempt, { transferList: [attempt.lines.buffer as ArrayBuffer] })),
    close: () => pool.destroy(),
  };
}
