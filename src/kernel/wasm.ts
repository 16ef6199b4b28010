/**
 * Loading the WASM kernels and batching puzzles through their linear memory: {@link WasmKernel},
 * one class for both kernel files (assembly/index.ts: 9×9 and the CLI's byte path; assembly/
 * general.ts: 4×4 to 25×25) and every grid size. Both export `reserve(count, box) → base` (0: a box
 * size it does not take, or too large) and `solveBatch(base, count, limit, budget) → count` (-1: not
 * the batch reserved). A batch of n puzzles of C = N² cells, from `base`:
 *
 *   puzzles n × C u8 (host-written, 0 empty) │ solutions n × C u8 │ (4-byte aligned)
 *   counts n × i32 (-1 bad byte, -2 repeated clue) │ guesses n × i32 │ nodes n × i32 (< 0: over budget)
 *
 * One `solveBatch` call solves all n. `reserve` may grow memory, which detaches every old view.
 */
import { buildFacts } from "../../build/facts.js";
import { instantiate as instantiateSudokuKernel } from "../../build/release.js";
import { type KernelSource, type UrlObject, type WasmModule, GIVE_KERNELS, compileSource, givenKernelError } from "./kernel-source.js";
import type { Grid } from "../model/puzzle.js";
import { type Shape, CELLS, SHAPE_9, shapeName, shapeOf } from "../model/shape.js";
import {
  type KernelResult,
  type RecordsRequest,
  type ScanKernel,
  type SearchStats,
  type SolverEngine,
  checkLimit,
  described,
  kernelBudget,
  writeTextCells,
} from "../solvers/solver.js";
import { checkWhole, isWhole } from "../model/whole-number.js";

export type { KernelSource, ResponseLike, UrlObject, WasmModule } from "./kernel-source.js";

/** The `format` codes of the kernel's record writer (assembly/text.ts writeRecords). */
const RECORD_FORMATS = { line: 0, jsonl: 1, csv: 2, grid: 3 } as const;
/** i32 fields per given record (GIVEN_FIELDS in assembly/text.ts; {@link RecordsRequest.given}). */
export const GIVEN_FIELDS = 10;
/** The output bytes one record takes at most besides its file piece and its tokens (RECORD_ROOM in assembly/text.ts). */
const RECORD_ROOM = 2 * CELLS + 160;

/** A kernel build, file build/<build>.wasm: the 9×9 kernel's `release`, `debug`, `variants/<name>`; the N×N kernel's `general`, `general-debug`. */
export type KernelBuild = "release" | "debug" | `variants/${string}` | "general" | "general-debug";

/** One compile-time variant of the kernel, as assembly/variants.json lists it (the build facts say what each field holds). */
export type KernelVariant = (typeof buildFacts.variants)[number];

/** The kernel variants, the default first (recorded at build time from assembly/variants.json). */
export function kernelVariants(): KernelVariant[] {
  return buildFacts.variants;
}

/** The build of a variant: `release` for the default, else `variants/<name>`. */
export function variantBuild(name: string): KernelBuild {
  return name === "" ? "release" : `variants/${name}`;
}

/** What the 9×9 kernel exports (its asc bindings, build/release.d.ts): the N×N kernel has only the first three, as the header says. */
type KernelExports = Pick<SudokuExports, "memory" | "reserve" | "solveBatch"> & Partial<SudokuExports>;
type SudokuExports = Awaited<ReturnType<typeof instantiateSudokuKernel>>;

/** Where build/<stem>.wasm is; the kernels the package ships as literal `new URL(…, import.meta.url)` so that bundlers copy them. */
export function kernelUrl(stem: string): UrlObject {
  if (stem === "release") return new URL("../../build/release.wasm", import.meta.url);
  if (stem === "general") return new URL("../../build/general.wasm", import.meta.url);
  if (stem === "canon") return new URL("../../build/canon.wasm", import.meta.url);
  return new URL("../../build/" + stem + ".wasm", import.meta.url);
}

/** {@link kernelUrl}; where this code has no `import.meta.url` (a CommonJS or classic-script bundle), an Error that says to pass the kernels. */
function kernelFileUrl(stem: string): UrlObject {
  if (typeof import.meta.url !== "string")
    throw new Error(
      `sudoku-wasm: cannot find the kernel ${stem}.wasm: this bundle has no import.meta.url to find it from (a CommonJS or classic-script bundle); pass the kernels yourself ${GIVE_KERNELS}`,
    );
  return kernelUrl(stem);
}

