/**
 * Batches: the unit of work that crosses to a worker thread, and what comes back, in bytes.
 *
 *   main thread                                    worker (or the main thread with --threads 0)
 *   BatchBuilder ── BatchTask ───────────────────► solveTask(engines, task)
 *     cells    81 bytes per 9×9 digit line           fast records: cells → kernel memory → output bytes
 *     lines    Int32Array                            other records: parseRecord, grouped by size and alphabet
 *     textAt, texts   the other records (rare)       one solveGroup call per group (solver.ts)
 *     readErrors, alphabet, budget                   each record in the --out format, in order
 *     (buffers transferred, not copied)
 *                ◄─────────────────── BatchOutcome ─ bytes (the batch's output), tally, errors
 *
 * A fast record (reader.ts: a line of 81 cell bytes) never becomes a string or an object: its
 * bytes go from the input chunk to `cells`, to the kernel's memory, and its solution from the
 * kernel's memory to the output bytes ({@link FastRecords}). A batch holds the records of one
 * file, consecutive in the run (or in its shard), so `firstIndex + i × indexStep` is record i's index.
 */
import { type SizeEngine, type SolveRecord, REJECTED, STATUSES, SolutionWriter, batchRecords, invalidRecord, solveGroup, solvesBatches, statusOf } from "../solver.js";
import { type ReadRecord, parseRecord, placeMessage } from "../formats/record.js";
import { excerpt } from "../excerpt.js";
import { type Alphabet, DIGITS } from "../puzzle.js";
import { type Shape, CELLS, SHAPE_9, shapeOfSide } from "../shape.js";
import { type OutputFormatName, outputFormats } from "../formats/output/index.js";
import { csvField } from "../formats/output/csv.js";
import { solvers, solversBySize } from "../registry.js";
import type { BatchResult } from "../solver.js";
import { type BufferPool, batchBuffers } from "./buffers.js";

/** The records of one batch, as columns. */
export interface BatchTask {
  file: string;
  /** Run-wide 0-based index of the first record. */
  firstIndex: number;
  /** How far apart the indexes of consecutive records are (N with `--shard K/N`). @default 1 */
  indexStep?: number;
  /** Each record's 1-based start line in its file; its length is the batch's record count. */
  lines: Int32Array;
  /** The 81 cell bytes, as read, of each fast record (a 9×9 line, see reader.ts), in order. */
  cells: Uint8Array;
  /** Positions in the batch of the other records, ascending; every other position is a fast record. */
  textAt: Int32Array;
  /** The texts of the other records, in the order of `textAt`. */
  texts: string[];
  /** Records the reader could not read: [position in the batch, message]. */
  readErrors: [number, string][];
  limit: number;
  output: OutputFormatName;
  /** The `--alphabet` (symbols of the grids of its size); null or absent for none. */
  alphabet?: Alphabet | null;
  /**
   * Search nodes per puzzle (`--budget`; Infinity for none); a puzzle over it gets status `timeout`.
   * @default see budgetFor in solver.ts: none for 9×9, LARGE_GRID_BUDGET for the other sizes
   */
  budget?: number;
  /** Room for the batch's output ({@link outputRoom} bytes), written into and handed back (buffers.ts); absent: the solver makes its own. */
  out?: Uint8Array;
}

/** The output bytes a batch of `count` records usually fits in (a record that does not fit grows the buffer). */
export function outputRoom(task: Pick<BatchTask, "output" | "file">, count: number): number {
  return Math.max(64, count * (task.output === "line" ? CELLS + 1 : 2 * CELLS + 160 + 3 * task.file.length));
}

/** The distinct buffers of `pieces`, views or buffers (a buffer may appear only once in a transfer list). */
function buffersOf(pieces: readonly (ArrayBufferView | ArrayBuffer | undefined)[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const piece of pieces) {
    if (piece === undefined) continue;
    const buffer = (ArrayBuffer.isView(piece) ? piece.buffer : piece) as ArrayBuffer;
    if (!buffers.includes(buffer)) buffers.push(buffer);
  }
  return buffers;
}

/** The buffers of a task, to transfer to a worker. */
export function taskBuffers(task: BatchTask): ArrayBuffer[] {
  return buffersOf([task.lines, task.cells, task.textAt, task.out]);
}

