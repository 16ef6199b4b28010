/**
 * sudoku-wasm: the library entry point.
 *
 *   const solver = await createSolver();              // the WASM kernel
 *   solver.solve(line, { limit: 2 });                 // one record
 *   solver.solveMany(lines, { limit: 2 });            // records in input order, one batch
 */
import { findSolver } from "./registry.js";
import { Solver } from "./solver.js";

export interface CreateSolverOptions {
  /** A registry id (see `solvers`). @default "wasm" */
  solver?: string;
}

/** A ready {@link Solver} for a registry entry, by default the fastest WASM kernel. */
export async function createSolver(options: CreateSolverOptions = {}): Promise<Solver> {
  const info = findSolver(options.solver ?? "wasm");
  return new Solver(info.id, await info.load(), info.capabilities.guesses);
}

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
