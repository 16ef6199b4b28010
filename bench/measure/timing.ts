/**
 * Timing one puzzle at a time, for the bench and the profiler: process.hrtime around each call,
 * and later passes that retime the puzzles a scheduler pause could have spoiled, keeping each
 * puzzle's fastest time. Whole passes, so that no puzzle runs twice in a row.
 */

/** Passes of a per-puzzle timing: puzzles under SHORT_PUZZLE_MICROS are retimed, since a scheduler pause would dominate a 10 µs sample. */
export const TIMING_PASSES = 3;
export const SHORT_PUZZLE_MICROS = 1000;

/** µs since `start` (a process.hrtime.bigint() reading). */
export const microsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1000;

/**
 * Retimes, in `passes - 1` more whole passes, each puzzle `retime` accepts, keeping its fastest time
 * in `micros` (the first pass's, updated in place); `afterOne` runs after each call's timing.
 */
export function retimeFastest(
  micros: Float64Array,
  passes: number,
  retime: (index: number, micros: number, pass: number) => boolean,
  solveOne: (index: number) => void,
  afterOne?: (index: number, pass: number) => void,
): Float64Array {
  for (let pass = 1; pass < passes; pass++) {
    for (let i = 0; i < micros.length; i++) {
      if (!retime(i, micros[i], pass)) continue;
      const start = process.hrtime.bigint();
      solveOne(i);
      micros[i] = Math.min(micros[i], microsSince(start));
      afterOne?.(i, pass);
    }
  }
  return micros;
}

/** Sum of the first `count` values (all by default). */
export function sumOf(values: ArrayLike<number>, count = values.length): number {
  let total = 0;
  for (let i = 0; i < count; i++) total += values[i];
  return total;
}