/** The buffers of an outcome and of the task it came from, to hand back (transfer from a worker, then {@link giveBack}). */
export function outcomeBuffers(outcome: BatchOutcome): ArrayBuffer[] {
  return buffersOf([outcome.bytes, ...(outcome.spent ?? [])]);
}

/** Gives the buffers of a written outcome, and of its task, back to this thread's pool. */
export function giveBack(outcome: BatchOutcome): void {
  for (const buffer of outcomeBuffers(outcome)) batchBuffers.give(buffer);
}

/** Gives a task's buffers back to this thread's pool (a copy kept for a retry that was not needed). */
export function giveBackTask(task: BatchTask): void {
  for (const buffer of taskBuffers(task)) batchBuffers.give(buffer);
}

/** `source`'s elements in a typed array over a buffer from `pool`, or a copy of their own without one. */
function copied<T extends Int32Array | Uint8Array>(source: T, pool: BufferPool | undefined): T {
  if (pool === undefined) return source.slice() as T;
  const Kind = source.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => T;
  const copy = new Kind(pool.take(source.byteLength), 0, source.length);
  copy.set(source);
  return copy;
}

/** Output room for `task` from `pool` (none without a pool). */
function pooledRoom(task: BatchTask, count: number, pool: BufferPool | undefined): Uint8Array | undefined {
  if (pool === undefined) return undefined;
  const bytes = outputRoom(task, count);
  return new Uint8Array(pool.take(bytes), 0, bytes);
}

/**
 * A copy of `task` with buffers of its own (a task's buffers go with it to the worker), from
 * `pool` when given; without output room (a retry, its only use, makes its own).
 */
export function copyTask(task: BatchTask, pool?: BufferPool): BatchTask {
  return {
    ...task,
    lines: copied(task.lines, pool),
    cells: copied(task.cells, pool),
    textAt: task.textAt.slice(),
    texts: task.texts.slice(),
    readErrors: task.readErrors.slice(),
    out: undefined,
  };
}

/** Records `start` to `end` of `task` as a task of their own, with buffers of its own (from `pool` when given). */
export function sliceTask(task: BatchTask, start: number, end: number, pool?: BufferPool): BatchTask {
  let first = 0; // the first of textAt at or after `start`
  while (first < task.textAt.length && task.textAt[first] < start) first++;
  let last = first;
  while (last < task.textAt.length && task.textAt[last] < end) last++;
  const fastStart = start - first; // fast records before `start`
  const fastEnd = end - last;
  return {
    ...task,
    firstIndex: task.firstIndex + start * (task.indexStep ?? 1),
    lines: copied(task.lines.subarray(start, end), pool),
    cells: copied(task.cells.subarray(fastStart * CELLS, fastEnd * CELLS), pool),
    textAt: task.textAt.slice(first, last).map((at) => at - start),
    texts: task.texts.slice(first, last),
    readErrors: task.readErrors.filter(([at]) => at >= start && at < end).map(([at, message]) => [at - start, message]),
    out: pooledRoom(task, end - start, pool),
  };
}

/** One outcome of the outcomes of consecutive slices of a batch, in order. */
export function joinOutcomes(parts: readonly BatchOutcome[]): BatchOutcome {
  if (parts.length === 1) return parts[0];
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.bytes.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part.bytes, at);
    at += part.bytes.length;
  }
  const tally = STATUSES.map((_, i) => parts.reduce((sum, part) => sum + (part.tally[i] ?? 0), 0));
  const solveMs = parts.reduce((sum, part) => sum + (part.solveMs ?? 0), 0);
  return { bytes, tally, errors: parts.flatMap((part) => part.errors).slice(0, ERRORS_PER_BATCH), spent: parts.flatMap(outcomeBuffers), solveMs };
}

/** A task of records given as texts (each read as the reader would; none takes the fast path): for tests and benches. */
export function textTask(settings: Omit<BatchTask, "cells" | "textAt" | "texts" | "lines" | "readErrors"> & { texts: readonly string[]; lines?: Int32Array }): BatchTask {
  const { texts, lines, ...rest } = settings;
  return {
    ...rest,
    lines: lines ?? Int32Array.from(texts, (_, i) => i + 1),
    cells: new Uint8Array(0),
    textAt: Int32Array.from(texts, (_, i) => i),
    texts: [...texts],
    readErrors: [],
  };
}

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
 * rows whose optional package is not installed are left out, not loaded).
 */
