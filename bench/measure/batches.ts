/**
 * Timing whole batches, for the bench's rows and the profiler's variants alike: tinybench calls
 * one batch function again and again — warm-up first when asked, then at least `minCalls` calls
 * and `timeMs` of them — and every timed call's total count must equal the verified total.
 * Statistics come from tinybench's latency (ms per call); CPU over wall time is taken around the
 * whole run (in Node; a browser has no process CPU clock). The caller checks the answers before,
 * outside the timing.
 *
 * One wrapper serves all: the bench and the web page time a row's batch call (or its
 * countSolutions loop, or a worker pool's batch) and report the mean; the profiler times a
 * kernel's run(n) — the puzzles written in again by `beforeEach`, outside the timing — and
 * reports the median.
 */
import { Bench } from "tinybench";

/** How to time a batch function. */
export interface BatchTimingOptions {
  /** Least ms of timed calls (tinybench `time`). */
  timeMs: number;
  /** Least timed calls (tinybench `iterations`). */
  minCalls: number;
  /** ms of untimed warm-up calls first (at least one); 0 for no warm-up. */
  warmupMs: number;
  /** Runs before every call, warm-up included, outside its timing (e.g. writing the puzzles in again). */
  beforeEach?(): void;
  /**
   * Runs after every call, warm-up included, outside its timing: checks the answers that call
   * gave (throwing stops the timing with that error).
   */
  afterEach?(): void;
  /**
   * Stops the timing: {@link timeBatches} then throws {@link TimingAborted}. With a signal, the
   * timing hands the event loop a turn every {@link YIELD_EVERY_MS} between calls (outside their
   * timing), so that a signal's listener can run while synchronous solvers are timed.
   */
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

/** What tinybench measured. */
export interface BatchTiming {
  /** Mean ms per call. */
  meanMs: number;
  /** Median ms per call. */
  medianMs: number;
  /** Relative margin of error of the mean, in percent. */
  rmePercent: number;
  /** Timed calls. */
  samples: number;
  /** Every timed call's ms, ascending. */
  batchMs: number[];
  /** Process CPU time over wall time while timing (1 = one core busy the whole time); null where there is no CPU clock (a browser). */
  cpuPerWall: number | null;
}

/** Node's process CPU clock, when there is one. */
const cpuClock = (globalThis as { process?: { cpuUsage(since?: { user: number; system: number }): { user: number; system: number } } }).process;

/** Thrown by {@link timeBatches} when its signal aborts the timing. */
export class TimingAborted extends Error {}

/** A batch timed where it ran (a worker thread): its total count and the ms it took there, which tinybench then takes as the call's time. */
export interface TimedElsewhere {
  total: number;
  ms: number;
}

/**
 * Times `solveBatch` (one call = one batch) with tinybench; every call's total count must equal
 * `expectedTotal`, or it throws naming `name`.
 */
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
  const { beforeEach, afterEach } = options;
  const turn = signal ? eventLoopTurns() : () => undefined;
  const hooks = {
    ...(beforeEach || signal ? { beforeEach: () => (beforeEach?.(), turn()) } : {}),
    ...(afterEach ? { afterEach: () => afterEach() } : {}),
  };
  bench.add(
    name,
    async () => {
      const result = await solveBatch();
      if ((typeof result === "number" ? result : result.total) !== expectedTotal) wrongTotals++;
      return typeof result === "number" ? undefined : { overriddenDuration: result.ms };
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
  };
}