const compiled = new Map<string, Promise<WasmModule>>();

/** Compiles build/<stem>.wasm (once per process); the Module can be posted to worker threads and instantiated there. */
export function compileWasmFile(stem: string): Promise<WasmModule> {
  let module = compiled.get(stem);
  if (!module) {
    module = compileSource(kernelFileUrl(stem));
    module.catch(() => compiled.delete(stem)); // a failed load is not cached
    compiled.set(stem, module);
  }
  return module;
}

/** The builds this thread compiled, to post to workers ({@link adoptKernels}): V8 then shares one copy of the machine code. */
export async function compiledKernels(): Promise<Record<string, WasmModule>> {
  const modules: Record<string, WasmModule> = {};
  for (const [stem, module] of compiled) {
    const loaded = await module.catch(() => null); // a build that failed to load is not passed on: the worker reports its own error
    if (loaded !== null) modules[stem] = loaded;
  }
  return modules;
}

/** Uses modules another thread compiled ({@link compiledKernels}) for those builds from now on. */
export function adoptKernels(modules: Readonly<Record<string, WasmModule>>): void {
  for (const [stem, module] of Object.entries(modules)) compiled.set(stem, Promise.resolve(module));
}

/** What every kernel build exports, and what the 9×9 builds add: their text in and out (assembly/text.ts), which pools and the CLI need. */
const KERNEL_EXPORTS = ["memory", "reserve", "solveBatch"] as const;
const NINE_TEXT_EXPORTS = ["cellsFromText", "solutionsText", "reserveRecords", "writeRecords", "reserveScan", "scanLines", "scanTable", "scanCells"] as const;

/** Throws, naming what is missing, when `module` lacks a kernel's exports (with `nine`, the 9×9 build's text ones too). */
export function checkKernelModule(module: WasmModule, nine = false): void {
  const exported = new Set(WebAssembly.Module.exports(module as WebAssembly.Module).map((entry) => entry.name));
  const missing = [...KERNEL_EXPORTS, ...(nine ? NINE_TEXT_EXPORTS : [])].filter((name) => !exported.has(name));
  if (missing.length === 0) return;
  const which = KERNEL_EXPORTS.some((name) => missing.includes(name)) ? "a sudoku-wasm kernel" : "the 9×9 kernel build";
  throw new TypeError(`the module is not ${which}: it does not export ${missing.join(", ")}`);
}

/**
 * Runs `start` (a pool's) with the kernels given adopted for this thread and its workers (`wasm`: the 9×9 release build,
 * `general`: the N×N one); rejects, naming the source, when one is not that kernel. When `start` fails, the old ones return.
 */
export async function withGivenKernels<T>(kernels: GivenKernels | null | undefined, start: () => Promise<T>): Promise<T> {
  if (kernels == null) return start();
  const given = (["wasm", "general"] as const).filter((key) => kernels[key] != null); // null: not given
  const compile = (key: "wasm" | "general") =>
    compileSource(kernels[key]!)
      .then((module) => {
        checkKernelModule(module, key === "wasm");
        return [key === "wasm" ? "release" : "general", module] as const;
      })
      .catch((error) => Promise.reject(givenKernelError(key, error)));
  const modules = Object.fromEntries(await Promise.all(given.map(compile)));
  const before = Object.keys(modules).map((stem) => [stem, compiled.get(stem)] as const);
  adoptKernels(modules);
  const adopted = new Map(before.map(([stem]) => [stem, compiled.get(stem)]));
  try {
    return await start();
  } catch (error) {
    for (const [stem, module] of before) {
      if (compiled.get(stem) !== adopted.get(stem)) continue; // another pool's kernels since: theirs stay
      if (module === undefined) compiled.delete(stem);
      else compiled.set(stem, module);
    }
    throw error;
  }
}

/** The kernels a caller gives (the `kernels` of createSolver, createPool and canonicalize); null or absent: the files beside this package. */
export interface GivenKernels {
  wasm?: KernelSource | null;
  general?: KernelSource | null;
  /** canonicalize's minlex kernel (createSolver and createPool leave it alone, so one object serves all three). */
  canon?: KernelSource | null;
}

/** Compiles a kernel build once (see {@link compileWasmFile}); a RangeError for a build name of neither kernel. */
export function compileKernel(build: KernelBuild = "release"): Promise<WasmModule> {
  if (!/^(release|debug|general|general-debug|variants\/[\w-]+)$/.test(build)) {
    return Promise.reject(new RangeError(`a kernel build is release, debug, variants/<name>, general or general-debug, not '${build as string}'`));
  }
  return compileWasmFile(build);
}

