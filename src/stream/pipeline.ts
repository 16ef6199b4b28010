/**
 * The streaming core of `solve`: inputs → lines → records → batches → solver → output, in bytes.
 *
 *   read a chunk ─► LineSplitter ─► RecordReader ─► BatchBuilder ─► solver.solve(batch) ─┐  (≤ maxInFlight)
 *        ▲                                                                              ▼
 *        └──── waits while maxInFlight batches are out ◄──────── OrderedOutput: oldest first,
 *                                                                 waits for the stream's 'drain'
 *
 * At most `maxInFlight` batches are out and no chunk is read while the oldest waits to be written, so memory stays
 * constant whatever the input's size. Batches are sized by {@link batchCapacity}; at the end of an input, or when a record
 * has waited {@link INPUT_PAUSE_MS} unsent (a slow producer on a pipe), the records read are sent at once.
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import { RecordReader } from "./input.js";
import { type SolveInput, LineSplitter, inputChunks } from "./lines.js";
import { InputReadError } from "../cli-kit/errors.js";
import type { InputFormatName } from "../formats/input/format.js";
import { type OutputFormatName, outputFormats } from "../formats/output/format.js";
import type { Alphabet } from "../model/puzzle.js";
import { type BatchOutcome, type CanonRequest, type RecordCheck, BatchBuilder, giveBack } from "../pool/batch.js";
import { STATUSES } from "../solvers/solver.js";
import type { BatchSolver } from "../pool/pool.js";
import { type Shard, WHOLE_RUN } from "../cli-kit/resume.js";

/** How records are read, solved and written. */
export interface StreamSettings {
  input: InputFormatName;
  output: OutputFormatName;
  limit: number;
  /** Records per batch at most (`--batch`); batches are smaller near the start and end of the input, and at pauses. */
  batchSize: number;
  /** Workers solving batches (0: the main thread). @default 1 */
  workers?: number;
  /** Bytes an input with a `path` is read in at a time. @default FILE_CHUNK_BYTES (see input.ts) */
  readBytes?: number;
  /** The size of all the inputs in bytes, when known (files); sizes the batches to the records left. */
  totalBytes?: number | null;
  /** Batches out at once (sent but not yet written). */
  maxInFlight: number;
  /** The symbols of the grids of its size (`--alphabet`); detected per record when absent. */
  alphabet?: Alphabet;
  /** Search nodes per puzzle (`--budget`; Infinity for none); a puzzle over it gets status `timeout`. @default see BatchTask.budget */
  budget?: number;
  /** The records this run takes (`--shard K/N`): index mod N = K. @default the whole run */
  shard?: Shard;
  /** Records of this run (of its shard) already written by an earlier one (`--resume`): read, not solved. @default 0 */
  skip?: number;
  /** The record an earlier run wrote last, checked by its file and line as it is read (`--resume`). */
  resumed?: RecordCheck;
  /** Written before the first record: "" when the output already has its header (`--resume`). @default the output format's header */
  header?: string;
  /** Aborted: stop reading, write the batches already sent (whole records, in order), and return. */
  stop?: AbortSignal;
  /** False: every record is read as text (the path the fast one must match byte for byte). @default true */
  fastPath?: boolean;
  /** Set: the batches' work is `canon` (../pool/canon-task.ts), not solving. */
  canon?: CanonRequest;
}

export interface StreamTotals {
  /** Records per status (see STATUSES). */
  tally: number[];
  /** The first error messages, at most {@link MAX_REPORTED_ERRORS}. */
  errors: string[];
  /** True when `stop` ended the run before the end of its input. */
  stopped: boolean;
  /** Records read from the inputs (every shard's, and those an earlier run wrote, too). */
  recordsRead: number;
}

/** Error messages kept for the summary. */
export const MAX_REPORTED_ERRORS = 10;

/** Called after each batch is written: records written so far, input bytes read by then. */
export type ProgressListener = (done: number, bytesRead: number) => void;

interface PendingBatch {
  outcome: Promise<BatchOutcome>;
  bytesRead: number;
  settled: boolean;
}

/** The records of a batch outcome (its tally counts each once). */
const recordsIn = (outcome: BatchOutcome): number => outcome.tally.reduce((sum, n) => sum + n, 0);

/** Writes batch outcomes in submission order, at most `maxInFlight` outstanding. */
class OrderedOutput {
  private readonly pending: PendingBatch[] = [];
  private done = 0;
  /** Records solved so far, and the solving time they took on their threads (see {@link msPerRecord}). */
  private solvedRecords = 0;
  private solvingMs = 0;
  readonly totals: StreamTotals = { tally: STATUSES.map(() => 0), errors: [], stopped: false, recordsRead: 0 };

