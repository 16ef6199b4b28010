/** Summaries of timing samples and 95% confidence intervals on ratios. Pure functions; nothing here measures. */
import { quantile } from "../src/model/quantile.js";

const CONFIDENCE = 0.95;

export interface SampleSummary {
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1); 0 for one sample. */
  sd: number;
  min: number;
  max: number;
  p50: number;
  p75: number;
  p99: number;
  /** Half-width of the 95% confidence interval of the mean, relative to the mean, in percent (Student's t). */
  rmePercent: number;
}

/** The summary of `samples` (any order); NaN fields when there are none. */
export function summarize(samples: ArrayLike<number>): SampleSummary {
  const sorted = Float64Array.from(samples).sort();
  const n = sorted.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i];
  const mean = n > 0 ? sum / n : NaN;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (sorted[i] - mean) ** 2;
  const sd = n > 1 ? Math.sqrt(squares / (n - 1)) : n === 1 ? 0 : NaN;
  const rmePercent = n > 1 ? (100 * studentT95(n - 1) * sd) / Math.sqrt(n) / Math.abs(mean) : NaN;
  return {
    n,
    mean,
    sd,
    min: n > 0 ? sorted[0] : NaN,
    max: n > 0 ? sorted[n - 1] : NaN,
    p50: quantile(sorted, 0.5),
    p75: quantile(sorted, 0.75),
    p99: quantile(sorted, 0.99),
    rmePercent,
  };
}

/** Two-sided 97.5% quantiles of Student's t for 1–30 degrees of freedom. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The critical value of a two-sided 95% interval with `df` degrees of freedom (Cornish–Fisher above 30). */
export function studentT95(df: number): number {
  if (!(df >= 1)) return NaN;
  if (df <= T95.length) return T95[Math.floor(df) - 1];
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
}

/** A ratio with its 95% confidence interval and how that interval was found. */
export interface RatioEstimate {
  ratio: number;
  low: number;
  high: number;
  /** "bootstrap" (a percentile bootstrap) is found only in older result files. */
  method: "bootstrap" | "welch" | "paired" | "calibrated";
}

export type MeanAndSpread = Pick<SampleSummary, "n" | "mean" | "sd">;

/** The ratio of means with the delta method on log(ratio), Welch–Satterthwaite degrees of freedom and Student's t; n ≥ 2 a side. */
export function welchRatio(numerator: MeanAndSpread, denominator: MeanAndSpread): RatioEstimate {
  if (numerator.n < 2 || denominator.n < 2) throw new RangeError("a Welch ratio needs at least two samples on each side");
  const varianceOfLog = (s: MeanAndSpread) => (s.sd * s.sd) / (s.n * s.mean * s.mean);
  const a = varianceOfLog(numerator);
  const b = varianceOfLog(denominator);
  const df = a + b > 0 ? (a + b) ** 2 / (a ** 2 / (numerator.n - 1) + b ** 2 / (denominator.n - 1)) : Infinity;
  const spread = studentT95(Math.max(1, df)) * Math.sqrt(a + b);
  const ratio = numerator.mean / denominator.mean;
  return { ratio, low: ratio * Math.exp(-spread), high: ratio * Math.exp(spread), method: "welch" };
}

/** The largest c with P(U ≤ c) ≤ 2.5% for Mann–Whitney's U over `n` and `m` values (−1 if none); exact up to 50 a side, normal beyond. */
export function mannWhitneyCount(n: number, m: number): number {
  const tail = (1 - CONFIDENCE) / 2;
  if (n > 50 || m > 50) return Math.floor((n * m) / 2 - 1.959964 * Math.sqrt((n * m * (n + m + 1)) / 12) - 0.5);
  // P(U = u) for i values against j: the largest of all i + j is on one side or the other.
  let previous: Float64Array[] = Array.from({ length: m + 1 }, () => Float64Array.of(1));
  for (let i = 1; i <= n; i++) {
    const current: Float64Array[] = [Float64Array.of(1)];
    for (let j = 1; j <= m; j++) {
      const p = new Float64Array(i * j + 1);
      previous[j].forEach((share, u) => (p[u + j] += (share * i) / (i + j)));
      current[j - 1].forEach((share, u) => (p[u] += (share * j) / (i + j)));
      current.push(p);
    }
    previous = current;
  }
  let cumulative = 0;
  let count = -1;
  for (const share of previous[m]) {
    cumulative += share;
    if (cumulative > tail + 1e-12) break;
    count++;
  }
  return count;
}

