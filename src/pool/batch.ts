/**
 * Batches: the unit of work that crosses to a worker thread, and what comes back.
 *
 *   main thread                                   worker (or main thread with --threads 0)
 *   BatchBuilder ── BatchTask ──────────────────► solveBatch(kernels, task)
 *     texts  "t0\nt1\n…"   one string per batch      9×9 text → classic.input (fast path) or parse;
 *     lines  Int32Array    transferred               4×4/16×16/25×25 → parse → general.input per size
 *     readErrors [[i, msg]] (rare)                   classic.run(n, limit, budget), general.run(m, box, limit, budget)
 *     alphabet (--alphabet), budget (--budget)       format each record with the --out format
 *                ◄──────────────── BatchOutcome ───  text (the batch's output), tally, errors
 *
 * Strings cross the thread boundary once per batch, never per puzzle. A batch holds the
 * records of one file, consecutive in the run, so `firstIndex + i` is record i's index.
 */
import { type SolveRecord, invalidRecord, statusOf } from "../solver.js";
import { type ReadRecord, EMPTIES, parseRecord } from "../formats/record.js";
import { CELLS } from "../puzzle.js";
import { type Alphabet, formatGeneralGrid } from "../puzzle-general.js";
import { type OutputFormatName, outputFormats } from "../formats/output/index.js";
import { takesGeneralKernel } from "../sized.js";
import { GeneralKernel } from "../general.js";
import { WasmKernel } from "../wasm.js";

/** The records of one batch, as columns. */
export interface BatchTask {
  file: string;
  /** Run-wide 0-based index of the first record. */
  firstIndex: number;
  /** Each record's text, joined by "\n" (texts never hold a line end). */
  texts: string;
  /** Each record's 1-based start line in its file. */
  lines: Int32Array;
  /** Records the reader could not read: [position in the batch, message]. */
  readErrors: [number, string][];
  limit: number;
  output: OutputFormatName;
  /** The `--alphabet` (symbols of the grids of its size); null or absent for none. */
  alphabet?: Alphabet | null;
  /**
   * Search nodes per puzzle (`--budget`; Infinity for none); a puzzle over it gets status `timeout`.
   * @default Infinity for 9×9, {@link LARGE_GRID_BUDGET} for the general kernel's sizes
   */
  budget?: number;
}

/**
 * The budget of a 4×4, 16×16 or 25×25 record when the run sets none: a blanked 25×25 grid can
 * search for hours, and one record must not stall a run. `--budget none` lifts it.
 */
export const LARGE_GRID_BUDGET = 1_000_000;

/** The kernels one thread solves on: the 9×9 kernel and the general N×N kernel, each with its own memory. */
export interface BatchKernels {
  classic: WasmKernel;
  general: GeneralKernel;
}

/** The compiled kernels, posted to each worker (a `WebAssembly.Module` crosses threads without recompiling). */
export interface KernelModules {
  classic: WebAssembly.Module;
  general: WebAssembly.Module;
}

/** Instantiates both kernels from their compiled modules, each with its own memory. */
export async function instantiateKernels(modules: KernelModules): Promise<BatchKernels> {
  return { classic: await WasmKernel.create(modules.classic), general: await GeneralKernel.create(modules.general) };
}

/** Tally positions, in summary order. */
export const TALLY_STATUSES = ["solved", "unsolvable", "multiple", "invalid", "timeout"] as const;

/** What a worker sends back for one batch. */
export interface BatchOutcome {
  /** The batch's output text, one output record per input record, in order. */
  text: string;
  /** Records per status, in {@link TALLY_STATUSES} order. */
  tally: number[];
  /** The first few error messages of the batch (for the summary on stderr). */
  errors: string[];
}

/** Error messages a batch reports back at most. */
const ERRORS_PER_BATCH = 10;
const ASCII_ZERO = 48;
/** The kernel's count for a clue repeated in a row, column or box. */
const REPEATED_CLUE = -2;

