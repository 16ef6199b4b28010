/**
 * An engine over any WebAssembly module (wasm32) exporting tdoku's benchmark entry point:
 *
 *   size_t solve(const char *puzzle, size_t limit, uint32_t flags, char *solution, size_t *guesses)
 *
 * `puzzle` is 81 ASCII bytes ('1'–'9', '.') and a NUL; `flags` is 0; `solution` gets the first solution's 81 digits;
 * `guesses` left at 0xFFFFFFFF means "cannot tell"; it returns the solutions found, at most `limit`. The arguments go
 * where the module's `malloc` (or `alloc`) puts them, else in a page the loader grows memory by (so an allocator that
 * bumps through all of memory, as AssemblyScript's stub runtime, must export `malloc`). Imports other than random bytes
 * are stubs that throw, naming themselves.
 */
import { readFile } from "node:fs/promises";
import type { Grid } from "../src/model/puzzle.js";
import { CELLS } from "../src/model/shape.js";
import type { SearchStats, SolverEngine } from "../src/solvers/solver.js";

interface AbiExports {
  memory: WebAssembly.Memory;
  solve(puzzle: number, limit: number, flags: number, solution: number, guesses: number): number;
  malloc?(size: number): number;
  alloc?(size: number): number;
}

const PAGE_BYTES = 65536;
/** Bytes of the argument area: the puzzle and its NUL, the solution, then the guesses word, 4-byte aligned (up to 3 bytes before it). */
const ARGUMENT_BYTES = CELLS + 1 + CELLS + 3 + 4;
/** What the guesses word holds before the call; a solver that leaves it there reports no guesses. */
const NO_GUESSES = 0xffffffff;
const DOT = 46;
const ZERO = 48;

/** The imports a module may call for random bytes (emscripten's `env.getentropy`, WASI's `random_get`), given: (buffer, length) → 0. */
const ENTROPY_IMPORTS = new Set(["env.getentropy", "wasi_snapshot_preview1.random_get"]);

/** Imports for `module`: random bytes where {@link ENTROPY_IMPORTS} names one, else a function throwing when called, naming the import. */
function stubImports(module: WebAssembly.Module, source: string, memory: () => WebAssembly.Memory): WebAssembly.Imports {
  const imports: Record<string, Record<string, WebAssembly.ImportValue>> = {};
  for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== "function") throw new Error(`${source}: imports ${kind} ${from}.${name}; a wasm-abi solver must define its own (export its memory)`);
    imports[from] ??= {};
    imports[from][name] = ENTROPY_IMPORTS.has(`${from}.${name}`)
      ? (pointer: number, size: number) => {
          const [at, length] = [pointer >>> 0, size >>> 0]; // wasm32's size_t, unsigned
          const { buffer } = memory();
          if (at + length > buffer.byteLength)
            throw new Error(`${source}: its import ${from}.${name} asked for ${length} random bytes at ${at}, past the end of its memory`);
          const bytes = new Uint8Array(buffer, at, length);
          for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536)); // at most 64 KiB a call
          return 0;
        }
      : () => {
          throw new Error(`${source}: the solver called its import ${from}.${name}, which the wasm-abi host does not provide`);
        };
  }
  return imports;
}

function abiExports(instance: WebAssembly.Instance, source: string): AbiExports {
  const exports = instance.exports as Partial<AbiExports>;
  if (!(exports.memory instanceof WebAssembly.Memory)) throw new Error(`${source}: exports no memory (the wasm-abi needs \`memory\`)`);
  if (typeof exports.solve !== "function") {
    throw new Error(`${source}: exports no function solve(puzzle_ptr, limit, flags, solution_ptr, guesses_ptr)`);
  }
  if (exports.solve.length !== 5) throw new Error(`${source}: solve takes ${exports.solve.length} parameters, the wasm-abi has 5`);
  return exports as AbiExports;
}

/** A solver module behind the wasm-abi, as a {@link SolverEngine}. */
export class WasmAbiEngine implements SolverEngine {
  private readonly puzzleAt: number;
  private readonly solutionAt: number;
  private readonly guessesAt: number;

