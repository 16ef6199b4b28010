/**
 * The one guess summary of the bench, the profiler and kernel-vs: mean and median guesses per
 * puzzle and the share of puzzles solved without a guess. A puzzle the budget stopped counts
 * in the mean and median with the guesses it made before it stopped (a lower bound), and never
 * as solved without a guess.
 */
import { quantile } from "../../src/model/quantile.js";

/** Guesses per puzzle, summarised. */
export interface GuessSummary {
  mean: number;
  median: number;
  /** Share of puzzles solved without a guess (and not stopped by the budget), in percent. */
  noGuessPercent: number;
}

/**
 * The summary of per-puzzle `guesses`; null when there are none or any is unknown (NaN: a
 * solver that cannot count them). `timedOut(i)` tells whether the budget stopped puzzle i.
 */
export function summarizeGuesses(guesses: ArrayLike<number>, timedOut: (index: number) => boolean = () => false): GuessSummary | null {
  if (guesses.length === 0) return null;
  let sum = 0;
  let none = 0;
  for (let i = 0; i < guesses.length; i++) {
    if (!Number.isFinite(guesses[i])) return null;
    sum += guesses[i];
    if (guesses[i] === 0 && !timedOut(i)) none++;
  }
  const sorted = Float64Array.from(guesses).sort();
  return { mean: sum / guesses.length, median: quantile(sorted, 0.5), noGuessPercent: (100 * none) / guesses.length };
}