/** Collects records into batches of at most `size`; a batch never spans two files. */
export class BatchBuilder {
  private file = "";
  private firstIndex = 0;
  private texts: string[] = [];
  private lines: number[] = [];
  private readErrors: [number, string][] = [];
  private ready: BatchTask[] = [];

  constructor(
    private readonly size: number,
    private readonly limit: number,
    private readonly output: OutputFormatName,
    private readonly alphabet: Alphabet | null = null,
    private readonly budget?: number,
  ) {}

  /** Records added from now on come from `file`; the batch of the previous file is sealed. */
  startFile(file: string): void {
    this.seal();
    this.file = file;
  }

  /** Adds one record (an {@link EmitRecord} callback). */
  add(line: number, text: string, error: string | null): void {
    if (error !== null) this.readErrors.push([this.texts.length, error]);
    this.texts.push(text);
    this.lines.push(line);
    if (this.texts.length === this.size) this.seal();
  }

  /** Seals the batch in progress, if any; it becomes ready. */
  seal(): void {
    if (this.texts.length === 0) return;
    this.ready.push({
      file: this.file,
      firstIndex: this.firstIndex,
      texts: this.texts.join("\n"),
      lines: Int32Array.from(this.lines),
      readErrors: this.readErrors,
      limit: this.limit,
      output: this.output,
      alphabet: this.alphabet,
      budget: this.budget,
    });
    this.firstIndex += this.texts.length;
    this.texts = [];
    this.lines = [];
    this.readErrors = [];
  }

  /** The sealed batches not yet taken, oldest first. */
  takeReady(): BatchTask[] {
    const ready = this.ready;
    this.ready = [];
    return ready;
  }
}

/** The value of each ASCII character as a 9×9 cell: 1–9 for digits, 0 for an empty, -1 otherwise. */
const CELL_VALUE = (() => {
  const values = new Int8Array(128).fill(-1);
  for (let digit = 1; digit <= 9; digit++) values[ASCII_ZERO + digit] = digit;
  for (const empty of EMPTIES) values[empty.charCodeAt(0)] = 0;
  return values;
})();

/**
 * The fast path: writes a 9×9 record's cells straight into the kernel's input at `at`. False
 * when the text is not 81 cell characters; such records take the slow path (parseRecord),
 * which names the cell and the reason. Repeated clues are left to the kernel (count -2).
 */
function writeCells(text: string, input: Uint8Array, at: number): boolean {
  if (text.length !== CELLS) return false;
  for (let cell = 0; cell < CELLS; cell++) {
    const code = text.charCodeAt(cell);
    const value = code < 128 ? CELL_VALUE[code] : -1;
    if (value < 0) return false;
    input[at + cell] = value;
  }
  return true;
}

/** The readable records of one size bound for the general kernel: record positions, grids, alphabets. */
interface GeneralGroup {
  positions: number[];
  grids: Uint8Array[];
  alphabets: Alphabet[];
}

/**
 * Solves one batch: writes every readable 9×9 record into the 9×9 kernel's input (the fast
 * path; the rest get their error from parseRecord), groups the other sizes by box size for the
 * general kernel, solves each group in one kernel call, and formats every record, in order,
 * with the task's output format. Shared by the worker and the in-process (`--threads 0`) path.
 */