/** The bytes of a batch of `count` puzzles of `cells` cells, all regions (see the header). */
function batchBytes(count: number, cells: number): number {
  return Math.ceil((2 * count * cells) / 4) * 4 + 12 * count;
}

/** Views of a solved batch's result regions in linear memory (valid until memory grows). */
export function batchViews(memory: { readonly buffer: ArrayBuffer }, base: number, count: number, cells = CELLS): KernelResult {
  const solutions = base + count * cells;
  const counts = Math.ceil((solutions + count * cells) / 4) * 4; // not `& ~3`: exact past 2^31
  return {
    counts: new Int32Array(memory.buffer, counts, count),
    guesses: new Int32Array(memory.buffer, counts + count * 4, count),
    nodes: new Int32Array(memory.buffer, counts + count * 8, count),
    solutions: new Uint8Array(memory.buffer, solutions, count * cells),
  };
}

/** A RangeError unless `bytes` is a Uint8Array of exactly `cells` bytes (`atLeast`: or more; a shorter one would leave the kernel reading a stale byte). */
export function checkGridBytes(name: string, bytes: Uint8Array, cells: number, atLeast = false): void {
  const length = (bytes as { length?: unknown } | null)?.length;
  if (bytes instanceof Uint8Array && (atLeast ? bytes.length >= cells : bytes.length === cells)) return;
  const what =
    bytes instanceof Uint8Array
      ? `${length} bytes`
      : typeof length === "number"
        ? `a ${(bytes as object).constructor?.name ?? "value"} of ${length}`
        : String(bytes);
  throw new RangeError(`${name} must be a Uint8Array of ${atLeast ? "at least " : ""}${cells} bytes, got ${what}`);
}

/** The largest batch in bytes (all regions): one heap block of the kernels' stub runtime, 2^30 minus its header. */
export const MAX_BATCH_BYTES = 2 ** 30 - 64;

/** Throws when the kernel refused a batch (`solveBatch` and the byte path return a negative number). */
function checkSolved(returned: number, call: string): void {
  if (returned < 0) throw new RangeError(`${call}: the kernel refused the batch (not the batch last reserved, or past it)`);
}

/** The batch region of one kernel instance, shared by every WasmKernel over it ({@link WasmKernel.forBox}), and the views last made of it. */
interface BatchRoom {
  base: number;
  bytes: number;
  /** The box size of the batch last reserved (0: none or unknown): the N×N kernel reserves anew for another size even when it fits. */
  box: number;
  /** The puzzles the last input() took: run() and the rest read no more. */
  count: number;
  /** The views of the batch's puzzles and results (at `resultsBase`): made again only for another batch or once memory has grown (detached views have length 0). */
  puzzles: Uint8Array | null;
  results: KernelResult | null;
  resultsBase: number;
}

/** A WASM kernel instance solving grids of one box size: the engine of the `wasm`, `wasm:<variant>` and `general-wasm` rows. One per thread. */
export class WasmKernel implements SolverEngine {
  private readonly cells: number;
  private readonly box: number;

  private constructor(
    private readonly exports: KernelExports,
    /** The grids it solves. */
    readonly shape: Shape,
    /** The instance's batch region, shared by every WasmKernel over the instance. */
    private readonly room: BatchRoom = { base: 0, bytes: 0, box: 0, count: 0, puzzles: null, results: null, resultsBase: 0 },
  ) {
    this.cells = shape.cells;
    this.box = shape.box;
    if (exports.reserveRecords && exports.writeRecords && this.cells === CELLS) this.writeRecords = (request) => this.writeAll(request);
  }

  /** Instantiates a kernel for box size `box` from `source`, or else `build`'s file; a RangeError when it does not take that size. */
  static async create(source?: KernelSource, build: KernelBuild = "release", box = SHAPE_9.box): Promise<WasmKernel> {
    const shape = shapeOf(box);
    const module = source == null ? await compileKernel(build) : await compileSource(source);
    checkKernelModule(module);
    // Both kernel files export the same entry points, so the 9×9 release bindings instantiate every build.
    const exports = (await instantiateSudokuKernel(module, { env: {} })) as KernelExports;
    if (exports.reserve(1, box) === 0) {
      throw new RangeError(
        `${source == null ? `the kernel build '${build}'` : "this kernel"} does not take ${shapeName(shape)} grids (box size ${box}); the general builds take every size`,
      );
    }
    return new WasmKernel(exports, shape);
  }

