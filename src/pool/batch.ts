/**
 * Batches: the unit of work that crosses to a worker thread, how the main thread fills one, and
 * the reused buffers they travel in.
 *
 *   main thread                                    worker (or the main thread, beside them or alone)
 *   BatchBuilder ── BatchTask ────────────────────► runTask(engines, task) (solve-task.ts)
 *     fastBytes  81 bytes per 9×9 digit line         fast records: bytes → kernel memory → output bytes
 *     lines, textAt, texts, readErrors, out          other records: parsed, one solveGroup call per size
 *                ◄─────────────────── BatchOutcome ─ bytes (the batch's output), tally, errors
 *   OrderedOutput (pipeline.ts) writes the bytes, then {@link giveBack}: the buffers serve a later batch
 *
 * A fast record never becomes a string or an object. A batch holds consecutive records of one
 * file, so `firstIndex + i × indexStep` is record i's index.
 */
import type { Alphabet } from "../model/puzzle.js";
import { CELLS } from "../model/shape.js";
import type { OutputFormatName } from "../formats/output/format.js";
import type { ReadRecord } from "../formats/record.js";
import { STATUSES, isSharedMemory } from "../solvers/solver.js";

// ── buffers ─────────────────────────────────────────────────────────────────────────────────

/*
 * Batch buffers are reused, one pool per thread: a buffer in flight lives long enough to reach V8's old generation, where
 * only a full collection frees it. Sizes are powers of two; a buffer given back detached (it went to a worker) is dropped.
 */

const MIN_BYTES = 1 << 10;

/** Batches a worker holds at once (a CLI worker or a library pool's): the one it solves and the next, so it starts the next without waiting for the main thread. */
export const TASKS_PER_WORKER = 2;

/** Buffers kept per size, at most (more than a run has in use at once; the pool holds no more than that). */
const KEPT_PER_SIZE = 64;

/** Reused ArrayBuffers and SharedArrayBuffers, by kind and power-of-two size. */
export class BufferPool {
  /** The free buffers by size: ArrayBuffers under their size, SharedArrayBuffers under minus theirs. */
  private readonly free = new Map<number, ArrayBufferLike[]>();
  /** Buffers made so far (not taken from the pool): bounded by the batches in flight, not by the input. */
  made = 0;

  /** An ArrayBuffer of at least `bytes` bytes (a power of two, from {@link MIN_BYTES}), not in use. */
  take(bytes: number): ArrayBuffer;
  /** With `shared`, a SharedArrayBuffer (see {@link BatchTask.fastBytes}). */
  take(bytes: number, shared: boolean): ArrayBufferLike;
  take(bytes: number, shared = false): ArrayBufferLike {
    const size = bytes <= MIN_BYTES ? MIN_BYTES : 2 ** Math.ceil(Math.log2(bytes));
    const reused = this.free.get(shared ? -size : size)?.pop();
    if (reused !== undefined) return reused;
    this.made++;
    return shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
  }

  /** Takes `buffer` back for reuse; the caller must not touch it again. */
  give(buffer: ArrayBufferLike): void {
    const size = buffer.byteLength;
    const shared = isSharedMemory(buffer);
    if ((!shared && !(buffer instanceof ArrayBuffer)) || size < MIN_BYTES || (size & (size - 1)) !== 0) return; // detached (0), or not ours
    const key = shared ? -size : size;
    let list = this.free.get(key);
    if (!list) this.free.set(key, (list = []));
    if (list.length < KEPT_PER_SIZE && !list.includes(buffer)) list.push(buffer);
  }

  /** Bytes held for reuse (for tests). */
  get heldBytes(): number {
    let bytes = 0;
    for (const [key, list] of this.free) bytes += Math.abs(key) * list.length;
    return bytes;
  }
}

export const batchBuffers = new BufferPool();

// ── tasks and outcomes ──────────────────────────────────────────────────────────────────────

