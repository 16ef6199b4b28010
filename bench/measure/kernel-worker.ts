/** One thread of kernels-at-once.ts: its own kernel solves the shared cells from go until stop, and answers the puzzles and ms. */
import { parentPort, workerData } from "node:worker_threads";
import { WasmKernel } from "../../src/kernel/wasm.js";
import { solveInBatches } from "./kernel.js";
import { CELLS } from "../../src/model/shape.js";

export interface KernelWorkerData {
  /** The 9×9 puzzles, 81 cell bytes each. */
  cells: SharedArrayBuffer;
  limit: number;
  /** [go, stop]: 0 until the main thread sets each to 1. */
  signals: SharedArrayBuffer;
}

export interface KernelWorkerReply {
  puzzles: number;
  ms: number;
}

const { cells: shared, limit, signals: signalBuffer } = workerData as KernelWorkerData;
const cells = new Uint8Array(shared);
const signals = new Int32Array(signalBuffer);
const kernel = await WasmKernel.create();
solveInBatches(kernel, cells, limit); // warm-up
parentPort!.postMessage("ready");
Atomics.wait(signals, 0, 0);
const start = performance.now();
let puzzles = 0;
do {
  solveInBatches(kernel, cells, limit);
  puzzles += cells.length / CELLS;
} while (Atomics.load(signals, 1) === 0); // at least one pass, however soon the stop comes
parentPort!.postMessage({ puzzles, ms: performance.now() - start } satisfies KernelWorkerReply);