  /** This instance solving grids of box size `box`, over the same memory and batch region; null when it does not take it. Ends a batch in progress. */
  forBox(box: number): WasmKernel | null {
    if (box === this.box) return this;
    const shape = shapeOf(box);
    const takes = this.exports.reserve(1, box) !== 0;
    this.room.bytes = this.room.box = 0; // the kernel reserved a batch behind the room's back: the next input() reserves anew
    return takes ? new WasmKernel(this.exports, shape, this.room) : null;
  }

  /** True when `other` runs on this instance (see {@link forBox}). */
  sharesInstanceWith(other: SolverEngine): boolean {
    return other instanceof WasmKernel && other.exports === this.exports;
  }

  /** Makes room for `count` puzzles (which may grow memory); returns a view to write them into, valid until the next call. */
  input(count: number): Uint8Array {
    const { room, cells } = this;
    if (!isWhole(count, 0)) throw new RangeError(`a batch holds a whole number of puzzles from 0, got ${described(count)}`);
    const bytes = batchBytes(count, cells);
    if (bytes > MAX_BATCH_BYTES) {
      const most = Math.floor((MAX_BATCH_BYTES - 3) / (2 * cells + 12));
      throw new RangeError(
        `a batch of ${count} puzzles of ${cells} cells needs ${bytes} bytes, over the limit of ${MAX_BATCH_BYTES} bytes (2^30 - 64): at most ${most} such puzzles a batch`,
      );
    }
    if (bytes > room.bytes || this.box !== room.box) {
      const base = this.exports.reserve(count, this.box);
      if (base === 0)
        throw new RangeError(`the kernel could not reserve a batch of ${count} puzzles (${bytes} bytes; at most ${MAX_BATCH_BYTES} bytes a batch)`);
      [room.base, room.bytes, room.box] = [base, bytes, this.box];
    }
    room.count = count;
    const view = room.puzzles;
    if (view !== null && count > 0 && view.length === count * cells && view.byteOffset === room.base) return view;
    return (room.puzzles = new Uint8Array(this.exports.memory.buffer, room.base, count * cells));
  }

  /** The base of the batch last reserved, or a RangeError when the last input() took fewer than `count` puzzles, or was of another box size than this kernel's. */
  private batchBase(count: number, call: string): number {
    const { room } = this;
    if (count > room.count || batchBytes(count, this.cells) > room.bytes || this.box !== room.box)
      throw new RangeError(`${call} without a matching input() first (the last took ${room.box === this.box ? room.count : 0} puzzles)`);
    return this.room.base;
  }

  /** Solves the `count` puzzles last written into {@link input}; the results are views into linear memory, read them before the next call. */
  run(count: number, limit: number, budget = Infinity): KernelResult {
    // Checked before the kernel reads them as i32, where a limit of 0, NaN or 2^32+1 would become some other limit.
    checkWhole("count", count, 0);
    checkLimit(limit);
    const nodes = kernelBudget(budget);
    const base = this.batchBase(count, `run(${count})`);
    checkSolved(this.exports.solveBatch(base, count, limit, nodes), `run(${count})`);
    const { room, cells } = this;
    // The results of `count` puzzles start right after them: a run of fewer than input() took wrote over the rest.
    if (count < room.count) room.count = count;
    const views = room.results;
    if (views !== null && count > 0 && views.counts.length === count && views.solutions.length === count * cells && room.resultsBase === base) return views;
    room.resultsBase = base;
    return (room.results = batchViews(this.exports.memory, base, count, cells));
  }

  /** Makes room for `count` 9×9 puzzles and reads them from `text` in the kernel (see {@link SolverEngine.inputText}); then {@link run}. */
  inputText(text: Uint8Array, count: number): boolean {
    if (this.cells !== CELLS) throw new RangeError(`inputText reads 9×9 text; this kernel solves ${shapeName(this.shape)} grids`);
    const input = this.input(count);
    const cellsFromText = this.exports.cellsFromText;
    if (!cellsFromText) return writeTextCells(text, input);
    input.set(text.subarray(0, count * CELLS));
    const read = cellsFromText(this.batchBase(count, `inputText(${count})`), count);
    if (read === -1) checkSolved(read, `inputText(${count})`);
    return read >= 0;
  }