  constructor(
    private readonly out: Writable,
    private readonly maxInFlight: number,
    private readonly onProgress: ProgressListener,
  ) {}

  /** Queues a batch; waits while too many are outstanding. */
  async submit(outcome: Promise<BatchOutcome>, bytesRead: number): Promise<void> {
    const batch: PendingBatch = { outcome, bytesRead, settled: false };
    // Awaited in order below; this marks it settled and keeps an early failure from being "unhandled".
    outcome.then(
      (solved) => {
        batch.settled = true;
        if (solved.solveMs === undefined) return;
        this.solvedRecords += recordsIn(solved);
        this.solvingMs += solved.solveMs;
      },
      () => (batch.settled = true),
    );
    this.pending.push(batch);
    while (this.pending.length >= this.maxInFlight) await this.writeOldest();
  }

  /** The solving time per record so far, on the thread that solved it; null before any batch is solved. */
  get msPerRecord(): number | null {
    return this.solvedRecords === 0 ? null : this.solvingMs / this.solvedRecords;
  }

  /** Batches sent and not yet solved. */
  get solving(): number {
    return this.pending.reduce((count, batch) => count + (batch.settled ? 0 : 1), 0);
  }

  /** Settles when the oldest batch out is solved (never when none is out). */
  oldestSolved(): Promise<unknown> {
    const oldest = this.pending[0];
    return oldest ? oldest.outcome.then(noop, noop) : new Promise(noop);
  }

  /** Writes the solved batches at the head of the queue, oldest first. */
  async writeSolved(): Promise<void> {
    while (this.pending.length > 0 && this.pending[0].settled) await this.writeOldest();
  }

  /** Writes every outstanding batch. */
  async finish(): Promise<void> {
    while (this.pending.length > 0) await this.writeOldest();
  }

  /** Writes `output`; `written` is called once the stream is done with its bytes (at once for none). */
  async write(output: string | Uint8Array, written: () => void = noop): Promise<void> {
    if (output.length === 0) return written();
    if (!this.out.write(output, () => written())) await once(this.out, "drain");
  }

  private async writeOldest(): Promise<void> {
    const { outcome, bytesRead } = this.pending.shift()!;
    const batch = await outcome;
    await this.write(batch.bytes, () => giveBack(batch)); // its buffers serve later batches (batch.ts)
    batch.tally.forEach((n, i) => (this.totals.tally[i] += n));
    this.done += recordsIn(batch);
    for (const error of batch.errors) if (this.totals.errors.length < MAX_REPORTED_ERRORS) this.totals.errors.push(error);
    this.onProgress(this.done, bytesRead);
  }
}

const noop = (): void => {};

/** How long a record read may wait unsent while a worker is idle (a slow producer's records are not held back). */
export const INPUT_PAUSE_MS = 50;
/** The smallest batch sized to the work (a batch sent at a pause or at the end may be smaller). */
export const MIN_BATCH = 64;
/** Bytes of a chunk split into lines at a time: a whole chunk's batches, sealed at once, would be held beside those in flight. */
const FEED_BYTES = 1 << 16;
/** Bytes per record assumed before the first chunk is read: one 9×9 line. */
const BYTES_PER_RECORD_GUESS = 82;

/** What the batch sizing knows of the input so far. */
export interface ReadSoFar {
  /** Records read, over all inputs (in and out of the shard). */
  records: number;
  bytes: number;
  /** The size of all inputs, or null when unknown (standard input). */
  totalBytes: number | null;
}

/**
 * Records per batch: a (2 × workers)th of the records still to come per shard (standard input: as many as were read), and
 * about {@link BATCH_TARGET_MS} of solving, so hard puzzles keep every core busy to the end and a signal is not kept
 * waiting by a long batch on the main thread (no JavaScript runs during a kernel call); from {@link MIN_BATCH} to `batchSize`.
 */
export function batchCapacity(read: ReadSoFar, batchSize: number, workers: number, shards = 1, msPerRecord?: number | null): number {
  const toCome = recordsToCome(read) ?? read.records;
  const share = Math.ceil(toCome / shards / (2 * Math.max(1, workers)));
  return Math.max(Math.min(MIN_BATCH, batchSize), Math.min(batchSize, share, timedBatch(msPerRecord, workers)));
}

