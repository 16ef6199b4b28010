/**
 * The one whole-number check. Every value that must be a whole number in a range asks here —
 * the library's limit, the generator's settings, the PRNG's seed and bound, a batch's puzzle
 * count, a puzzle's cell values, the command-line options — so that "whole" means the same
 * everywhere: a safe integer (no fraction, no NaN, no ±Infinity, nothing past 2^53), from `min`
 * to `max` inclusive.
 */

/** True when `value` is a whole number from `min` to `max` (default: the largest safe integer). */
export function isWhole(value: number, min: number, max = Number.MAX_SAFE_INTEGER): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}

/**
 * `value` when it is a whole number from `min` to `max`; else a RangeError
 * "`name` must be a whole number from `min` to `maxText`, got `value`" (`maxText`: how the
 * message writes `max`, e.g. "2^31-1").
 */
export function checkWhole(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER, maxText = `${max}`): number {
  if (!isWhole(value, min, max)) throw new RangeError(`${name} must be a whole number from ${min} to ${maxText}, got ${value}`);
  return value;
}