/** What a canon batch (canon-task.ts) writes besides each form. */
export interface CanonRequest {
  /** The number of transformations that map each puzzle onto itself. */
  automorphisms: boolean;
  /** Whether each puzzle is minimal: uniquely solvable, and not once any clue is removed. */
  minimal: boolean;
}

/** The records of one batch, as columns. */
export interface BatchTask {
  file: string;
  /** Run-wide 0-based index of the first record. */
  firstIndex: number;
  /** How far apart the indexes of consecutive records are (N with `--shard K/N`). @default 1 */
  indexStep?: number;
  /** Each record's 1-based start line in its file; its length is the batch's record count. */
  lines: Int32Array;
  /** The 81 cell bytes, as read, of each fast record, in order; shared memory when the batch goes to a worker, so a retry needs no copy. */
  fastBytes: Uint8Array;
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
  /** Search nodes per puzzle (`--budget`; Infinity for none). @default budgetFor in solver.ts */
  budget?: number;
  /** Room for the batch's output ({@link outputRoom} bytes), written into and handed back (above); absent: the solver makes its own. */
  out?: Uint8Array;
  /** Set: the batch's work is `canon` (minlex forms, canon-task.ts), not solving. */
  canon?: CanonRequest;
}

/** The ReadRecord of position `i` of a task, its text given. */
export function readRecord(task: BatchTask, i: number, text: string, error: string | null = null): ReadRecord {
  return { index: task.firstIndex + i * (task.indexStep ?? 1), line: task.lines[i], file: task.file, text, error };
}

const latin1 = new TextDecoder("latin1");

/** The text of fast record `k` of a task: its 81 cell bytes (ASCII). */
export function fastText(task: BatchTask, k: number): string {
  return latin1.decode(task.fastBytes.subarray(k * CELLS, (k + 1) * CELLS));
}

/** The output bytes a batch of `count` records usually fits in (a record that does not fit grows the buffer). */
export function outputRoom(task: Pick<BatchTask, "output" | "file">, count: number): number {
  return Math.max(64, count * (task.output === "line" ? CELLS + 1 : 2 * CELLS + 160 + 3 * task.file.length));
}

/** The distinct buffers of `pieces`, views or buffers (a buffer may appear only once in a transfer list). */
function buffersOf(pieces: readonly (ArrayBufferView | ArrayBufferLike | undefined)[]): ArrayBufferLike[] {
  const buffers: ArrayBufferLike[] = [];
  for (const piece of pieces) {
    if (piece === undefined) continue;
    const buffer = ArrayBuffer.isView(piece) ? piece.buffer : piece;
    if (!buffers.includes(buffer)) buffers.push(buffer);
  }
  return buffers;
}

/** The buffers of a task: its shared fastBytes, and the others, which go with it to a worker ({@link transferable}). */
export function taskBuffers(task: BatchTask): ArrayBufferLike[] {
  return buffersOf([task.lines, task.fastBytes, task.textAt, task.out]);
}

/** The buffers of an outcome and of the task it came from, to hand back (from a worker, then {@link giveBack}). */
export function outcomeBuffers(outcome: BatchOutcome): ArrayBufferLike[] {
  return buffersOf([outcome.bytes, ...(outcome.spent ?? [])]);
}

/** The buffers of `buffers` that are transferred (a transfer list): all but the shared ones, which a message shares. */
export function transferable(buffers: readonly ArrayBufferLike[]): ArrayBuffer[] {
  return buffers.filter((buffer): buffer is ArrayBuffer => !isSharedMemory(buffer));
}

/** Gives the buffers of a written outcome, and of its task, back to this thread's pool. */
export function giveBack(outcome: BatchOutcome): void {
  for (const buffer of outcomeBuffers(outcome)) batchBuffers.give(buffer);
}

/** Gives the buffers of a task's retry copy ({@link copyTask}) back to the pool once the batch is solved, all but its shared fastBytes. */
export function giveBackCopy(copy: BatchTask): void {
  for (const buffer of transferable(taskBuffers(copy))) batchBuffers.give(buffer);
}

