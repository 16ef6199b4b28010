/**
 * The solving side of batching, on whichever thread solves (a worker, or the main thread with
 * `--threads 0`): the engines of each grid size, and {@link solveTask}, which turns a
 * {@link BatchTask} into its output bytes. {@link failedBatch} writes a batch that could not be
 * solved (on the main thread, after a retry failed).
 */
import {
  type KernelRecords,
  type RecordsRequest,
  type SizeEngine,
  type SolveRecord,
  type SolverEngine,
  REJECTED,
  STATUSES,
  type SolutionWriter,
  batchRecords,
  invalidRecord,
  solveGroup,
  solvesBatches,
  statusOf,
  writerOf,
} from "../solvers/solver.js";
import { type ReadRecord, parseRecord, placeMessage } from "../formats/record.js";
import { excerpt } from "../model/excerpt.js";
import { type Alphabet, DIGITS } from "../model/puzzle.js";
import { type Shape, CELLS, SHAPE_9, shapeOfSide } from "../model/shape.js";
import { outputFormats } from "../formats/output/index.js";
import { csvField } from "../formats/output/csv.js";
import { solvers, solversBySize } from "../solvers/registry.js";
import type { BatchResult } from "../solvers/solver.js";
import type { WasmModule } from "../kernel/kernel-source.js";
import { type BatchOutcome, type BatchTask, ERRORS_PER_BATCH, grown, outputRoom, taskBuffers } from "./task.js";

/** What each worker starts with (its `workerData`). */
export interface WorkerData {
  /** Registry ids (`solve --solver`); each size gets the first that takes it, else its default. */
  solvers: string[];
  /** The kernel modules the main thread compiled (wasm.ts compiledKernels): the worker compiles none of them again. */
  kernels?: Record<string, WasmModule>;
  /**
   * Nice levels the worker lowers its own thread's priority by once its engines have loaded
   * (Linux; priority.ts lowerThreadPriority). @default 0: the priority it started with
   */
  nice?: number;
}

/**
 * What a worker posts once its engines are loaded. piscina counts a pool's first workers as ready
 * from the moment they are created, so the pool listens for this instead (see pool.ts).
 */
export const ENGINES_LOADED = "sudoku-wasm: engines loaded";

/** The engines one thread solves on, by grid side N; each WASM engine has its own memory. */
export type BatchEngines = ReadonlyMap<number, SizeEngine>;

/**
 * Loads the engine of every size for `solve --solver ids` (registry ids; each size gets the first
 * that takes it, else its default). Every engine must solve batches: a RangeError names the ones that do.
 */
export async function loadBatchEngines(ids: readonly string[] = []): Promise<BatchEngines> {
  const engines = new Map<number, SizeEngine>();
  for (const [size, info] of solversBySize(ids)) {
    const engine = await info.load(size);
    if (!solvesBatches(engine)) {
      const batchIds = await batchSolverIds();
      throw new RangeError(`solver '${info.id}' solves one puzzle per call; --solver takes one that solves batches: ${batchIds.join(", ")}`);
    }
    engines.set(size, { id: info.id, engine, reportsGuesses: info.capabilities.guesses });
  }
  return engines;
}

/**
 * The registry ids whose engines solve batches (loads each row's engine of its first size once;
 * rows whose optional package is not installed are left out, not loaded, and so are rows that
 * fail to load: the kernel variants of an installed package, which ships without them).
 */
async function batchSolverIds(): Promise<string[]> {
  const ids: string[] = [];
  for (const info of solvers) {
    if (info.unavailable) continue;
    try {
      if (solvesBatches(await info.load(info.sizes[0]))) ids.push(info.id);
    } catch {
      // not loadable here: not offered
    }
  }
  return ids;
}

/** The kernels' count for a clue repeated in a row, column or box. */
const REPEATED_CLUE = -2;

/** The readable records of one size and alphabet: their positions in the batch and their packed grids. */
class Group {
  readonly positions: number[] = [];
  readonly grids: Uint8Array[] = [];

