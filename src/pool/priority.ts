/**
 * The worker threads' priority. The library pool's workers run below the thread that made them,
 * so that it (which writes the batches, makes the records and answers its own timers) gets a CPU
 * sooner when it has work, instead of waiting its turn behind the workers on a machine with as
 * many workers as cores. The CLI's workers keep the main thread's (pool.ts openBatchSolver).
 */
import { getPriority, setPriority } from "node:os";

/**
 * Nice levels a library pool's worker runs below the thread that made it (Linux). A few levels are
 * enough for the main thread to wait less for a CPU; at 19 the workers fall behind everything
 * else the machine runs, and on a busy machine the pool's rate dropped.
 */
export const WORKER_NICE = 5;

/**
 * Lowers the calling thread's priority by `steps` nice levels, capped at 19 (the lowest); never
 * raises it. Linux only: there a nice value is the thread's own, and `setPriority(0, …)` changes
 * the calling thread alone; on macOS and Windows it would change the whole process. A priority
 * the thread may not set is left as it is.
 */
export function lowerThreadPriority(steps: number): void {
  if (process.platform !== "linux" || !(steps > 0)) return;
  try {
    const current = getPriority(0);
    const lowered = Math.min(19, current + steps);
    if (lowered > current) setPriority(0, lowered);
  } catch {
    // Not allowed here (a sandbox, a seccomp filter): the worker runs at the priority it has.
  }
}
