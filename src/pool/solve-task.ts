/**
 * The solving side of batching, on whichever thread solves: {@link runTask} turns a
 * {@link BatchTask} into its output bytes on the thread's engines (engines.ts), or sends a canon
 * batch to canon-task.ts; {@link failedBatch} writes a batch that could not be solved.
 */
import {
  type BatchResult,
  type KernelRecords,
  type RecordsRequest,
  type SolverEngine,
  type SolveRecord,
  REJECTED,
  STATUSES,
  batchRecords,
  invalidRecord,
  solveGroup,
  writerOf,
} from "../solvers/solver.js";
import { type ReadRecord, parseRecord, placeMessage } from "../formats/record.js";
import { excerpt } from "../model/excerpt.js";
import type { Alphabet } from "../model/puzzle.js";
import { type Shape, CELLS, SHAPE_9, shapeOfSide } from "../model/shape.js";
import { outputFormats } from "../formats/output/index.js";
import { jsonlFilePiece } from "../formats/output/jsonl.js";
import { csvFilePiece } from "../formats/output/csv.js";
import { ByteOutput, outputRecord, solutionDigits } from "../formats/output/bytes.js";
import { type RecordWriter, fillRecord } from "../formats/output/format.js";
import type { WasmModule } from "../kernel/kernel-source.js";
import { type BatchOutcome, type BatchTask, ERRORS_PER_BATCH, outputRoom, taskBuffers } from "./batch.js";
import type { BatchEngines } from "./engines.js";
import { canonTask } from "./canon-task.js";

/** What each worker starts with (its `workerData`). */
export interface WorkerData {
  /** Registry ids (`solve --solver`); each size gets the first that takes it, else its default. */
  solvers: string[];
  /** The kernel modules the main thread compiled (wasm.ts compiledKernels): the worker compiles none of them again. */
  kernels?: Record<string, WasmModule>;
  /** Nice levels the worker lowers its thread's priority by once its engines have loaded (Linux; priority.ts). @default 0 */
  nice?: number;
}

/** What a worker posts once its engines are loaded (piscina counts its first workers ready as soon as they exist). */
export const ENGINES_LOADED = "sudoku-wasm: engines loaded";

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
  for (let i = k * CELLS, end = i + CELLS; i < end; i++) text += String.fromCharCode(task.fastBytes[i]);
  return text;
}

/**
 * Does a batch's work on `engines`: its solutions, or its minlex forms for a canon batch. A batch
 * with a size whose engine is not loaded yet ({@link BatchEngines.loadMissing}) is solved once it
 * is: a promise then.
 */
export function runTask(engines: BatchEngines, task: BatchTask): BatchOutcome | Promise<BatchOutcome> {
  if (task.canon) return canonTask(engines, task);
  const texts = readTexts(task);
  const loading = texts.groups.size > 0 ? engines.loadMissing?.(texts.sides()) : null;
  if (loading) return loading.then(() => solveWithTexts(engines, task, texts));
  return solveWithTexts(engines, task, texts);
}

/** The records of a batch read as text: the unreadable ones' records, and the others by size and alphabet. */
class TextRecords {
  /** Per text record: its record when it could not be read (the others get theirs once solved). */
  readonly records: SolveRecord[];
  readonly groups = new Map<string, Group>();
  /** Milliseconds the reading took (a part of the batch's solving time, BatchOutcome.solveMs). */
  readMs = 0;

  constructor(count: number) {
    this.records = new Array<SolveRecord>(count);
  }

  /** The grid sides the readable records have. */
  *sides(): Generator<number> {
    for (const group of this.groups.values()) yield group.shape.size;
  }
}

/** Reads the text records of `task` (parseRecord gives the unreadable ones their error), grouped by size and alphabet. */
function readTexts(task: BatchTask): TextRecords {
  const began = performance.now();
  const alphabet = task.alphabet ?? undefined;
  const readErrors = task.readErrors.length === 0 ? null : new Map(task.readErrors);
  const texts = new TextRecords(task.texts.length);
  task.texts.forEach((text, t) => {
    const parsed = parseRecord(readRecord(task, task.textAt[t], text, readErrors?.get(task.textAt[t]) ?? null), alphabet);
    if (parsed.grid === null) {
      texts.records[t] = invalidRecord(parsed.error!);
      return;
    }
    const shape = shapeOfSide(parsed.box * parsed.box)!;
    const key = `${shape.size} ${parsed.alphabet}`;
    let group = texts.groups.get(key);
    if (!group) texts.groups.set(key, (group = new Group(shape, parsed.alphabet)));
    group.positions.push(t);
    group.grids.push(parsed.grid);
  });
  texts.readMs = performance.now() - began;
  return texts;
}