  constructor(
    readonly shape: Shape,
    readonly alphabet: Alphabet,
  ) {}
}

/** The ReadRecord of position `i` of a task, its text given. */
function readRecord(task: BatchTask, i: number, text: string, error: string | null): ReadRecord {
  return { index: task.firstIndex + i * (task.indexStep ?? 1), line: task.lines[i], file: task.file, text, error };
}

/** The text of fast record `k` of a task: its 81 cell bytes (ASCII). */
function fastText(task: BatchTask, k: number): string {
  let text = "";
  for (let i = k * CELLS, end = i + CELLS; i < end; i++) text += String.fromCharCode(task.cells[i]);
  return text;
}

/**
 * Solves one batch: the fast records in one {@link solveGroup} call straight from their cell
 * bytes; the others parsed (parseRecord gives the unreadable ones their error), grouped by size
 * and alphabet, one solveGroup call per group; then every record, in order, in the task's
 * output format, as bytes. Shared by the worker and the in-process (`--threads 0`) path.
 */
export function solveTask(engines: BatchEngines, task: BatchTask): BatchOutcome {
  const began = performance.now();
  const count = task.lines.length;
  const alphabet = task.alphabet ?? undefined;
  const readErrors = new Map(task.readErrors);
  // The other records first: their results become records now, before the fast group's call reuses the 9×9 engine's memory.
  const textRecords = new Array<SolveRecord>(task.texts.length);
  const groups = new Map<string, Group>();
  task.texts.forEach((text, t) => {
    const parsed = parseRecord(readRecord(task, task.textAt[t], text, readErrors.get(task.textAt[t]) ?? null), alphabet);
    if (parsed.grid === null) {
      textRecords[t] = invalidRecord(parsed.error!);
      return;
    }
    const shape = shapeOfSide(parsed.box * parsed.box)!;
    const key = `${shape.size} ${parsed.alphabet}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = new Group(shape, parsed.alphabet)));
    group.positions.push(t);
    group.grids.push(parsed.grid);
  });
  for (const group of groups.values()) {
    const { cells } = group.shape;
    const entry = engines.get(group.shape.size)!;
    const fill = (packed: Uint8Array) => group.grids.forEach((grid, k) => packed.set(grid, k * cells));
    const output = solveGroup(entry.engine, cells, group.grids.length, fill, task.limit, task.budget);
    const rejected = (k: number, found: number): SolveRecord => {
      const t = group.positions[k];
      return invalidRecord(found === REPEATED_CLUE ? parseRecord(readRecord(task, task.textAt[t], task.texts[t], null), alphabet).error! : REJECTED);
    };
    const records = batchRecords(output, group.grids.length, { cells, writer: writerOf(group.alphabet), reportsGuesses: entry.reportsGuesses, rejected });
    group.positions.forEach((t, k) => (textRecords[t] = records[k]));
  }

  const fastCount = count - task.texts.length;
  let fast: FastRecords | null = null;
  if (fastCount > 0) {
    const entry = engines.get(SHAPE_9.size)!;
    const result = solveGroup(entry.engine, CELLS, fastCount, { text: task.cells }, task.limit, task.budget);
    if (fastCount === count && task.output === "line") {
      const written = kernelLines(entry.engine, count, result, task.out);
      if (written) return { ...written, spent: taskBuffers(task), solveMs: performance.now() - began };
    }
    const records = kernelRecords(entry.engine, task, fastCount, entry.reportsGuesses);
    fast = new FastRecords(task, records?.result ?? result, entry.reportsGuesses, records);
  }

  const out = new OutcomeWriter(task, count);
  let t = 0;
  let k = 0;
  for (let i = 0; i < count; ) {
    if (t < task.textAt.length && task.textAt[t] === i) {
      out.record(readRecord(task, i, task.texts[t], null), textRecords[t]);
      t++;
      i++;
    } else {
      // The fast records up to the next text record, at once.
      const run = (t < task.textAt.length ? task.textAt[t] : count) - i;
      fast!.writeRun(out, i, k, run);
      i += run;
      k += run;
    }
  }
  return { ...out.outcome(), spent: taskBuffers(task), solveMs: performance.now() - began };
}

/** The file's name of `task` as its output format (`jsonl` or `csv`) writes it, with what stands around it. */
function filePiece(task: BatchTask): Uint8Array {
  return task.output === "jsonl" ? ascii(`,"file":${JSON.stringify(task.file)},"line":`) : ascii(`,${csvField(task.file)},`);
}

/**
 * The `jsonl` or `csv` records of the `fastCount` fast records of `task`, solved, as the kernel
 * writes them (SolverEngine.recordsOutput); null for another output, or when the engine does not
 * write records.
 */
function kernelRecords(engine: SolverEngine, task: BatchTask, fastCount: number, guesses: boolean): KernelRecords | null {
  const output = task.output;
  if ((output !== "jsonl" && output !== "csv") || engine.recordsOutput === undefined) return null;
  let lines = task.lines;
  let positions: Int32Array | null = null;
  if (fastCount < lines.length) {
    // Fast records between text records: each one's position in the batch and its line.
    positions = new Int32Array(fastCount);
    lines = new Int32Array(fastCount);
    for (let i = 0, t = 0, k = 0; i < task.lines.length; i++) {
      if (t < task.textAt.length && task.textAt[t] === i) t++;
      else {
        positions[k] = i;
        lines[k++] = task.lines[i];
      }
    }
  }
  const request: RecordsRequest = {
    output,
    texts: task.cells,
    lines,
    positions,
    firstIndex: task.firstIndex,
    step: task.indexStep ?? 1,
    piece: filePiece(task),
    guesses,
  };
  return engine.recordsOutput(fastCount, request);
}

/** Records per status of `count` 9×9 puzzles solved for `line` output (none rejected). */
function lineTally(counts: ArrayLike<number>, nodes: ArrayLike<number>, count: number): number[] {
  let solved = 0;
  let unsolvable = 0;
  let timeouts = 0;
  for (let k = 0; k < count; k++) {
    if (nodes[k] < 0) timeouts++;
    else if (counts[k] === 1) solved++;
    else if (counts[k] === 0) unsolvable++;
  }
  const tally = STATUSES.map(() => 0);
  tally[STATUSES.indexOf("solved")] = solved;
  tally[STATUSES.indexOf("unsolvable")] = unsolvable;
  tally[STATUSES.indexOf("multiple")] = count - solved - unsolvable - timeouts;
  tally[STATUSES.indexOf("timeout")] = timeouts;
  return tally;
}

/**
 * The outcome of `count` 9×9 puzzles just solved (`result`), in `line` output, as the kernel
 * writes it (SolverEngine.lineOutput), copied into `out` when it fits (else a copy of its own);
 * null when the engine does not write lines or a puzzle was rejected. A batch of fast records
 * only is written so.
 */
function kernelLines(engine: SolverEngine, count: number, result: BatchResult, out?: Uint8Array): BatchOutcome | null {
  if (engine.lineOutput === undefined) return null;
  const tally = lineTally(result.counts, result.nodes, count); // before lineOutput, which may write over the results
  const lines = engine.lineOutput(count);
  if (lines === null) return null;
  if (out === undefined || out.length < lines.length) return { bytes: lines.slice(), tally, errors: [] };
  out.set(lines);
  return { bytes: out.subarray(0, lines.length), tally, errors: [] };
}

const encoder = new TextEncoder();

/** Bytes of ASCII text. */
function ascii(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The status words and fixed pieces of the byte formats, as bytes. */
const STATUS_BYTES = Object.fromEntries(STATUSES.map((status) => [status, ascii(status)])) as Record<string, Uint8Array>;

/** A batch's output, written as bytes, with its tally and first error messages. */
class OutcomeWriter {
  bytes: Uint8Array;
  at = 0;
  readonly tally = STATUSES.map(() => 0);
  readonly errors: string[] = [];
  private readonly format;

  constructor(
    readonly task: BatchTask,
    count: number,
  ) {
    this.format = outputFormats[task.output];
    const room = outputRoom(task, count);
    this.bytes = task.out !== undefined && task.out.length >= room ? task.out : new Uint8Array(room);
  }

  /** Room for `n` more bytes. */
  room(n: number): void {
    if (this.at + n > this.bytes.length) this.bytes = grown(this.bytes, this.at + n);
  }

  /** Writes a record through its format's text writer (every record that is not a fast one, and any record of `grid` output). */
  record(read: ReadRecord, result: SolveRecord): void {
    this.count(result.status, result.error);
    const text = this.format.format(read, result);
    this.room(text.length * 3);
    this.at += encoder.encodeInto(text, this.bytes.subarray(this.at)).written;
  }

  /** Counts a record's status and keeps its error message while there are few. */
  count(status: SolveRecord["status"], error: string | undefined): void {
    this.tally[STATUSES.indexOf(status)]++;
    if (error && this.errors.length < ERRORS_PER_BATCH) this.errors.push(`${status}: ${error}`);
  }

  /** Bytes as they are (room made first). */
  put(piece: Uint8Array): void {
    this.at = putPiece(this.bytes, this.at, piece);
  }

  outcome(): BatchOutcome {
    return { bytes: this.bytes.subarray(0, this.at), tally: this.tally, errors: this.errors };
  }
}

/** Positions in {@link STATUSES}, for the tally of fast records. */
const SOLVED = STATUSES.indexOf("solved");
const UNSOLVABLE = STATUSES.indexOf("unsolvable");
const MULTIPLE = STATUSES.indexOf("multiple");
const TIMEOUT = STATUSES.indexOf("timeout");

/** The status of a fast record (a position in STATUSES): {@link statusOf} without the string. */
function fastStatus(found: number, timedOut: boolean): number {
  return timedOut ? TIMEOUT : found === 0 ? UNSOLVABLE : found === 1 ? SOLVED : MULTIPLE;
}

/** Copies `piece` into `bytes` from `at` and returns the position after it. */
function putPiece(bytes: Uint8Array, at: number, piece: Uint8Array): number {
  bytes.set(piece, at);
  return at + piece.length;
}

/** Writes `value`, a whole number, in decimal into `bytes` from `at` and returns the position after it. */
function putInt(bytes: Uint8Array, at: number, value: number): number {
  if (value < 0) {
    bytes[at++] = 45; // "-"
    value = -value;
  }
  if (value > 0x7fffffff) {
    // Past 32 bits: the slow way (an index of over two billion records).
    const digits = String(value);
    for (let i = 0; i < digits.length; i++) bytes[at++] = digits.charCodeAt(i);
    return at;
  }
  let digits = 1;
  for (let rest = value; rest >= 10; rest = (rest / 10) | 0) digits++;
  for (let i = at + digits - 1; i >= at; i--) {
    const tenth = (value / 10) | 0;
    bytes[i] = 48 + value - 10 * tenth;
    value = tenth;
  }
  return at + digits;
}

/** The jsonl record's fixed pieces around its status, per status (STATUSES order): with a solution, and without one. */
const JSONL_STATUS = STATUSES.map((status) => ({
  solution: ascii(`","status":"${status}","solution":"`),
  none: ascii(`","status":"${status}","solution":null,"count":`),
}));
const JSONL_INDEX = ascii('{"index":');
const JSONL_PUZZLE = ascii(',"puzzle":"');
const JSONL_COUNT = ascii('","count":');
const JSONL_GUESSES = ascii(',"guesses":');
const JSONL_END = ascii(',"error":null}\n');
/** The csv row's status field with the commas around it, per status. */
const CSV_STATUS = STATUSES.map((status) => ascii(`,${status},`));
const NULL_BYTES = ascii("null");
const CSV_END = ascii(",\n");

