/**
 * K on every thread at once: `threads` bare kernels side by side, started together, their rates summed. The most a pool
 * of that many threads could reach here and now, which can be far below threads × K: virtual cores that share a physical
 * core, or a host that gives a busy machine less, slow every thread when all of them run.
 */
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import type { KernelWorkerData, KernelWorkerReply } from "./kernel-worker.js";

/** Puzzles per second of `threads` kernels running at once on the 9×9 `cells` (81 bytes each), over about `seconds` of wall time. */
export async function kernelsAtOnce(threads: number, cells: Uint8Array, limit: number, seconds: number): Promise<number> {
  const shared = new SharedArrayBuffer(cells.length);
  new Uint8Array(shared).set(cells);
  const signalBuffer = new SharedArrayBuffer(8);
  const signals = new Int32Array(signalBuffer);
  const workerData: KernelWorkerData = { cells: shared, limit, signals: signalBuffer };
  const workers = Array.from({ length: threads }, () => new Worker(new URL("./kernel-worker.js", import.meta.url), { workerData }));
  try {
    await Promise.all(workers.map((worker) => once(worker, "message")));
    const replies = workers.map((worker) => once(worker, "message") as Promise<[KernelWorkerReply]>);
    Atomics.store(signals, 0, 1);
    Atomics.notify(signals, 0);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    Atomics.store(signals, 1, 1);
    return (await Promise.all(replies)).reduce((sum, [reply]) => sum + reply.puzzles / (reply.ms / 1000), 0);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
