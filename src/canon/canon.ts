/**
 * The host of the minlex kernel (assembly/canon.ts, which defines the form): batches of 9×9
 * puzzles go into its linear memory as bytes, one call writes every form and automorphism count.
 *
 *   base ─► puzzles n×81 u8 │ forms n×81 u8 (`0`–`9`) │ (align 4) automorphisms n×i32
 */
import { instantiate as instantiateCanonKernel } from "../../build/canon.js";
import { type KernelSource, KERNEL_NAMES, compileSource, givenKernelError } from "../kernel/kernel-source.js";
import { type GivenKernels, adoptKernels, compileWasmFile } from "../kernel/wasm.js";
import { CELLS } from "../model/shape.js";
import { PuzzleError, readPuzzle } from "../model/puzzle.js";
import { checkOptionNames } from "../solvers/solver.js";

/** The kernel's count for a digit repeated in a row, column or box. */
export const REPEATED_CLUE = -2;

/** The geometric maps of a 9×9 grid: 2 (transposition) × 6^8 (bands, rows, stacks, columns). */
export const GEOMETRIC_MAPS = 2 * 6 ** 8;

/** The builds of the minlex kernel: release (`npm run build`'s canon target) and its debug twin (asserts on, for tests). */
export type CanonBuild = "canon" | "canon-debug";

interface CanonExports {
  memory: WebAssembly.Memory;
  reserve(count: number): number;
  canonBatch(base: number, count: number): number;
}

/** The results of one batch: views of the kernel's memory, valid until its next call. */
export interface CanonResult {
  /** Form k is bytes `81k` to `81k + 80`, as the characters `0`–`9` (not written for a rejected puzzle). */
  forms: Uint8Array;
  /** Per puzzle: how many of the 3,359,232 geometric maps give its form (its automorphisms, at least 1); {@link REPEATED_CLUE} for a digit repeated in a unit. */
  automorphisms: Int32Array;
}

/** One instance of the minlex kernel, with its own memory: fill {@link input}, then {@link run}. */
export class CanonKernel {
  private base = 0;
  private room = 0;

  private constructor(private readonly exports: CanonExports) {}

  /** Instantiates the kernel (the module is compiled once per process, and adopted by workers from the main thread). */
  static async create(build: CanonBuild = "canon"): Promise<CanonKernel> {
    const module = await compileWasmFile(build);
    checkCanonModule(module as WebAssembly.Module);
    return new CanonKernel((await instantiateCanonKernel(module as WebAssembly.Module, { env: {} })) as CanonExports);
  }

  /** Room for `count` puzzles of 81 bytes each (a digit 1–9 or its character `1`–`9`; any other byte is empty), to fill before {@link run}. */
  input(count: number): Uint8Array {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a whole number, got ${count}`);
    if (count > this.room) {
      const base = this.exports.reserve(count);
      if (base === 0) throw new RangeError(`a batch of ${count} puzzles does not fit the minlex kernel's memory`);
      this.base = base;
      this.room = count;
    }
    return new Uint8Array(this.exports.memory.buffer, this.base, count * CELLS);
  }

  /** The forms and automorphism counts of the `count` puzzles just given to {@link input}. */
  run(count: number): CanonResult {
    if (!Number.isInteger(count) || count < 0 || count > this.room) throw new RangeError(`run(${count}) needs input(${count}) first`);
    if (this.exports.canonBatch(this.base, count) !== count) throw new Error(`the minlex kernel refused a batch of ${count}`);
    const buffer = this.exports.memory.buffer;
    const forms = this.base + count * CELLS;
    const counts = Math.ceil((forms + count * CELLS) / 4) * 4;
    return { forms: new Uint8Array(buffer, forms, count * CELLS), automorphisms: new Int32Array(buffer, counts, count) };
  }
}

/** One puzzle's canonical form, or why it has none. */
export type Canonical = { form: string; automorphisms: number; error?: undefined } | { form: null; automorphisms: null; error: string };

