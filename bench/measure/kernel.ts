/** A WASM kernel of one grid size as the profiler and kernel-vs drive it: the puzzles written into its memory, then one call solves them all. */
import { compileSource } from "../../src/kernel/kernel-source.js";
import { CELLS, shapeOf } from "../../src/model/shape.js";
import { type KernelResult, kernelBudget } from "../../src/solvers/solver.js";
import { WasmKernel, batchViews } from "../../src/kernel/wasm.js";

export interface BatchKernel {
  /** The input region for `count` puzzles (N² bytes each); valid until the next call. */
  input(count: number): Uint8Array;
  /** Solves the `count` puzzles written last; the results are views, valid until the next call. */
  run(count: number, limit: number, budget?: number): KernelResult;
}

/** The raw exports of an N×N kernel build of any commit. */
interface GeneralExports {
  memory: WebAssembly.Memory;
  reserve(count: number, box: number): number;
  solveBatch(...args: number[]): number;
}

/** The N×N kernel at `source` (a URL, bytes, a Response) at box size `box`: through WasmKernel, or a wrapper for older builds whose solveBatch takes the box. */
export async function kernelAtBox(source: Parameters<typeof compileSource>[0], box: number): Promise<BatchKernel> {
  const module = await compileSource(source);
  const { exports } = (await WebAssembly.instantiate(module, { env: { abort: () => {} } })) as unknown as { exports: GeneralExports };
  if (exports.solveBatch.length !== 5) return WasmKernel.create(module, "general", box);
  const { cells } = shapeOf(box);
  let base = 0;
  let room = -1;
  return {
    input(count) {
      if (count > room) [base, room] = [exports.reserve(count, box) >>> 0, count];
      return new Uint8Array(exports.memory.buffer, base, count * cells);
    },
    run(count, limit, budget = Infinity) {
      exports.solveBatch(base, count, box, limit, kernelBudget(budget));
      return batchViews(exports.memory, base, count, cells);
    },
  };
}

/** Solves the 9×9 puzzles `cells` (81 bytes each, back to back) through `kernel`, 4,096 a call. */
export function solveInBatches(kernel: BatchKernel, cells: Uint8Array, limit: number): void {
  const count = cells.length / CELLS;
  for (let first = 0; first < count; first += 4096) {
    const n = Math.min(4096, count - first);
    kernel.input(n).set(cells.subarray(first * CELLS, (first + n) * CELLS));
    kernel.run(n, limit);
  }
}