/**
 * The fast records of a batch, solved: each written from the kernel's result views (valid until
 * the 9×9 engine's next call) and the cell bytes, byte for byte what the text writer of its
 * format would give (`line`, `jsonl`, `csv`); `grid` output and rejected puzzles go through the
 * text writer. A record is written from fixed pieces made once per batch (the file's name in its
 * format among them), the cells as read and the solution's digits, with no object per record.
 */
class FastRecords {
  /** `,"file":NAME,"line":` (jsonl) or `,NAME,` (csv): the file's name as its format writes it. */
  private readonly filePiece: Uint8Array;
  private readonly writer: SolutionWriter;

  constructor(
    private readonly task: BatchTask,
    private readonly result: BatchResult,
    private readonly reportsGuesses: boolean,
    /** The records as the kernel wrote them (jsonl, csv), or null: each is written here. */
    private readonly kernel: KernelRecords | null = null,
  ) {
    // Only this writer's own jsonl and csv records name the file (the kernel was given its piece).
    this.filePiece = kernel === null && (task.output === "jsonl" || task.output === "csv") ? filePiece(task) : new Uint8Array(0);
    this.writer = writerOf(DIGITS);
  }

  /** Writes fast records `k` to `k + n - 1`, at positions `i` on of the batch: the kernel's bytes, a run at a time, where it wrote them. */
  writeRun(out: OutcomeWriter, i: number, k: number, n: number): void {
    if (this.kernel === null) {
      for (let j = 0; j < n; j++) this.write(out, i + j, k + j);
      return;
    }
    const { counts, nodes } = this.result;
    const { bytes, ends } = this.kernel;
    let from = k === 0 ? 0 : ends[k - 1]; // the kernel's bytes not yet copied
    const copy = (to: number) => {
      out.room(to - from);
      out.put(bytes.subarray(from, to));
    };
    for (let j = 0; j < n; j++) {
      const found = counts[k + j];
      if (found >= 0) {
        out.tally[fastStatus(found, nodes[k + j] < 0)]++;
        continue;
      }
      copy(ends[k + j]); // the records before it (a rejected one has no bytes)
      from = ends[k + j];
      this.write(out, i + j, k + j);
    }
    copy(ends[k + n - 1]);
  }

