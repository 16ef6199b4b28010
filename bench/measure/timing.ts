/** Timing one puzzle at a time; later passes retime the short puzzles, keeping each one's fastest. Whole passes, so no puzzle runs twice in a row. */

/** Passes of a per-puzzle timing: puzzles under SHORT_PUZZLE_MICROS are retimed, since a scheduler pause would dominate a 10 µs sample. */
export const TIMING_PASSES = 3;
export const SHORT_PUZZLE_MICROS = 1000;
/** A puzzle timed at more than this many times its pass's median is retimed too: a pause of the process (a collection, a page fault) can make a 1 µs puzzle take 2 ms. */
export const SPIKE_OVER_MEDIAN = 50;

/** Whether a puzzle timed at `micros` in a first pass whose median is `median` µs is timed again ({@link retimeFastest}): short, or a spike. */
export function retimes(micros: number, median: number): boolean {
  return micros < SHORT_PUZZLE_MICROS || micros > SPIKE_OVER_MEDIAN * median;
}

/** µs since `start` (a process.hrtime.bigint() reading). */
export const microsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1000;

/** Retimes in `passes - 1` more passes each puzzle `retime` accepts, keeping its fastest in `micros` (in place); `afterOne` runs outside the timing. */
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

export function sumOf(values: ArrayLike<number>, count = values.length): number {
  let total = 0;
  for (let i = 0; i < count; i++) total += values[i];
  return total;
}