async function batchSolverIds(): Promise<string[]> {
  const ids: string[] = [];
  for (const info of solvers) if (!info.unavailable && solvesBatches(await info.load(info.sizes[0]))) ids.push(info.id);
  return ids;
}

/** What a worker sends back for one batch. */
export interface BatchOutcome {
  /** The batch's output, one output record per input record, in order, as UTF-8 bytes. */
  bytes: Uint8Array;
  /** Records per status, in {@link STATUSES} order. */
  tally: number[];
  /** The first few error messages of the batch (for the summary on stderr). */
  errors: string[];
  /** The task's buffers, handed back with the outcome to be used again once `bytes` are written (see buffers.ts). */
  spent?: ArrayBuffer[];
  /** Milliseconds the batch took to solve, on its thread (batches are sized by it, see pipeline.ts). */
  solveMs?: number;
}

/** Error messages a batch reports back at most. */
const ERRORS_PER_BATCH = 10;
/** The kernels' count for a clue repeated in a row, column or box. */
const REPEATED_CLUE = -2;

/** Collects records into batches of at most `size` (see {@link BatchBuilder.capacity}); a batch never spans two files. */
export class BatchBuilder {
  private file = "";
  private firstIndex = 0;
  private indexStep = 1;
  /** Records held (not yet in a sealed batch). */
  private count = 0;
  private lines = new Int32Array(64);
  private cells = new Uint8Array(64 * CELLS);
  private fastCount = 0;
  private textAt: number[] = [];
  private texts: string[] = [];
  private readErrors: [number, string][] = [];
  private ready: BatchTask[] = [];
  /** When the oldest record not yet in a sealed batch was added (performance.now()), or null when none is. */
  heldSince: number | null = null;

  constructor(
    private size: number,
    private readonly limit: number,
    private readonly output: OutputFormatName,
    private readonly alphabet: Alphabet | null = null,
    private readonly budget?: number,
  ) {}

  /** The next record added has index `first`, each one after it `step` more (a shard, a resumed run); call before any is added. */
  numberFrom(first: number, step: number): void {
    this.firstIndex = first;
    this.indexStep = step;
  }

  /** Records added from now on come from `file`; the batch of the previous file is sealed. */
  startFile(file: string): void {
    this.seal();
    this.file = file;
  }

  /** Adds one record read as text (an {@link EmitRecord} callback). */
  add(line: number, text: string, error: string | null): void {
    if (error !== null) this.readErrors.push([this.count, error]);
    this.textAt.push(this.count);
    this.texts.push(text);
    this.addLine(line);
  }

  /** Adds `count` fast records, of the lines from `line` on: their 81 cell bytes each, one after another from `start` of `bytes` (an {@link EmitCells} callback). */
  addCells(line: number, bytes: Uint8Array, start: number, count: number): void {
    while (count > 0) {
      const n = Math.min(count, Math.max(1, this.size - this.count)); // up to where the batch seals
      const at = this.fastCount * CELLS;
      if (at + n * CELLS > this.cells.length) this.cells = grown(this.cells, at + n * CELLS);
      this.cells.set(bytes.subarray(start, start + n * CELLS), at);
      this.fastCount += n;
      if (this.count === 0) this.heldSince = performance.now();
      if (this.count + n > this.lines.length) this.lines = grown(this.lines, this.count + n);
      for (let k = 0; k < n; k++) this.lines[this.count++] = line + k;
      if (this.count >= this.size) this.seal();
      line += n;
      start += n * CELLS;
      count -= n;
    }
  }

  private addLine(line: number): void {
    if (this.count === 0) this.heldSince = performance.now();
    if (this.count === this.lines.length) this.lines = grown(this.lines, this.count + 1);
    this.lines[this.count++] = line;
    if (this.count >= this.size) this.seal();
  }

  /** Records per batch from now on; a batch in progress that reaches it is sealed. */
  set capacity(size: number) {
    this.size = size;
    if (this.count >= size) this.seal();
  }

