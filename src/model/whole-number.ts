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

/**
 * `value` with its digits in groups of three, `1,019,898`: what `value.toLocaleString("en-US")`
 * writes for a safe integer, without starting ICU's locale data, which costs a command more
 * than all its modules but one (about 115M instructions, tens of milliseconds); any other
 * value is left to toLocaleString.
 */
export function commaGrouped(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString("en-US");
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  return sign + String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ",");
}