/** `source`'s elements in a typed array over a buffer of this thread's pool. */
function copied<T extends Int32Array | Uint8Array>(source: T): T {
  const Kind = (source instanceof Int32Array ? Int32Array : Uint8Array) as unknown as new (buffer: ArrayBuffer, offset: number, length: number) => T;
  const copy = new Kind(batchBuffers.take(source.byteLength), 0, source.length);
  copy.set(source);
  return copy;
}

/** Output room for `count` records of `task`, from this thread's pool. */
function pooledRoom(task: BatchTask, count: number): Uint8Array {
  const bytes = outputRoom(task, count);
  return new Uint8Array(batchBuffers.take(bytes), 0, bytes);
}

/** A copy of `task` with buffers of its own (from this thread's pool), without output room; shared cells are not copied (a worker only reads them). */
export function copyTask(task: BatchTask): BatchTask {
  return {
    ...task,
    lines: copied(task.lines),
    fastBytes: isSharedMemory(task.fastBytes.buffer) ? task.fastBytes : copied(task.fastBytes),
    textAt: task.textAt.slice(),
    texts: task.texts.slice(),
    readErrors: task.readErrors.slice(),
    out: undefined,
  };
}

/** Records `start` to `end` of `task` as a task of their own, with buffers of its own (from this thread's pool). */
export function sliceTask(task: BatchTask, start: number, end: number): BatchTask {
  let first = 0; // the first of textAt at or after `start`
  while (first < task.textAt.length && task.textAt[first] < start) first++;
  let last = first;
  while (last < task.textAt.length && task.textAt[last] < end) last++;
  const fastStart = start - first; // fast records before `start`
  const fastEnd = end - last;
  return {
    ...task,
    firstIndex: task.firstIndex + start * (task.indexStep ?? 1),
    lines: copied(task.lines.subarray(start, end)),
    fastBytes: copied(task.fastBytes.subarray(fastStart * CELLS, fastEnd * CELLS)),
    textAt: task.textAt.slice(first, last).map((at) => at - start),
    texts: task.texts.slice(first, last),
    readErrors: task.readErrors.filter(([at]) => at >= start && at < end).map(([at, message]) => [at - start, message]),
    out: pooledRoom(task, end - start),
  };
}

/** One outcome of the outcomes of consecutive slices of a batch, in order. */
export function joinOutcomes(parts: readonly BatchOutcome[]): BatchOutcome {
  if (parts.length === 1) return parts[0];
  const length = parts.reduce((sum, part) => sum + part.bytes.length, 0);
  const bytes = new Uint8Array(batchBuffers.take(length), 0, length); // given back with the outcome (giveBack)
  let at = 0;
  for (const part of parts) {
    bytes.set(part.bytes, at);
    at += part.bytes.length;
  }
  const tally = STATUSES.map((_, i) => parts.reduce((sum, part) => sum + (part.tally[i] ?? 0), 0));
  const solveMs = parts.reduce((sum, part) => sum + (part.solveMs ?? 0), 0);
  return { bytes, tally, errors: parts.flatMap((part) => part.errors).slice(0, ERRORS_PER_BATCH), spent: parts.flatMap(outcomeBuffers), solveMs };
}

/** A task of records given as texts (each read as the reader would; none takes the fast path): judge mode's batches, tests and benches. */
export function textTask(
  settings: Omit<BatchTask, "fastBytes" | "textAt" | "texts" | "lines" | "readErrors"> & { texts: readonly string[]; lines?: Int32Array },
): BatchTask {
  const { texts, lines, ...rest } = settings;
  return {
    ...rest,
    lines: lines ?? Int32Array.from(texts, (_, i) => i + 1),
    fastBytes: new Uint8Array(0),
    textAt: Int32Array.from(texts, (_, i) => i),
    texts: [...texts],
    readErrors: [],
  };
}

