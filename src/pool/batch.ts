/**
 * Batches: the unit of work that crosses to a worker thread, and what comes back.
 *
 *   main thread                                   worker (or main thread with --threads 0)
 *   BatchBuilder ── BatchTask ──────────────────► solveBatch(engines, task)
 *     texts  "t0\nt1\n…"   one string per batch      9×9 digits → packed at once (fast path), else parse;
 *     lines  Int32Array    transferred               grouped by size and alphabet, one engine call per group
 *     readErrors [[i, msg]] (rare)                   (the engine of each size: `solve --solver`, registry ids)
 *     alphabet (--alphabet), budget (--budget)       batchRecords, then each record in the --out format
 *                ◄──────────────── BatchOutcome ───  text (the batch's output), tally, errors
 *
 * Strings cross the thread boundary once per batch, never per puzzle. A batch holds the
 * records of one file, consecutive in the run (or in its shard), so `firstIndex + i × indexStep`
 * is record i's index.
 */
import { type SizeEngine, type SolveRecord, REJECTED, STATUSES, SolutionWriter, batchRecords, invalidRecord, solvePacked, solvesBatches } from "../solver.js";
import { type ReadRecord, parseRecord, placeMessage } from "../formats/record.js";
import { EMPTY_MARKS } from "../empty-cells.js";
import { excerpt } from "../excerpt.js";
import { CELLS } from "../puzzle.js";
import { type Alphabet, type Shape, DIGITS } from "../puzzle-general.js";
import { type OutputFormatName, outputFormats } from "../formats/output/index.js";
import { SHAPE_9, readsNineByNineAsDigits, shapeOfSide } from "../sized.js";
import { solvers, solversBySize } from "../registry.js";

/** The records of one batch, as columns. */
export interface BatchTask {
  file: string;
  /** Run-wide 0-based index of the first record. */
  firstIndex: number;
  /** How far apart the indexes of consecutive records are (N with `--shard K/N`). @default 1 */
  indexStep?: number;
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

/** Tally positions, in summary order (the statuses of solver.ts). */
export const TALLY_STATUSES = STATUSES;

/** What a worker sends back for one batch. */
export interface BatchOutcome {
  /** The batch's output text, one output record per input record, in order (the first piece when it is long). */
  text: string;
  /** The rest of the output text, in order, when it is too long for one string (records of millions of characters). */
  more?: string[];
  /** Records per status, in {@link TALLY_STATUSES} order. */
  tally: number[];
  /** The first few error messages of the batch (for the summary on stderr). */
  errors: string[];
}

/** Error messages a batch reports back at most. */
const ERRORS_PER_BATCH = 10;
const ASCII_ZERO = 48;
/** The kernels' count for a clue repeated in a row, column or box. */
const REPEATED_CLUE = -2;

/** Collects records into batches of at most `size` (see {@link BatchBuilder.capacity}); a batch never spans two files. */
export class BatchBuilder {
  private file = "";
  private firstIndex = 0;
  private indexStep = 1;
  private texts: string[] = [];
  private lines: number[] = [];
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

  /** Adds one record (an {@link EmitRecord} callback). */
  add(line: number, text: string, error: string | null): void {
    if (error !== null) this.readErrors.push([this.texts.length, error]);
    if (this.texts.length === 0) this.heldSince = performance.now();
    this.texts.push(text);
    this.lines.push(line);
    if (this.texts.length >= this.size) this.seal();
  }

  /** Records per batch from now on; a batch in progress that reaches it is sealed. */
  set capacity(size: number) {
    this.size = size;
    if (this.texts.length >= size) this.seal();
  }

  /** Records added but not yet in a sealed batch. */
  get held(): number {
    return this.texts.length;
  }

  /** Seals the records in progress, if any, as up to `parts` batches of near-equal size (one per idle worker); they become ready. */
  seal(parts = 1): void {
    const count = this.texts.length;
    if (count === 0) return;
    const pieces = Math.max(1, Math.min(parts, count));
    for (let piece = 0, start = 0; piece < pieces; piece++) {
      const end = Math.round(((piece + 1) * count) / pieces);
      this.ready.push({
        file: this.file,
        firstIndex: this.firstIndex + start * this.indexStep,
        indexStep: this.indexStep,
        texts: this.texts.slice(start, end).join("\n"),
        lines: Int32Array.from(this.lines.slice(start, end)),
        readErrors: this.readErrors.filter(([at]) => at >= start && at < end).map(([at, message]) => [at - start, message]),
        limit: this.limit,
        output: this.output,
        alphabet: this.alphabet,
        budget: this.budget,
      });
      start = end;
    }
    this.firstIndex += count * this.indexStep;
    this.heldSince = null;
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
  for (const empty of EMPTY_MARKS.records) values[empty.charCodeAt(0)] = 0;
  return values;
})();

/**
 * The fast path: writes a 9×9 record's cells straight into `input` at `at`. False when the text
 * is not 81 cell characters; such records take the slow path (parseRecord), which names the
 * cell and the reason. Repeated clues are left to the kernel (count -2).
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

/** The readable records of one size and alphabet: their positions in the batch and their packed grids. */
class Group {
  readonly positions: number[] = [];
  packed: Uint8Array;

  constructor(
    readonly shape: Shape,
    readonly alphabet: Alphabet,
    room: number,
  ) {
    this.packed = new Uint8Array(room * shape.cells);
  }

