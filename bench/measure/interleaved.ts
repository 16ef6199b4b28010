/**
 * Timing contenders against each other in one process, for kernel-vs: a warm-up until V8 has
 * tiered every contender up, then rounds that alternate which contender goes first, each run
 * timed in this process's CPU time (on a shared machine another process's time is not counted)
 * and repeated so that a run lasts about `runSeconds` even on a small file. Ratios are taken
 * round by round, so a load that changes between rounds moves both sides of each ratio.
 */
import { quantile } from "../../src/quantile.js";
import { cpuSeconds } from "./reference.js";

/** How to interleave. */
export interface InterleavedOptions {
  /** Timed runs of each contender. */
  rounds: number;
  /** CPU seconds each timed run should last at least (calls are repeated within a run). */
  runSeconds: number;
}

/** CPU seconds per call of each contender in each round: `seconds[contender][round]`. */
export function timeInterleaved(calls: readonly (() => unknown)[], options: InterleavedOptions): number[][] {
  let slowest = 0;
  for (let warm = 0; warm < 3; warm++) {
    for (const call of calls) {
      const start = cpuSeconds();
      call();
      slowest = Math.max(slowest, cpuSeconds() - start);
    }
  }
  const repeats = Math.max(1, Math.ceil(options.runSeconds / Math.max(slowest, 1e-4)));
  const seconds = calls.map((): number[] => []);
  const order = calls.map((_, i) => i);
  for (let round = 0; round < options.rounds; round++) {
    for (const k of round % 2 === 0 ? order : [...order].reverse()) {
      const start = cpuSeconds();
      for (let r = 0; r < repeats; r++) calls[k]();
      seconds[k][round] = (cpuSeconds() - start) / repeats;
    }
  }
  return seconds;
}

/** A speed ratio over rounds: the median of the per-round ratios, and their range. */
export interface RoundRatio {
  ratio: number;
  min: number;
  max: number;
}

/** How many times faster `faster` ran than `slower`, round by round (seconds of each per round). */
export function roundRatio(slower: readonly number[], faster: readonly number[]): RoundRatio {
  const ratios = slower.map((seconds, round) => seconds / faster[round]);
  return { ratio: medianOf(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

/** The median of `values`. */
export function medianOf(values: readonly number[]): number {
  return quantile(Float64Array.from(values).sort(), 0.5);
}
