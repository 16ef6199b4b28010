/**
 * Loading the WASM kernel and batching puzzles through its linear memory.
 *
 * Batch layout in linear memory (n puzzles, from the pointer `reserve(n)` returns):
 *
 *   base ─► ┌──────────────────────┐
 *           │ puzzles   n × 81 u8  │  written by the host (0 empty, 1–9)
 *           ├──────────────────────┤
 *           │ solutions n × 81 u8  │  first solution of each puzzle
 *           ├──────────────────────┤  (4-byte aligned)
 *           │ counts    n × i32    │  solutions up to the limit; -1 bad byte, -2 repeated clue
 *           ├──────────────────────┤
 *           │ guesses   n × i32    │
 *           ├──────────────────────┤
 *           │ nodes     n × i32    │  states propagated; negative when the budget stopped it
 *           └──────────────────────┘
 *
 * One `solveBatch` call solves all n; nothing crosses the boundary per puzzle.
 * `reserve` may grow memory, which detaches every old view, so views are re-created
 * after each reserve.
 */
import { buildFacts } from "../build/facts.js";
import { instantiate as instantiateSudokuKernel } from "../build/release.js";
import { type KernelSource, type UrlObject, type WasmModule, compileSource } from "./kernel-source.js";
import type { Grid } from "./puzzle.js";
import { CELLS } from "./shape.js";
import { type BatchResult, type SearchStats, type SolverEngine, checkLimit, kernelBudget } from "./solver.js";
import { checkWhole, isWhole } from "./whole-number.js";

export type { KernelSource, ResponseLike, UrlObject, WasmModule } from "./kernel-source.js";

/**
 * A build of the kernel: `release` (optimised, the default), `debug` (asserts on), or
 * `variants/<name>` (a compile-time variant, see {@link kernelVariants}).
 */
export type KernelBuild = "release" | "debug" | `variants/${string}`;

/** One compile-time variant of the kernel, as listed in assembly/variants.json. */
export interface KernelVariant {
  /** "" for the default kernel, else the suffix of its registry id `wasm:<name>`. */
  name: string;
  /** The asc `--use` constants that make it. */
  use: Record<string, number>;
  description: string;
}

/** The kernel variants, the default first (recorded at build time from assembly/variants.json). */
export function kernelVariants(): KernelVariant[] {
  return buildFacts.variants;
}

/** The build of a variant: `release` for the default, else `variants/<name>`. */
export function variantBuild(name: string): KernelBuild {
  return name === "" ? "release" : `variants/${name}`;
}

interface KernelExports {
  memory: WebAssembly.Memory;
  reserve(count: number): number;
  solveBatch(base: number, count: number, limit: number, budget: number): number;
  cellsFromText(base: number, count: number): number;
  lineOutput(base: number, count: number): number;
  reserveScan(room: number): number;
  scanLines(base: number, start: number, length: number): number;
}

/**
 * Where build/<stem>.wasm is. The two kernels createSolver loads are written as literal
 * `new URL(…, import.meta.url)` so that Vite, webpack and Rollup copy them into a bundle; the
 * debug builds and variants are computed, so no bundler copies them unasked.
 */
export function kernelUrl(stem: string): UrlObject {
  if (stem === "release") return new URL("../build/release.wasm", import.meta.url);
  if (stem === "general") return new URL("../build/general.wasm", import.meta.url);
  return new URL("../build/" + stem + ".wasm", import.meta.url);
}

const compiled = new Map<string, Promise<WasmModule>>();

/** Compiles build/<stem>.wasm (once per process); the Module can be posted to worker threads and instantiated there. */
export function compileWasmFile(stem: string): Promise<WasmModule> {
  let module = compiled.get(stem);
  if (!module) {
    module = compileSource(kernelUrl(stem));
    module.catch(() => compiled.delete(stem)); // a failed load is not cached
    compiled.set(stem, module);
  }
  return module;
}

/** Compiles the 9×9 kernel's build once (see {@link compileWasmFile}). */
export function compileKernel(build: KernelBuild = "release"): Promise<WasmModule> {
  return compileWasmFile(build);
}