/** What a worker sends back for one batch. */
export interface BatchOutcome {
  /** The batch's output, one output record per input record, in order, as UTF-8 bytes. */
  bytes: Uint8Array;
  /** Records per status, in {@link STATUSES} order. */
  tally: number[];
  /** The first few error messages of the batch (for the summary on stderr). */
  errors: string[];
  /** The task's buffers, handed back with the outcome to be used again once `bytes` are written (see the buffers above). */
  spent?: ArrayBufferLike[];
  /** Milliseconds the batch took to solve, on its thread (batches are sized by it, see pipeline.ts). */
  solveMs?: number;
}

/** Error messages a batch reports back at most. */
export const ERRORS_PER_BATCH = 10;

// ── the builder ─────────────────────────────────────────────────────────────────────────────

/** Cell bytes over a buffer of this thread's pool, at least `length` of them (the whole buffer), shared memory when `shared`. */
const pooledCells = (length: number, shared: boolean): Uint8Array => new Uint8Array(batchBuffers.take(length, shared));
/** Line numbers over a buffer of this thread's pool, at least `length` of them (the whole buffer). */
const pooledLines = (length: number): Int32Array => new Int32Array(batchBuffers.take(4 * length));

/** The text a batch holds at most, in characters of its text records, so batches of long lines stay small. */
export const BATCH_TEXT_CHARS = 1 << 20;

/** A check of the record at `index` of a run, by its file and line (see {@link BatchBuilder.expect}). */
export interface RecordCheck {
  index: number;
  check(file: string, line: number): void;
}

