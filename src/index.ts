/**
 * sudoku-wasm: the library entry point.
 *
 *   const solver = await createSolver();              // the WASM kernel
 *   solver.solve(line, { limit: 2 });                 // one record
 *   solver.solveMany(lines, { limit: 2 });            // records in input order, one batch
 *   solver.solve(line256, { alphabet: "ABCDEFGHIJKLMNOP" }); // 4×4, 16×16, 25×25: the general kernel
 */
import { createGeneralSolver } from "./general.js";
import { findSolver } from "./registry.js";
import { SizedSolver } from "./sized.js";
import { Solver } from "./solver.js";

export interface CreateSolverOptions {
  /** A registry id for 9×9 puzzles (see `solvers`). @default "wasm" */
  solver?: string;
  /** The engine for 4×4, 16×16 and 25×25 puzzles: the general WASM kernel or its TS twin. @default "wasm" */
  general?: "wasm" | "ts";
}

/**
 * A ready solver for a registry entry (by default the fastest WASM kernel) that routes 4×4,
 * 16×16 and 25×25 lines to the general kernel; 81-character lines stay on the 9×9 engine.
 */
export async function createSolver(options: CreateSolverOptions = {}): Promise<SizedSolver> {
  const info = findSolver(options.solver ?? "wasm");
  const classic = new Solver(info.id, await info.load(), info.capabilities.guesses);
  return new SizedSolver(classic, await createGeneralSolver({ engine: options.general ?? "wasm" }));
}

export { SizedSolver, type SizedSolveOptions } from "./sized.js";

export { solvers, findSolver, type SolverInfo, type SolverCapabilities } from "./registry.js";
export {
  Solver,
  DEFAULT_LIMIT,
  statusOf,
  type SolverEngine,
  type SearchStats,
  type SolveOptions,
  type SolveRecord,
  type Status,
  type BatchResult,
} from "./solver.js";
export * from "./puzzle.js";

// Lower level: the kernels themselves, for zero-copy batches and worker threads.
export { WasmKernel, compileKernel, kernelVariants, variantBuild, type KernelBuild, type KernelVariant } from "./wasm.js";
export {
  GeneralKernel,
  GeneralSolver,
  compileGeneralKernel,
  createGeneralSolver,
  type GeneralSolveOptions,
} from "./general.js";
export { type Alphabet, type Shape, parseGeneralPuzzle, formatGeneralGrid } from "./puzzle-general.js";