export function solveBatch(kernels: BatchKernels, task: BatchTask): BatchOutcome {
  const texts = task.texts.split("\n");
  const alphabet = task.alphabet ?? undefined;
  const readErrors = new Map(task.readErrors);
  const records: ReadRecord[] = [];
  const errors = new Map<number, string>();
  const slots = new Int32Array(texts.length).fill(-1);
  const groups = new Map<number, GeneralGroup>();
  const input = kernels.classic.input(texts.length);
  const fastPath = !takesGeneralKernel(CELLS, alphabet);
  let solvable = 0;
  texts.forEach((text, i) => {
    const read: ReadRecord = { index: task.firstIndex + i, line: task.lines[i], file: task.file, text, error: readErrors.get(i) ?? null };
    records.push(read);
    if (read.error === null && fastPath && writeCells(text, input, solvable * CELLS)) {
      slots[i] = solvable++;
      return;
    }
    const parsed = parseRecord(read, alphabet);
    if (parsed.grid === null) errors.set(i, parsed.error!);
    else if (!takesGeneralKernel(text.length, alphabet)) {
      input.set(parsed.grid, solvable * CELLS);
      slots[i] = solvable++;
    } else {
      const group = groups.get(parsed.box) ?? { positions: [], grids: [], alphabets: [] };
      groups.set(parsed.box, group);
      group.positions.push(i);
      group.grids.push(parsed.grid);
      group.alphabets.push(parsed.alphabet);
    }
  });
  const results = solvable > 0 ? kernels.classic.run(solvable, task.limit, task.budget ?? Infinity) : null;
  const solutions = results ? asciiSolutions(results.solutions) : null;
  const generalResults = solveGeneralGroups(kernels.general, groups, task.limit, task.budget ?? LARGE_GRID_BUDGET);

  const format = outputFormats[task.output];
  const tally = TALLY_STATUSES.map(() => 0);
  const messages: string[] = [];
  let text = "";
  records.forEach((record, i) => {
    const slot = slots[i];
    let result: SolveRecord;
    if (slot >= 0) {
      if (results!.counts[slot] === REPEATED_CLUE) result = invalidRecord(parseRecord(record, alphabet).error!);
      else result = kernelRecord(results!.counts[slot], results!.guesses[slot], results!.nodes![slot] < 0, solutions!, slot);
    } else result = generalResults.get(i) ?? invalidRecord(errors.get(i)!);
    tally[TALLY_STATUSES.indexOf(result.status as (typeof TALLY_STATUSES)[number])]++;
    if (result.error && messages.length < ERRORS_PER_BATCH) messages.push(result.error);
    text += format.format(record, result);
  });
  return { text, tally, errors: messages };
}

/** Solves each size's group in one general-kernel call; the records by position in the batch. */
function solveGeneralGroups(kernel: GeneralKernel, groups: ReadonlyMap<number, GeneralGroup>, limit: number, budget: number): Map<number, SolveRecord> {
  const records = new Map<number, SolveRecord>();
  for (const [box, { positions, grids, alphabets }] of groups) {
    const cells = grids[0].length;
    const input = kernel.input(grids.length, box);
    grids.forEach((grid, k) => input.set(grid, k * cells));
    const { counts, guesses, nodes, solutions } = kernel.run(grids.length, box, limit, budget); // views: read before the next call
    positions.forEach((position, k) => {
      const count = counts[k];
      const solution = count > 0 ? formatGeneralGrid(solutions.subarray(k * cells, (k + 1) * cells), alphabets[k]) : null;
      const status = statusOf(count, nodes![k] < 0);
      records.set(position, count < 0 ? invalidRecord("the kernel rejected the puzzle's bytes") : { status, count, solution, guesses: guesses[k] });
    });
  }
  return records;
}

/** The result of one 9×9 kernel slot as a {@link SolveRecord}; `timedOut` when the budget stopped it. */
function kernelRecord(count: number, guesses: number, timedOut: boolean, solutions: Buffer, slot: number): SolveRecord {
  if (count < 0) return invalidRecord("the kernel rejected the puzzle's bytes");
  const start = slot * CELLS;
  return {
    status: statusOf(count, timedOut),
    count,
    solution: count > 0 ? solutions.toString("latin1", start, start + CELLS) : null,
    guesses,
  };
}

/** Turns the kernel's solution digits (1–9) into ASCII in place; returns a Buffer over them (no copy). */
function asciiSolutions(solutions: Uint8Array): Buffer {
  for (let i = 0; i < solutions.length; i++) solutions[i] += ASCII_ZERO;
  return Buffer.from(solutions.buffer, solutions.byteOffset, solutions.length);
}