/** The records still to read (bytes left at the bytes per record so far); null when the size of the input is unknown. */
export function recordsToCome(read: ReadSoFar): number | null {
  if (read.totalBytes === null) return null;
  const bytesPerRecord = read.records > 0 ? read.bytes / read.records : BYTES_PER_RECORD_GUESS;
  return Math.max(0, read.totalBytes - read.bytes) / bytesPerRecord;
}

/** Solving time a batch is sized to: short, so a slow batch holds back the ordered output and a signal briefly; long next to a send's cost. */
export const BATCH_TARGET_MS = 25;
/** Records per batch before any batch is solved, small because hard puzzles take far longer than easy ones. */
export const FIRST_BATCH = 256;

/**
 * The records that take {@link BATCH_TARGET_MS} at `msPerRecord` (undefined: no cap). Before any is solved (null): {@link FIRST_BATCH}
 * for workers, {@link MIN_BATCH} on the main thread alone, where a signal waits for every batch of the first chunk sealed.
 */
function timedBatch(msPerRecord: number | null | undefined, workers: number): number {
  if (msPerRecord === undefined) return Infinity;
  if (msPerRecord === null) return workers === 0 ? MIN_BATCH : FIRST_BATCH;
  return Math.max(1, Math.floor(BATCH_TARGET_MS / msPerRecord));
}

type Step = IteratorResult<Uint8Array> | "pause" | "solved" | "stop";

/** Settles with "pause" after `ms`, rounded up to a whole ms (Node keeps one timer list per duration). */
function pauseAfter(ms: number): [Promise<"pause">, () => void] {
  let timer: NodeJS.Timeout | undefined;
  const paused = new Promise<"pause">((resolve) => (timer = setTimeout(() => resolve("pause"), Math.ceil(ms))));
  return [paused, () => clearTimeout(timer)];
}

/**
 * Settles with "stop" when `signal` aborts, for one wait: a race against one long-lived promise
 * would leave a reaction on it holding each race's chunk, so the run would keep every chunk read.
 */
function stopAfter(signal: AbortSignal | undefined): [Promise<"stop">, () => void] {
  if (signal === undefined) return [new Promise(noop), noop];
  if (signal.aborted) return [Promise.resolve("stop"), noop];
  let stop = noop;
  const stopped = new Promise<"stop">((resolve) => {
    stop = () => resolve("stop");
    signal.addEventListener("abort", stop, { once: true });
  });
  return [stopped, () => signal.removeEventListener("abort", stop)];
}