/** Throws, naming what is missing, when `module` is not the minlex kernel. */
function checkCanonModule(module: WebAssembly.Module): void {
  const exported = new Set(WebAssembly.Module.exports(module).map((entry) => entry.name));
  const missing = ["memory", "reserve", "canonBatch"].filter((name) => !exported.has(name));
  if (missing.length > 0) throw new TypeError(`the module is not the minlex kernel: it does not export ${missing.join(", ")}`);
}

/** The options of {@link canonicalize}. */
export interface CanonicalizeOptions {
  /** The minlex kernel (a URL, bytes, a fetch Response or a compiled Module), when not from the file beside this package; later calls keep it. @default {} */
  kernels?: GivenKernels | null;
}

/** The puzzles of one kernel call: a batch's memory is three bytes a cell and four a puzzle, about 11 MB at this size. */
const CANON_PIECE = 65_536;

let shared: Promise<CanonKernel> | undefined;

/** The kernel {@link canonicalize} uses: made once, again after a kernel is given or after a failed load (which is not kept). */
async function canonKernel(source: KernelSource | null | undefined): Promise<CanonKernel> {
  if (source != null) {
    const module = await compileSource(source).catch((error) => Promise.reject(givenKernelError("canon", error)));
    checkCanonModule(module as WebAssembly.Module);
    adoptKernels({ canon: module });
    shared = undefined;
  }
  if (shared === undefined) {
    const made = CanonKernel.create();
    made.catch(() => shared === made && (shared = undefined));
    shared = made;
  }
  return shared;
}

/**
 * The minlex form and automorphism count of each puzzle (9×9, in any form `solve` reads one
 * line: digits, any of `. 0 _ ? - * x X` for an empty cell), in order. A puzzle that cannot be
 * read, or with a digit repeated in a row, column or box, gets `error` and no form.
 *
 *   const [{ form }] = await canonicalize(["..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."]);
 */
export async function canonicalize(puzzles: readonly string[], options: CanonicalizeOptions | null = {}): Promise<Canonical[]> {
  if (!Array.isArray(puzzles))
    throw new TypeError(
      `sudoku-wasm: canonicalize takes an array of puzzles${typeof puzzles === "string" ? ', not one string: pass [line], or text.split("\\n")' : `, got ${puzzles === null ? "null" : typeof puzzles}`}`,
    );
  const given = checkOptionNames("canonicalize", options, ["kernels"]);
  checkOptionNames("canonicalize's kernels", given?.kernels, KERNEL_NAMES);
  const kernel = await canonKernel(given?.kernels?.canon);
  const results = new Array<Canonical>(puzzles.length);
  for (let from = 0; from < puzzles.length; from += CANON_PIECE) canonPiece(kernel, puzzles, from, Math.min(puzzles.length, from + CANON_PIECE), results);
  return results;
}

/** The results of puzzles `from` to `to - 1`, in one kernel call. */
function canonPiece(kernel: CanonKernel, puzzles: readonly string[], from: number, to: number, results: Canonical[]): void {
  const positions: number[] = [];
  const grids: Uint8Array[] = [];
  for (let i = from; i < to; i++) {
    const text = puzzles[i];
    try {
      const puzzle = readPuzzle(text);
      if (puzzle.grid.length !== CELLS) throw new PuzzleError("length", `a minlex form is for 9×9 puzzles; this one has ${puzzle.grid.length} cells`);
      positions.push(i);
      grids.push(puzzle.grid);
    } catch (error) {
      if (!(error instanceof PuzzleError)) throw error;
      results[i] = { form: null, automorphisms: null, error: error.message };
    }
  }
  const input = kernel.input(grids.length);
  grids.forEach((grid, k) => input.set(grid, k * CELLS));
  const { forms, automorphisms } = kernel.run(grids.length);
  const decoder = new TextDecoder();
  positions.forEach((i, k) => {
    const count = automorphisms[k];
    results[i] =
      count === REPEATED_CLUE
        ? { form: null, automorphisms: null, error: "a digit is repeated in a row, column or box" }
        : { form: decoder.decode(forms.subarray(k * CELLS, (k + 1) * CELLS)), automorphisms: count };
  });
}