  /** Writes fast record `k`, at position `i` of the batch. */
  write(out: OutcomeWriter, i: number, k: number): void {
    const { counts, nodes } = this.result;
    const found = counts[k];
    const output = this.task.output;
    if (found < 0 || output === "grid") {
      const read = readRecord(this.task, i, fastText(this.task, k), null);
      return out.record(read, this.record(read, k));
    }
    const status = fastStatus(found, nodes[k] < 0);
    out.tally[status]++;
    if (output === "line") {
      out.room(CELLS + 1);
      if (status === SOLVED) out.at = this.solution(out.bytes, out.at, k);
      else out.put(STATUS_BYTES[STATUSES[status]]);
      out.bytes[out.at++] = 10;
    } else if (output === "jsonl") this.jsonl(out, i, k, status, found);
    else this.csv(out, i, k, status, found);
  }

  /** The result of fast record `k`, read as `read` (for the text writer). */
  private record(read: ReadRecord, k: number): SolveRecord {
    const found = this.result.counts[k];
    if (found < 0) {
      const parsed = parseRecord(read);
      return invalidRecord(found === REPEATED_CLUE && parsed.error ? parsed.error : REJECTED);
    }
    this.writer.load(this.result.solutions.subarray(k * CELLS, (k + 1) * CELLS), 1, CELLS);
    return {
      status: statusOf(found, this.result.nodes[k] < 0),
      count: found,
      solution: found > 0 ? this.writer.text(0) : null,
      guesses: this.reportsGuesses ? this.result.guesses[k] : null,
    };
  }