/** Byte offsets of each region of a batch of `count` puzzles of `cells` cells at `base`. */
export function batchLayout(base: number, count: number, cells = CELLS) {
  const solutions = base + count * cells;
  const counts = Math.ceil((solutions + count * cells) / 4) * 4; // not `& ~3`: exact past 2^31
  const guesses = counts + count * 4;
  const nodes = guesses + count * 4;
  return { puzzles: base, solutions, counts, guesses, nodes, end: nodes + count * 4 };
}

/** Views of a solved batch's result regions in linear memory (valid until memory grows). */
export function batchViews(memory: { readonly buffer: ArrayBuffer }, base: number, count: number, cells = CELLS): BatchResult {
  const at = batchLayout(base, count, cells);
  return {
    counts: new Int32Array(memory.buffer, at.counts, count),
    guesses: new Int32Array(memory.buffer, at.guesses, count),
    nodes: new Int32Array(memory.buffer, at.nodes, count),
    solutions: new Uint8Array(memory.buffer, at.solutions, count * cells),
  };
}

/** Copies of a batch's result views, safe to keep across kernel calls. */
export function copyBatch(views: BatchResult): BatchResult {
  return { counts: views.counts.slice(), guesses: views.guesses.slice(), nodes: views.nodes.slice(), solutions: views.solutions.slice() };
}

/**
 * The arguments of a kernel call, checked once per call before the kernel sees them (it reads
 * them as i32 and would take a limit of 0, -1, NaN, 0.5 or 2^32+1 as some other limit): a count
 * of puzzles (a whole number from 0), a limit (1 to 2^31-1) and a budget that is a number (the
 * engines' one budget rule: 0, NaN and Infinity mean no cap, see {@link kernelBudget}). Each
 * failure is a RangeError naming the argument and the value.
 */
export function checkRunArguments(count: number, limit: number, budget: number): void {
  checkWhole("count", count, 0);
  checkLimit(limit);
  if (typeof budget !== "number") throw new RangeError(`budget must be a number of search nodes (0, NaN or Infinity: no cap), got the ${typeof budget} ${String(budget)}`);
}

/**
 * `bytes` when it is a Uint8Array of exactly `cells` bytes (one puzzle, or its solution buffer:
 * a shorter one would leave the kernel reading a stale byte of the batch before); else a
 * RangeError naming the argument.
 */
export function checkGridBytes(name: string, bytes: Uint8Array, cells: number, atLeast = false): Uint8Array {
  const length = (bytes as { length?: unknown } | null)?.length;
  const fits = bytes instanceof Uint8Array && (atLeast ? bytes.length >= cells : bytes.length === cells);
  if (!fits) {
    const what = bytes instanceof Uint8Array ? `${length} bytes` : typeof length === "number" ? `a ${(bytes as object).constructor?.name ?? "value"} of ${length}` : String(bytes);
    throw new RangeError(`${name} must be a Uint8Array of ${atLeast ? "at least " : ""}${cells} bytes, got ${what}`);
  }
  return bytes;
}

/** The puzzles of a batch: a Uint8Array holding at least `count` puzzles of `cells` bytes; else a RangeError. */
export function checkBatchBytes(puzzles: Uint8Array, count: number, cells: number): void {
  checkWhole("count", count, 0);
  checkGridBytes("puzzles", puzzles, count * cells, true);
}

/** The largest batch in bytes (all regions): one heap block of the kernels' stub runtime, 2^30 minus its header. */
export const MAX_BATCH_BYTES = 2 ** 30 - 64;

/** The bytes of a batch of `count` puzzles of `cells` cells, or a RangeError naming the limit. */
export function checkedBatchBytes(count: number, cells: number): number {
  if (!isWhole(count, 0)) throw new RangeError(`a batch holds a whole number of puzzles from 0, got ${count}`);
  const bytes = batchLayout(0, count, cells).end;
  if (bytes > MAX_BATCH_BYTES) {
    const most = Math.floor((MAX_BATCH_BYTES - 3) / (2 * cells + 12));
    throw new RangeError(`a batch of ${count} puzzles of ${cells} cells needs ${bytes} bytes, over the limit of ${MAX_BATCH_BYTES} bytes (2^30 - 64): at most ${most} such puzzles a batch`);
  }
  return bytes;
}