  /** Seals the records in progress, if any, as up to `parts` batches of near-equal size (one per idle worker); they become ready. */
  seal(parts = 1): void {
    const count = this.count;
    if (count === 0) return;
    const whole: BatchTask = {
      file: this.file,
      firstIndex: this.firstIndex,
      indexStep: this.indexStep,
      lines: this.lines.subarray(0, count),
      cells: this.cells.subarray(0, this.fastCount * CELLS),
      textAt: Int32Array.from(this.textAt),
      texts: this.texts,
      readErrors: this.readErrors,
      limit: this.limit,
      output: this.output,
      alphabet: this.alphabet,
      budget: this.budget,
    };
    const pieces = Math.max(1, Math.min(parts, count));
    for (let piece = 0, start = 0; piece < pieces; piece++) {
      const end = Math.round(((piece + 1) * count) / pieces);
      this.ready.push(sliceTask(whole, start, end, batchBuffers));
      start = end;
    }
    this.firstIndex += count * this.indexStep;
    this.heldSince = null;
    this.count = 0;
    this.fastCount = 0;
    this.textAt = [];
    this.texts = [];
    this.readErrors = [];
  }

  /** The sealed batches not yet taken, oldest first. */
  takeReady(): BatchTask[] {
    const ready = this.ready;
    this.ready = [];
    return ready;
  }
}

/** A copy of `array` with room for at least `least` elements (twice its length, or more). */
function grown<T extends Int32Array | Uint8Array>(array: T, least: number): T {
  const copy = new (array.constructor as new (length: number) => T)(Math.max(least, array.length * 2));
  copy.set(array);
  return copy;
}

/** The readable records of one size and alphabet: their positions in the batch and their packed grids. */
class Group {
  readonly positions: number[] = [];
  readonly grids: Uint8Array[] = [];

  constructor(
    readonly shape: Shape,
    readonly alphabet: Alphabet,
  ) {}
}

const writers = new Map<Alphabet, SolutionWriter>();

/** The solution writer of `alphabet`, made once per thread. */
function writerOf(alphabet: Alphabet): SolutionWriter {
  let writer = writers.get(alphabet);
  if (!writer) writers.set(alphabet, (writer = new SolutionWriter(alphabet)));
  return writer;
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
      const written = kernelLines(entry.engine, task, result);
      if (written) return { ...written, spent: taskBuffers(task), solveMs: performance.now() - began };
    }
    fast = new FastRecords(task, result, entry.reportsGuesses);
  }

  const out = new OutcomeWriter(task, count);
  let t = 0;
  let k = 0;
  for (let i = 0; i < count; i++) {
    if (t < task.textAt.length && task.textAt[t] === i) {
      out.record(readRecord(task, i, task.texts[t], null), textRecords[t]);
      t++;
    } else {
      fast!.write(out, i, k++);
    }
  }
  return { ...out.outcome(), spent: taskBuffers(task), solveMs: performance.now() - began };
}

/** An engine that writes `line` output itself (the 9×9 kernel). */
interface LineWriter {
  lineOutput(count: number): Uint8Array | null;
}

/**
 * The outcome of a batch of fast records only, in `line` output, as the kernel writes it (see
 * WasmKernel.lineOutput); null when the engine does not write lines or a puzzle was rejected.
 */
function kernelLines(engine: unknown, task: BatchTask, result: BatchResult): BatchOutcome | null {
  if (typeof (engine as Partial<LineWriter>).lineOutput !== "function") return null;
  const count = task.lines.length;
  const { counts, nodes } = result;
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
  const lines = (engine as LineWriter).lineOutput(count);
  if (lines === null) return null;
  if (task.out === undefined || task.out.length < lines.length) return { bytes: lines.slice(), tally, errors: [] };
  task.out.set(lines);
  return { bytes: task.out.subarray(0, lines.length), tally, errors: [] };
}

const encoder = new TextEncoder();

/** Bytes of ASCII text. */
function ascii(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The status words and fixed pieces of the byte formats, as bytes. */
const STATUS_BYTES = Object.fromEntries(STATUSES.map((status) => [status, ascii(status)])) as Record<string, Uint8Array>;
const NULL_BYTES = ascii("null");

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
    this.bytes.set(piece, this.at);
    this.at += piece.length;
  }

  /** A whole number from 0 in decimal (room made first). */
  int(value: number): void {
    if (value < 0) {
      this.bytes[this.at++] = 45; // "-"
      value = -value;
    }
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    for (let i = this.at + digits - 1; i >= this.at; i--) {
      this.bytes[i] = 48 + (value % 10);
      value = Math.floor(value / 10);
    }
    this.at += digits;
  }

  outcome(): BatchOutcome {
    return { bytes: this.bytes.subarray(0, this.at), tally: this.tally, errors: this.errors };
  }
}

/**
 * The fast records of a batch, solved: each written from the kernel's result views (valid until
 * the 9×9 engine's next call) and the cell bytes, byte for byte what the text writer of its
 * format would give (`line`, `jsonl`, `csv`); `grid` output and rejected puzzles go through the text writer.
 */
