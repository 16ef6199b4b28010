/**
 * Timing contenders against each other in one process (kernel-vs, `--ref`): rounds in which they take turns of about
 * PIECE_SECONDS of CPU time, who goes first alternating. Turns of a few milliseconds see the same moments of the
 * machine, so what slows it moves both sides of each round's ratio alike.
 */
import { median } from "../../src/model/quantile.js";
import { cpuSeconds } from "./reference.js";

export interface InterleavedOptions {
  rounds: number;
  /** CPU seconds each contender should run per round (calls are repeated). */
  runSeconds: number;
  /** The clock, in seconds: this process's CPU time unless given (a test's own clock). */
  clock?: () => number;
  /** Runs after every timed call of contender `k`, outside its timing. */
  afterCall?(k: number): void;
}

/** CPU seconds of warm-up each contender gets at least. */
export const WARMUP_SECONDS = 0.05;
/** CPU seconds a contender's turn within a round lasts (at least one call). */
export const PIECE_SECONDS = 0.002;

/** CPU seconds per call of each contender in each round: `seconds[contender][round]`. */
export function timeInterleaved(calls: readonly (() => unknown)[], options: InterleavedOptions): number[][] {
  const clock = options.clock ?? cpuSeconds;
  const { afterCall } = options;
  const warmSeconds = calls.map(() => 0);
  const warmCalls = calls.map(() => 0);
  const lastCall = calls.map(() => Infinity);
  while (calls.some((_, k) => warmCalls[k] < 3 || warmSeconds[k] < WARMUP_SECONDS)) {
    calls.forEach((call, k) => {
      const start = clock();
      call();
      lastCall[k] = clock() - start;
      warmSeconds[k] += lastCall[k];
      warmCalls[k]++;
    });
  }
  const piece = lastCall.map((seconds) => Math.max(1, Math.round(PIECE_SECONDS / Math.max(seconds, 1e-7))));
  const seconds = calls.map((): number[] => []);
  for (let round = 0; round < options.rounds; round++) {
    const spent = calls.map(() => 0);
    const made = calls.map(() => 0);
    while (spent.some((s) => s < options.runSeconds)) {
      for (let i = 0; i < calls.length; i++) {
        const k = round % 2 === 0 ? i : calls.length - 1 - i;
        if (spent[k] >= options.runSeconds) continue;
        if (afterCall) {
          for (let r = 0; r < piece[k]; r++) {
            const start = clock();
            calls[k]();
            spent[k] += clock() - start;
            afterCall(k);
          }
        } else {
          const start = clock();
          for (let r = 0; r < piece[k]; r++) calls[k]();
          spent[k] += clock() - start;
        }
        made[k] += piece[k];
      }
    }
    calls.forEach((_, k) => (seconds[k][round] = spent[k] / made[k]));
  }
  return seconds;
}

/** The median of the per-round ratios, and their range. */
export interface RoundRatio {
  ratio: number;
  min: number;
  max: number;
}

/** How many times faster `faster` ran than `slower`, round by round (seconds of each per round). */
export function roundRatio(slower: readonly number[], faster: readonly number[]): RoundRatio {
  const ratios = slower.map((seconds, round) => seconds / faster[round]);
  return { ratio: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}
