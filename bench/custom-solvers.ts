/**
 * Bring your own solver (docs/bench.md): the `--solvers` items that are not registry ids, a JavaScript module or
 * `wasm-abi:PATH`. Each becomes a SolverInfo marked external, so never the default reference.
 */
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type SolverCapabilities, type SolverInfo, findSolver, solvers } from "../src/solvers/registry.js";
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

/**
 * Every --solvers item resolved, in order; a duplicate id is an error. Each module and wasm-abi: file is loaded once here
 * (and dropped), so that one that cannot give an engine is refused before anything is measured, naming the item.
 */
export async function resolveSolvers(specs: readonly string[]): Promise<SolverInfo[]> {
  const infos: SolverInfo[] = [];
  for (const spec of specs) {
    const info = await resolveSolver(spec);
    const other = infos.find((earlier) => earlier.id === info.id);
    if (other) {
      const from = (item: SolverInfo) => (item.source === undefined ? "" : ` (${item.source})`);
      throw new Error(
        other.source === info.source
          ? `--solvers: '${info.id}' is given twice`
          : `--solvers: two items have the id '${info.id}'${from(other)}${from(info)}: give each solver module an id of its own`,
      );
    }
    if (isOutsideSolver(info)) await checkOutsideSolver(spec, info);
    infos.push(info);
  }
  return infos;
}

/** Loads an outside solver at each size it takes; what fails is one line naming the --solvers item (the file) and what is wrong. */
async function checkOutsideSolver(spec: string, info: SolverInfo): Promise<void> {
  for (const size of info.sizes) {
    try {
      await info.load(size);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // the loaders' messages open with the file's absolute path, or the item: the item as given says it once
      const reason = [`${info.source}: `, `${spec}: `].reduce((text, prefix) => (text.startsWith(prefix) ? text.slice(prefix.length) : text), message);
      throw new Error(`--solvers ${spec}: ${reason.replace(/\s*\n\s*/g, " ")}`);
    }
  }
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
  if (module.default === undefined) throw new Error(`--solvers ${spec}: has no default export; see ${README_SECTION}`);
  const id = typeof module.id === "string" && module.id !== "" ? module.id : spec;
  if (solvers.some((builtIn) => builtIn.id === id)) {
    throw new Error(
      `--solvers ${spec}: its id '${id}' is a built-in solver's; rename it (export const id = "my-${id}"), ` +
        "or export no id (its row is then named by its path)",
    );
  }
  const declared = module.capabilities ?? {};
  return {
    id,
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