  /** Writes solution `k` as 81 digits into `bytes` from `at` (room made first); returns the position after it. */
  private solution(bytes: Uint8Array, at: number, k: number): number {
    const solutions = this.result.solutions;
    for (let i = k * CELLS, end = i + CELLS; i < end; i++) bytes[at++] = 48 + solutions[i];
    return at;
  }

  /** Writes the cells of fast record `k` as read into `bytes` from `at` (room made first); returns the position after them. */
  private puzzle(bytes: Uint8Array, at: number, k: number): number {
    bytes.set(this.task.cells.subarray(k * CELLS, (k + 1) * CELLS), at);
    return at + CELLS;
  }

  /** The jsonl line: JSON.stringify's bytes for {index, file, line, puzzle, status, solution, count, guesses, error}. */
  private jsonl(out: OutcomeWriter, i: number, k: number, status: number, found: number): void {
    out.room(2 * CELLS + 160 + this.filePiece.length);
    const bytes = out.bytes;
    let at = putPiece(bytes, out.at, JSONL_INDEX);
    at = putInt(bytes, at, this.task.firstIndex + i * (this.task.indexStep ?? 1));
    at = putPiece(bytes, at, this.filePiece);
    at = putInt(bytes, at, this.task.lines[i]);
    at = putPiece(bytes, at, JSONL_PUZZLE);
    at = this.puzzle(bytes, at, k);
    if (found > 0) {
      at = putPiece(bytes, at, JSONL_STATUS[status].solution);
      at = this.solution(bytes, at, k);
      at = putPiece(bytes, at, JSONL_COUNT);
    } else at = putPiece(bytes, at, JSONL_STATUS[status].none);
    at = putInt(bytes, at, found);
    at = putPiece(bytes, at, JSONL_GUESSES);
    at = this.reportsGuesses ? putInt(bytes, at, this.result.guesses[k]) : putPiece(bytes, at, NULL_BYTES);
    out.at = putPiece(bytes, at, JSONL_END);
  }