  /** Room for one more grid; returns its offset in `packed`. */
  next(position: number): number {
    const at = this.positions.length * this.shape.cells;
    if (at + this.shape.cells > this.packed.length) {
      const grown = new Uint8Array(Math.max(this.packed.length * 2, at + this.shape.cells));
      grown.set(this.packed);
      this.packed = grown;
    }
    this.positions.push(position);
    return at;
  }
}

const writers = new Map<Alphabet, SolutionWriter>();

/** The solution writer of `alphabet`, made once per thread. */
function writerOf(alphabet: Alphabet): SolutionWriter {
  let writer = writers.get(alphabet);
  if (!writer) writers.set(alphabet, (writer = new SolutionWriter(alphabet)));
  return writer;
}

/**
 * Solves one batch: packs every readable record into the group of its size and alphabet (9×9
 * digits straight from the text, the fast path; the rest through parseRecord, which gives the
 * unreadable ones their error), solves each group in one engine call, turns the output into
 * records with {@link batchRecords} and formats every record, in order, with the task's output
 * format. Shared by the worker and the in-process (`--threads 0`) path.
 */
export function solveBatch(engines: BatchEngines, task: BatchTask): BatchOutcome {
  const texts = task.texts.split("\n");
  const alphabet = task.alphabet ?? undefined;
  const readErrors = new Map(task.readErrors);
  const reads: ReadRecord[] = [];
  const results = new Array<SolveRecord | undefined>(texts.length);
  const digits = new Group(SHAPE_9, DIGITS, texts.length);
  const groups = new Map<string, Group>([[`9 ${DIGITS}`, digits]]);
  const fastPath = readsNineByNineAsDigits(alphabet);
  texts.forEach((text, i) => {
    const read: ReadRecord = { index: task.firstIndex + i * (task.indexStep ?? 1), line: task.lines[i], file: task.file, text, error: readErrors.get(i) ?? null };
    reads.push(read);
    if (read.error === null && fastPath && writeCells(text, digits.packed, digits.positions.length * CELLS)) {
      digits.positions.push(i); // `packed` has room for every text of the batch
      return;
    }
    const parsed = parseRecord(read, alphabet);
    if (parsed.grid === null) {
      results[i] = invalidRecord(parsed.error!);
      return;
    }
    const shape = shapeOfSide(parsed.box * parsed.box)!;
    const key = `${shape.size} ${parsed.alphabet}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = new Group(shape, parsed.alphabet, 16)));
    const at = group.next(i); // may grow `packed`: take the offset first
    group.packed.set(parsed.grid, at);
  });
  for (const group of groups.values()) {
    const count = group.positions.length;
    if (count === 0) continue;
    const { cells } = group.shape;
    const entry = engines.get(group.shape.size)!;
    const budget = task.budget ?? (group.shape.size === SHAPE_9.size ? Infinity : LARGE_GRID_BUDGET);
    const output = solvePacked(entry.engine, group.packed, count, cells, task.limit, budget);
    const rejected = (k: number, found: number): SolveRecord =>
      invalidRecord(found === REPEATED_CLUE ? parseRecord(reads[group.positions[k]], alphabet).error! : REJECTED);
    const records = batchRecords(output, count, { cells, writer: writerOf(group.alphabet), reportsGuesses: entry.reportsGuesses, rejected });
    group.positions.forEach((position, k) => (results[position] = records[k]));
  }

  return formatOutcome(task, reads, (i) => results[i]!);
}

/** The output text of a batch in pieces of at most about this many characters (V8 strings end near 2^29). */
const OUTPUT_PIECE_LENGTH = 1 << 26;

/** Formats every record of a batch, in order, with the task's output format; tallies and collects the first errors. */
function formatOutcome(task: BatchTask, reads: readonly ReadRecord[], resultOf: (i: number) => SolveRecord): BatchOutcome {
  const format = outputFormats[task.output];
  const tally = TALLY_STATUSES.map(() => 0);
  const messages: string[] = [];
  const pieces: string[] = [];
  let text = "";
  reads.forEach((record, i) => {
    const result = resultOf(i);
    tally[TALLY_STATUSES.indexOf(result.status)]++;
    if (result.error && messages.length < ERRORS_PER_BATCH) messages.push(`${result.status}: ${result.error}`);
    const formatted = format.format(record, result);
    if (text.length + formatted.length > OUTPUT_PIECE_LENGTH && text.length > 0) {
      pieces.push(text);
      text = "";
    }
    text += formatted;
  });
  if (pieces.length === 0) return { text, tally, errors: messages };
  pieces.push(text);
  return { text: pieces[0], more: pieces.slice(1), tally, errors: messages };
}

/**
 * The outcome of a batch the solver failed on twice (a worker that threw or died): every record
 * of it, in order, with status `error` and a message naming its file, its line and the reason.
 * The run goes on with the next batch.
 */
export function failedBatch(task: BatchTask, lines: Int32Array, failure: unknown): BatchOutcome {
  const reason = failure instanceof Error ? failure.message : String(failure);
  const texts = task.texts.split("\n");
  const reads = texts.map((text, i): ReadRecord => ({ index: task.firstIndex + i, line: lines[i], file: task.file, text, error: null }));
  return formatOutcome(task, reads, (i) => ({
    status: "error",
    count: 0,
    solution: null,
    guesses: null,
    error: placeMessage(task.file, lines[i], `the solver failed on this record's batch (twice): ${excerpt(reason, 200)}`),
  }));
}
