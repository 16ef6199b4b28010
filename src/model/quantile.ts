/** Order statistics shared by the generator's summaries and the bench. */

/** The q-quantile (0–1) of ascending values, interpolating linearly between order statistics. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/** The median of a list of numbers in any order (mean of the two middle values for an even count). */
export function median(values: ArrayLike<number>): number {
  return quantile(Float64Array.from(values).sort(), 0.5);
}