/**
 * The batch region of one kernel instance: where it starts and how many bytes it holds. Both
 * kernels (9×9 and N×N) track their room with it, in bytes of {@link batchLayout}, so a batch
 * of any size and count is checked the same way.
 */
export class BatchRoom {
  private base = 0;
  private capacityBytes = 0;

  constructor(private readonly memory: { readonly buffer: ArrayBuffer }) {}

  /**
   * The base of a batch of `count` puzzles of `cells` cells, calling `reserve` (which may grow
   * memory) when it needs more room. A count that is not a whole number from 0, or a batch over
   * {@link MAX_BATCH_BYTES}, is a RangeError naming the limit (the kernel checks the same limit,
   * in 64 bits, and returns 0 for it).
   */
  make(count: number, cells: number, reserve: () => number): number {
    const bytes = checkedBatchBytes(count, cells);
    if (bytes > this.capacityBytes) {
      const base = reserve();
      if (base === 0) throw new RangeError(`the kernel could not reserve a batch of ${count} puzzles (${bytes} bytes; at most ${MAX_BATCH_BYTES} bytes a batch)`);
      this.base = base;
      this.capacityBytes = bytes;
    }
    return this.base;
  }

  /** Throws when the kernel refused to solve a batch (`solveBatch` returned a negative number). */
  static checkSolved(returned: number, call: string): void {
    if (returned < 0) throw new RangeError(`${call}: the kernel refused the batch (not the batch last reserved, or past it)`);
  }

  /** The base of the batch last made, or a RangeError when it holds fewer than `count` puzzles of `cells` cells. */
  check(count: number, cells: number, call: string): number {
    if (batchLayout(0, count, cells).end > this.capacityBytes) throw new RangeError(`${call} without a matching input() first`);
    return this.base;
  }

  /** A view of the puzzle bytes of the batch at `base` (valid until memory grows). */
  puzzles(base: number, count: number, cells: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, base, count * cells);
  }

  /** Views of the results of the batch at `base`. */
  results(base: number, count: number, cells: number): BatchResult {
    return batchViews(this.memory, base, count, cells);
  }
}

/** The lines the kernel found in a chunk (see {@link LineScanner.scan}); views valid until the next scan. */
export interface ScannedLines {
  count: number;
  /** Per line: its start, its end (the position of its `\n` or `\r`), and its number among the fast lines or -1. */
  table: Int32Array;
  /** The 81 cell bytes of each fast line, in order. */
  cells: Uint8Array;
}

/**
 * The line reader's scan of a chunk, on an instance of the 9×9 kernel (the reader's own, not a
 * solving one): finds the complete lines of the chunk and the 9×9 lines of cell bytes among
 * them (81 of `1`–`9` and the empty marks `.0_?-*xX`, maybe spaces or tabs, then the line end),
 * copying those lines' cells out, 16 bytes a step. formats/lines.ts reads the lines from it.
 */
export class LineScanner {
  private base = 0;
  private room = 0;

  private constructor(private readonly exports: KernelExports) {}

  /** A scanner on a fresh instance of the release kernel (or `source`). */
  static async create(source?: KernelSource): Promise<LineScanner> {
    const module = source === undefined ? await compileKernel("release") : await compileSource(source);
    return new LineScanner((await instantiateSudokuKernel(module, { env: {} })) as KernelExports);
  }

  /** The largest chunk one scan takes (longer chunks are scanned in pieces by the caller). */
  static readonly MAX_CHUNK = 1 << 20;

  /** Scans the complete lines of `bytes` from `start` (at most {@link LineScanner.MAX_CHUNK} bytes). */
  scan(bytes: Uint8Array, start: number): ScannedLines {
    if (bytes.length > this.room) {
      const room = Math.max(bytes.length, 1 << 16);
      const base = this.exports.reserveScan(room);
      if (base === 0) throw new RangeError(`the kernel could not reserve a scan of ${room} bytes (at most 2^24)`);
      this.base = base;
      this.room = room;
    }
    const buffer = this.exports.memory.buffer;
    new Uint8Array(buffer, this.base, bytes.length).set(bytes);
    const count = this.exports.scanLines(this.base, start, bytes.length);
    if (count < 0) throw new RangeError("scanLines: the kernel refused the chunk");
    const linesAt = Math.ceil((this.base + this.room) / 4) * 4;
    const cellsAt = linesAt + (this.room + 1) * 12;
    return { count, table: new Int32Array(buffer, linesAt, count * 3), cells: new Uint8Array(buffer, cellsAt, this.room) };
  }
}

