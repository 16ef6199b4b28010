/**
 * The one solver contract: a {@link SolverEngine} per grid size counts the solutions of a checked
 * N²-byte grid up to a limit under a node budget; {@link Solver} routes each puzzle to the engine
 * of its size; {@link batchRecords} is the one place kernel output becomes records.
 */
import {
  type Alphabet,
  type Grid,
  type Puzzle,
  DIGITS,
  checkAlphabet,
  describeValue,
  PuzzleError,
  readDigitBytes,
  readDigits,
  readPuzzle,
  readsNineByNineAsDigits,
} from "../model/puzzle.js";
import { CELLS, SHAPE_9, SYMBOL_COUNTS, shapeName } from "../model/shape.js";
import { checkWhole } from "../model/whole-number.js";

/** Every status a record can have, in the order of the CLI's summary. */
export const STATUSES = ["solved", "unsolvable", "multiple", "invalid", "timeout", "error"] as const;

export type Status = (typeof STATUSES)[number];

/** What one search reports besides its count; engines overwrite every field. A figure an engine cannot tell is NaN (null in a record). */
export interface SearchStats {
  /** Alternatives taken at a branch point while others were left untried (a cell's candidates, or a band's digit configurations); NaN when the engine cannot tell. */
  guesses: number;
  /** The budget ran out before the limit was reached. */
  timedOut: boolean;
}

export interface SolverEngine {
  /**
   * Counts the solutions of `puzzle` (N² bytes, 0 empty, clues already checked) up to `limit`
   * under `budget` search nodes (Infinity: no cap), writes the first into `solution` (untouched
   * when none) and fills `stats`.
   */
  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget: number): number;

  /** Solves `count` packed puzzles in one call (the WASM kernels); its presence is the batch capability. */
  solveBatch?(puzzles: Uint8Array, count: number, limit: number, budget: number): BatchResult;

  // The capabilities of an engine that solves in its own memory (wasm.ts's WasmKernel); callers test for each, never for a class.

  /** Room for `count` puzzles in the engine's memory: a view to write them into (valid until the next call). With {@link run}: the in-place batch ({@link solvesInPlace}). */
  input?(count: number): Uint8Array;
  /** Solves the `count` puzzles last written into {@link input}; the results are views into the engine's memory, valid until its next call. */
  run?(count: number, limit: number, budget: number): BatchResult;
  /** Reads `count` 9×9 puzzles written as text (81 bytes each, `1`–`9` a clue, any other byte empty) into the batch, converted in the engine (the 9×9 kernel); true when every byte was a digit or `.`. */
  inputText?(text: Uint8Array, count: number): boolean;
  /** Writes the solutions of the last {@link run} of `count` 9×9 puzzles as text over them (`1`–`9`); false when it cannot (nothing written). */
  solutionsText?(count: number): boolean;
  /** This engine's instance solving grids of box size `box` (the N×N kernel: one instance for every size), or null when it takes no such size. */
  forBox?(box: number): SolverEngine | null;
  /** The line scan of the engine's instance (the 9×9 kernel: the CLI's reader finds 9×9 lines with it); null when it has none. */
  lineScanner?(): ScanKernel | null;
  /** The records of a batch in `line`, `jsonl` or `csv`, written by the engine (the 9×9 kernel: the one writer of those formats). */
  writeRecords?(request: RecordsRequest): Uint8Array;
}

/** A 9×9 kernel's line scan (assembly/text.ts): the reader copies a chunk into the scan room; the kernel finds its lines and the 9×9 ones' cells. */
export interface ScanKernel {
  memory: { readonly buffer: ArrayBuffer };
  /** Room for chunks of up to `room` bytes (grow-only); the chunk's base, or 0 when out of range. */
  reserveScan(room: number): number;
  /** The number of complete lines of the chunk at `base` from `start`, or -1 when refused. */
  scanLines(base: number, start: number, length: number): number;
  /** Where the last scan's lines are: per line its start, its end (its `\n` or `\r`), its number among the 9×9 lines or -1 (3 × int32). */
  scanTable(): number;
  /** Where the last scan's 9×9 lines' cells are, 81 bytes each, in order. */
  scanCells(): number;
}

/** The kernel instance a reader scans on; a runner that replaces its engines after a failure points it at the fresh one. */
export interface LineScan {
  kernel: ScanKernel;
}

/**
 * What the 9×9 kernel writes a batch's records from (layout in assembly/text.ts). A record is fast (a puzzle of the engine's
 * last run) or given (the host's result, its fields as tokens already encoded for the format).
 */
export interface RecordsRequest {
  format: "line" | "jsonl" | "csv" | "grid";
  /** The records, in batch order (record k's index is `firstIndex + k × step`). */
  count: number;
  /** The puzzles of the engine's last run the fast records come from (none rejected). */
  fast: number;
  /** The fast puzzles' 81 cell bytes as read, one after another (null for `line` and `grid`, which print no puzzle). */
  texts: Uint8Array | null;
  /** Each record's line in its file (null for `line` and `grid`). */
  lines: Int32Array | null;
  /** Per record: its puzzle's position in the last run, or -1 - g for given record g; null: record k is puzzle k. */
  sources: Int32Array | null;
  /**
   * GIVEN_FIELDS (wasm.ts) i32 per given record: its status (a position in {@link STATUSES}), its
   * count, and four tokens as offset in `arena` and length (offset -1: none): puzzle, solution,
   * guesses, error.
   */
  given: Int32Array;
  givens: number;
  /** The tokens' bytes. */
  arena: Uint8Array;
  firstIndex: number;
  step: number;
  /** The file's name as the format writes it, with what stands around it: `,"file":NAME,"line":` (jsonl), `,NAME,` (csv), nothing (line, grid). */
  piece: Uint8Array;
  /** False: no guesses for the fast records (null in jsonl, an empty field in csv). */
  guesses: boolean;
}

/** True when the engine writes records ({@link SolverEngine.writeRecords}: the 9×9 kernel). */
export function writesRecords(engine: SolverEngine): engine is SolverEngine & Required<Pick<SolverEngine, "writeRecords">> {
  return engine.writeRecords !== undefined;
}

/** True when the engine solves a whole batch in one call. */
export function solvesBatches(engine: SolverEngine): engine is SolverEngine & Required<Pick<SolverEngine, "solveBatch">> {
  return engine.solveBatch !== undefined;
}