  /** Writes the solutions of the last {@link run} as text over them (see {@link SolverEngine.solutionsText}). */
  solutionsText(count: number): boolean {
    const solutionsText = this.exports.solutionsText;
    if (!solutionsText || this.cells !== CELLS) return false;
    checkSolved(solutionsText(this.batchBase(count, `solutionsText(${count})`), count), `solutionsText(${count})`);
    return true;
  }

  /** The line scan of this instance (the CLI's reader, on the thread's solving kernel); null on a build without one (the N×N kernel). */
  lineScanner(): ScanKernel | null {
    const { memory, reserveScan, scanLines, scanTable, scanCells } = this.exports;
    if (!reserveScan || !scanLines || !scanTable || !scanCells || this.cells !== CELLS) return null;
    return { memory, reserveScan, scanLines, scanTable, scanCells };
  }

  /**
   * The records of a batch, written by the kernel (assembly/text.ts): a view valid until the next call. Absent without the
   * writer (the N×N kernel). May grow memory: read the last run's results first.
   */
  readonly writeRecords?: (request: RecordsRequest) => Uint8Array;

  private writeAll(request: RecordsRequest): Uint8Array {
    const reserveRecords = this.exports.reserveRecords!;
    const writeRecords = this.exports.writeRecords!;
    const { fast, count, lines, sources, given, givens, piece, arena } = request;
    const base = fast > 0 ? this.batchBase(fast, `writeRecords(${fast})`) : 0;
    const linesAt = Math.ceil((fast * CELLS) / 4) * 4;
    const sourcesAt = linesAt + (lines === null ? 0 : count * 4);
    const givenAt = sourcesAt + (sources === null ? 0 : count * 4);
    const pieceAt = givenAt + givens * GIVEN_FIELDS * 4;
    const arenaAt = pieceAt + piece.length;
    const outputAt = arenaAt + arena.length;
    const bytes = outputAt + count * (RECORD_ROOM + piece.length) + arena.length;
    const area = reserveRecords(bytes);
    if (area === 0) throw new RangeError(`writeRecords(${count}): the kernel could not reserve ${bytes} bytes for the records`);
    const buffer = this.exports.memory.buffer;
    if (request.texts !== null && fast > 0) new Uint8Array(buffer, area, fast * CELLS).set(request.texts.subarray(0, fast * CELLS));
    if (lines !== null) new Int32Array(buffer, area + linesAt, count).set(lines.subarray(0, count));
    if (sources !== null) new Int32Array(buffer, area + sourcesAt, count).set(sources.subarray(0, count));
    new Int32Array(buffer, area + givenAt, givens * GIVEN_FIELDS).set(given.subarray(0, givens * GIVEN_FIELDS));
    new Uint8Array(buffer, area + pieceAt, piece.length).set(piece);
    new Uint8Array(buffer, area + arenaAt, arena.length).set(arena);
    const at = (offset: number, present: boolean) => (present ? area + offset : 0);
    const written = writeRecords(
      base,
      fast,
      count,
      RECORD_FORMATS[request.format],
      area,
      at(linesAt, lines !== null),
      at(sourcesAt, sources !== null),
      area + givenAt,
      givens,
      area + pieceAt,
      piece.length,
      area + arenaAt,
      arena.length,
      area + outputAt,
      request.firstIndex,
      request.step,
      request.guesses ? 1 : 0,
    );
    if (written < 0) throw new RangeError(`writeRecords(${count}): the kernel refused the records (not its batch, or an entry out of range)`);
    return new Uint8Array(buffer, area + outputAt, written);
  }

  /** Copies `count` puzzles in, solves them in one call, and returns copies of the results. */
  solveBatch(puzzles: Uint8Array, count: number, limit: number, budget = Infinity): KernelResult {
    checkWhole("count", count, 0);
    checkGridBytes("puzzles", puzzles, count * this.cells, true);
    this.input(count).set(puzzles.subarray(0, count * this.cells));
    const views = this.run(count, limit, budget);
    return { counts: views.counts.slice(), guesses: views.guesses.slice(), nodes: views.nodes.slice(), solutions: views.solutions.slice() };
  }

  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget = Infinity): number {
    checkGridBytes("puzzle", puzzle, this.cells);
    checkGridBytes("solution", solution, this.cells, true);
    this.input(1).set(puzzle);
    const result = this.run(1, limit, budget);
    const count = result.counts[0];
    if (count > 0) solution.set(result.solutions.subarray(0, this.cells));
    stats.guesses = result.guesses[0];
    stats.timedOut = result.nodes[0] < 0;
    return count;
  }
}
