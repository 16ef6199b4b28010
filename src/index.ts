/**
 * sudoku-wasm: the library entry point.
 *
 *   const solver = await createSolver();              // the fastest engine of each grid size
 *   solver.solve(line, { limit: 2 });                 // one record
 *   solver.solveMany(lines, { limit: 2 });            // records in input order, one batch per size
 *   solver.solve(line256, { alphabet: "ABCDEFGHIJKLMNOP" }); // 4×4, 16×16, 25×25 too
 */
import { KERNEL_NAMES, givenKernelError } from "./kernel/kernel-source.js";
import type { GivenKernels } from "./kernel/wasm.js";
import { type SolverId, type SolverInfo, findSolver, solverIds, solversBySize, takesSize } from "./solvers/registry.js";
import { type SizeEngine, type SolverEngine, Solver, checkOptionNames } from "./solvers/solver.js";
import { shapeOfSide } from "./model/shape.js";

export interface CreateSolverOptions {
  /** A registry id (see `solvers`), or several: each size gets the first listed that takes it, the others their default. @default each size's default */
  solver?: SolverId | readonly SolverId[] | null;
  /**
   * Deprecated: the engine of 4×4, 16×16 and 25×25 puzzles when `solver` takes none of them;
   * `"ts"` is `solver: [..., "general-ts"]`. @default "wasm"
   */
  general?: "wasm" | "ts" | null;
  /** The WASM kernels (a URL, bytes, a fetch Response or a compiled Module), when not from the files beside this package (`wasm`: 9×9; `general`: N×N). @default {} */
  kernels?: GivenKernels | null;
}

/**
 * One size's engine as loaded; when its load failed, `failure` holds the error, which each call of
 * the engine throws, and whether it ran a kernel given in `kernels` (then createSolver rejects).
 */
interface SizeLoad {
  size: number;
  engine: SizeEngine;
  failure?: { reason: unknown; given: boolean };
}

/**
 * The engines of one registry row's sizes: the first loaded, each other size on that engine's
 * instance where it serves it ({@link SolverEngine.forBox}), else loaded on its own.
 */
async function rowEngines(info: SolverInfo, sizes: readonly number[], kernels: CreateSolverOptions["kernels"] = {}): Promise<SizeLoad[]> {
  const key = info.id === "wasm" ? "wasm" : info.id === "general-wasm" ? "general" : undefined;
  const kernel = key === undefined ? undefined : (kernels?.[key] ?? undefined); // null: not given
  const loaded = (engine: SolverEngine): SizeEngine => ({ id: info.id, engine, reportsGuesses: info.capabilities.guesses });
  const loads: SizeLoad[] = [];
  let first: SolverEngine | null = null;
  for (const size of sizes) {
    try {
      const engine: SolverEngine = first?.forBox?.(shapeOfSide(size)!.box) ?? (await info.load(size, { kernel }));
      first ??= engine;
      loads.push({ size, engine: loaded(engine) });
    } catch (error) {
      const given = kernel !== undefined;
      const reason = given ? givenKernelError(key!, error) : error;
      const fail = (): never => {
        throw reason;
      };
      loads.push({ size, engine: loaded({ countSolutions: fail, solveBatch: fail }), failure: { reason, given } });
    }
  }
  return loads;
}

/**
 * A ready {@link Solver}: each grid size on the engine `solver` names for it, by default the
 * fastest. A size whose default engine cannot load (a bundle shipping only the 9×9 kernel) does
 * not fail the others: its first puzzle throws that error. Rejects when a named solver or a
 * kernel given in `kernels` cannot load, or no size's engine can.
 */
export async function createSolver(given: CreateSolverOptions | null = {}): Promise<Solver> {
  const options = checkOptionNames("createSolver", given, ["solver", "general", "kernels"]) ?? {}; // null values read as not given
  checkOptionNames("createSolver's kernels", options.kernels, KERNEL_NAMES);
  const ids = solverIds(options.solver);
  for (const id of ids) findSolver(id); // an unknown id fails here, naming the known ones
  if (options.general != null && options.general !== "wasm" && options.general !== "ts")
    throw new RangeError(`general must be 'wasm' or 'ts', got '${options.general as string}'`);
  if (options.general === "ts") ids.push("general-ts");
  // general: "ts" puts the sizes no listed solver takes on general-ts, but 9×9, which keeps its default
  const nine = options.general === "ts" && !ids.some((id) => id !== "general-ts" && takesSize(findSolver(id), 9)) ? [solversBySize().get(9)!.id] : [];
  const bySize = solversBySize([...nine, ...ids]);
  const sizesOf = (info: SolverInfo) => [...bySize.keys()].filter((size) => bySize.get(size) === info);
  const rows = [...new Set(bySize.values())].map((info) => rowEngines(info, sizesOf(info), options.kernels ?? {}));
  const loads = (await Promise.all(rows)).flat();
  const failures = loads.filter((load) => load.failure);
  // a solver asked for by name must load, and so must a kernel given
  const named = failures.find((load) => ids.includes(load.engine.id) || load.failure!.given);
  if (named) throw named.failure!.reason;
  if (failures.length > 0 && failures.length === loads.length) throw failures[0].failure!.reason;
  return new Solver(new Map([...bySize.keys()].map((size) => [size, loads.find((load) => load.size === size)!.engine])));
}

export {
  solvers,
  findSolver,
  solversBySize,
  takesSize,
  type SolverInfo,
  type SolverCapabilities,
  type SolverId,
  type BuiltinSolverId,
  type LoadOptions,
} from "./solvers/registry.js";
export { type PeerPackage, installCommand } from "./solvers/peer.js";
export {
  Solver,
  DEFAULT_LIMIT,
  STATUSES,
  statusOf,
  solvesBatches,
  type SizeEngine,
  type SolverEngine,
  type SearchStats,
  type SolveOptions,
  type SolveRecord,
  type Status,
  type BatchResult,
  type Puzzles,
  type NotOneString,
} from "./solvers/solver.js";
export {
  type Grid,
  type Alphabet,
  type Puzzle,
  type Conflict,
  type UnitKind,
  type PuzzleErrorReason,
  type ParseOptions,
  PuzzleError,
  ONE_LINE_EMPTY,
  controlCharacterNote,
  readPuzzle,
  parsePuzzle,
  readDigits,
  parseSymbols,
  findConflict,
  checkClues,
  isValidSolution,
  formatGrid,
  formatPuzzle,
} from "./model/puzzle.js";
export { type Shape, SIZE, CELLS, UNITS, SHAPES, describeCell } from "./model/shape.js";

// Canonical forms (minlex): duplicates up to symmetry, automorphism counts.
export { canonicalize, CanonKernel, GEOMETRIC_MAPS, type Canonical, type CanonicalizeOptions, type CanonResult, type CanonBuild } from "./canon/canon.js";

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
} from "./kernel/wasm.js";
export { compileSource } from "./kernel/kernel-source.js";
export { buildFacts } from "../build/facts.js";