/**
 * Solves one batch: the fast records in one {@link solveGroup} call from their cell bytes, the
 * text records (read by {@link readTexts}) one call per size and alphabet; then every record, in
 * order, in the task's output format, as bytes.
 */
function solveWithTexts(engines: BatchEngines, task: BatchTask, texts: TextRecords): BatchOutcome {
  const began = performance.now() - texts.readMs;
  const count = task.lines.length;
  const alphabet = task.alphabet ?? undefined;
  // The other records first: their results become records now, before the fast group's call reuses the 9×9 engine's memory.
  const textRecords = texts.records;
  for (const group of texts.groups.values()) {
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
  let fast: FastResults | null = null;
  if (fastCount > 0) {
    const entry = engines.get(SHAPE_9.size)!;
    const result = solveGroup(entry.engine, CELLS, fastCount, { text: task.fastBytes }, task.limit, task.budget);
    if (fastCount === count && task.output === "line") {
      const written = kernelLines(entry.engine, count, result, task.out);
      if (written) return { ...written, spent: taskBuffers(task), solveMs: performance.now() - began };
    }
    const kernel = kernelRecords(entry.engine, task, fastCount, entry.reportsGuesses);
    if (kernel === null) fastDigits = solutionDigits(result.solutions, fastCount, fastDigits);
    fast = { result: kernel?.result ?? result, digits: fastDigits, reportsGuesses: entry.reportsGuesses, kernel };
  }

  const out = new OutcomeWriter(task, count);
  for (let i = 0, t = 0, k = 0; i < count; ) {
    if (t < task.textAt.length && task.textAt[t] === i) {
      out.record(readRecord(task, i, task.texts[t], null), textRecords[t]);
      t++;
      i++;
    } else {
      // The fast records up to the next text record, at once.
      const run = (t < task.textAt.length ? task.textAt[t] : count) - i;
      out.fastRun(fast!, i, k, run);
      i += run;
      k += run;
    }
  }
  return { ...out.outcome(), spent: taskBuffers(task), solveMs: performance.now() - began };
}

/** The jsonl or csv records of the fast records as the 9×9 kernel writes them (SolverEngine.recordsOutput); null for another output or engine. */
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
  const piece = output === "jsonl" ? jsonlFilePiece(task.file) : csvFilePiece(task.file);
  const request: RecordsRequest = {
    output,
    texts: task.fastBytes,
    lines,
    positions,
    firstIndex: task.firstIndex,
    step: task.indexStep ?? 1,
    piece: encoder.encode(piece),
    guesses,
  };
  return engine.recordsOutput(fastCount, request);
}

/** Records per status of `count` 9×9 puzzles solved for `line` output (none rejected). */
function lineTally(counts: ArrayLike<number>, nodes: ArrayLike<number>, count: number): number[] {
  const tally = STATUSES.map(() => 0);
  for (let k = 0; k < count; k++) tally[fastStatus(counts[k], nodes[k] < 0)]++;
  return tally;
}

/**
 * A batch of fast records only in `line` output, as the 9×9 kernel writes it (SolverEngine.lineOutput),
 * copied into `out` when it fits; null when the engine writes no lines or a puzzle was rejected.
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

interface FastResults {
  /** The kernel's results: views valid until the 9×9 engine's next call. */
  result: BatchResult;
  /** The digits of the solutions (when the host writes the records). */
  digits: Uint8Array;
  reportsGuesses: boolean;
  /** The records as the kernel wrote them (jsonl, csv), or null: the format's writer writes them. */
  kernel: KernelRecords | null;
}

/** The digits of the fast records' solutions, made once per batch (kept between batches: grow-only). */
let fastDigits: Uint8Array = new Uint8Array(0);

