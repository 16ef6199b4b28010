/**
 * The piscina worker: instantiates the WASM kernel once, from the compiled
 * `WebAssembly.Module` the pool passes in `workerData.module`, then solves one
 * {@link BatchTask} per call. Runs as compiled JS (dist/src/pool/worker.js).
 */
import { workerData } from "node:worker_threads";
import { WasmKernel } from "../wasm.js";
import { type BatchOutcome, type BatchTask, solveBatch } from "./batch.js";

const kernel = await WasmKernel.create((workerData as { module: WebAssembly.Module }).module);

/** Solves one batch (piscina calls the default export once per task). */
export default function solveTask(task: BatchTask): BatchOutcome {
  return solveBatch(kernel, task);
}