/** Solves every record of `inputs` in order and writes one output record each to `out`. */
export async function solveStreams(
  inputs: readonly SolveInput[],
  out: Writable,
  solver: BatchSolver,
  settings: StreamSettings,
  onProgress: ProgressListener = () => {},
): Promise<StreamTotals> {
  const output = new OrderedOutput(out, settings.maxInFlight, onProgress);
  const fastPath = settings.fastPath ?? true;
  const scanner = fastPath ? (solver.scanner ?? null) : null; // the main thread's solving kernel instance scans too
  const workers = settings.workers ?? 1;
  const batches = new BatchBuilder(
    settings.batchSize,
    settings.limit,
    settings.output,
    settings.alphabet ?? null,
    settings.budget,
    settings.canon,
    workers > 0,
  );
  const shard = settings.shard ?? WHOLE_RUN;
  batches.select(shard.index, shard.count, settings.skip ?? 0);
  if (settings.resumed !== undefined) batches.expect(settings.resumed);
  const read: ReadSoFar = {
    get records() {
      return batches.recordsRead;
    },
    bytes: 0,
    totalBytes: settings.totalBytes ?? null,
  };
  /** Records per batch from here on: a share of what is left, and about BATCH_TARGET_MS of solving (a signal waits for the batch on the main thread). */
  const capacity = () => batchCapacity(read, settings.batchSize, workers, shard.count, output.msPerRecord);
  /** True once records read were left unsent by the stop (a batch dropped, or part of a chunk not split into lines). */
  let unsent = false;
  /**
   * Sends the batches sealed so far. `stoppable` (while the input is read, solving on the main thread): the event loop takes a
   * turn before each, in which a signal's handler runs (none runs during a kernel call), and none is sent once the run stops.
   * Once a batch is dropped so, none is ever sent after it (the records held neither): the output ends before its first record.
   */
  const send = async (stoppable = false): Promise<void> => {
    const toCome = recordsToCome(read);
    for (const task of batches.takeReady()) {
      if (stoppable) {
        await new Promise(setImmediate);
        if (settings.stop?.aborted) unsent = true;
      }
      if (unsent) return; // dropped, as the records not yet read: the run resumes from the last record written
      await output.submit(solver.solve(task, toCome === null ? null : toCome / shard.count), read.bytes);
    }
  };
  /** True when the oldest record held (read, not yet sent) was read INPUT_PAUSE_MS ago or more. */
  const heldTooLong = (): boolean => batches.heldSince !== null && performance.now() - batches.heldSince >= INPUT_PAUSE_MS;
  /**
   * Settles with "pause" when the records held will have waited INPUT_PAUSE_MS, at once when they have and a worker is idle;
   * never when none are held or every worker is busy. One clock reading decides (two could leave the records unsent).
   */
  const heldTimer = (): [Promise<"pause">, () => void] => {
    if (batches.heldSince === null) return [new Promise(noop), noop];
    const wait = batches.heldSince + INPUT_PAUSE_MS - performance.now();
    if (wait > 0) return pauseAfter(wait);
    return workers === 0 || workers - output.solving > 0 ? [Promise.resolve("pause"), noop] : [new Promise(noop), noop];
  };
  /** Sends what is held, split over the idle workers; at a pause (`whenIdle`), only if a worker is idle. */
  const sendHeld = async (whenIdle: boolean): Promise<void> => {
    const idle = workers - output.solving;
    if (whenIdle && workers > 0 && idle <= 0) return;
    batches.seal(Math.max(1, idle));
    await send();
  };

  await output.write(settings.header ?? outputFormats[settings.output].header);
  let bytesBefore = 0;
  for (const [k, input] of inputs.entries()) {
    batches.startFile(input.name);
    batches.capacity = capacity();
    const reader = new RecordReader(batches.add.bind(batches), settings.input, settings.alphabet, fastPath ? batches.addCells.bind(batches) : null);
    const lines = new LineSplitter(reader, scanner);
    const stream = input.file === undefined ? input.open() : null;
    const stopReading = () => stream?.destroy();
    settings.stop?.addEventListener("abort", stopReading, { once: true });
    const chunks = inputChunks(input, stream, settings.readBytes);
    let ended = false; // the input's end was read
    try {
      for (;;) {
        const next = chunks.next();
        next.catch(noop); // a stream destroyed by the stop rejects it, maybe after the loop has left
        let step: Step;
        for (;;) {
          // While the next chunk is awaited: send records held INPUT_PAUSE_MS to an idle worker, and write each batch once solved.
          if (heldTooLong()) await sendHeld(true);
          const [paused, cancelPause] = heldTimer();
          const [stopped, cancelStop] = stopAfter(settings.stop);
          step = await Promise.race([next, paused, output.oldestSolved().then(() => "solved" as const), stopped]);
          cancelPause();
          cancelStop();
          if (step === "solved") await output.writeSolved();
          else if (step !== "pause") break;
        }
        if (step === "stop" && !unsent && input.file !== undefined && k === inputs.length - 1) {
          // A file's read goes on after the stop: when the last input had ended, every record was read, and the run finishes
          const rest = await next.catch(() => undefined);
          if (rest?.done) step = rest;
        }
        if (step === "stop") break;
        if (step.done) {
          ended = true;
          break;
        }
        // FEED_BYTES at a time: a piece's batches are sent (waiting for room in flight) before the next piece is split.
        const chunk = step.value;
        for (let at = 0; at < chunk.length; at += FEED_BYTES) {
          if (settings.stop?.aborted) {
            unsent = true;
            break;
          }
          lines.push(chunk.subarray(at, at + FEED_BYTES));
          read.bytes = bytesBefore + lines.bytesRead;
          await send(workers === 0);
          batches.capacity = capacity();
        }
      }
    } catch (error) {
      if (settings.stop?.aborted) {
        // a stream destroyed by the stop may end as an error
      } else if (error instanceof InputReadError) {
        // Everything read before the failure is still solved and written; then the run stops.
        await sendHeld(false);
        await output.finish();
        throw error;
      } else throw error;
    } finally {
      settings.stop?.removeEventListener("abort", stopReading);
      if (stream === null) chunks.return(undefined).catch(noop); // closes the file (after a read in progress)
    }
    // Stopped, unless the signal came once the last input had ended with every record read and none dropped: the run finishes
    if (settings.stop?.aborted && (unsent || !ended || k < inputs.length - 1)) {
      stream?.destroy();
      output.totals.stopped = true; // records read but not sent are dropped: the run resumes from the last record written
      break;
    }
    lines.end();
    reader.end();
    await sendHeld(false);
    bytesBefore = read.bytes;
  }
  await output.finish();
  output.totals.recordsRead = batches.recordsRead;
  return output.totals;
}
