/**
 * Named selections of the bench's rows (`--preset NAME`, `--all`). The default, `main`, answers
 * the bench's question in well under a minute: per grid size, the WASM kernel against its
 * TypeScript twin, the pure-TS baselines and the npm peers. The kernel's compile-time variants,
 * its once-per-puzzle and worker-thread rows are the other presets' (`--all` is every row).
 * `--solvers` picks rows itself and overrides the preset's solvers.
 */
import type { SolverInfo } from "../src/solvers/registry.js";

export interface Preset {
  name: string;
  /** One line for --help. */
  description: string;
  /** Whether the preset measures `info` on grids of side `size`. */
  takes(info: SolverInfo, size: number): boolean;
  /** Adds the default kernel's once-per-puzzle row (what a boundary crossing costs). */
  boundaryRow: boolean;
  /** Adds the kernel's worker-thread row (`--threads` rows, unless --threads 0). */
  threadsRow: boolean;
}

/** The 9×9 kernel and its twin, and the N×N kernel and its twin. */
const KERNEL_AND_TWIN: Readonly<Record<number, readonly string[]>> = { 9: ["wasm", "bitmask"] };
const GENERAL_AND_TWIN = ["general-wasm", "general-ts"];
/** This project's pure-TS baselines (9×9). */
const BASELINES = ["scan", "tables", "queue", "mrv", "dlx"];

export const PRESETS: readonly Preset[] = [
  {
    name: "main",
    description: "per grid size, the WASM kernel against its TS twin, the pure-TS baselines and the npm peers",
    takes: (info, size) =>
      info.peer !== undefined || (KERNEL_AND_TWIN[size] ?? GENERAL_AND_TWIN).includes(info.id) || (size === 9 && BASELINES.includes(info.id)),
    boundaryRow: false,
    threadsRow: false,
  },
  {
    name: "variants",
    description: "the 9×9 kernel's compile-time variants against the kernel, its TS twin and its once-per-puzzle row",
    takes: (info) => info.kernelBuild !== undefined || info.id === "bitmask", // the kernel with its variants
    boundaryRow: true,
    threadsRow: false,
  },
  {
    name: "all",
    description: "every registered solver, the kernel's once-per-puzzle and worker-thread rows (--quick's default)",
    takes: () => true,
    boundaryRow: true,
    threadsRow: true,
  },
];

/** The preset named `name`, or an Error listing the names. */
export function findPreset(name: string): Preset {
  const preset = PRESETS.find((p) => p.name === name);
  if (!preset) throw new Error(`unknown preset '${name}'; known: ${PRESETS.map((p) => p.name).join(", ")}`);
  return preset;
}