  constructor(
    private readonly exports: AbiExports,
    private readonly source: string,
  ) {
    const allocate = exports.malloc ?? exports.alloc;
    let base: number;
    if (allocate) {
      const name = exports.malloc ? "malloc" : "alloc";
      base = Number(call(source, name, () => allocate(ARGUMENT_BYTES))) >>> 0;
      if (base === 0) throw new Error(`${source}: its allocator returned 0 for ${ARGUMENT_BYTES} bytes`);
      const size = exports.memory.buffer.byteLength;
      if (base + ARGUMENT_BYTES > size) {
        throw new Error(`${source}: its ${name}(${ARGUMENT_BYTES}) returned ${base}, which leaves no room for the arguments in its ${size}-byte memory`);
      }
    } else {
      try {
        base = exports.memory.grow(1) * PAGE_BYTES;
      } catch {
        throw new Error(
          `${source}: exports no malloc, and its memory cannot grow by the 64 KiB page the arguments need (its maximum is reached); export malloc`,
        );
      }
    }
    this.puzzleAt = base;
    this.solutionAt = base + CELLS + 1;
    this.guessesAt = ((this.solutionAt + CELLS + 3) & ~3) >>> 0; // unsigned: memory may reach past 2^31
  }

  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, _budget: number): number {
    let bytes = new Uint8Array(this.exports.memory.buffer);
    for (let cell = 0; cell < CELLS; cell++) bytes[this.puzzleAt + cell] = puzzle[cell] === 0 ? DOT : ZERO + puzzle[cell];
    bytes[this.puzzleAt + CELLS] = 0; // the module may have written there
    new DataView(this.exports.memory.buffer).setUint32(this.guessesAt, NO_GUESSES, true);
    const returned: unknown = call(this.source, "solve", () => this.exports.solve(this.puzzleAt, limit, 0, this.solutionAt, this.guessesAt));
    if (typeof returned !== "number") {
      throw new Error(
        `${this.source}: solve returned a ${typeof returned === "bigint" ? "64-bit integer" : typeof returned}; the wasm-abi's solve returns a 32-bit size_t (wasm32)`,
      );
    }
    const count = returned >>> 0;
    bytes = new Uint8Array(this.exports.memory.buffer); // the call may have grown memory
    if (count > 0) {
      for (let cell = 0; cell < CELLS; cell++) {
        const digit = bytes[this.solutionAt + cell] - ZERO;
        if (digit < 1 || digit > 9) {
          throw new Error(
            `${this.source}: solve returned ${count} but wrote byte ${bytes[this.solutionAt + cell]} at solution cell ${cell + 1}, not a digit 1-9`,
          );
        }
        solution[cell] = digit;
      }
    }
    const guesses = new DataView(this.exports.memory.buffer).getUint32(this.guessesAt, true);
    stats.guesses = guesses === NO_GUESSES ? NaN : guesses;
    stats.timedOut = false;
    return count;
  }
}

/** Calls export `name` of module `source`; a trap or a call the export's types refuse becomes an error naming both. */
function call<T>(source: string, name: string, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) throw new Error(`${source}: ${name} trapped (${error.message})`, { cause: error });
    if (error instanceof Error && !error.message.startsWith(`${source}: `)) throw new Error(`${source}: ${name} failed (${error.message})`, { cause: error });
    throw error;
  }
}

/** Compiles and instantiates a wasm-abi module from its bytes; `source` names it in errors. */
export async function instantiateAbiSolver(bytes: BufferSource, source: string): Promise<WasmAbiEngine> {
  let module: WebAssembly.Module;
  try {
    module = await WebAssembly.compile(bytes);
  } catch (error) {
    throw new Error(`${source}: not a WebAssembly module (${(error as Error).message})`);
  }
  let memory: WebAssembly.Memory | undefined;
  const linked = (): WebAssembly.Memory => {
    if (memory === undefined) throw new Error(`${source}: the solver asked for random bytes while being instantiated, before its memory is known`);
    return memory;
  };
  const instance = await WebAssembly.instantiate(module, stubImports(module, source, linked));
  memory = instance.exports.memory as WebAssembly.Memory | undefined;
  const exports = abiExports(instance, source);
  // A WASI reactor sets up its memory in `_initialize`, which must run once before any other export.
  const initialize = instance.exports._initialize;
  if (typeof initialize === "function") {
    try {
      initialize();
    } catch (error) {
      throw new Error(`${source}: its _initialize failed (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return new WasmAbiEngine(exports, source);
}

export async function loadAbiSolver(path: string): Promise<WasmAbiEngine> {
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${path}: cannot read the wasm-abi solver (${error.code ?? error.message})`);
  });
  return instantiateAbiSolver(bytes, path);
}