/** One instance of the WASM kernel with its own linear memory. Not thread-safe; one per worker. */
export class WasmKernel implements SolverEngine {
  private readonly room: BatchRoom;

  private constructor(private readonly exports: KernelExports) {
    this.room = new BatchRoom(exports.memory);
  }

  /**
   * Instantiates the kernel from `source` (a module from {@link compileKernel}, its bytes, a
   * fetch Response or a URL), or else from `build`'s file beside this package.
   * All 9×9 builds export the same functions, so the release build's bindings serve each.
   */
  static async create(source?: KernelSource, build: KernelBuild = "release"): Promise<WasmKernel> {
    const module = source === undefined ? await compileKernel(build) : await compileSource(source);
    return new WasmKernel((await instantiateSudokuKernel(module, { env: {} })) as KernelExports);
  }

  /** Makes room for `count` puzzles; returns a view to write them into (valid until the next call). */
  input(count: number): Uint8Array {
    const base = this.room.make(count, CELLS, () => this.exports.reserve(count));
    return this.room.puzzles(base, count, CELLS);
  }

  /**
   * Solves the `count` puzzles last written into {@link input}, each search capped at `budget`
   * nodes (Infinity: no cap). The result arrays are views into linear memory: read them before
   * the next call.
   */
  run(count: number, limit: number, budget = Infinity): BatchResult {
    checkRunArguments(count, limit, budget);
    const base = this.room.check(count, CELLS, `run(${count})`);
    BatchRoom.checkSolved(this.exports.solveBatch(base, count, limit, kernelBudget(budget)), `run(${count})`);
    return this.room.results(base, count, CELLS);
  }

  /**
   * Makes room for `count` puzzles and reads them from `text`: 81 bytes each as written in a
   * line (`1`–`9` a clue, any other byte an empty cell), converted in the kernel. Then {@link run}.
   */
  inputText(text: Uint8Array, count: number): void {
    this.input(count).set(text.subarray(0, count * CELLS));
    BatchRoom.checkSolved(this.exports.cellsFromText(this.room.check(count, CELLS, `inputText(${count})`), count), `inputText(${count})`);
  }

  /**
   * The `line` output of the `count` puzzles last solved by {@link run}, written by the kernel
   * over their puzzle bytes (a view, valid until the next call): per puzzle its solution or its
   * status word, each with "\n". Null when a puzzle was rejected (count < 0), which the kernel
   * does not word; the results are then untouched. Call it once per run, after reading anything
   * else the puzzle bytes are needed for.
   */
  lineOutput(count: number): Uint8Array | null {
    const base = this.room.check(count, CELLS, `lineOutput(${count})`);
    const bytes = this.exports.lineOutput(base, count);
    return bytes < 0 ? null : new Uint8Array(this.exports.memory.buffer, base, bytes);
  }

  /** Copies `count` puzzles in, solves them in one call, and returns copies of the results. */
  solveBatch(puzzles: Uint8Array, count: number, limit: number, budget = Infinity): BatchResult {
    checkBatchBytes(puzzles, count, CELLS);
    this.input(count).set(puzzles.subarray(0, count * CELLS));
    return copyBatch(this.run(count, limit, budget));
  }

  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget = Infinity): number {
    checkGridBytes("puzzle", puzzle, CELLS);
    checkGridBytes("solution", solution, CELLS, true);
    this.input(1).set(puzzle);
    const result = this.run(1, limit, budget);
    const count = result.counts[0];
    if (count > 0) solution.set(result.solutions.subarray(0, CELLS));
    stats.guesses = result.guesses[0];
    stats.timedOut = result.nodes[0] < 0;
    return count;
  }
}