/** Collects the records the reader gives into batches of at most `size`, keeping only the run's share ({@link select}); a batch never spans two files. */
export class BatchBuilder {
  private file = "";
  /** The index of the first record of the batch in progress. */
  private firstIndex = 0;
  private indexStep = 1;
  /** The run's share (see {@link select}): the shard, and the index of the first record taken. */
  private shardIndex = 0;
  private firstTaken = 0;
  /** Records read so far, over all inputs, in and out of the run's share (the index of the next). */
  recordsRead = 0;
  /** Records held (not yet in a sealed batch). */
  private count = 0;
  /** The held records' line numbers and fast records' bytes, in buffers of the pool: a batch sealed whole takes them as they are (no copy). */
  private lines = pooledLines(64);
  private fastBytes: Uint8Array;
  private fastCount = 0;
  private textAt: number[] = [];
  private texts: string[] = [];
  /** Characters of the held text records (see {@link BATCH_TEXT_CHARS}). */
  private textChars = 0;
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
    /** Set: the batches are `canon` work (see BatchTask.canon). */
    private readonly canon?: CanonRequest,
    /** True: the fast records' bytes are in shared memory (for workers: a retry needs no copy, see BatchTask.fastBytes). */
    private readonly sharedCells = false,
  ) {
    this.fastBytes = pooledCells(64 * CELLS, sharedCells);
  }

  /** Takes only the records whose index mod `shards` is `shard`, from the shard's record number `skip` on (`--resume`); call before any record is added. */
  select(shard: number, shards: number, skip = 0): void {
    this.shardIndex = shard;
    this.indexStep = shards;
    this.firstIndex = this.firstTaken = shard + skip * shards;
  }

  /** The record an earlier run wrote last, checked when it is read (`--resume`; see {@link expect}). */
  private expected: RecordCheck | null = null;

  /** Has `check` see the file and line of the record at `check.index` when it is read (it throws when they are not what it expects). */
  expect(check: RecordCheck): void {
    this.expected = check;
  }

  /** Counts the next record read (at `line` of the file); true when it is one the run takes. */
  private take(line: number): boolean {
    const index = this.recordsRead++;
    if (index === this.expected?.index) this.expected.check(this.file, line);
    return index >= this.firstTaken && index % this.indexStep === this.shardIndex;
  }

  /** Records added from now on come from `file`; the batch of the previous file is sealed. */
  startFile(file: string): void {
    this.seal();
    this.file = file;
  }

  /** Adds one record read as text, when the run takes it (an {@link EmitRecord} callback). */
  add(line: number, text: string, error: string | null): void {
    if (!this.take(line)) return;
    if (error !== null) this.readErrors.push([this.count, error]);
    this.textAt.push(this.count);
    this.texts.push(text);
    this.textChars += text.length;
    this.addLine(line); // (seals the batch when it is full)
    if (this.textChars >= BATCH_TEXT_CHARS) this.seal();
  }

  /** Adds the fast records the run takes of `count` lines from `line` on: 81 cell bytes each from `start` of `bytes`. */
  addCells(line: number, bytes: Uint8Array, start: number, count: number): void {
    if (this.indexStep === 1 && this.recordsRead >= this.firstTaken) {
      this.recordsRead += count;
      this.collectCells(line, bytes, start, count);
    } else {
      for (let k = 0; k < count; k++) if (this.take(line + k)) this.collectCells(line + k, bytes, start + k * CELLS, 1);
    }
  }

  /** Adds `count` fast records the run takes (see {@link addCells}). */
  private collectCells(line: number, bytes: Uint8Array, start: number, count: number): void {
    while (count > 0) {
      const n = Math.min(count, Math.max(1, this.size - this.count)); // up to where the batch seals
      const at = this.fastCount * CELLS;
      if (at + n * CELLS > this.fastBytes.length)
        this.fastBytes = this.grown(this.fastBytes, at, at + n * CELLS, (length) => pooledCells(length, this.sharedCells));
      this.fastBytes.set(bytes.subarray(start, start + n * CELLS), at);
      this.fastCount += n;
      if (this.count === 0) this.heldSince = performance.now();
      if (this.count + n > this.lines.length) this.lines = this.grown(this.lines, this.count, this.count + n, pooledLines);
      for (let k = 0; k < n; k++) this.lines[this.count++] = line + k;
      if (this.count >= this.size) this.seal();
      line += n;
      start += n * CELLS;
      count -= n;
    }
  }

  private addLine(line: number): void {
    if (this.count === 0) this.heldSince = performance.now();
    if (this.count === this.lines.length) this.lines = this.grown(this.lines, this.count, this.count + 1, pooledLines);
    this.lines[this.count++] = line;
    if (this.count >= this.size) this.seal();
  }

  /** `held`'s first `used` elements in a buffer of `make`'s with room for `least` (at least twice `held`'s); `held`'s buffer goes back to the pool. */
  private grown<T extends Uint8Array | Int32Array>(held: T, used: number, least: number, make: (length: number) => T): T {
    const bigger = make(Math.max(least, 2 * held.length));
    bigger.set(held.subarray(0, used));
    batchBuffers.give(held.buffer);
    return bigger;
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
      fastBytes: this.fastBytes.subarray(0, this.fastCount * CELLS),
      textAt: Int32Array.from(this.textAt),
      texts: this.texts,
      readErrors: this.readErrors,
      limit: this.limit,
      output: this.output,
      alphabet: this.alphabet,
      budget: this.budget,
      ...(this.canon ? { canon: this.canon } : {}),
    };
    const pieces = Math.max(1, Math.min(parts, count));
    if (pieces === 1) {
      // The batch takes the held buffers (they go to its worker); the next records get others of the same size.
      this.ready.push({ ...whole, out: pooledRoom(whole, count) });
      this.lines = pooledLines(this.lines.length);
      this.fastBytes = pooledCells(this.fastBytes.length, this.sharedCells);
    } else {
      for (let piece = 0, start = 0; piece < pieces; piece++) {
        const end = Math.round(((piece + 1) * count) / pieces);
        this.ready.push(sliceTask(whole, start, end));
        start = end;
      }
    }
    this.firstIndex += count * this.indexStep;
    this.heldSince = null;
    this.count = 0;
    this.fastCount = 0;
    this.textAt = [];
    this.texts = [];
    this.textChars = 0;
    this.readErrors = [];
  }

  /** The sealed batches not yet taken, oldest first. */
  takeReady(): BatchTask[] {
    const ready = this.ready;
    this.ready = [];
    return ready;
  }
}
