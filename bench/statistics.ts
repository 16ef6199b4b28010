/**
 * Small statistics for the bench's reports: summaries of timing samples and confidence
 * intervals on the ratio of two means. Pure functions over numbers; nothing here measures.
 *
 * Glossary
 *   sample     one timed batch's latency (ms), or one puzzle's time (µs)
 *   ratio      mean(numerator) / mean(denominator): for latencies, how many times faster the
 *              denominator's row is than the numerator's
 *   interval   a two-sided 95% confidence interval [low, high] around the ratio
 *   bootstrap  percentile bootstrap: resample both sample sets with replacement, take the
 *              ratio of the resampled means, keep the 2.5th and 97.5th percentiles. It
 *              assumes the samples are independent draws, and makes no normality assumption.
 *   welch      from n, mean and σ (results without samples, and sides with more than
 *              BOOTSTRAP_MAX_SAMPLES samples): the delta method on log(ratio) with
 *              Welch–Satterthwaite degrees of freedom and Student's t.
 *   rank       for rounds that move by factors: Hodges–Lehmann's median of the pairwise ratios,
 *              with Mann–Whitney's distribution-free interval.
 */
import { Random } from "../src/model/prng.js";
import { quantile } from "../src/model/quantile.js";

/** Confidence level of every interval here. */
export const CONFIDENCE = 0.95;
/** Resamples a bootstrap interval draws. */
export const BOOTSTRAP_RESAMPLES = 2000;

/** What a set of samples says, in the samples' unit. */
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

/** The median of `values` (any order). */
export function median(values: ArrayLike<number>): number {
  return quantile(Float64Array.from(values).sort(), 0.5);
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
  method: "bootstrap" | "welch" | "paired" | "calibrated";
}

/** Half the interval's width: the "± 0.04" in "1.55 ± 0.04×". */
export function halfWidth(estimate: RatioEstimate): number {
  return (estimate.high - estimate.low) / 2;
}

/**
 * The mean of `values.length` draws with replacement from `values`. An index is a 32-bit draw
 * scaled to the length (a bias below length / 2^32, far under the bootstrap's own error),
 * not Random.below, whose checks cost more than the draw here.
 */
function resampledMean(values: ArrayLike<number>, random: Random): number {
  const n = values.length;
  const scale = n / 2 ** 32;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[Math.floor(random.nextUint32() * scale)];
  return sum / n;
}

/**
 * mean(numerator) / mean(denominator) with a percentile-bootstrap 95% interval (seeded, so
 * the same samples give the same interval). Each side needs at least two samples.
 */
export function bootstrapRatio(
  numerator: ArrayLike<number>,
  denominator: ArrayLike<number>,
  { resamples = BOOTSTRAP_RESAMPLES, seed = 1 }: { resamples?: number; seed?: number } = {},
): RatioEstimate {
  if (numerator.length < 2 || denominator.length < 2) throw new RangeError("a bootstrap ratio needs at least two samples on each side");
  const random = new Random(seed);
  const ratios = new Float64Array(resamples);
  for (let i = 0; i < resamples; i++) ratios[i] = resampledMean(numerator, random) / resampledMean(denominator, random);
  ratios.sort();
  const tail = (1 - CONFIDENCE) / 2;
  return { ratio: summarize(numerator).mean / summarize(denominator).mean, low: quantile(ratios, tail), high: quantile(ratios, 1 - tail), method: "bootstrap" };
}

/**
 * Above this many samples on either side, {@link ratioOfMeans} takes Welch's interval from the
 * samples' n, mean and σ instead of the bootstrap: with hundreds of samples the means are near
 * normal and the two agree (test/bench-statistics.test.ts), while the bootstrap's cost grows with
 * the samples.
 */
export const BOOTSTRAP_MAX_SAMPLES = 500;

/**
 * mean(numerator) / mean(denominator) with its 95% interval: the percentile bootstrap while
 * both sides have at most BOOTSTRAP_MAX_SAMPLES samples, else Welch on their summaries.
 */
export function ratioOfMeans(numerator: ArrayLike<number>, denominator: ArrayLike<number>): RatioEstimate {
  if (numerator.length > BOOTSTRAP_MAX_SAMPLES || denominator.length > BOOTSTRAP_MAX_SAMPLES) {
    return welchRatio(summarize(numerator), summarize(denominator));
  }
  return bootstrapRatio(numerator, denominator);
}

/** Sample count, mean and standard deviation: what a summary-only result still carries. */
export interface MeanAndSpread {
  n: number;
  mean: number;
  sd: number;
}

/**
 * numerator.mean / denominator.mean with a 95% interval from the delta method on log(ratio)
 * (variance of each log mean ≈ σ² / (n · mean²)), Welch–Satterthwaite degrees of freedom and
 * Student's t. Each side needs n ≥ 2.
 */
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

/**
 * The count c for a 95% interval from Mann–Whitney's U with `n` and `m` values: the largest c with
 * P(U ≤ c) ≤ 2.5% when both sides come from one distribution (−1 when even U = 0 is likelier,
 * as for 3 values a side). Exact up to 50 values a side (the distribution of U built count by
 * count), the normal approximation with its continuity correction beyond.
 */
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
 * numerator / denominator for values that move by factors (times in calibration units, round by
 * round): the Hodges–Lehmann estimate (the median of every pairwise ratio) with the
 * distribution-free 95% interval of Mann–Whitney's test, from the same sorted pairwise ratios.
 * Ranks, not means: one round that a stall made 20% slower moves the estimate and its interval
 * by one pair in n × m, where it would widen a mean's interval by half. Null when the sides are
 * too small for a 95% interval (fewer than 4 values a side when both have as many).
 */
export function rankRatio(numerator: readonly number[], denominator: readonly number[]): RatioEstimate | null {
  const count = mannWhitneyCount(numerator.length, denominator.length);
  if (count < 0) return null;
  const logs: number[] = [];
  for (const a of numerator) for (const b of denominator) logs.push(Math.log(a) - Math.log(b));
  logs.sort((a, b) => a - b);
  const middle = logs.length / 2;
  const median = logs.length % 2 === 1 ? logs[Math.floor(middle)] : (logs[middle - 1] + logs[middle]) / 2;
  return { ratio: Math.exp(median), low: Math.exp(logs[count]), high: Math.exp(logs[logs.length - 1 - count]), method: "calibrated" };
}

/** n, mean and σ from a tinybench-style summary (n, mean, relative margin of error in percent). */
export function spreadFromMargin(n: number, mean: number, rmePercent: number): MeanAndSpread {
  const sem = n > 1 ? ((rmePercent / 100) * Math.abs(mean)) / studentT95(n - 1) : NaN;
  return { n, mean, sd: sem * Math.sqrt(n) };
}

/** The ratio's interval scaled by `factor` (a ratio measured on one scale, reported on another). */
export function scaleRatio(estimate: RatioEstimate, factor: number): RatioEstimate {
  return { ...estimate, ratio: estimate.ratio * factor, low: estimate.low * factor, high: estimate.high * factor };
}

/** The interval of 1 / ratio (the same comparison read the other way round). */
export function invertRatio(estimate: RatioEstimate): RatioEstimate {
  return { ...estimate, ratio: 1 / estimate.ratio, low: 1 / estimate.high, high: 1 / estimate.low };
}

/** Samples outside Tukey's fences, as Criterion.rs counts them: mild beyond 1.5 IQR from the quartiles, severe beyond 3 IQR. */
export interface OutlierCount {
  /** Beyond 1.5 IQR but within 3 IQR. */
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
