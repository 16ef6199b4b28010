/**
 * The solving side of batching, on whichever thread solves: {@link runTask} turns a
 * {@link BatchTask} into its output bytes on the thread's engines (engines.ts), or sends a canon
 * batch to canon-task.ts; {@link failedBatch} writes a batch that could not be solved.
 */
import {
  type BatchResult,
  type RecordsRequest,
  type SolveRecord,
  REJECTED,
  STATUSES,
  SolutionWriter,
  grown,
  invalidRecord,
  solveGroup,
  solvePuzzles,
} from "../solvers/solver.js";
import { type ReadRecord, parseRecord, placeMessage } from "../formats/record.js";
import { excerpt } from "../model/excerpt.js";
import { type Puzzle, DIGITS } from "../model/puzzle.js";
import { CELLS, SHAPE_9, shapeOfSide } from "../model/shape.js";
import { type KernelFormat, outputFormats } from "../formats/output/format.js";
import type { WasmModule } from "../kernel/kernel-source.js";
import { GIVEN_FIELDS } from "../kernel/wasm.js";
import { type BatchOutcome, type BatchTask, ERRORS_PER_BATCH, fastText, readRecord, taskBuffers } from "./batch.js";
import { type BatchEngines, type RecordsWriter, recordsWriter } from "./engines.js";
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

/** Does a batch's work on `engines`: its solutions, or its minlex forms for a canon batch; a promise when an engine must load first. */
export function runTask(engines: BatchEngines, task: BatchTask): BatchOutcome | Promise<BatchOutcome> {
  if (task.canon) return canonTask(engines, task);
  const texts = readTexts(task);
  const loading = texts.puzzles.length > 0 ? engines.loadMissing?.(new Set(texts.puzzles.map((puzzle) => puzzle.shape.size))) : null;
  if (loading) return loading.then(() => solveWithTexts(engines, task, texts));
  return solveWithTexts(engines, task, texts);
}

/** The text records of a batch: the unreadable ones' records, and the others as puzzles to solve. */
interface TextRecords {
  /** Per text record: its record when it could not be read (the others get theirs once solved). */
  records: SolveRecord[];
  puzzles: Puzzle[];
  /** Per puzzle: its position among the text records. */
  at: number[];
  /** Milliseconds the reading took (a part of the batch's solving time, BatchOutcome.solveMs). */
  readMs: number;
}

/** Reads the text records of `task` (parseRecord gives the unreadable ones their error). */
function readTexts(task: BatchTask): TextRecords {
  const began = performance.now();
  const alphabet = task.alphabet ?? undefined;
  const readErrors = task.readErrors.length === 0 ? null : new Map(task.readErrors);
  const texts: TextRecords = { records: new Array<SolveRecord>(task.texts.length), puzzles: [], at: [], readMs: 0 };
  task.texts.forEach((text, t) => {
    const parsed = parseRecord(readRecord(task, task.textAt[t], text, readErrors?.get(task.textAt[t]) ?? null), alphabet);
    if (parsed.grid === null) {
      texts.records[t] = invalidRecord(parsed.error!);
      return;
    }
    texts.puzzles.push({ shape: shapeOfSide(parsed.box * parsed.box)!, alphabet: parsed.alphabet, grid: parsed.grid });
    texts.at.push(t);
  });
  texts.readMs = performance.now() - began;
  return texts;
}

