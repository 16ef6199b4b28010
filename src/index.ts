/**
 * sudoku-wasm: the library entry point.
 *
 *   const solver = await createSolver();              // the WASM kernel
 *   solver.solve(line, { limit: 2 });                 // one record
 *   solver.solveMany(lines, { limit: 2 });            // records in input order, one batch
 *   solver.solve(line256, { alphabet: "ABCDEFGHIJKLMNOP" }); // 4×4, 16×16, 25×25: the general kernel
 */
import { createGeneralSolver } from "./general.js";
import type { KernelSource } from "./kernel-source.js";
import { type SolverId, findSolver } from "./registry.js";
import { SizedSolver } from "./sized.js";
import { Solver } from "./solver.js";
import { WasmKernel } from "./wasm.js";

export interface CreateSolverOptions {
  /** A registry id for 9×9 puzzles (see `solvers`). @default "wasm" */
  solver?: SolverId;
  /** The engine for 4×4, 16×16 and 25×25 puzzles: the general WASM kernel or its TS twin. @default "wasm" */
  general?: "wasm" | "ts";
  /**
   * Where the WASM kernels come from, when not from the files beside this package (a bundler
   * that does not copy them, an offline cache): a URL, bytes, a fetch Response or a compiled
   * WebAssembly.Module, for the 9×9 kernel (`wasm`) and the N×N one (`general`). @default {}
   */
  kernels?: { wasm?: KernelSource; general?: KernelSource };
}

/**
 * A ready solver for a registry entry (by default the fastest WASM kernel) that routes 4×4,
 * 16×16 and 25×25 lines to the general kernel; 81-character lines stay on the 9×9 engine.
 */
export async function createSolver(options: CreateSolverOptions = {}): Promise<SizedSolver> {
  const info = findSolver(options.solver ?? "wasm");
  const wasmSource = info.id === "wasm" ? options.kernels?.wasm : undefined;
  const engine = wasmSource === undefined ? await info.load() : await WasmKernel.create(wasmSource);
  const classic = new Solver(info.id, engine, info.capabilities.guesses);
  return new SizedSolver(classic, await createGeneralSolver({ engine: options.general ?? "wasm", kernel: options.kernels?.general }));
}

export { SizedSolver, type SizedSolveOptions } from "./sized.js";

export { solvers, findSolver, type SolverInfo, type SolverCapabilities, type SolverId, type BuiltinSolverId } from "./registry.js";
export { type PeerPackage, installCommand } from "./solvers/peer.js";
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
export {
  WasmKernel,
  compileKernel,
  kernelUrl,
  kernelVariants,
  variantBuild,
  type KernelBuild,
  type KernelVariant,
  type KernelSource,
  type ResponseLike,
  type WasmModule,
} from "./wasm.js";
export { compileSource } from "./kernel-source.js";
export { buildFacts } from "../build/facts.js";
export {
  GeneralKernel,
  GeneralSolver,
  compileGeneralKernel,
  createGeneralSolver,
  type GeneralSolveOptions,
} from "./general.js";
export { type Alphabet, type Shape, parseGeneralPuzzle, formatGeneralGrid } from "./puzzle-general.js";