class FastRecords {
  private readonly fileJson: Uint8Array;
  private readonly fileCsv: Uint8Array;
  private readonly writer: SolutionWriter;

  constructor(
    private readonly task: BatchTask,
    private readonly result: BatchResult,
    private readonly reportsGuesses: boolean,
  ) {
    this.fileJson = ascii(JSON.stringify(task.file));
    this.fileCsv = ascii(csvField(task.file));
    this.writer = writerOf(DIGITS);
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
    const status = statusOf(found, nodes[k] < 0);
    out.count(status, undefined);
    if (output === "line") {
      out.room(CELLS + 1);
      if (status === "solved") this.solution(out, k);
      else out.put(STATUS_BYTES[status]);
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

  /** Solution `k` as 81 digits (room made first). */
  private solution(out: OutcomeWriter, k: number): void {
    const solutions = this.result.solutions;
    const bytes = out.bytes;
    let at = out.at;
    for (let i = k * CELLS, end = i + CELLS; i < end; i++) bytes[at++] = 48 + solutions[i];
    out.at = at;
  }

  /** Cells of fast record `k` as read (room made first). */
  private puzzle(out: OutcomeWriter, k: number): void {
    out.put(this.task.cells.subarray(k * CELLS, (k + 1) * CELLS));
  }

  /** The jsonl line: JSON.stringify's bytes for {index, file, line, puzzle, status, solution, count, guesses, error}. */
  private jsonl(out: OutcomeWriter, i: number, k: number, status: SolveRecord["status"], found: number): void {
    out.room(2 * CELLS + 160 + this.fileJson.length);
    out.put(JSONL.index);
    out.int(this.task.firstIndex + i * (this.task.indexStep ?? 1));
    out.put(JSONL.file);
    out.put(this.fileJson);
    out.put(JSONL.line);
    out.int(this.task.lines[i]);
    out.put(JSONL.puzzle);
    this.puzzle(out, k);
    out.put(JSONL.status);
    out.put(STATUS_BYTES[status]);
    if (found > 0) {
      out.put(JSONL.solution);
      this.solution(out, k);
      out.put(JSONL.count);
    } else out.put(JSONL.noSolution);
    out.int(found);
    out.put(JSONL.guesses);
    if (this.reportsGuesses) out.int(this.result.guesses[k]);
    else out.put(NULL_BYTES);
    out.put(JSONL.end);
  }

  /** The csv row: index,file,line,puzzle,status,solution,count,guesses,error (csvField of each). */
  private csv(out: OutcomeWriter, i: number, k: number, status: SolveRecord["status"], found: number): void {
    out.room(2 * CELLS + 64 + this.fileCsv.length);
    out.int(this.task.firstIndex + i * (this.task.indexStep ?? 1));
    out.bytes[out.at++] = 44;
    out.put(this.fileCsv);
    out.bytes[out.at++] = 44;
    out.int(this.task.lines[i]);
    out.bytes[out.at++] = 44;
    // csvField: a text starting with `-` (an empty mark) could be read as a formula: quoted, behind an apostrophe.
    const defused = this.task.cells[k * CELLS] === 45;
    if (defused) out.put(CSV_DEFUSE);
    this.puzzle(out, k);
    if (defused) out.bytes[out.at++] = 34;
    out.bytes[out.at++] = 44;
    out.put(STATUS_BYTES[status]);
    out.bytes[out.at++] = 44;
    if (found > 0) this.solution(out, k);
    out.bytes[out.at++] = 44;
    out.int(found);
    out.bytes[out.at++] = 44;
    if (this.reportsGuesses) out.int(this.result.guesses[k]);
    out.put(CSV_END);
  }
}

/** The fixed pieces of a jsonl record, in its key order. */
const JSONL = {
  index: ascii('{"index":'),
  file: ascii(',"file":'),
  line: ascii(',"line":'),
  puzzle: ascii(',"puzzle":"'),
  status: ascii('","status":"'),
  solution: ascii('","solution":"'),
  count: ascii('","count":'),
  noSolution: ascii('","solution":null,"count":'),
  guesses: ascii(',"guesses":'),
  end: ascii(',"error":null}\n'),
};
const CSV_DEFUSE = ascii(`"'`);
const CSV_END = ascii(",\n");

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