/** Per-puzzle results of one batch, in parallel arrays indexed by puzzle. */
export interface BatchResult {
  /** Solutions found, up to the limit; -1 where a byte was over N, -2 where a clue is repeated in a unit. */
  counts: Int32Array;
  /** Guesses per puzzle; NaN where the engine cannot tell (an engine of one puzzle per call, see {@link solvePacked}). */
  guesses: Int32Array | Float64Array;
  /** Search nodes per puzzle, negative where the budget stopped the search (NaN or -Infinity from an engine of one puzzle per call). */
  nodes: Int32Array | Float64Array;
  /** count × N² bytes: the first solution of each puzzle (undefined content when count is 0). */
  solutions: Uint8Array;
}

/** A kernel's results (see wasm.ts): every figure counted, so whole numbers in Int32 views of its memory. */
export interface KernelResult extends BatchResult {
  guesses: Int32Array;
  nodes: Int32Array;
}

export interface SolveOptions {
  /** Stop counting at this many solutions: 1 finds one, 2 proves uniqueness. @default 2 */
  limit?: number | null;
  /** Work cap per puzzle in search nodes (Infinity: none); a puzzle over it reports `timeout`. @default none for 9×9, {@link LARGE_GRID_BUDGET} otherwise */
  budget?: number | null;
  /** The symbols of the puzzles of its size, e.g. "ABCDEFGHIJKLMNOP" for 16×16; detected when absent. @default undefined */
  alphabet?: Alphabet | null;
}

/** The result of solving one puzzle. */
export interface SolveRecord {
  status: Status;
  /** Solutions found, up to the limit (so 2 means "at least 2" with the default limit). */
  count: number;
  /** The first solution found as N² symbols (81 digits for 9×9), or null. */
  solution: string | null;
  /** Guesses taken, or null when the solver cannot report them. */
  guesses: number | null;
  /** Why the puzzle is invalid (names the cell and the reason). */
  error?: string;
}

export const DEFAULT_LIMIT = 2;

/** The status that a count means under a limit. */
export function statusOf(count: number, timedOut = false): Status {
  if (timedOut) return "timeout";
  return count === 0 ? "unsolvable" : count === 1 ? "solved" : "multiple";
}

export function invalidRecord(error: string): SolveRecord {
  return { status: "invalid", count: 0, solution: null, guesses: null, error };
}

/**
 * The kernels' budget word: 0 (no cap) for 0 or Infinity, else the budget rounded up, at most 2^31-1. A budget that is no
 * number, NaN or negative is a RangeError naming it (it read as no cap), for every engine's countSolutions and a kernel's run.
 */
export function kernelBudget(budget: number): number {
  if (typeof budget !== "number" || !(budget >= 0))
    throw new RangeError(`budget must be a number of search nodes from 0 up (0 or Infinity: no cap), got ${described(budget)}`);
  if (budget === Infinity) return 0;
  return Math.min(Math.ceil(budget), 0x7fffffff);
}

/** `budget` when it is a number of at least 1 (Infinity: no cap); a RangeError otherwise (a string such as "10" too, as for the limit). */
export function checkBudget(budget: number): number {
  if (typeof budget !== "number" || !(budget >= 1)) throw new RangeError(`budget must be at least 1 search node (or Infinity), got ${described(budget)}`);
  return budget;
}

/** An option's value as an error message shows it: a number as itself, a string as one (the string "2" is not the number 2), else as describeValue says. */
export function described(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return describeValue(value);
}

/**
 * `given` when it is an options object (or null or undefined: none) whose names are all in `known`; a TypeError otherwise,
 * naming the call, so that `createSolver("dlx")` or `{ solvers: "dlx" }` is not read as no options.
 */
