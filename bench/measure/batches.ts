/** Timing whole batches with tinybench; every timed call's total count must equal the checked total. CPU time where there is a CPU clock. */
import { Bench } from "tinybench";
import type { CalibrationWork } from "../calibration.js";

export interface BatchTimingOptions {
  /** Least ms of timed calls (tinybench `time`). */
  timeMs: number;
  /** Least timed calls (tinybench `iterations`). */
  minCalls: number;
  /** ms of untimed warm-up calls first (at least one); 0 for no warm-up. */
  warmupMs: number;
  /** Runs before every call, warm-up included, outside its timing (e.g. writing the puzzles in again). */
  beforeEach?(): void;
  /** Runs after every call, warm-up included, outside its timing: checks its answers (throwing stops the timing). */
  afterEach?(): void;
  /** Runs after every timed call, after `afterEach`, with its CPU ms, wall ms, and the calibration run where it was timed elsewhere. */
  afterCall?(call: { cpuMs: number | null; wallMs: number; calibration?: CalibrationWork }): void;
  /** Stops the timing with {@link TimingAborted}; the event loop gets a turn every {@link YIELD_EVERY_MS} between calls so it is seen. */
  signal?: AbortSignal;
}

/** Longest stretch of back-to-back calls without a turn of the event loop, when a signal is watched. */
export const YIELD_EVERY_MS = 50;

/** One turn of the event loop (timers, I/O, signal listeners), in Node and in a browser. */
export function yieldToEventLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}

/** A hook that hands the event loop a turn when `everyMs` have passed since the last one. */
export function eventLoopTurns(everyMs = YIELD_EVERY_MS): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last < everyMs) return undefined;
    last = now;
    return yieldToEventLoop();
  };
}

export interface BatchTiming {
  meanMs: number;
  medianMs: number;
  /** Relative margin of error of the mean, in percent. */
  rmePercent: number;
  samples: number;
  /** Every timed call's ms, ascending. */
  batchMs: number[];
  /** Process CPU time over wall time while timing (1 = one core busy the whole time); null where there is no CPU clock (a browser). */
  cpuPerWall: number | null;
  /** Mean process CPU ms per timed call, every thread's (the time the process was not running left out); null without a CPU clock. */
  cpuMs: number | null;
}

/** Node's process CPU clock; none in a browser. */
const cpuClock = (globalThis as { process?: { cpuUsage(since?: { user: number; system: number }): { user: number; system: number } } }).process;

export class TimingAborted extends Error {}

/** A batch timed where it ran (a worker thread): its ms and CPU ms there stand for the call's, leaving out the trip between threads. */
export interface TimedElsewhere {
  total: number;
  ms: number;
  cpuMs?: number;
  /** The calibration work run there after the batch (rounds.ts), on the thread that ran it. */
  calibration?: CalibrationWork;
}

/** Times `solveBatch` (one call = one batch) with tinybench; every call's total count must equal `expectedTotal`. */
export async function timeBatches(
  name: string,
  solveBatch: () => number | TimedElsewhere | Promise<number | TimedElsewhere>,
  expectedTotal: number,
  options: BatchTimingOptions,
): Promise<BatchTiming> {
  const { signal } = options;
  let wrongTotals = 0;
  // tinybench leaves its listener on the signal it gets: give it one per timing.
  const own = new AbortController();
  const abort = () => own.abort();
  signal?.addEventListener("abort", abort, { once: true });
  const bench = new Bench({
    time: options.timeMs,
    iterations: options.minCalls,
    warmup: options.warmupMs > 0,
    warmupTime: options.warmupMs,
    warmupIterations: 1,
    throws: true,
    retainSamples: true,
    signal: own.signal,
  });
  const { beforeEach, afterEach, afterCall } = options;
  const turn = signal ? eventLoopTurns() : () => undefined;
  // Each call's CPU and wall time, taken last before it and first after it (tinybench's own step between is small).
  let cpuAtCall: { user: number; system: number } | undefined;
  let wallAtCall = 0;
  let elsewhere: TimedElsewhere | undefined;
  let cpuMsTimed = 0;
  let timedCalls = 0;
  const hooks = {
    beforeEach: async () => {
      beforeEach?.();
      await turn();
      cpuAtCall = cpuClock?.cpuUsage();
      wallAtCall = performance.now();
    },
    afterEach: (mode?: "run" | "warmup") => {
      const wallMs = performance.now() - wallAtCall;
      const cpu = cpuAtCall && cpuClock!.cpuUsage(cpuAtCall);
      const cpuMs = (cpuClock && elsewhere?.cpuMs) ?? (cpu ? (cpu.user + cpu.system) / 1000 : null);
      const calibration = elsewhere?.calibration;
      elsewhere = undefined;
      if (mode === "run") {
        cpuMsTimed += cpuMs ?? 0;
        timedCalls++;
      }
      afterEach?.();
      if (mode === "run") afterCall?.({ cpuMs, wallMs, calibration });
    },
  };
  bench.add(
    name,
    async () => {
      const result = await solveBatch();
      if ((typeof result === "number" ? result : result.total) !== expectedTotal) wrongTotals++;
      if (typeof result === "number") return undefined;
      elsewhere = result;
      return { overriddenDuration: result.ms };
    },
    hooks,
  );
  const cpuBefore = cpuClock?.cpuUsage();
  const wallBefore = performance.now();
  await bench.run().finally(() => signal?.removeEventListener("abort", abort));
  const cpu = cpuClock?.cpuUsage(cpuBefore);
  const wallMs = performance.now() - wallBefore;
  const result = bench.tasks[0].result;
  if (signal?.aborted) throw new TimingAborted(name);
  if (result.state === "errored") throw result.error;
  if (result.state !== "completed") throw new Error(`${name}: tinybench ended in state ${result.state}`);
  if (wrongTotals > 0) {
    throw new Error(`${name}: ${wrongTotals} timed batch(es) counted a different total than the verified ${expectedTotal}`);
  }
  return {
    meanMs: result.latency.mean,
    medianMs: result.latency.p50,
    rmePercent: result.latency.rme,
    samples: result.latency.samplesCount,
    batchMs: [...(result.latency.samples ?? [])],
    cpuPerWall: cpu ? (cpu.user + cpu.system) / 1000 / wallMs : null,
    cpuMs: cpu && timedCalls > 0 ? cpuMsTimed / timedCalls : null,
  };
}
