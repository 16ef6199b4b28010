/**
 * N×N grids (box sizes 2–5: 4×4, 9×9, 16×16, 25×25): loading the general WASM kernel
 * (assembly/general.ts) and batching through its memory. The registry's `general-wasm` row is
 * {@link engineForBox} over it, one engine per size; the library's Solver routes to it.
 *
 * Batch layout in linear memory (n puzzles of C = N² cells, from the pointer `reserve(n, box)`
 * returns):
 *
 *   base ─► ┌──────────────────────┐
 *           │ puzzles   n × C u8   │  written by the host (0 empty, 1..N)
 *           ├──────────────────────┤
 *           │ solutions n × C u8   │  first solution of each puzzle
 *           ├──────────────────────┤  (4-byte aligned)
 *           │ counts    n × i32    │  solutions up to the limit; -1 bad byte, -2 repeated clue
 *           ├──────────────────────┤
 *           │ guesses   n × i32    │
 *           ├──────────────────────┤
 *           │ nodes     n × i32    │  states propagated; negative when the budget stopped it
 *           └──────────────────────┘
 *
 * One `solveBatch(base, n, box, limit, budget)` call solves all n (budget 0: no cap). `reserve` may grow memory, which
 * detaches old views, so views are re-created after each call.
 *
 *   const kernel = await GeneralKernel.create();
 *   kernel.input(n, 4).set(packed);             // n 16×16 puzzles, 256 bytes each
 *   const { counts, solutions } = kernel.run(n, 4, 2, Infinity);
 */
import { shapeOf } from "./shape.js";
import { type BatchResult, type SearchStats, type SolverEngine, kernelBudget } from "./solver.js";
import { instantiate as instantiateGeneralKernel } from "../build/general.js";
import { type KernelSource, type WasmModule, compileSource } from "./kernel-source.js";
import { BatchRoom, checkBatchBytes, checkGridBytes, checkRunArguments, compileWasmFile, copyBatch } from "./wasm.js";

// ── the kernel ──────────────────────────────────────────────────────────────────────────────

interface GeneralKernelExports {
  memory: WebAssembly.Memory;
  reserve(count: number, box: number): number;
  solveBatch(base: number, count: number, box: number, limit: number, budget: number): number;
}

/** The general kernel's builds: `release` (build/general.wasm) or `debug` (build/general-debug.wasm, asserts on). */
export type GeneralBuild = "release" | "debug";

/** The file stem of a build; a RangeError for any other name (no build is picked silently). */
function fileStem(build: GeneralBuild): string {
  if (build === "release") return "general";
  if (build === "debug") return "general-debug";
  throw new RangeError(`the general kernel has builds 'release' and 'debug', not '${build as string}'`);
}

/** Compiles the general kernel once; the Module can be posted to worker threads and instantiated there. */
export function compileGeneralKernel(build: GeneralBuild = "release"): Promise<WasmModule> {
  return compileWasmFile(fileStem(build));
}

/** One instance of the general WASM kernel with its own linear memory. Not thread-safe; one per worker. */
export class GeneralKernel {
  private readonly room: BatchRoom;

  private constructor(private readonly exports: GeneralKernelExports) {
    this.room = new BatchRoom(exports.memory);
  }

  /**
   * Instantiates the kernel from `source` (a module from {@link compileGeneralKernel}, its bytes,
   * a fetch Response or a URL), or else from `build`'s file beside this package.
   */
  static async create(source?: KernelSource, build: GeneralBuild = "release"): Promise<GeneralKernel> {
    const module = source === undefined ? await compileGeneralKernel(build) : await compileSource(source);
    return new GeneralKernel((await instantiateGeneralKernel(module, { env: {} })) as GeneralKernelExports);
  }

  /** Makes room for `count` puzzles of box size `box`; returns a view to write them into (valid until the next call). */
  input(count: number, box: number): Uint8Array {
    const { cells } = shapeOf(box);
    const base = this.room.make(count, cells, () => this.exports.reserve(count, box));
    return this.room.puzzles(base, count, cells);
  }

  /**
   * Solves the `count` puzzles of box size `box` last written into {@link input}, each search
   * capped at `budget` nodes (Infinity: no cap). The result arrays are views into linear
   * memory: read them before the next call.
   */
  run(count: number, box: number, limit: number, budget = Infinity): BatchResult {
    const { cells } = shapeOf(box);
    checkRunArguments(count, limit, budget);
    const base = this.room.check(count, cells, `run(${count}, ${box})`);
    BatchRoom.checkSolved(this.exports.solveBatch(base, count, box, limit, kernelBudget(budget)), `run(${count}, ${box})`);
    return this.room.results(base, count, cells);
  }

  /** Copies `count` puzzles in, solves them in one call, and returns copies of the results. */
  solveBatch(puzzles: Uint8Array, count: number, box: number, limit: number, budget = Infinity): BatchResult {
    checkBatchBytes(puzzles, count, shapeOf(box).cells);
    const input = this.input(count, box);
    input.set(puzzles.subarray(0, input.length));
    return copyBatch(this.run(count, box, limit, budget));
  }

  countSolutions(puzzle: Uint8Array, box: number, limit: number, solution: Uint8Array, stats: SearchStats, budget = Infinity): number {
    const { cells } = shapeOf(box);
    checkGridBytes("puzzle", puzzle, cells);
    checkGridBytes("solution", solution, cells, true);
    const result = this.solveBatch(puzzle, 1, box, limit, budget);
    const count = result.counts[0];
    if (count > 0) solution.set(result.solutions);
    stats.guesses = result.guesses[0];
    stats.timedOut = result.nodes[0] < 0;
    return count;
  }
}

/** What the N×N solvers offer: the box size given with each call (the general kernel and its TS twin). */
interface SolvesAnyBox {
  countSolutions(puzzle: Uint8Array, box: number, limit: number, solution: Uint8Array, stats: SearchStats, budget: number): number;
  solveBatch?(puzzles: Uint8Array, count: number, box: number, limit: number, budget: number): BatchResult;
}

/** The {@link SolverEngine} of box size `box` over a solver that takes the box with each call. */
export function engineForBox(solver: SolvesAnyBox, box: number): SolverEngine {
  const engine: SolverEngine = {
    countSolutions: (puzzle, limit, solution, stats, budget) => solver.countSolutions(puzzle, box, limit, solution, stats, budget),
  };
  const solveBatch = solver.solveBatch;
  if (solveBatch) engine.solveBatch = (puzzles, count, limit, budget) => solveBatch.call(solver, puzzles, count, box, limit, budget);
  return engine;
}
