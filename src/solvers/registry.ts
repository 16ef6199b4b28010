/**
 * The solver registry: every solver the library, the bench and the CLI can reach, listed once.
 * Adding a solver is one engine file and one row here; a size's default is the first row taking it.
 */
import { type KernelSource, nodeBuiltin } from "../kernel/kernel-source.js";
import { SHAPES, SHAPE_9, shapeOfSide } from "../model/shape.js";
import { type SolverEngine, described } from "./solver.js";
import { ALGORITHM_TS_PEER, DANCING_LINKS_PEER, type PeerPackage, algorithmTsEngine, dancingLinksEngine, peerFields } from "./peer.js";
import { type KernelBuild, WasmKernel, compileKernel, kernelUrl, kernelVariants, variantBuild } from "../kernel/wasm.js";

/** The ids of the solvers this package registers (`wasm:<variant>` for each kernel variant). */
export type BuiltinSolverId =
  | "wasm"
  | `wasm:${string}`
  | "general-wasm"
  | "general-ts"
  | "bitmask"
  | "scan"
  | "tables"
  | "queue"
  | "mrv"
  | "dlx"
  | "npm:dancing-links"
  | "npm:algorithm.ts";

/** A registry id: one of {@link BuiltinSolverId} (editors complete them), or any string, checked at run time by {@link findSolver}. */
export type SolverId = BuiltinSolverId | (string & Record<never, never>);

/** How to load an engine. */
export interface LoadOptions {
  /** Where a WASM row's kernel comes from instead of the file beside this package (see {@link KernelSource}). @default undefined */
  kernel?: KernelSource;
}

export interface SolverCapabilities {
  /** Reports guesses (branch points); false shows as `n/a`. Whether it solves batches is the engine's (`solvesBatches`). */
  guesses: boolean;
  /** Honours a work budget (a puzzle over it reports `timeout`). */
  budget: boolean;
  /** False when the engine stops at the first solution, so it cannot prove uniqueness (`multiple` shows as `solved`). @default true */
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
  /** The grid sizes it takes, as sides N: `[9]`, `[4, 9, 16, 25]`. */
  sizes: readonly number[];
  capabilities: SolverCapabilities;
  /** The build of the 9×9 WASM kernel it runs (profiled and fingerprinted), for its kernel variants only. */
  kernelBuild?: KernelBuild;
  /** The optional npm package an external solver wraps (see solvers/peer.ts). */
  peer?: PeerPackage;
  /** Set when the solver cannot load here: why, with the command that fixes it (a missing optional package). */
  readonly unavailable?: string;
  /** Builds a ready engine for grids of side `size` (one of {@link sizes}): loads WASM, imports a package, ... */
  load(size: number, options?: LoadOptions): Promise<SolverEngine>;
  /** Readies what {@link load} needs (compiles a WASM row's kernel), so a missing file fails before a run starts. @default nothing to ready */
  prepare?(): Promise<unknown>;
}

/** Sides of the grids the N×N solvers take: every shape of shape.ts (4×4, 9×9, 16×16, 25×25). */
const ANY_SIZE: readonly number[] = SHAPES.map((shape) => shape.size);
const NINE: readonly number[] = [SHAPE_9.size];

/** The box size of a grid of side `size` (one of the shapes of shape.ts); a RangeError for another. */
function boxOf(size: number): number {
  const shape = shapeOfSide(size);
  if (!shape) throw new RangeError(`no grid has ${size} cells a row`);
  return shape.box;
}

/** The registry id of a 9×9 kernel variant: `wasm`, or `wasm:<name>`. */
export const variantId = (name: string): string => (name === "" ? "wasm" : `wasm:${name}`);

/**
 * Why a kernel variant (not the default) cannot load here: its file is not in this install. Undefined when it is, or a
 * URL the runtime cannot look up; null where no variant can load, so none is listed: a browser (no file system: a page
 * is never served them, and the npm package ships none) or a bundle with no import.meta.url to find a kernel file by.
 */
