/**
 * Waiting for a child process to be doing something, not for a guessed time: the CPU time each of
 * its threads has run, read from /proc (Linux), tells when a thread other than its main thread
 * (a worker) has been busy. A loaded machine slows the child, not what this waits for.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** Whether /proc shows each thread's CPU time here. */
export const threadTimesShown = existsSync("/proc/self/task");

/** The user plus system CPU time of each thread of process `pid` so far, in clock ticks (fields 14 and 15 of its stat line). */
export function threadTicks(pid: number): Map<number, number> {
  const ticks = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return ticks; // the process has ended
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "latin1");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // the name in field 2 may hold spaces
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return ticks;
}

/**
 * Resolves once a thread of `child` other than its main thread has run `ticks` clock ticks of CPU
 * (a tick is 10 ms on Linux) more than it had in `before` (a thread not in it counts from 0):
 * a worker thread busy with its work, for as long as that takes on this machine. Rejects if the
 * child ends first. Where /proc does not show thread times, it waits `fallbackMs` instead.
 */
export async function workerThreadBusy(child: ChildProcess, ticks: number, fallbackMs: number, before = new Map<number, number>()): Promise<void> {
  if (!threadTimesShown) return void (await sleep(fallbackMs));
  const pid = child.pid!;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the child ended (status ${child.exitCode ?? child.signalCode}) before a worker thread was busy`);
    for (const [tid, now] of threadTicks(pid)) if (tid !== pid && now - (before.get(tid) ?? 0) >= ticks) return;
    await sleep(20);
  }
}

/**
 * Resolves once the main thread of `child` has run `ticks` clock ticks of CPU (start-up included):
 * for a command that works on its main thread. Rejects if the child ends first; where /proc does
 * not show thread times, it waits `fallbackMs` instead.
 */
export async function mainThreadBusy(child: ChildProcess, ticks: number, fallbackMs: number): Promise<void> {
  if (!threadTimesShown) return void (await sleep(fallbackMs));
  const pid = child.pid!;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the child ended (status ${child.exitCode ?? child.signalCode}) before it was busy`);
    if ((threadTicks(pid).get(pid) ?? 0) >= ticks) return;
    await sleep(20);
  }
}
