/**
 * The one whole-number check, so "whole" means the same everywhere: a safe integer (no fraction,
 * NaN, ±Infinity or anything past 2^53) from `min` to `max` inclusive.
 */

/** True when `value` is a whole number from `min` to `max` (default: the largest safe integer). */
export function isWhole(value: number, min: number, max = Number.MAX_SAFE_INTEGER): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}

/** `value` when it is a whole number from `min` to `max`; else a RangeError naming `name` (`maxText`: how it writes `max`, e.g. "2^31-1"). */
export function checkWhole(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER, maxText = `${max}`): number {
  if (!isWhole(value, min, max)) throw new RangeError(`${name} must be a whole number from ${min} to ${maxText}, got ${value}`);
  return value;
}

/** `count`, comma-grouped, and `noun`, plural unless the count is 1: "1 core", "2 cores", "1,000 solves". */
export function counted(count: number, noun: string): string {
  // (a count missing from an older result file reads "undefined cores", as before)
  return `${typeof count === "number" ? commaGrouped(count) : count} ${noun}${count === 1 ? "" : "s"}`;
}

/** `value` with its digits in groups of three (`1,019,898`), as toLocaleString("en-US") writes a safe integer, without loading ICU's locale data (tens of ms). */
export function commaGrouped(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString("en-US");
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  return sign + String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ",");
}