function missingVariant(name: string): string | undefined | null {
  if (name === "") return undefined;
  const fs = nodeBuiltin<{ existsSync(path: URL): boolean }>("node:fs");
  if (fs === undefined) return null;
  let url: URL;
  try {
    url = kernelUrl(variantBuild(name)); // throws where there is no import.meta.url (a classic-script bundle)
  } catch {
    return null;
  }
  return url.protocol !== "file:" || fs.existsSync(url) ? undefined : VARIANT_NOT_HERE;
}

/** Why a kernel variant's file is missing (see {@link missingVariant}); the help and the bench name the variants missing once with it. */
export const VARIANT_NOT_HERE =
  "its kernel file is not here: the kernel variants are for profiling in a clone of sudoku-wasm, where `npm run build` makes them (the npm package ships the default kernels only)";

/** A row of the 9×9 kernel: the default (`wasm`) or one of its variants; none for a variant that cannot load here ({@link missingVariant}). */
function kernelRow(variant: { name: string; description: string }): Omit<SolverInfo, "external" | "capabilities">[] {
  const id = variantId(variant.name);
  const missing = missingVariant(variant.name);
  if (missing === null) return [];
  return [
    {
      id,
      description: variant.description + " (AssemblyScript → WASM)",
      source: variant.name === "" ? "this project; band layout after JCZSolve" : "this project: a compile-time variant of the wasm kernel",
      sizes: NINE,
      kernelBuild: variantBuild(variant.name),
      ...(missing === undefined ? {} : { unavailable: missing }),
      load: (_size: number, options?: LoadOptions) =>
        missing === undefined
          ? WasmKernel.create(variant.name === "" ? options?.kernel : undefined, variantBuild(variant.name))
          : Promise.reject(new Error(`solver '${id}' cannot load: ${missing}`)),
    },
  ];
}

/** This project's solvers: each reports guesses and honours a budget. */
const OWN_SOLVERS: readonly Omit<SolverInfo, "external" | "capabilities">[] = [
  ...kernelVariants().flatMap(kernelRow),
  {
    id: "general-wasm",
    description: "general N×N WASM kernel: u32 masks, naked/hidden singles, locked candidates, triads, fewest-candidates branching (ties: busiest units)",
    source: "this project (assembly/general.ts)",
    sizes: ANY_SIZE,
    load: (size, options) => WasmKernel.create(options?.kernel, "general", boxOf(size)),
    prepare: () => compileKernel("general"),
  },
  {
    id: "general-ts",
    description: "the general N×N kernel's algorithm in plain TypeScript over typed arrays (its TS twin)",
    source: "this project (twin of assembly/general.ts)",
    sizes: ANY_SIZE,
    load: async (size) => new (await import("./general-ts.js")).GeneralTsEngine(boxOf(size)),
  },
  {
    id: "bitmask",
    description: "the WASM kernel's algorithm line for line in plain TypeScript over typed arrays (the TS twin)",
    source: "this project (twin of assembly/index.ts)",
    sizes: NINE,
    load: async () => new (await import("./bitmask.js")).BitmaskEngine(),
  },
  {
    id: "scan",
    description:
      "backtracking on the first empty cell found by scanning the grid; a digit is checked by scanning its row, column and box (guess: a second digit passes at one cell)",
    source: "seed 001 (LeetCode 37)",
    sizes: NINE,
    load: async () => new (await import("./scan.js")).ScanEngine(),
  },
  {
    id: "tables",
    description: "backtracking over cells in row-major order with row/column/box boolean tables (guess: a second digit passes at one cell)",
    source: "seeds 000 and 003 (POJ 2676)",
    sizes: NINE,
    load: async () => new (await import("./tables.js")).TablesEngine(),
  },
  {
    id: "queue",
    description: "depth-first over the list of empty cells built up front; a digit is checked by scanning (guess: a second digit passes at one cell)",
    source: "seed 002 (HDU 1426)",
    sizes: NINE,
    load: async () => new (await import("./scan.js")).QueueEngine(),
  },
  {
    id: "mrv",
    description: "per-cell candidate flags and counts, branch on the cell with the fewest candidates, undo from a trail on backtrack",
    source: "seed 004 (Sicily 1317, the fast version)",
    sizes: NINE,
    load: async () => new (await import("./mrv.js")).MrvEngine(),
  },
  {
    id: "dlx",
    description: "Knuth's Algorithm X with dancing links on Int32Arrays, 324 columns, rows for the clues' complement, fewest-rows column first",
    source: 'Knuth, "Dancing Links" (2000)',
    sizes: NINE,
    load: async () => new (await import("./dlx.js")).DlxEngine(),
  },
];