/** Positions in {@link STATUSES}, for the tally of fast records. */
const SOLVED = STATUSES.indexOf("solved");
const UNSOLVABLE = STATUSES.indexOf("unsolvable");
const MULTIPLE = STATUSES.indexOf("multiple");
const TIMEOUT = STATUSES.indexOf("timeout");

/** The status of a fast record (a position in STATUSES): {@link statusOf} without the string. */
function fastStatus(found: number, timedOut: boolean): number {
  return timedOut ? TIMEOUT : found === 0 ? UNSOLVABLE : found === 1 ? SOLVED : MULTIPLE;
}

/**
 * A batch's output as bytes, with its tally and first error messages. A fast record is the
 * kernel's bytes when it wrote them, else the format writer's from its cell bytes and solution
 * digits (no string made); every other record is the writer's, from its text and SolveRecord.
 */
class OutcomeWriter {
  readonly tally = STATUSES.map(() => 0);
  readonly errors: string[] = [];
  private readonly output: ByteOutput;
  private readonly writer: RecordWriter;
  /** The record being written, filled anew for each. */
  private readonly current = outputRecord();

  constructor(
    readonly task: BatchTask,
    count: number,
  ) {
    this.writer = outputFormats[task.output].writer(task.file);
    const room = outputRoom(task, count);
    this.output = new ByteOutput(task.out !== undefined && task.out.length >= room ? task.out : new Uint8Array(room));
  }

  /** Writes a record from its text and its result (every record that is not a fast one, and a fast one the kernel rejected). */
  record(read: ReadRecord, result: SolveRecord): void {
    this.tally[STATUSES.indexOf(result.status)]++;
    if (result.error && this.errors.length < ERRORS_PER_BATCH) this.errors.push(`${result.status}: ${result.error}`);
    this.writer.write(this.output, fillRecord(this.current, read, result));
  }

  /** Writes fast records `k` to `k + n - 1`, at positions `i` on of the batch: the kernel's bytes, a run at a time, where it wrote them; else each through the format's writer. */
  fastRun(fast: FastResults, i: number, k: number, n: number): void {
    if (fast.kernel === null) {
      for (let j = 0; j < n; j++) this.fast(fast, i + j, k + j);
      return;
    }
    const { counts, nodes } = fast.result;
    const { bytes, ends } = fast.kernel;
    let from = k === 0 ? 0 : ends[k - 1]; // the kernel's bytes not yet copied
    const copy = (to: number) => {
      this.output.room(to - from);
      this.output.copy(bytes, from, to - from);
    };
    for (let j = 0; j < n; j++) {
      const found = counts[k + j];
      if (found >= 0) {
        this.tally[fastStatus(found, nodes[k + j] < 0)]++;
        continue;
      }
      copy(ends[k + j]); // the records before it (a rejected one has no bytes)
      from = ends[k + j];
      this.fast(fast, i + j, k + j);
    }
    copy(ends[k + n - 1]);
  }

  /** Writes fast record `k`, at position `i` of the batch. */
  fast(fast: FastResults, i: number, k: number): void {
    const { result, digits, reportsGuesses } = fast;
    const task = this.task;
    const found = result.counts[k];
    if (found < 0) {
      const read = readRecord(task, i, fastText(task, k), null);
      const parsed = parseRecord(read);
      return this.record(read, invalidRecord(found === REPEATED_CLUE && parsed.error ? parsed.error : REJECTED));
    }
    const status = fastStatus(found, result.nodes[k] < 0);
    this.tally[status]++;
    const record = this.current;
    record.index = task.firstIndex + i * (task.indexStep ?? 1);
    record.line = task.lines[i];
    record.puzzle = null;
    record.puzzleBytes = task.fastBytes;
    record.puzzleAt = k * CELLS;
    record.status = STATUSES[status];
    record.count = found;
    record.solution = null;
    record.solutionBytes = found > 0 ? digits : null;
    record.solutionAt = k * CELLS;
    record.guesses = reportsGuesses ? result.guesses[k] : null;
    record.error = null;
    this.writer.write(this.output, record);
  }

  outcome(): BatchOutcome {
    return { bytes: this.output.written(), tally: this.tally, errors: this.errors };
  }
}

/** A batch the solver failed on twice: every record, in order, with status `error` naming its file, line and the reason. */
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