  /** The csv row: index,file,line,puzzle,status,solution,count,guesses,error (csvField of each). */
  private csv(out: OutcomeWriter, i: number, k: number, status: number, found: number): void {
    out.room(2 * CELLS + 64 + this.filePiece.length);
    const bytes = out.bytes;
    let at = putInt(bytes, out.at, this.task.firstIndex + i * (this.task.indexStep ?? 1));
    at = putPiece(bytes, at, this.filePiece);
    at = putInt(bytes, at, this.task.lines[i]);
    bytes[at++] = 44;
    // csvField: a text starting with `-` (an empty mark) could be read as a formula: quoted, behind an apostrophe.
    const defused = this.task.cells[k * CELLS] === 45;
    if (defused) {
      bytes[at++] = 34; // "
      bytes[at++] = 39; // '
    }
    at = this.puzzle(bytes, at, k);
    if (defused) bytes[at++] = 34;
    at = putPiece(bytes, at, CSV_STATUS[status]);
    if (found > 0) at = this.solution(bytes, at, k);
    bytes[at++] = 44;
    at = putInt(bytes, at, found);
    bytes[at++] = 44;
    if (this.reportsGuesses) at = putInt(bytes, at, this.result.guesses[k]);
    out.at = putPiece(bytes, at, CSV_END);
  }
}

/**
 * The outcome of a batch the solver failed on twice (a worker that threw or died): every record
 * of it, in order, with status `error` and a message naming its file, its line and the reason.
 * The run goes on with the next batch.
 */
export function failedBatch(task: BatchTask, failure: unknown): BatchOutcome {
  const reason = failure instanceof Error ? failure.message : String(failure);
  const count = task.lines.length;
  const out = new OutcomeWriter(task, count);
  for (let i = 0, t = 0, k = 0; i < count; i++) {
    const isText = t < task.textAt.length && task.textAt[t] === i;
    const text = isText ? task.texts[t++] : fastText(task, k++);
    const message = placeMessage(task.file, task.lines[i], `the solver failed on this record's batch (twice): ${excerpt(reason, 200)}`);
    out.record(readRecord(task, i, text, null), { status: "error", count: 0, solution: null, guesses: null, error: message });
  }
  return out.outcome();
}