export function checkOptionNames<T extends object>(call: string, given: T | null | undefined, known: readonly (keyof T & string)[]): T | null {
  if (given === undefined || given === null) return null;
  if (typeof given !== "object" || Array.isArray(given))
    throw new TypeError(`sudoku-wasm: ${call} takes an options object (${known.join(", ")}), got ${described(given)}`);
  const unknown = Object.keys(given).filter((name) => !(known as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new TypeError(`sudoku-wasm: ${call} has no option ${unknown.map((name) => `'${name}'`).join(" or ")}; its options are ${known.join(", ")}`);
  return given;
}

/** `limit` when it is a whole number from 1 to 2^31-1; a RangeError otherwise. */
export function checkLimit(limit: number): number {
  if (typeof limit !== "number") throw new RangeError(`limit must be a whole number from 1 to 2^31-1, got ${described(limit)}`);
  return checkWhole("limit", limit, 1, 0x7fffffff, "2^31-1");
}

// ── records ─────────────────────────────────────────────────────────────────────────────────

/** The record of a puzzle the engine rejected (a negative count: a byte over N, a repeated clue). */
export const REJECTED = "the kernel rejected the puzzle's bytes";

/** Latin-1 text of bytes: Node's Buffer where there is one (cheaper per call), else a TextDecoder. */
interface Latin1Text {
  toString(encoding: "latin1", start: number, end: number): string;
  /** Node's own latin1 reader behind toString("latin1"), skipping its argument handling. */
  latin1Slice?(start: number, end: number): string;
}
interface NodeBufferClass {
  from(buffer: ArrayBufferLike, offset: number, length: number): Latin1Text;
}
const NodeBuffer = (globalThis as { Buffer?: NodeBufferClass }).Buffer;
const latin1 = new TextDecoder("latin1");

/** True for a SharedArrayBuffer (absent where the host does not offer one). */
export function isSharedMemory(buffer: ArrayBufferLike): boolean {
  return typeof SharedArrayBuffer !== "undefined" && buffer instanceof SharedArrayBuffer;
}

/** Whether `use` takes a view of shared memory: Node's TextEncoder and TextDecoder do, browsers' refuse it. */
function takesShared(use: (bytes: Uint8Array) => unknown): boolean {
  if (typeof SharedArrayBuffer === "undefined") return false;
  try {
    use(new Uint8Array(new SharedArrayBuffer(1)));
    return true;
  } catch {
    return false;
  }
}
const decodesShared = takesShared((bytes) => latin1.decode(bytes));

/** Where {@link latin1Of} copies shared memory to decode it (reused: allocating a copy per call costs far more). */
let decodeScratch = new Uint8Array(0);

/** The Latin-1 text of `bytes` from `from` to `to` (copied out first where they are shared memory that the decoder does not read). */
function latin1Of(bytes: Uint8Array, from: number, to: number): string {
  if (decodesShared || !isSharedMemory(bytes.buffer)) return latin1.decode(bytes.subarray(from, to));
  if (decodeScratch.length < to - from) decodeScratch = new Uint8Array(to - from);
  decodeScratch.set(bytes.subarray(from, to));
  return latin1.decode(decodeScratch.subarray(0, to - from));
}

/** Solutions per native text call: few with Node's Buffer (a kept solution keeps its run alive), a pool's batch where TextDecoder calls are dear (browsers). */
const SOLUTIONS_PER_STRING = NodeBuffer ? 16 : 4096;

/** Writes a batch's solutions (N² bytes each) as text in one alphabet, the whole batch in one pass; one per alphabet, reused. */
export class SolutionWriter {
  /** Character code of each symbol (index = symbol); null when a symbol is outside Latin-1. */
  private readonly codes: Uint8Array | null;
  /** Code of symbol s minus s, when the alphabet's codes are consecutive (digits, A–Y); -1 otherwise. */
  private readonly offset: number;
  /** Where {@link load} writes the text of solutions, and the same bytes as 32-bit words. */
  private scratch: Uint8Array = new Uint8Array(0);
  private words: Uint32Array = new Uint32Array(0);
  private solutions: Uint8Array = new Uint8Array(0);
  private cells = 0;
  private count = 0;
  /** The run of solutions whose text {@link runText} is (-1: none yet for this batch). */
  private run = -1;
  private runText = "";
  /** The batch's solutions as text (the scratch, or the bytes of {@link loadText}), and a Node Buffer over them when there is Buffer. */
  private textBytes: Uint8Array = this.scratch;
  private textReader: Latin1Text | null = null;

  /**
   * @param perString solutions whose text one native call makes, each a slice of it. A whole large batch's run is too big for
   * V8's young generation, so the collector never copies it: right for a caller that keeps every record (a pool's solveMany).
   */
  constructor(
    readonly alphabet: Alphabet,
    private readonly perString = SOLUTIONS_PER_STRING,
  ) {
    const codes = new Uint8Array(alphabet.length + 1);
    codes[0] = 46; // "." (never in a solution)
    for (let s = 0; s < alphabet.length; s++) codes[s + 1] = alphabet.charCodeAt(s);
    this.codes = [...alphabet].every((ch) => ch.charCodeAt(0) < 256) ? codes : null;
    const offset = alphabet.charCodeAt(0) - 1;
    const consecutive = [...alphabet].every((ch, s) => ch.charCodeAt(0) === offset + s + 1);
    this.offset = this.codes !== null && consecutive && offset + 31 < 256 ? offset : -1;
  }

  /** Takes the `count` solutions of `cells` cells in `solutions` (read before the next load). */
  load(solutions: Uint8Array, count: number, cells: number): void {
    this.solutions = solutions;
    const codes = this.codes;
    const bytes = count * cells;
    if (codes !== null && this.scratch.length < bytes) {
      this.scratch = new Uint8Array(Math.ceil(bytes / 4) * 4);
      this.words = new Uint32Array(this.scratch.buffer);
    }
    const scratch = this.scratch;
    if (codes !== null && this.offset < 0) {
      for (let i = 0; i < bytes; i++) scratch[i] = codes[solutions[i]];
    } else if (codes !== null) {
      // Consecutive symbols: one addition per four cells. Masking each byte to 5 bits (cells ≤ 25; an unsolved puzzle's bytes
      // are undefined) keeps any byte from carrying into the next.
      scratch.set(solutions.subarray(0, bytes));
      const words = this.words;
      const add = this.offset * 0x01010101;
      for (let w = 0, end = Math.ceil(bytes / 4); w < end; w++) words[w] = ((words[w] & 0x1f1f1f1f) + add) >>> 0;
    }
    this.loadText(scratch, count, cells);
  }

  /** Takes the `count` solutions of `cells` cells written as text already (a kernel's {@link SolverEngine.solutionsText}; digits only), as {@link load}. */
  loadText(text: Uint8Array, count: number, cells: number): void {
    this.cells = cells;
    this.count = count;
    this.run = -1;
    if (text === this.textBytes && this.textReader !== null) return; // the same bytes as the last batch's: its Buffer serves
    this.textBytes = text;
    this.textReader = NodeBuffer ? NodeBuffer.from(text.buffer, text.byteOffset, text.length) : null;
  }

  /** The text of solution `i` of the batch last loaded. */
  text(i: number): string {
    const start = i * this.cells;
    const end = start + this.cells;
    if (this.codes === null) {
      let out = "";
      for (let cell = start; cell < end; cell++) out += this.alphabet[this.solutions[cell] - 1];
      return out;
    }
    const per = this.perString;
    const run = Math.floor(i / per);
    if (run !== this.run) {
      // One native call per run; each solution is a slice (a view in V8: the run's text lives while any of its solutions does).
      this.run = run;
      const from = run * per * this.cells;
      const to = Math.min(from + per * this.cells, this.count * this.cells);
      const text = this.textReader;
      this.runText = text === null ? latin1Of(this.textBytes, from, to) : text.latin1Slice ? text.latin1Slice(from, to) : text.toString("latin1", from, to);
    }
    const at = start - run * per * this.cells;
    return this.runText.slice(at, at + this.cells);
  }
}

/** How {@link batchRecords} writes records: the solution text, whether guesses are reported, rejected puzzles. */
export interface RecordStyle {
  /** Cells per puzzle (N²). */
  cells: number;
  /** The writer of puzzle i's solution. */
  writer: SolutionWriter;
  /** False when the engine cannot report guesses (they show as null). */
  reportsGuesses: boolean;
  /** The record of puzzle i when the engine rejected it (count < 0). @default an `invalid` record saying so */
  rejected?(i: number, count: number): SolveRecord;
  /** Who the records are for, so each kind is made at an object literal of its own ({@link RecordSite}). @default "solver" */
  site?: RecordSite;
}

/**
 * Who a batch's records are for: a Solver on this thread, a pool's `solveMany` (all kept) or a pool's stream (each let go
 * once read). Each kind is made at an object literal of its own because V8 pretenures per literal: a pool's kept records
 * would otherwise have a stream's made in the old generation too. test/solver-pool.test.ts checks where each kind is made.
 */
export type RecordSite = "solver" | "pool" | "stream";

/** The one function that turns kernel output into records (`nodes[i]` negative: the budget stopped it). */
export function batchRecords(result: BatchResult, count: number, style: RecordStyle): SolveRecord[] {
  const records = new Array<SolveRecord>(count);
  style.writer.load(result.solutions, count, style.cells);
  for (let i = 0; i < count; i++) records[i] = resultRecord(result, i, style);
  return records;
}

/** Record i of a solved batch whose solutions `style.writer` has loaded ({@link batchRecords}). */
export function resultRecord(result: BatchResult, i: number, style: RecordStyle): SolveRecord {
  const found = result.counts[i];
  if (found < 0) return style.rejected?.(i, found) ?? invalidRecord(REJECTED);
  const guesses = result.guesses[i];
  const status = statusOf(found, result.nodes[i] < 0);
  const solution = found > 0 ? style.writer.text(i) : null;
  const reported = style.reportsGuesses && !Number.isNaN(guesses) ? smallInteger(guesses) : null;
  if (style.site === "stream") return streamRecord(status, found, solution, reported);
  if (style.site === "pool") return poolRecord(status, found, solution, reported);
  return { status, count: found, solution, guesses: reported };
}

/** A record of a pool's stream, at its own literal (see {@link RecordSite}). */
function streamRecord(status: Status, count: number, solution: string | null, guesses: number | null): SolveRecord {
  return { status, count, solution, guesses };
}

/** A record of a pool's solveMany, at its own literal (see {@link RecordSite}). */
function poolRecord(status: Status, count: number, solution: string | null, guesses: number | null): SolveRecord {
  return { status, count, solution, guesses };
}

/** `n` (a whole number) as V8's small integer where it fits: a double stored in a record makes every record of that shape box it. */
function smallInteger(n: number): number {
  return n <= 0x3fffffff && n >= -0x40000000 ? n | 0 : n;
}

/** Solves packed `puzzles` on `engine`: one solveBatch call, or one countSolutions call per puzzle (nodes: NaN, or -Infinity on timeout). */
export function solvePacked(engine: SolverEngine, puzzles: Uint8Array, count: number, cells: number, limit: number, budget: number): BatchResult {
  if (solvesBatches(engine)) return engine.solveBatch(puzzles, count, limit, budget);
  const result: BatchResult = {
    counts: new Int32Array(count),
    guesses: new Float64Array(count),
    nodes: new Float64Array(count),
    solutions: new Uint8Array(count * cells),
  };
  const stats: SearchStats = { guesses: NaN, timedOut: false };
  for (let i = 0; i < count; i++) {
    const solution = result.solutions.subarray(i * cells, (i + 1) * cells);
    result.counts[i] = engine.countSolutions(puzzles.subarray(i * cells, (i + 1) * cells), limit, solution, stats, budget);
    result.guesses[i] = stats.guesses;
    result.nodes[i] = stats.timedOut ? -Infinity : NaN;
  }
  return result;
}

/** The budget of a 4×4, 16×16 or 25×25 puzzle when the caller sets none: a blanked 25×25 grid can search for hours. 9×9 puzzles have no default cap. */
export const LARGE_GRID_BUDGET = 1_000_000;

/** The node budget of a puzzle of `cells` cells under `budget` (undefined: the default of its size, see {@link LARGE_GRID_BUDGET}). */
export function budgetFor(cells: number, budget: number | undefined): number {
  return budget ?? (cells === 81 ? Infinity : LARGE_GRID_BUDGET);
}

/** A group's puzzles: a function writing them packed (N² bytes, 0 empty) into the array given, or 9×9 text, 81 bytes each (`1`–`9` a clue, any other byte empty). */
export type GroupPuzzles = ((packed: Uint8Array) => void) | { text: Uint8Array };

/** The cell of each byte of 9×9 text: 1–9 for the digits, 0 for any other. */
const TEXT_CELL = (() => {
  const cells = new Uint8Array(256);
  for (let digit = 1; digit <= 9; digit++) cells[48 + digit] = digit;
  return cells;
})();

/** Writes 9×9 puzzles given as text (see {@link GroupPuzzles}) into `packed` as cells, as many as it holds; true when every byte was a digit or `.`. */
export function writeTextCells(text: Uint8Array, packed: Uint8Array): boolean {
  let clean = true;
  for (let i = 0; i < packed.length; i++) {
    const byte = text[i];
    packed[i] = TEXT_CELL[byte];
    if ((byte < 48 || byte > 57) && byte !== 46) clean = false;
  }
  return clean;
}

/** True when the engine solves a batch in its own memory ({@link SolverEngine.input} and {@link SolverEngine.run}). */
export function solvesInPlace(engine: SolverEngine): engine is SolverEngine & Required<Pick<SolverEngine, "input" | "run">> {
  return engine.input !== undefined && engine.run !== undefined;
}

/**
 * The batch function every solving path ends in. An engine that solves in place gets the puzzles written into its memory;
 * the results are then views into it, valid until the engine's next call.
 */
export function solveGroup(engine: SolverEngine, cells: number, count: number, puzzles: GroupPuzzles, limit: number, budget?: number): BatchResult {
  const nodes = budgetFor(cells, budget);
  const write = (packed: Uint8Array) => (typeof puzzles === "function" ? puzzles(packed) : writeTextCells(puzzles.text, packed));
  if (solvesInPlace(engine)) {
    if (typeof puzzles !== "function" && engine.inputText) engine.inputText(puzzles.text, count);
    else write(engine.input(count));
    return engine.run(count, limit, nodes);
  }
  const packed = new Uint8Array(count * cells);
  write(packed);
  return solvePacked(engine, packed, count, cells, limit, nodes);
}

// ── the solver ──────────────────────────────────────────────────────────────────────────────

/** The engine a {@link Solver} uses for one grid size. */
export interface SizeEngine {
  id: string;
  engine: SolverEngine;
  /** False when the engine reports no guesses (they show as null). */
  reportsGuesses: boolean;
}

/** An input found unreadable before it became a string (a byte stream's line too long to keep); its `invalid` record gives `reason`. */
export class UnreadInput {
  constructor(readonly reason: string) {}
}

/** What a batch reads: a puzzle as a string or a grid, or an {@link UnreadInput}. */
export type BatchInput = string | Grid | UnreadInput;

/** {@link readPuzzle}'s puzzle, or, for a PuzzleError or an {@link UnreadInput}, the `invalid` record that says why it cannot be solved. */
function readOrRecord(puzzle: BatchInput, alphabet: Alphabet | undefined): { puzzle: Puzzle } | { record: SolveRecord } {
  if (puzzle instanceof UnreadInput) return { record: invalidRecord(puzzle.reason) };
  try {
    return { puzzle: readPuzzle(puzzle, alphabet) };
  } catch (error) {
    if (!(error instanceof PuzzleError)) throw error;
    return { record: invalidRecord(error.message) };
  }
}

/** The `alphabet` option when it is one ({@link checkAlphabet}: N distinct symbols of a shape, no white space or empty mark); a RangeError naming it otherwise. */
function checkAlphabetOption(alphabet: unknown): Alphabet {
  if (typeof alphabet !== "string")
    throw new RangeError(
      `alphabet must be a string of ${SYMBOL_COUNTS} symbols, got ${typeof alphabet === "object" ? String(alphabet) : `the ${typeof alphabet} ${String(alphabet)}`}`,
    );
  checkAlphabet(alphabet);
  return alphabet;
}

/** {@link SolveOptions} as {@link Solver.solveMany} has checked them: the limit, the budget (undefined: each size's default) and the alphabet. */
export interface CheckedOptions {
  limit: number;
  budget: number | undefined;
  alphabet: Alphabet | undefined;
}

/** The names {@link SolveOptions} has. */
const SOLVE_OPTIONS: readonly (keyof SolveOptions)[] = ["limit", "budget", "alphabet"];

/**
 * `options` of `call` (solve and solveMany, a pool's too) checked, the limit's default filled in: a RangeError naming a bad
 * value, a TypeError naming an option it does not have (a misspelt `limt` would otherwise solve with the default).
 */
export function checkOptions(options: SolveOptions | null, call: string): CheckedOptions {
  const given = options ?? {}; // null options, or a null option, read as not given
  if (typeof given !== "object" || Array.isArray(given)) checkOptionNames(call, given, SOLVE_OPTIONS);
  for (const name in given) if (name !== "limit" && name !== "budget" && name !== "alphabet") checkOptionNames(call, given, SOLVE_OPTIONS); // (a loop: solve's, per call, stays cheap)
  return {
    limit: checkLimit(given.limit ?? DEFAULT_LIMIT),
    budget: given.budget == null ? undefined : checkBudget(given.budget),
    alphabet: given.alphabet == null ? undefined : checkAlphabetOption(given.alphabet),
  };
}

// A batch: inputs ── readInputs ──► ReadBatch ── solveRead ──► SolvedBatch ── orderedRecords ──► records.
// Solver.solveMany runs all three on one thread; the pool reads and writes on the main thread and solves on a worker.

/** The inputs of one batch, read: 9×9 lines of digits as cell bytes, other puzzles read whole, unreadable inputs as records; each with its position. */
export interface ReadBatch {
  /** Inputs in all. */
  count: number;
  /** The 9×9 lines of digits: 81 cell bytes each (0 empty), `digitCount` of them, at positions `digitSlots`. */
  cells: Uint8Array;
  digitSlots: Int32Array;
  digitCount: number;
  /** The other puzzles, at positions `puzzleSlots`. */
  puzzles: Puzzle[];
  puzzleSlots: number[];
  /** The records of the inputs that could not be read, at positions `recordSlots`. */
  records: SolveRecord[];
  recordSlots: number[];
}

/** A {@link ReadBatch} solved: the digit lines' results (views valid until the 9×9 engine's next call, or copies) and the other puzzles' records. */
export interface SolvedBatch {
  digits: BatchResult | null;
  puzzles: SolveRecord[];
  /** The records of the digit lines the engine rejected (a repeated clue), by index among them, made where the lines were solved ({@link rejectedDigitRecords}); absent: none. */
  rejected?: ReadonlyMap<number, SolveRecord>;
  /** True when the digit lines' solutions are text (`1`–`9`) already ({@link SolverEngine.solutionsText}), not cells. */
  solutionsText?: boolean;
}

/** Writes `inputs` into `text`, 81 bytes each, when each is a string of 81 ASCII characters; false otherwise (`text` then partly written). */
export function linesText(inputs: readonly BatchInput[], text: Uint8Array): boolean {
  if (text.length < inputs.length * CELLS) return false;
  for (const input of inputs) if (typeof input !== "string" || input.length !== CELLS) return false;
  const direct = encodesShared || !isSharedMemory(text.buffer);
  for (let first = 0; first < inputs.length; first += TEXT_RUN) {
    const joined = inputs.slice(first, first + TEXT_RUN).join("");
    const { read, written } = utf8.encodeInto(joined, direct ? text.subarray(first * CELLS) : (textScratch ??= new Uint8Array(TEXT_RUN * CELLS)));
    if (read !== joined.length || written !== joined.length) return false; // a character over 127: read line by line, which names it
    if (!direct) text.set(textScratch!.subarray(0, written), first * CELLS);
  }
  return true;
}

const utf8 = new TextEncoder();
/** Where {@link linesText} encodes a run of lines for shared memory where TextEncoder writes none (browsers). */
let textScratch: Uint8Array | undefined;
const encodesShared = takesShared((bytes) => utf8.encodeInto("", bytes));

/** Lines joined per write in {@link linesText}: under V8's large-object size, so each joined string dies young. */
const TEXT_RUN = 1000;

/** Arrays of at least this many inputs are read through {@link linesText}; fewer are cheaper line by line. */
const TEXT_LINES = 64;

/** Reads `inputs` into a batch: with `digits`, each 9×9 line of digits as cell bytes (the engine rejects repeated clues); the rest with {@link readPuzzle}. */
export function readInputs(inputs: Iterable<BatchInput>, alphabet: Alphabet | undefined, digits: DigitLines | null): ReadBatch {
  const batch = emptyBatch();
  if (digits !== null && Array.isArray(inputs)) digits.reserve(inputs.length);
  let count = 0;
  for (const input of inputs) {
    if (digits === null || typeof input !== "string" || !digits.add(input, count)) readOther(batch, input, count, alphabet);
    count++;
  }
  return readDone(batch, count, digits);
}

/** Reads `count` 9×9 lines written as bytes ({@link linesText}) as {@link readInputs} reads those strings, line by line. */
function readTextLines(text: Uint8Array, count: number, alphabet: Alphabet | undefined, digits: DigitLines): ReadBatch {
  const batch = emptyBatch();
  digits.reserve(count);
  for (let k = 0; k < count; k++) if (!digits.addBytes(text, k * CELLS, k)) readOther(batch, latin1Of(text, k * CELLS, (k + 1) * CELLS), k, alphabet);
  return readDone(batch, count, digits);
}

/**
 * Reads and solves `count` 9×9 lines written as text ({@link linesText}): in the 9×9 kernel when every byte is a digit or
 * `.` (it reads the text and writes solutions back as text); otherwise line by line into `digits`, then {@link solveRead}.
 */
export function solveText(
  engines: ReadonlyMap<number, SizeEngine>,
  text: Uint8Array,
  count: number,
  options: CheckedOptions,
  digits: DigitLines,
): { read: ReadBatch; solved: SolvedBatch } {
  const nine = engines.get(SHAPE_9.size)?.engine;
  if (nine !== undefined && solvesInPlace(nine) && nine.inputText?.(text, count)) {
    const result = nine.run(count, options.limit, budgetFor(CELLS, options.budget));
    const rejected = rejectedDigitRecords(result, count, (k) => latin1Of(text, k * CELLS, (k + 1) * CELLS));
    const read: ReadBatch = { ...emptyBatch(), count, digitCount: count };
    return { read, solved: { digits: result, puzzles: NONE, rejected, solutionsText: nine.solutionsText?.(count) ?? false } };
  }
  const read = readTextLines(text, count, options.alphabet, digits);
  return { read, solved: solveRead(engines, read, options) };
}

/** A batch with no input read yet. Its lists of the other inputs are made at the first such input (most batches have none: a solve loop makes no lists). */
function emptyBatch(): ReadBatch {
  return { count: 0, cells: EMPTY_CELLS, digitSlots: EMPTY_SLOTS, digitCount: 0, puzzles: NONE, puzzleSlots: NONE, records: NONE, recordSlots: NONE };
}

/** Reads an input that is not a 9×9 line of digits into `batch`, at position `slot`: its puzzle, or its `invalid` record. */
function readOther(batch: ReadBatch, input: BatchInput, slot: number, alphabet: Alphabet | undefined): void {
  const item = readOrRecord(input, alphabet);
  if (batch.records === NONE) Object.assign(batch, { puzzles: [], puzzleSlots: [], records: [], recordSlots: [] });
  if ("record" in item) {
    batch.records.push(item.record);
    batch.recordSlots.push(slot);
  } else {
    batch.puzzles.push(item.puzzle);
    batch.puzzleSlots.push(slot);
  }
}

/** `batch` of `count` inputs in all, with the digit lines of `digits`. */
function readDone(batch: ReadBatch, count: number, digits: DigitLines | null): ReadBatch {
  batch.count = count;
  if (digits !== null) {
    batch.digitCount = digits.count;
    batch.cells = digits.cells.subarray(0, digits.count * CELLS);
    batch.digitSlots = digits.slots.subarray(0, digits.count);
  }
  return batch;
}

const EMPTY_CELLS = new Uint8Array(0);
/** The lists of a batch without other inputs (never written: see readInputs). */
const NONE: never[] = [];
const EMPTY_SLOTS = new Int32Array(0);

/** The solution writer of each alphabet, made once per thread. */
const writers = new Map<Alphabet, SolutionWriter>();

export function writerOf(alphabet: Alphabet): SolutionWriter {
  let writer = writers.get(alphabet);
  if (!writer) writers.set(alphabet, (writer = new SolutionWriter(alphabet)));
  return writer;
}

/** Solves a read batch: the other puzzles by size and alphabet, then the digit lines last, so their results (views into the kernel) stay valid. */
export function solveRead(engines: ReadonlyMap<number, SizeEngine>, batch: ReadBatch, options: CheckedOptions): SolvedBatch {
  const { limit, budget } = options;
  const puzzles = batch.puzzles.length === 0 ? NONE : solvePuzzles(engines, batch.puzzles, limit, budget);
  const { cells, digitCount } = batch;
  const fill = (packed: Uint8Array) => packed.set(cells.subarray(0, digitCount * CELLS));
  const digits = digitCount === 0 ? null : solveGroup(engines.get(SHAPE_9.size)!.engine, CELLS, digitCount, fill, limit, budget);
  return { digits, puzzles, rejected: digits === null ? undefined : rejectedDigitRecords(digits, digitCount, (k) => cells.slice(k * CELLS, (k + 1) * CELLS)) };
}

/** The records of `puzzles`, each group of one size and alphabet solved in one call. */
export function solvePuzzles(
  engines: Pick<ReadonlyMap<number, SizeEngine>, "get">,
  puzzles: Puzzle[],
  limit: number,
  budget: number | undefined,
): SolveRecord[] {
  const records = new Array<SolveRecord>(puzzles.length);
  const groups = new Map<Alphabet, number[]>(); // an alphabet has as many symbols as its grids' side: one size each
  puzzles.forEach((puzzle, k) => {
    const group = groups.get(puzzle.alphabet);
    if (group) group.push(k);
    else groups.set(puzzle.alphabet, [k]);
  });
  for (const members of groups.values()) {
    const { shape, alphabet } = puzzles[members[0]];
    const entry = engines.get(shape.size);
    if (!entry) {
      for (const k of members) records[k] = invalidRecord(`no solver for ${shapeName(shape)} puzzles in this Solver`);
      continue;
    }
    const fill = (packed: Uint8Array) => members.forEach((k, i) => packed.set(puzzles[k].grid, i * shape.cells));
    const result = solveGroup(entry.engine, shape.cells, members.length, fill, limit, budget);
    const solved = batchRecords(result, members.length, { cells: shape.cells, writer: writerOf(alphabet), reportsGuesses: entry.reportsGuesses });
    members.forEach((k, i) => (records[k] = solved[i]));
  }
  return records;
}

/** The records of the `count` digit lines the engine rejected in `result` (a repeated clue), by index, each read again from its `line` (text or cells), which says where; undefined: none. */
function rejectedDigitRecords(result: BatchResult, count: number, line: (k: number) => string | Grid): Map<number, SolveRecord> | undefined {
  let rejected: Map<number, SolveRecord> | undefined;
  for (let k = 0; k < count; k++) {
    if (result.counts[k] >= 0) continue;
    const read = readOrRecord(line(k), undefined);
    (rejected ??= new Map()).set(k, "record" in read ? read.record : invalidRecord(REJECTED));
  }
  return rejected;
}

/**
 * The records of a solved batch by input position. When every input is a 9×9 line of digits, each record is made when asked
 * for, so a caller taking them one at a time holds one at a time; `writer` holds the solutions until it loads another batch.
 */
export function orderedRecords(
  batch: ReadBatch,
  solved: SolvedBatch,
  reportsGuesses: boolean,
  writer: SolutionWriter,
  site: RecordSite = "solver",
): (i: number) => SolveRecord {
  const { digitCount, digitSlots } = batch;
  const digits = solved.digits;
  const style: RecordStyle = { cells: CELLS, writer, reportsGuesses, site, rejected: (k) => solved.rejected?.get(k) ?? invalidRecord(REJECTED) };
  if (digits !== null && solved.solutionsText) writer.loadText(digits.solutions, digitCount, CELLS);
  else if (digits !== null) writer.load(digits.solutions, digitCount, CELLS);
  if (digits !== null && digitCount === batch.count) return (i) => resultRecord(digits, i, style);
  const records = new Array<SolveRecord>(batch.count);
  if (digits !== null) for (let k = 0; k < digitCount; k++) records[digitSlots[k]] = resultRecord(digits, k, style);
  batch.puzzleSlots.forEach((slot, k) => (records[slot] = solved.puzzles[k]));
  batch.recordSlots.forEach((slot, k) => (records[slot] = batch.records[k]));
  return (i) => records[i];
}

/** True when 9×9 lines of digits are read into cell bytes for `engines` (see {@link readInputs}). */
export function readsDigitLines(engines: ReadonlyMap<number, SizeEngine>, alphabet: Alphabet | undefined): boolean {
  const nine = engines.get(SHAPE_9.size);
  return nine !== undefined && solvesBatches(nine.engine) && readsNineByNineAsDigits(alphabet);
}

/** Puzzles per engine call at most in {@link Solver.solveMany} (an iterable too is solved in such pieces): well within a kernel's memory at 25×25. */
export const SOLVE_MANY_PIECE = 1 << 18;

/**
 * What solveMany takes: any iterable of puzzles (an array, a Set, a generator) but one string, which is an iterable of its
 * characters: `solveMany(text)` is a type error (a string has `charAt`), and {@link checkPuzzles} refuses it at run time.
 */
export type Puzzles = Iterable<string | Grid> & NotOneString;
/** Not a string: what {@link Puzzles} adds to an iterable, so that the type checker refuses one string. */
export interface NotOneString {
  readonly charAt?: never;
}

/** Throws a TypeError unless `puzzles` is an iterable of puzzles (async too when `async`), and not one string or typed array (each character or number an input). */
export function checkPuzzles(puzzles: unknown, method: "solveMany" | "solveStream", async: boolean): void {
  const what = async ? "an array, an iterable or an async iterable (a stream) of puzzles" : "an array or other iterable of puzzles";
  const takes = `sudoku-wasm: ${method} takes ${what}`;
  if (typeof puzzles === "string" || puzzles instanceof String)
    throw new TypeError(`${takes}, not one string: pass an array of lines (text.split("\\n")); one puzzle is [line], or solve(line) on a Solver`);
  if (ArrayBuffer.isView(puzzles)) {
    const bytes = async ? "; text as bytes is read from a stream of chunks (a Node Readable, a fetch body)" : "";
    throw new TypeError(`${takes}, not one typed array (each of its numbers would be an input): one grid is [grid]${bytes}`);
  }
  const given = puzzles as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown } | null | undefined;
  if (typeof given?.[Symbol.iterator] === "function" || (async && typeof given?.[Symbol.asyncIterator] === "function")) return;
  throw new TypeError(`${takes}, got ${puzzles === null ? "null" : typeof puzzles}`);
}

/** An input as taken from an iterator: a grid is copied, since the batch is read later and a producer may reuse one array. */
export function takenInput<T>(input: T): T {
  // the typed arrays' own slice, a copy (a Node Buffer's slice is a view of the same memory)
  if (ArrayBuffer.isView(input) && !(input instanceof DataView)) return typedArraySlice.call(input) as T;
  return Array.isArray(input) ? (input.slice() as T) : input;
}
const typedArraySlice = Object.getPrototypeOf(Uint8Array.prototype).slice as (this: ArrayBufferView) => ArrayBufferView;

/** The user-facing solver: one engine per grid side; a size without one gives an `invalid` record saying so. */
export class Solver {
  private readonly digits = new DigitLines();

  constructor(
    /** The engine of each grid size, by side N (4, 9, 16, 25). */
    readonly engines: ReadonlyMap<number, SizeEngine>,
  ) {}

  /** The 9×9 engine (the first engine when there is none). */
  get engine(): SolverEngine {
    const entry = this.engines.get(9) ?? this.engines.values().next().value;
    if (!entry) throw new RangeError("a Solver needs at least one engine");
    return entry.engine;
  }

  /** Solve one puzzle (a line of text, or N² bytes). Bad input gives an `invalid` record, never a throw. */
  solve(puzzle: string | Grid, options: SolveOptions | null = {}): SolveRecord {
    const checked = checkOptions(options, "solve");
    const record = typeof puzzle === "string" ? this.solveLine(puzzle, checked) : null;
    if (record !== null) return record;
    return this.solveMany([puzzle], options)[0]; // (an array of its own: an option's getter may call solve again)
  }

  /**
   * {@link solve} of a 9×9 line of digits, written straight into an in-place kernel (solveMany's paths, tuned by V8 on large
   * batches, would slow a loop of these). Null for any other line or option, or a rejected puzzle: solveMany takes those.
   */
  private solveLine(line: string, { limit, budget, alphabet }: CheckedOptions): SolveRecord | null {
    const entry = this.engines.get(SHAPE_9.size);
    if (line.length !== CELLS || alphabet !== undefined || entry === undefined || !solvesInPlace(entry.engine)) return null;
    const { engine } = entry;
    if (readDigits(line, engine.input(1), 0) >= 0) return null;
    const result = engine.run(1, limit, budgetFor(CELLS, budget));
    if (result.counts[0] < 0) return null;
    const writer = writerOf(DIGITS);
    writer.load(result.solutions, 1, CELLS);
    return resultRecord(result, 0, { cells: CELLS, writer, reportsGuesses: entry.reportsGuesses });
  }

  /** Solves many puzzles of any mix of sizes; one record each, in input order, each size's puzzles in one engine call when it solves batches (one per {@link SOLVE_MANY_PIECE} inputs). */
  solveMany(puzzles: Puzzles, options: SolveOptions | null = {}): SolveRecord[] {
    checkPuzzles(puzzles, "solveMany", false);
    const checked = checkOptions(options, "solveMany");
    if (!Array.isArray(puzzles) || puzzles.length > SOLVE_MANY_PIECE) return this.solveInPieces(puzzles, options);
    const digits = readsDigitLines(this.engines, checked.alphabet) ? this.digitLines() : null;
    try {
      let read: ReadBatch, solved: SolvedBatch;
      if (digits !== null && Array.isArray(puzzles) && puzzles.length >= TEXT_LINES && linesText(puzzles, digits.textRoom(puzzles.length))) {
        ({ read, solved } = solveText(this.engines, digits.text, puzzles.length, checked, digits));
      } else {
        read = readInputs(puzzles, checked.alphabet, digits);
        solved = solveRead(this.engines, read, checked);
      }
      const reportsGuesses = this.engines.get(SHAPE_9.size)?.reportsGuesses ?? false;
      const record = orderedRecords(read, solved, reportsGuesses, writerOf(DIGITS));
      const records = new Array<SolveRecord>(read.count);
      for (let i = 0; i < records.length; i++) records[i] = record(i);
      return records;
    } finally {
      digits?.release();
    }
  }

  /** {@link solveMany} of `puzzles` (options checked), {@link SOLVE_MANY_PIECE} at a time: an engine's batch has a size limit, a call has none. */
  private solveInPieces(puzzles: Iterable<string | Grid>, options: SolveOptions | null): SolveRecord[] {
    const records: SolveRecord[] = [];
    let piece: (string | Grid)[] = [];
    const solvePiece = () => {
      for (const record of this.solveMany(piece, options)) records.push(record);
      piece = [];
    };
    for (const puzzle of puzzles) {
      piece.push(Array.isArray(puzzles) ? puzzle : takenInput(puzzle));
      if (piece.length === SOLVE_MANY_PIECE) solvePiece();
    }
    if (piece.length > 0) solvePiece();
    return records;
  }

  /** This solver's buffer of 9×9 digit lines, empty; a buffer of its own for a call made while it is in use (from an engine or an input iterator). */
  private digitLines(): DigitLines {
    const lines = this.digits.busy ? new DigitLines() : this.digits;
    lines.busy = true;
    lines.count = 0;
    return lines;
  }
}

/** The 9×9 lines of digits of a batch in one buffer of cells (81 bytes each, 0 empty) with each one's position: no object per puzzle. */
export class DigitLines {
  cells: Uint8Array;
  slots: Int32Array;
  count = 0;
  /** True while a solveMany call reads into it. */
  busy = false;
  /** The lines of a batch written as text, when readInputs reads them so ({@link textRoom}). */
  text = new Uint8Array(0);

  /** The buffer size kept between calls: a larger one (a large batch) is let go after it. */
  private static readonly KEPT = 4096;

  constructor(room = 64) {
    this.cells = new Uint8Array(room * CELLS);
    this.slots = new Int32Array(room);
  }

  /** Reads `line` as the next puzzle at position `slot`; false, with nothing kept, unless it is 81 digits and empty marks (a repeated clue is left to the engine). */
  add(line: string, slot: number): boolean {
    if (line.length !== CELLS) return false;
    const at = this.count * CELLS;
    if (this.count === this.slots.length) this.reserve(this.count + 1);
    if (readDigits(line, this.cells, at) >= 0) return false;
    this.slots[this.count++] = slot;
    return true;
  }

  /** Reads the 81 bytes of `text` from `from` (a line written as bytes, see {@link readTextLines}) as the next puzzle, as {@link add} reads a line. */
  addBytes(text: Uint8Array, from: number, slot: number): boolean {
    if (this.count === this.slots.length) this.reserve(this.count + 1);
    if (readDigitBytes(text, from, this.cells, this.count * CELLS) >= 0) return false;
    this.slots[this.count++] = slot;
    return true;
  }

  reserve(count: number): void {
    if (count <= this.slots.length) return;
    this.slots = grown(this.slots, count);
    this.cells = grown(this.cells, count * CELLS);
  }

  /** {@link text} with room for `count` lines. */
  textRoom(count: number): Uint8Array {
    if (this.text.length < count * CELLS) this.text = new Uint8Array(count * CELLS);
    return this.text;
  }

  /** Lets a large buffer go once a call is done. */
  release(): void {
    if (this.slots.length > DigitLines.KEPT) {
      this.slots = new Int32Array(64);
      this.cells = new Uint8Array(64 * CELLS);
    }
    if (this.text.length > DigitLines.KEPT * CELLS) this.text = new Uint8Array(0);
    this.count = 0;
    this.busy = false;
  }
}

/** A copy of `array` with room for at least `least` elements (not `new Buffer`, deprecated: DEP0005). */
export function grown<T extends Int32Array | Uint8Array>(array: T, least: number): T {
  const Kind = (array instanceof Int32Array ? Int32Array : Uint8Array) as unknown as new (length: number) => T;
  const copy = new Kind(Math.max(least, array.length * 2));
  copy.set(array);
  return copy;
}
