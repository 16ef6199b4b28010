/**
 * N×N grids (box sizes 2–5: 4×4, 9×9, 16×16, 25×25): loading the general WASM kernel
 * (assembly/general.ts), batching through its memory, and the solver over text lines.
 *
 * Batch layout in linear memory (n puzzles of C = N² cells, from the pointer `reserve(n, box)`
 * returns):
 *
 *   base ─► ┌──────────────────────┐
 *           │ puzzles   n × C u8   │  written by the host (0 empty, 1..N)
 *           ├──────────────────────┤
 *           │ solutions n × C u8   │  first solution of each puzzle
 *           ├──────────────────────┤  (4-byte aligned)
 *           │ counts    n × i32    │  solutions found up to the limit, -1 for a byte over N
 *           ├──────────────────────┤
 *           │ guesses   n × i32    │
 *           ├──────────────────────┤
 *           │ nodes     n × i32    │  states propagated; negative when the budget stopped it
 *           └──────────────────────┘
 *
 * One `solveBatch(base, n, box, limit, budget)` call solves all n (budget 0: no cap). `reserve` may grow memory, which
 * detaches old views, so views are re-created after each call.
 *
 *   const solver = await createGeneralSolver();
 *   solver.solve(line256, { limit: 2 });       // alphabet detected, solution in it
 *   solver.solveMany(lines, { limit: 2 });     // one batch per grid size, records in input order
 *   solver.solve(line625, { budget: 100_000 }); // status "timeout" past 100,000 search nodes
 */
import { PuzzleError } from "./puzzle.js";
import { type Alphabet, type GeneralPuzzle, formatGeneralGrid, parseGeneralPuzzle, shapeOf } from "./puzzle-general.js";
import {
  type BatchResult,
  type ReadPuzzle,
  type SearchStats,
  type SolveRecord,
  DEFAULT_LIMIT,
  checkLimit,
  invalidRecord,
  kernelBudget,
  solveInOrder,
  statusOf,
} from "./solver.js";
import { instantiate as instantiateGeneralKernel } from "../build/general.js";
import { type KernelSource, type WasmModule, compileSource } from "./kernel-source.js";
import { type KernelBuild, batchLayout, batchViews, compileWasmFile, copyBatch } from "./wasm.js";
import { GeneralTsEngine } from "./solvers/general-ts.js";

// ── the kernel ──────────────────────────────────────────────────────────────────────────────

interface GeneralKernelExports {
  memory: WebAssembly.Memory;
  reserve(count: number, box: number): number;
  solveBatch(base: number, count: number, box: number, limit: number, budget: number): number;
}

/** build/general.wasm (release) or build/general-debug.wasm (debug, asserts on). */
const fileStem = (build: KernelBuild): string => (build === "release" ? "general" : "general-debug");

/** Compiles the general kernel once; the Module can be posted to worker threads and instantiated there. */
export function compileGeneralKernel(build: KernelBuild = "release"): Promise<WasmModule> {
  return compileWasmFile(fileStem(build));
}

/** Counts N×N puzzles up to a limit; implemented by the WASM kernel and its TS twin. */
export interface GeneralEngine {
  /**
   * Counts the solutions of `puzzle` (N² bytes, 0 empty, 1..N, box size `box`) up to `limit`,
   * writes the first into `solution` and the guesses (and whether `budget` search nodes ran
   * out; Infinity for no cap) into `stats`. -1 when a byte is over N.
   */
  countSolutions(puzzle: Uint8Array, box: number, limit: number, solution: Uint8Array, stats: SearchStats, budget?: number): number;
  /** Present on engines that solve a whole batch in one call (the WASM kernel). */
  solveBatch?(puzzles: Uint8Array, count: number, box: number, limit: number, budget?: number): BatchResult;
}

/** One instance of the general WASM kernel with its own linear memory. Not thread-safe; one per worker. */
export class GeneralKernel implements GeneralEngine {
  private base = 0;
  private capacityBytes = 0;

  private constructor(private readonly exports: GeneralKernelExports) {}

  /**
   * Instantiates the kernel from `source` (a module from {@link compileGeneralKernel}, its bytes,
   * a fetch Response or a URL), or else from `build`'s file beside this package.
   */
  static async create(source?: KernelSource, build: KernelBuild = "release"): Promise<GeneralKernel> {
    const module = source === undefined ? await compileGeneralKernel(build) : await compileSource(source);
    return new GeneralKernel((await instantiateGeneralKernel(module, { env: {} })) as GeneralKernelExports);
  }

  /** Makes room for `count` puzzles of box size `box`; returns a view to write them into (valid until the next call). */
  input(count: number, box: number): Uint8Array {
    const { cells } = shapeOf(box);
    const bytes = batchLayout(0, count, cells).end;
    if (bytes > this.capacityBytes) {
      this.base = this.exports.reserve(count, box);
      this.capacityBytes = bytes;
    }
    return new Uint8Array(this.exports.memory.buffer, this.base, count * cells);
  }

  /**
   * Solves the `count` puzzles of box size `box` last written into {@link input}, each search
   * capped at `budget` nodes (Infinity: no cap). The result arrays are views into linear
   * memory: read them before the next call.
   */
  run(count: number, box: number, limit: number, budget = Infinity): BatchResult {
    const { cells } = shapeOf(box);
    if (batchLayout(0, count, cells).end > this.capacityBytes) throw new RangeError(`run(${count}, ${box}) without input(${count}, ${box}) first`);
    this.exports.solveBatch(this.base, count, box, limit, kernelBudget(budget));
    return batchViews(this.exports.memory, this.base, count, cells);
  }