/** Solves one batch (the fast records in one {@link solveGroup} call, the text records one call per size and alphabet) into output bytes. */
function solveWithTexts(engines: BatchEngines, task: BatchTask, texts: TextRecords): BatchOutcome {
  const began = performance.now() - texts.readMs;
  const count = task.lines.length;
  // The other records first: their results become records now, before the fast group's call reuses the 9×9 engine's memory.
  const textRecords = texts.records;
  const solved = solvePuzzles(engines, texts.puzzles, task.limit, task.budget);
  texts.at.forEach((t, k) => (textRecords[t] = solved[k]));

  const fastCount = count - task.texts.length;
  const out = new OutcomeWriter(task, count, engines.writer);
  let fast: FastResults | null = null;
  if (fastCount > 0) {
    const entry = engines.get(SHAPE_9.size)!;
    const result = solveGroup(entry.engine, CELLS, fastCount, { text: task.fastBytes }, task.limit, task.budget);
    const inWriter = entry.engine === engines.writer;
    fast = { result, count: fastCount, inWriter, reportsGuesses: entry.reportsGuesses, loaded: false };
  }
  for (let i = 0, t = 0, k = 0; i < count; ) {
    if (t < task.textAt.length && task.textAt[t] === i) {
      out.record(i, readRecord(task, i, task.texts[t], null), textRecords[t]);
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
  return { ...out.outcome(fast), spent: taskBuffers(task), solveMs: performance.now() - began };
}

/** The results of a batch's fast records (views valid until the 9×9 engine's next call). */
interface FastResults {
  result: BatchResult;
  count: number;
  /** True when the records' writer solved them (its last run): it reads their results itself. */
  inWriter: boolean;
  reportsGuesses: boolean;
  /** Their solutions are in {@link fastSolutions}, loaded at the first fast record the host words (another engine's). */
  loaded: boolean;
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

/** The text of the fast records' solutions, when the host words them (this thread's, reused by each batch). */
const fastSolutions = new SolutionWriter(DIGITS);

/** The solution of fast record `k` as text (its digits). */
function fastSolution(fast: FastResults, k: number): string {
  if (!fast.loaded) fastSolutions.load(fast.result.solutions, fast.count, CELLS);
  fast.loaded = true;
  return fastSolutions.text(k);
}

/** Text written one piece after another as UTF-8 into a buffer that grows as needed. */
export class ByteOutput {
  /** Bytes written: `bytes[0 .. at)`. */
  at = 0;

  constructor(private buffer: Uint8Array = new Uint8Array(256)) {}

  /** The bytes written so far (a view). */
  written(): Uint8Array {
    return this.buffer.subarray(0, this.at);
  }

  /** Text in UTF-8 (the buffer grows as needed). */
  text(text: string): void {
    if (this.at + text.length * 3 > this.buffer.length) this.buffer = grown(this.buffer, this.at + text.length * 3);
    this.at += encoder.encodeInto(text, this.buffer.subarray(this.at)).written;
  }
}

/** Per-thread scratch of the kernel's records (grow-only): each record's source, the given records' fields and their tokens' bytes. */
let sources: Int32Array = new Int32Array(0);
let given: Int32Array = new Int32Array(0);
const arena = new ByteOutput();
const encoder = new TextEncoder();
const NO_TOKEN = -1;

/**
 * A batch's output as the 9×9 kernel writes it ({@link RecordsRequest}), with its tally and first errors, record by record
 * in batch order: fast records from the writer's last run, the others given, their fields worded here.
 */
class OutcomeWriter {
  readonly tally = STATUSES.map(() => 0);
  readonly errors: string[] = [];
  private readonly format: KernelFormat;
  /** The format prints each record's puzzle and line, and a solution whatever the count (jsonl, csv); line and grid print a solution only when it is the one. */
  private readonly numbered: boolean;
  /** True once a record is not fast puzzle k at position k: {@link sources} says where each comes from. */
  private sourced = false;
  private givens = 0;

  constructor(
    readonly task: BatchTask,
    private readonly count: number,
    private readonly writer: RecordsWriter,
  ) {
    this.format = outputFormats[task.output].kernel;
    this.numbered = task.output === "jsonl" || task.output === "csv";
    arena.at = 0;
  }

  /** Writes the record at position `i`, read as `read` and solved as `result`. */
  record(i: number, read: ReadRecord, result: SolveRecord): void {
    this.tally[STATUSES.indexOf(result.status)]++;
    if (result.error && this.errors.length < ERRORS_PER_BATCH) this.errors.push(`${result.status}: ${result.error}`);
    const format = this.format;
    const solution = result.solution === null ? null : format.solution(result.solution);
    const guesses = result.guesses === null ? null : format.guesses(result.guesses);
    this.given(i, STATUSES.indexOf(result.status), result.count, format.puzzle(read.text), solution, guesses, result.error ? format.error(result.error) : null);
  }

  /** Writes fast record `k`, at position `i` of the batch. */
  fast(fast: FastResults, i: number, k: number): void {
    const { result } = fast;
    const found = result.counts[k];
    if (found < 0) {
      const read = readRecord(this.task, i, fastText(this.task, k), null);
      const parsed = parseRecord(read);
      return this.record(i, read, invalidRecord(found === REPEATED_CLUE && parsed.error ? parsed.error : REJECTED));
    }
    const status = fastStatus(found, result.nodes[k] < 0);
    this.tally[status]++;
    if (fast.inWriter) {
      if (this.sourced) sources[i] = k;
      return;
    }
    // Another engine solved it: its fields are given.
    const format = this.format;
    const puzzle = this.numbered ? format.puzzle(fastText(this.task, k)) : null;
    const solution = found > 0 && (this.numbered || status === SOLVED) ? format.solution(fastSolution(fast, k)) : null;
    const guesses = fast.reportsGuesses ? format.guesses(result.guesses[k]) : null;
    this.given(i, status, found, puzzle, solution, guesses, null);
  }

  /** Writes fast records `k` to `k + n - 1`, at positions `i` to `i + n - 1`: while every record so far is fast puzzle k at position k, only their tally. */
  fastRun(fast: FastResults, i: number, k: number, n: number): void {
    let j = 0;
    if (!this.sourced && fast.inWriter) {
      const { counts, nodes } = fast.result;
      for (; j < n && counts[k + j] >= 0; j++) this.tally[fastStatus(counts[k + j], nodes[k + j] < 0)]++;
    }
    for (; j < n; j++) this.fast(fast, i + j, k + j); // a rejected puzzle, and every record after it, one at a time
  }

  /** Record `i` as given record g, its tokens appended to the arena. */
  private given(i: number, status: number, count: number, puzzle: string | null, solution: string | null, guesses: string | null, error: string | null): void {
    if (!this.sourced) {
      // Every record so far was fast puzzle k at position k.
      if (sources.length < this.count) sources = new Int32Array(Math.max(this.count, 64) * 2);
      for (let j = 0; j < i; j++) sources[j] = j;
      this.sourced = true;
    }
    const g = this.givens++;
    sources[i] = -1 - g;
    if (given.length < (g + 1) * GIVEN_FIELDS) given = grown(given, Math.max(64, (g + 1) * GIVEN_FIELDS));
    const row = g * GIVEN_FIELDS;
    given[row] = status;
    given[row + 1] = count;
    token(row + 2, puzzle);
    token(row + 4, solution);
    token(row + 6, guesses);
    token(row + 8, error);
  }

  outcome(fast: FastResults | null): Omit<BatchOutcome, "spent" | "solveMs"> {
    const task = this.task;
    const request: RecordsRequest = {
      format: task.output,
      count: this.count,
      fast: fast?.inWriter ? fast.count : 0,
      texts: this.numbered ? task.fastBytes : null,
      lines: this.numbered ? task.lines : null,
      sources: this.sourced ? sources : null,
      given,
      givens: this.givens,
      arena: arena.written(),
      firstIndex: task.firstIndex,
      step: task.indexStep ?? 1,
      piece: encoder.encode(this.format.piece(task.file)),
      guesses: fast?.reportsGuesses ?? false,
    };
    const written = this.writer.writeRecords(request);
    const room = task.out;
    const bytes = room !== undefined && room.length >= written.length ? room.subarray(0, written.length) : new Uint8Array(written.length);
    bytes.set(written);
    return { bytes, tally: this.tally, errors: this.errors };
  }
}

/** Sets the token at `field` of {@link given} (offset, length) to `text`'s UTF-8 bytes, appended to the arena; none for null. */
function token(field: number, text: string | null): void {
  if (text === null) {
    given[field] = NO_TOKEN;
    given[field + 1] = 0;
    return;
  }
  const at = arena.at;
  arena.text(text);
  given[field] = at;
  given[field + 1] = arena.at - at;
}

/** A kernel to write a failed batch's records where no engines are at hand (the main thread of a worker pool): made at the first. */
let spareWriter: Promise<RecordsWriter> | null = null;

/** A batch the solver failed on twice: every record, in order, with status `error` naming its file, line and the reason. */
export async function failedBatch(task: BatchTask, failure: unknown): Promise<BatchOutcome> {
  const reason = failure instanceof Error ? failure.message : String(failure);
  const count = task.lines.length;
  const out = new OutcomeWriter(task, count, await (spareWriter ??= recordsWriter()));
  for (let i = 0, t = 0, k = 0; i < count; i++) {
    const isText = t < task.textAt.length && task.textAt[t] === i;
    const text = isText ? task.texts[t++] : fastText(task, k++);
    const message = placeMessage(task.file, task.lines[i], `the solver failed on this record's batch (twice): ${excerpt(reason, 200)}`);
    out.record(i, readRecord(task, i, text, null), { status: "error", count: 0, solution: null, guesses: null, error: message });
  }
  return out.outcome(null);
}
