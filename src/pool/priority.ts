/**
 * The worker threads' priority. A solving worker runs below the thread that made it, so that the
 * main thread (which reads, batches, writes and answers its own timers) gets a CPU sooner when it
 * has work, instead of waiting its turn behind the workers on a machine with as many workers as
 * cores.
 */
import { getPriority, setPriority } from "node:os";

/**
 * Nice levels a solving worker runs below the thread that made it (Linux). A few levels are
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
