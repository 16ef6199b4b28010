/**
 * The library pool's workers run below the thread that made them, so that thread gets a CPU sooner
 * when it has work. The CLI's workers keep the main thread's priority.
 */
import { getPriority, setPriority } from "node:os";

/** Nice levels a library pool's worker runs below its maker (Linux): a few are enough; the lowest priority starves the pool on a busy machine. */
export const WORKER_NICE = 5;

/** Lowers the calling thread's priority by `steps` nice levels (at most 19). Linux only: elsewhere it would change the whole process. */
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
