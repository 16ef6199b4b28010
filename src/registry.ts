/**
 * The solver registry: every solver the library, the bench and the CLI can reach, listed once.
 * `createSolver({ solver: id })` (index.ts) and `--solvers a,b` select from it.
 */
import type { SolverEngine } from "./solver.js";

export interface SolverCapabilities {
  /** Reports guesses (branch points); false shows as `n/a`. */
  guesses: boolean;
  /** Solves a whole batch through one call (`SolverEngine.solveBatch`). */
  batch: boolean;
  /** Honours a work budget (a puzzle over it reports `timeout`). */
  budget: boolean;
  /**
   * False when the engine stops at the first solution, so it never counts past 1 whatever
   * the limit and cannot prove uniqueness (`multiple` shows as `solved`). @default true
   */
  uniqueness?: boolean;
}

export interface SolverInfo {
  /** Stable id used by `--solvers` and `createSolver`. */
  id: string;
  /** The algorithm in one line. */
  description: string;
  /** Where the algorithm comes from (a seed document, a paper, an npm package). */
  source: string;
  /** An outside reference (npm package) rather than this project's code. */
  external: boolean;
  capabilities: SolverCapabilities;
  /** Builds a ready engine (loads WASM, imports a package, ...). */
  load(): Promise<SolverEngine>;
}

export const solvers: readonly SolverInfo[] = [
  {
    id: "wasm",
    description: "band bitboards per digit, box/row permutation and column locks, naked singles, bivalue branching (AssemblyScript → WASM)",
    source: "this project; representation after JCZSolve's band layout",
    external: false,
    capabilities: { guesses: true, batch: true, budget: false },
    load: async () => (await import("./wasm.js")).loadWasmEngine(),
  },
  {
    id: "bitmask",
    description: "the WASM kernel's algorithm line for line in plain TypeScript over typed arrays (the TS twin)",
    source: "this project (twin of assembly/index.ts)",
    external: false,
    capabilities: { guesses: true, batch: false, budget: true },
    load: async () => new (await import("./solvers/bitmask.js")).BitmaskEngine(),
  },
];

/** The registry entry for `id`, or a RangeError that lists the known ids. */
export function findSolver(id: string): SolverInfo {
  const info = solvers.find((s) => s.id === id);
  if (!info) throw new RangeError(`unknown solver '${id}'; known: ${solvers.map((s) => s.id).join(", ")}`);
  return info;
}
