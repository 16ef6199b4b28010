/**
 * A row timed in rounds, each round's mean recorded. Batches next to each other are alike; rounds catch more of what
 * moves a row between runs, so `--compare` judges with them (an interval from batches alone is far too narrow).
 */
import { CalibrationMeter } from "./calibration.js";
import { type BatchTiming, type BatchTimingOptions, type TimedElsewhere, TimingAborted, timeBatches } from "./measure/batches.js";
import { summarize } from "./statistics.js";

export const DEFAULT_ROUNDS = 5;

/** After every timed call, the calibration runs for this share of that call's wall time, on the thread that made the call. */
export const CALIBRATION_SHARE = 0.25;

export interface RoundTiming extends BatchTiming {
  /** Mean ms per batch of each round, in order. */
  roundMs: number[];
  /** Each round's process CPU ms per batch, taken around each call; absent where there is no CPU clock. */
  roundCpuMs?: number[];
  /** CPU ms per unit of the calibration work in each round, timed between its calls; absent without a CPU clock. */
  calibrationMs?: number[];
}

export interface RoundOptions extends BatchTimingOptions {
  rounds: number;
  /** Runs before each round, outside its timing (a fresh worker thread); every round then warms up, at least FRESH_WARMUP_MS. */
  beforeRound?(): Promise<void>;
}

/** The least warm-up of a round in a fresh worker thread, in ms: its code is compiled anew. */
export const FRESH_WARMUP_MS = 200;

/** Times `solveBatch` in rounds; the calibration runs after every timed call, so both see the same moments of the machine. */
export async function timeRounds(
  name: string,
  solveBatch: () => number | TimedElsewhere | Promise<number | TimedElsewhere>,
  expectedTotal: number,
  options: RoundOptions,
): Promise<RoundTiming> {
  const rounds = Math.max(1, Math.floor(options.rounds));
  const each: BatchTiming[] = [];
  const meter = new CalibrationMeter();
  const calibrationMs: number[] = [];
  const freshWarmupMs = Math.max(FRESH_WARMUP_MS, options.warmupMs / rounds);
  for (let round = 0; round < rounds; round++) {
    if (options.signal?.aborted) throw new TimingAborted(name);
    await options.beforeRound?.();
    each.push(
      await timeBatches(name, solveBatch, expectedTotal, {
        ...options,
        timeMs: options.timeMs / rounds,
        minCalls: Math.max(1, Math.ceil(options.minCalls / rounds)),
        warmupMs: options.beforeRound ? freshWarmupMs : round === 0 ? options.warmupMs : 0,
        afterCall: (call) => {
          options.afterCall?.(call);
          if (call.calibration) meter.add(call.calibration);
          else meter.pulse(call.wallMs * CALIBRATION_SHARE);
        },
      }),
    );
    calibrationMs.push(meter.take());
  }
  return {
    ...combineRounds(each),
    ...(each.every((t) => t.cpuMs !== null) ? { roundCpuMs: each.map((t) => t.cpuMs!), calibrationMs } : {}),
  };
}

/** The record fields `--compare` judges by: each round's CPU µs per puzzle and the calibration's CPU µs per unit beside it. */
export function calibratedFields(timing: RoundTiming, puzzles: number): { roundCpuMicros?: number[]; calibrationMicros?: number[] } {
  if (!timing.roundCpuMs || !timing.calibrationMs) return {};
  return { roundCpuMicros: timing.roundCpuMs.map((ms) => (ms * 1000) / puzzles), calibrationMicros: timing.calibrationMs.map((ms) => ms * 1000) };
}

/** The rounds as one timing: batches pooled, CPU share weighted by each round's time, CPU ms per call by its calls. */
export function combineRounds(each: readonly BatchTiming[]): RoundTiming {
  const batchMs = each.flatMap((t) => t.batchMs).sort((a, b) => a - b);
  const summary = summarize(batchMs);
  const weights = each.map((t) => t.meanMs * t.samples);
  const cpuPerWall = each.some((t) => t.cpuPerWall === null)
    ? null
    : each.reduce((sum, t, i) => sum + t.cpuPerWall! * weights[i], 0) / weights.reduce((a, b) => a + b, 0);
  return {
    meanMs: summary.mean,
    medianMs: summary.p50,
    rmePercent: summary.rmePercent,
    samples: summary.n,
    batchMs,
    cpuPerWall,
    cpuMs: each.some((t) => t.cpuMs === null) ? null : each.reduce((sum, t) => sum + t.cpuMs! * t.samples, 0) / summary.n,
    roundMs: each.map((t) => t.meanMs),
  };
}