/**
 * numerator / denominator: the Hodges–Lehmann median of the pairwise ratios with Mann–Whitney's interval. Ranks, not
 * means, so one stalled round moves it by one pair. Null under 4 values a side.
 */
export function rankRatio(numerator: readonly number[], denominator: readonly number[]): RatioEstimate | null {
  const count = mannWhitneyCount(numerator.length, denominator.length);
  if (count < 0) return null;
  const logs: number[] = [];
  for (const a of numerator) for (const b of denominator) logs.push(Math.log(a) - Math.log(b));
  logs.sort((a, b) => a - b);
  return { ratio: Math.exp(quantile(logs, 0.5)), low: Math.exp(logs[count]), high: Math.exp(logs[logs.length - 1 - count]), method: "calibrated" };
}

/** n, mean and σ from a tinybench-style summary (n, mean, relative margin of error in percent). */
export function spreadFromMargin(n: number, mean: number, rmePercent: number): MeanAndSpread {
  const sem = n > 1 ? ((rmePercent / 100) * Math.abs(mean)) / studentT95(n - 1) : NaN;
  return { n, mean, sd: sem * Math.sqrt(n) };
}

/** Samples outside Tukey's fences, as Criterion.rs counts them: mild beyond 1.5 IQR from the quartiles, severe beyond 3 IQR. */
export interface OutlierCount {
  mild: number;
  /** Beyond 3 IQR: a batch that another process very likely disturbed. */
  severe: number;
}

/** The outliers among `samples` (any order) on either side; none with fewer than 4 samples. */
export function tukeyOutliers(samples: ArrayLike<number>): OutlierCount {
  const count = { mild: 0, severe: 0 };
  if (samples.length < 4) return count;
  const sorted = Float64Array.from(samples).sort();
  const q1 = quantile(sorted, 0.25);
  const q3 = quantile(sorted, 0.75);
  const iqr = q3 - q1;
  for (const value of sorted) {
    const beyond = value < q1 ? (q1 - value) / iqr : value > q3 ? (value - q3) / iqr : 0;
    if (beyond > 3) count.severe++;
    else if (beyond > 1.5) count.mild++;
  }
  return count;
}

/** What {@link speedRatio} reads of a row: its timed batches, or failing those its n, mean and margin. */
export interface RowTiming {
  batchMs?: number[];
  puzzles: number;
  samples: number;
  meanMicros: number;
  rmePercent: number;
}

/** Per-puzzle latency samples in µs (each timed batch's ms × 1000 / its puzzles), or null with fewer than two. */
function perPuzzleSamples(row: RowTiming): number[] | null {
  if (!row.batchMs || row.batchMs.length < 2) return null;
  return row.batchMs.map((ms) => (ms * 1000) / row.puzzles);
}

/** How many times faster `faster` is than `slower` in mean µs/puzzle, Welch's 95% interval over their batches; null under two a side. */
export function speedRatio(slower: RowTiming, faster: RowTiming): RatioEstimate | null {
  if (slower.samples < 2 || faster.samples < 2) return null;
  const spread = (row: RowTiming) => {
    const samples = perPuzzleSamples(row);
    return samples ? summarize(samples) : spreadFromMargin(row.samples, row.meanMicros, row.rmePercent);
  };
  return welchRatio(spread(slower), spread(faster));
}
