/**
 * The piscina worker: instantiates the 9×9 and the general WASM kernel once, from the
 * compiled `WebAssembly.Module`s the pool passes in `workerData`, then solves one
 * {@link BatchTask} per call. Runs as compiled JS (dist/src/pool/worker.js).
 */
import { workerData } from "node:worker_threads";
import { type BatchOutcome, type BatchTask, type KernelModules, instantiateKernels, solveBatch } from "./batch.js";

const kernels = await instantiateKernels(workerData as KernelModules);

/** Solves one batch (piscina calls the default export once per task). */
export default function solveTask(task: BatchTask): BatchOutcome {
  return solveBatch(kernels, task);
}
