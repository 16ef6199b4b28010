/**
 * A WASM kernel of one grid size as the profiler and kernel-vs drive it: the puzzles written
 * into its memory, then one call solves them all. `WasmKernel` (9×9) is one as it stands; the
 * N×N kernel is one at a given box size ({@link atBox}).
 */
import type { GeneralKernel } from "../../src/general.js";
import type { BatchResult } from "../../src/solver.js";

export interface BatchKernel {
  /** The input region for `count` puzzles (N² bytes each); valid until the next call. */
  input(count: number): Uint8Array;
  /** Solves the `count` puzzles written last; the results are views, valid until the next call. */
  run(count: number, limit: number, budget?: number): BatchResult;
}

/** The N×N kernel on puzzles of box size `box` (side box²). */
export function atBox(kernel: GeneralKernel, box: number): BatchKernel {
  return {
    input: (count) => kernel.input(count, box),
    run: (count, limit, budget) => kernel.run(count, box, limit, budget),
  };
}
