/**
 * Bring your own solver (docs/bench.md): the `--solvers` items that are not registry ids, a JavaScript module or
 * `wasm-abi:PATH`. Each becomes a SolverInfo marked external, so never the default reference.
 */
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type SolverCapabilities, type SolverInfo, findSolver } from "../src/solvers/registry.js";
import type { SolverEngine } from "../src/solvers/solver.js";
import { loadAbiSolver } from "./wasm-abi.js";

const ABI_PREFIX = "wasm-abi:";

/** The solvers this file made (modules and wasm-abi: files), as opposed to the registry's. */
const outside = new WeakSet<SolverInfo>();

/** True for a solver from a --solvers module or wasm-abi: file. */
export function isOutsideSolver(info: SolverInfo): boolean {
  return outside.has(info);
}
const README_SECTION = "README: 'Bring your own solver'";

/** True for a --solvers item that names a module file rather than a registry id. */
export function isModuleSpec(spec: string): boolean {
  return spec.includes("/") || spec.includes("\\") || /\.(mjs|cjs|js)$/.test(spec);
}

/** The SolverInfo of one --solvers item: a registry id, a module path or `wasm-abi:PATH`. */
export async function resolveSolver(spec: string): Promise<SolverInfo> {
  if (!spec.startsWith(ABI_PREFIX) && !isModuleSpec(spec)) return findSolver(spec);
  const info = spec.startsWith(ABI_PREFIX) ? abiSolver(spec, spec.slice(ABI_PREFIX.length)) : await moduleSolver(spec);
  outside.add(info);
  return info;
}

/** Every --solvers item resolved, in order; a duplicate id is an error. */
export async function resolveSolvers(specs: readonly string[]): Promise<SolverInfo[]> {
  const infos: SolverInfo[] = [];
  for (const spec of specs) {
    const info = await resolveSolver(spec);
    if (infos.some((other) => other.id === info.id)) throw new Error(`--solvers: '${info.id}' is given twice`);
    infos.push(info);
  }
  return infos;
}

function abiSolver(spec: string, path: string): SolverInfo {
  if (path === "") throw new Error(`--solvers ${spec}: give the module's path, e.g. wasm-abi:./solver.wasm`);
  const absolute = resolve(path);
  return {
    id: spec,
    description: `a WebAssembly module behind the wasm-abi: solve(puzzle_ptr, limit, flags, solution_ptr, guesses_ptr) (${basename(path)})`,
    source: absolute,
    external: true,
    sizes: [9],
    capabilities: { guesses: true, budget: false },
    load: () => loadAbiSolver(absolute),
  };
}

/** What a solver module may export besides its engine. */
interface SolverModule {
  default?: unknown;
  id?: unknown;
  description?: unknown;
  capabilities?: Partial<SolverCapabilities>;
  sizes?: unknown;
}

/** The engine a module's default export gives: the export itself, or what calling it returns. */
async function engineOf(exported: unknown, spec: string, size: number): Promise<SolverEngine> {
  const engine = (typeof exported === "function" ? await (exported as (size: number) => unknown)(size) : exported) as SolverEngine | null;
  if (typeof engine !== "object" || engine === null || typeof engine.countSolutions !== "function") {
    throw new Error(
      `${spec}: the default export is not a solver engine (an object with countSolutions(puzzle, limit, solution, stats, budget), ` +
        `or a function returning one); see ${README_SECTION}`,
    );
  }
  return engine;
}

async function moduleSolver(spec: string): Promise<SolverInfo> {
  const absolute = resolve(spec);
  let module: SolverModule;
  try {
    module = (await import(pathToFileURL(absolute).href)) as SolverModule;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ERR_MODULE_NOT_FOUND" ? "no such module" : (error as Error).message;
    throw new Error(`--solvers ${spec}: cannot load it (${reason})`);
  }
  if (module.default === undefined) throw new Error(`${spec}: has no default export; see ${README_SECTION}`);
  const declared = module.capabilities ?? {};
  return {
    id: typeof module.id === "string" && module.id !== "" ? module.id : spec,
    description: typeof module.description === "string" ? module.description : `a solver module (${basename(spec)})`,
    source: absolute,
    external: true,
    sizes: Array.isArray(module.sizes) && module.sizes.every((size) => [4, 9, 16, 25].includes(size)) ? (module.sizes as number[]) : [9],
    capabilities: {
      guesses: declared.guesses ?? true,
      budget: declared.budget ?? false,
      ...(declared.uniqueness === false ? { uniqueness: false } : {}),
    },
    load: (size) => engineOf(module.default, spec, size),
  };
}
