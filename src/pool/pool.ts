/**
 * The batch solvers the CLI can use: a piscina pool of N worker threads, each with its own
 * instances of the 9×9 and the general kernel, or (with 0 threads) one of each on the main
 * thread. Both kernels are compiled once here and posted as `WebAssembly.Module`s; both paths
 * run {@link solveBatch}, so their output is the same byte for byte.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { compileGeneralKernel } from "../general.js";
import { packageRoot } from "../paths.js";
import { compileKernel } from "../wasm.js";
import { type BatchOutcome, type BatchTask, type KernelModules, instantiateKernels, solveBatch } from "./batch.js";

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

/** A pool of `threads` workers, or the main thread when `threads` is 0. */
export async function openBatchSolver(threads: number): Promise<BatchSolver> {
  const modules: KernelModules = { classic: await compileKernel(), general: await compileGeneralKernel() };
  if (threads === 0) {
    const kernels = await instantiateKernels(modules);
    return { threads, solve: async (task) => solveBatch(kernels, task), close: async () => {} };
  }
  const pool = new Piscina<BatchTask, BatchOutcome>({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    workerData: modules,
    // A small young generation keeps each worker's heap (and the run's RSS) flat: a batch's
    // garbage is short-lived, and the default lets every worker grow tens of MB before scavenging.
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
  return {
    threads,
    solve: (task) => pool.run(task, { transferList: [task.lines.buffer as ArrayBuffer] }),
    close: () => pool.destroy(),
  };
}
