/**
 * How two rows' speeds compare, with uncertainty: the ratio of their mean µs per puzzle and its
 * 95% interval. From both rows' timed batches (each batch's ms / its puzzles) when both carry
 * them: a percentile bootstrap, or Welch on their n, mean and σ past BOOTSTRAP_MAX_SAMPLES;
 * else Welch's method from n, mean and margin of error.
 * Used for "1.55 ± 0.04× faster than bitmask", the closing summary and `--compare`.
 */
import type { BenchRecord } from "./records.js";
import { type RatioEstimate, ratioOfMeans, spreadFromMargin, welchRatio } from "./statistics.js";

/** Per-puzzle latency samples in µs (each timed batch's ms × 1000 / its puzzles), or null with fewer than two. */
export function perPuzzleSamples(record: Pick<BenchRecord, "batchMs" | "puzzles">): number[] | null {
  if (!record.batchMs || record.batchMs.length < 2) return null;
  return record.batchMs.map((ms) => (ms * 1000) / record.puzzles);
}

/** How many times faster `faster` is than `slower` in mean µs/puzzle, with its 95% interval; null under two samples a side. */
export function speedRatio(slower: BenchRecord, faster: BenchRecord): RatioEstimate | null {
  const a = perPuzzleSamples(slower);
  const b = perPuzzleSamples(faster);
  if (a && b) return ratioOfMeans(a, b);
  if (slower.samples < 2 || faster.samples < 2) return null;
  return welchRatio(
    spreadFromMargin(slower.samples, slower.meanMicros, slower.rmePercent),
    spreadFromMargin(faster.samples, faster.meanMicros, faster.rmePercent),
  );
}
