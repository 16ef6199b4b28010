/**
 * The solver registry: every solver the library, the bench and the CLI can reach, listed once.
 * `createSolver({ solver: id })` (index.ts) and `--solvers a,b` select from it.
 */
import type { SolverEngine } from "./solver.js";
import { ALGORITHM_TS_PEER, AlgorithmTsPackageEngine } from "./solvers/npm-algorithm-ts.js";
import { DANCING_LINKS_PEER, DancingLinksPackageEngine } from "./solvers/npm-dancing-links.js";
import { type PeerPackage, missingPeerMessage, peerInstalled } from "./solvers/peer.js";
import { kernelVariants, loadWasmEngine, variantBuild } from "./wasm.js";

/** The ids of the solvers this package registers (`wasm:<variant>` for each kernel variant). */
export type BuiltinSolverId =
  | "wasm"
  | `wasm:${string}`
  | "bitmask"
  | "scan"
  | "tables"
  | "queue"
  | "mrv"
  | "dlx"
  | "npm:dancing-links"
  | "npm:algorithm.ts";

/**
 * A registry id: one of {@link BuiltinSolverId} (editors complete them), or any other string
 * for a solver registered elsewhere (checked at run time by {@link findSolver}).
 */
export type SolverId = BuiltinSolverId | (string & Record<never, never>);

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
  /** The optional npm package an external solver wraps (see solvers/peer.ts). */
  peer?: PeerPackage;
  /** Set when the solver cannot load here: why, with the command that fixes it (a missing optional package). */
  readonly unavailable?: string;
  /** Builds a ready engine (loads WASM, imports a package, ...). */
  load(): Promise<SolverEngine>;
}

/** The fields of an entry over an optional peer package: `peer`, and `unavailable` when it is not installed. */
function peerFields(peer: PeerPackage): Pick<SolverInfo, "peer" | "unavailable"> {
  return peerInstalled(peer) ? { peer } : { peer, unavailable: missingPeerMessage(peer) };
}

export const solvers: readonly SolverInfo[] = [
  ...kernelVariants().map(
    (variant): SolverInfo => ({
      id: variant.name === "" ? "wasm" : `wasm:${variant.name}`,
      description: variant.description + " (AssemblyScript → WASM)",
      source: variant.name === "" ? "this project; band layout after JCZSolve" : "this project: a compile-time variant of the wasm kernel",
      external: false,
      capabilities: { guesses: true, batch: true, budget: true },
      load: () => loadWasmEngine(variantBuild(variant.name)),
    }),
  ),
  {
    id: "bitmask",
    description: "the WASM kernel's algorithm line for line in plain TypeScript over typed arrays (the TS twin)",
    source: "this project (twin of assembly/index.ts)",
    external: false,
    capabilities: { guesses: true, batch: false, budget: true },
    load: async () => new (await import("./solvers/bitmask.js")).BitmaskEngine(),
  },
  {
    id: "scan",
    description: "backtracking on the first empty cell found by scanning the grid; a digit is checked by scanning its row, column and box (guess: a second digit passes at one cell)",
    source: "seed 001 (LeetCode 37)",
    external: false,
    capabilities: { guesses: true, batch: false, budget: true },
    load: async () => new (await import("./solvers/scan.js")).ScanEngine(),
  },
  {
    id: "tables",
    description: "backtracking over cells in row-major order with row/column/box boolean tables (guess: a second digit passes at one cell)",
    source: "seeds 000 and 003 (POJ 2676)",
    external: false,
    capabilities: { guesses: true, batch: false, budget: true },
    load: async () => new (await import("./solvers/tables.js")).TablesEngine(),
  },
  {
    id: "queue",
    description: "depth-first over the list of empty cells built up front; a digit is checked by scanning (guess: a second digit passes at one cell)",
    source: "seed 002 (HDU 1426)",
    external: false,
    capabilities: { guesses: true, batch: false, budget: true },
    load: async () => new (await import("./solvers/queue.js")).QueueEngine(),
  },
  {
    id: "mrv",
    description: "per-cell candidate flags and counts, branch on the cell with the fewest candidates, undo from a trail on backtrack",
    source: "seed 004 (Sicily 1317, the fast version)",
    external: false,
    capabilities: { guesses: true, batch: false, budget: true },
    load: async () => new (await import("./solvers/mrv.js")).MrvEngine(),
  },
  {
    id: "dlx",
    description: "Knuth's Algorithm X with dancing links on Int32Arrays, 324 columns, rows for the clues' complement, fewest-rows column first",
    source: "Knuth, \"Dancing Links\" (2000)",
    external: false,
    capabilities: { guesses: true, batch: false, budget: true },
    load: async () => new (await import("./solvers/dlx.js")).DlxEngine(),
  },
  {
    id: "npm:dancing-links",
    description: "the dancing-links package's DLX on the Sudoku's exact-cover encoding (no guesses; budget ignored)",
    source: "npm dancing-links@4.3.10 (optional peer)",
    external: true,
    capabilities: { guesses: false, batch: false, budget: false },
    ...peerFields(DANCING_LINKS_PEER),
    load: () => DancingLinksPackageEngine.load("npm:dancing-links"), // imports the package itself
  },
  {
    id: "npm:algorithm.ts",
    description: "@algorithm.ts/sudoku's SudokuSolver (DLX over arrays); stops at the first solution, so counts 0 or 1 and cannot prove uniqueness (no guesses; budget ignored)",
    source: "npm @algorithm.ts/sudoku@4.0.3 (optional peer)",
    external: true,
    capabilities: { guesses: false, batch: false, budget: false, uniqueness: false },
    ...peerFields(ALGORITHM_TS_PEER),
    load: () => AlgorithmTsPackageEngine.load("npm:algorithm.ts"), // imports the package itself
  },
];

/** The registry entry for `id`, or a RangeError that lists the known ids. */
export function findSolver(id: SolverId): SolverInfo {
  const info = solvers.find((s) => s.id === id);
  if (!info) throw new RangeError(`unknown solver '${id}'; known: ${solvers.map((s) => s.id).join(", ")}`);
  return info;
}