  /** Copies `count` puzzles in, solves them in one call, and returns copies of the results. */
  solveBatch(puzzles: Uint8Array, count: number, box: number, limit: number, budget = Infinity): BatchResult {
    const input = this.input(count, box);
    input.set(puzzles.subarray(0, input.length));
    return copyBatch(this.run(count, box, limit, budget));
  }

  countSolutions(puzzle: Uint8Array, box: number, limit: number, solution: Uint8Array, stats: SearchStats, budget = Infinity): number {
    const result = this.solveBatch(puzzle, 1, box, limit, budget);
    const count = result.counts[0];
    if (count > 0) solution.set(result.solutions);
    stats.guesses = result.guesses[0];
    stats.timedOut = result.nodes![0] < 0;
    return count;
  }
}

// ── the solver over text ────────────────────────────────────────────────────────────────────

export interface GeneralSolveOptions {
  /** Stop counting at this many solutions: 1 finds one, 2 proves uniqueness. @default 2 */
  limit?: number;
  /** The symbols in order (e.g. "ABCDEFGHIJKLMNOP"); detected per line when absent. @default undefined */
  alphabet?: Alphabet;
  /** Search nodes per puzzle (states propagated); a puzzle over it reports `timeout`. @default Infinity */
  budget?: number;
}

/** The puzzle of a line, or the record saying why it cannot be read. */
function parseLine(line: string, alphabet: Alphabet | undefined): GeneralPuzzle | SolveRecord {
  try {
    return parseGeneralPuzzle(line, { alphabet });
  } catch (error) {
    if (error instanceof PuzzleError) return invalidRecord(error.message);
    throw error;
  }
}

/** The record of one solved puzzle; `solution` holds its first solution when count > 0. */
function recordOf(puzzle: GeneralPuzzle, count: number, guesses: number, solution: Uint8Array, timedOut: boolean): SolveRecord {
  return {
    status: statusOf(count, timedOut),
    count,
    solution: count > 0 ? formatGeneralGrid(solution, puzzle.alphabet) : null,
    guesses,
  };
}

/** Solves N×N puzzles given as lines of text; records as {@link Solver} gives them for 9×9. */
export class GeneralSolver {
  private readonly stats: SearchStats = { guesses: 0, timedOut: false };

  constructor(
    readonly id: string,
    readonly engine: GeneralEngine,
  ) {}

  /** Solve one puzzle line. Bad input gives an `invalid` record naming the cell, never a throw. */
  solve(line: string, options: GeneralSolveOptions = {}): SolveRecord {
    const limit = checkLimit(options.limit ?? DEFAULT_LIMIT);
    const puzzle = parseLine(line, options.alphabet);
    if (!("grid" in puzzle)) return puzzle;
    const solution = new Uint8Array(puzzle.shape.cells);
    const count = this.engine.countSolutions(puzzle.grid, puzzle.shape.box, limit, solution, this.stats, options.budget ?? Infinity);
    return recordOf(puzzle, count, this.stats.guesses, solution, this.stats.timedOut);
  }

  /**
   * Solve many puzzle lines, of any mix of sizes; one record each, in input order. An engine with
   * a batch entry point (the WASM kernel) gets each size's valid puzzles in one call.
   */
  solveMany(lines: Iterable<string>, options: GeneralSolveOptions = {}): SolveRecord[] {
    const limit = checkLimit(options.limit ?? DEFAULT_LIMIT);
    const engine = this.engine;
    if (!engine.solveBatch) return Array.from(lines, (line) => this.solve(line, options));
    const read = (line: string): ReadPuzzle<GeneralPuzzle> => {
      const puzzle = parseLine(line, options.alphabet);
      return "grid" in puzzle ? { puzzle } : { record: puzzle };
    };
    const solveSize = (puzzles: GeneralPuzzle[]): SolveRecord[] => {
      const { box, cells } = puzzles[0].shape;
      const packed = new Uint8Array(puzzles.length * cells);
      puzzles.forEach((puzzle, i) => packed.set(puzzle.grid, i * cells));
      const batch = engine.solveBatch!(packed, puzzles.length, box, limit, options.budget ?? Infinity);
      return puzzles.map((puzzle, i) =>
        recordOf(puzzle, batch.counts[i], batch.guesses[i], batch.solutions.subarray(i * cells, (i + 1) * cells), (batch.nodes?.[i] ?? 0) < 0),
      );
    };
    return solveInOrder(lines, read, solveSize, (puzzle) => puzzle.shape.box);
  }
}

export interface CreateGeneralSolverOptions {
  /** `wasm` (the general kernel) or `ts` (its TS twin). @default "wasm" */
  engine?: "wasm" | "ts";
  /** Which kernel build the `wasm` engine loads. @default "release" */
  build?: KernelBuild;
  /** Where the `wasm` engine's kernel comes from instead of `build`'s file (see {@link KernelSource}). @default undefined */
  kernel?: KernelSource;
}

/** A ready {@link GeneralSolver}: the general WASM kernel by default, or its TS twin. */
export async function createGeneralSolver(options: CreateGeneralSolverOptions = {}): Promise<GeneralSolver> {
  if (options.engine === "ts") return new GeneralSolver("general-ts", new GeneralTsEngine());
  const build = options.build ?? "release";
  return new GeneralSolver(build === "release" ? "general-wasm" : "general-wasm-debug", await GeneralKernel.create(options.kernel, build));
}

export { GeneralTsEngine };