export const solvers: readonly SolverInfo[] = [
  ...OWN_SOLVERS.map((row): SolverInfo => ({ ...row, external: false, capabilities: { guesses: true, budget: true } })),
  {
    id: "npm:dancing-links",
    description: "the dancing-links package's DLX on the Sudoku's exact-cover encoding, 4×4 to 25×25 (no guesses; budget ignored)",
    source: "npm dancing-links@4.3.10 (optional peer)",
    external: true,
    sizes: ANY_SIZE,
    capabilities: { guesses: false, budget: false },
    ...peerFields(DANCING_LINKS_PEER),
    load: (size) => dancingLinksEngine("npm:dancing-links", boxOf(size)), // imports the package itself
  },
  {
    id: "npm:algorithm.ts",
    description:
      "@algorithm.ts/sudoku's SudokuSolver (DLX over arrays); stops at the first solution, so counts 0 or 1 and cannot prove uniqueness (no guesses; budget ignored)",
    source: "npm @algorithm.ts/sudoku@4.0.3 (optional peer)",
    external: true,
    sizes: ANY_SIZE,
    capabilities: { guesses: false, budget: false, uniqueness: false },
    ...peerFields(ALGORITHM_TS_PEER),
    load: (size) => algorithmTsEngine("npm:algorithm.ts", boxOf(size)), // imports the package itself
  },
];

/** The ids a `solver` option names: none (undefined or null), one (a string) or several (an iterable of strings); a TypeError for anything else. */
export function solverIds(solver: unknown): SolverId[] {
  if (solver === undefined || solver === null) return [];
  if (typeof solver === "string") return [solver];
  if (typeof solver === "object" && Symbol.iterator in solver) {
    const ids = [...(solver as Iterable<unknown>)];
    if (ids.every((id) => typeof id === "string")) return ids;
  }
  throw new TypeError(`solver must be a solver's id (see solvers) or an array of them, got ${described(solver)}`);
}

/** The registry entry for `id`, or a RangeError that lists the known ids. */
export function findSolver(id: SolverId): SolverInfo {
  const info = solvers.find((s) => s.id === id);
  if (!info) throw new RangeError(`unknown solver '${id}'; known: ${solvers.map((s) => s.id).join(", ")}`);
  return info;
}

/** True when the row counts solutions past its first (it can prove a puzzle unique); see {@link SolverCapabilities.uniqueness}. */
export const countsSolutions = (info: SolverInfo): boolean => info.capabilities.uniqueness !== false;

/** True when the row takes grids of side `size`. */
export const takesSize = (info: SolverInfo, size: number): boolean => info.sizes.includes(size);

/** "4×4, 9×9" for a row's sizes. */
export const sizeNames = (info: SolverInfo): string => info.sizes.map((size) => `${size}×${size}`).join(", ");

/** Every grid side some row takes, ascending. */
export const gridSides = (): number[] => [...new Set(solvers.flatMap((info) => info.sizes))].sort((a, b) => a - b);

/** The row for each of the {@link gridSides}: the first of `ids` that takes it, else the first row of the registry that does. */
export function solversBySize(ids: readonly string[] = []): Map<number, SolverInfo> {
  const rows = [...ids.map(findSolver), ...solvers];
  return new Map(gridSides().map((size) => [size, rows.find((info) => takesSize(info, size))!]));
}
