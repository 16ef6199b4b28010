/**
 * The streaming core of `solve`: inputs → lines → records → batches → solver → output, in bytes.
 *
 *   read a chunk ─► LineSplitter ─► RecordReader ─► BatchBuilder ─► solver.solve(batch) ─┐  (≤ maxInFlight)
 *        ▲                                                                              ▼
 *        └──── waits while maxInFlight batches are out ◄──────── OrderedOutput: oldest first,
 *                                                                 waits for the stream's 'drain'
 *
 * A 9×9 line of digits goes from the chunk's bytes into the batch's cell bytes (the reader's
 * fast path) and comes back as output bytes; only the other records are read as strings.
 *
 * Memory stays constant: at most `maxInFlight` batches are out, and no chunk is read
 * while the oldest batch waits to be written. Output follows input order exactly,
 * whatever order the workers finish in.
 *
 * Batches are sized to the work in flight ({@link batchCapacity}): about a (2 × workers)th of
 * the records still to come, between {@link MIN_BATCH} and `batchSize`, so a small file still
 * reaches every worker and the last batches shrink as the input runs out; and for workers, to
 * about {@link BATCH_TARGET_MS} of solving at the rate the solved batches report, so hard
 * puzzles (40 times an easy one's time) keep both cores busy to the end. When the input ends,
 * or a record read has waited {@link INPUT_PAUSE_MS} unsent (a slow producer on a pipe, whether
 * it pauses or trickles), the records read are sent at once, split over the idle workers; each
 * batch is written as soon as it is solved and the batches before it are written.
 *
 * The batches' buffers are used again (../pool/batch.ts): an input file is read into one
 * buffer, and each batch's buffers go back to the pool once its bytes are written.
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import { LineSplitter } from "../formats/lines.js";
import { type SolveInput, inputChunks } from "./input.js";
import { InputReadError } from "../cli-kit/errors.js";
import { RecordReader } from "../formats/input/reader.js";
import type { InputFormatName } from "../formats/input/format.js";
import { type OutputFormatName, outputFormats } from "../formats/output/index.js";
import type { Alphabet } from "../model/puzzle.js";
import { type BatchOutcome, type CanonRequest, BatchBuilder, giveBack } from "../pool/batch.js";
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
  /** False when the output already has its header (`--resume`). @default true */
  header?: boolean;
  /** Aborted: stop reading, write the batches already sent (whole records, in order), and return. */
  stop?: AbortSignal;
  /**
   * False: every record is read as text, none from the bytes (the path the fast one must match
   * byte for byte; tests compare the two). @default true
   */
  fastPath?: boolean;
  /** Set: the batches' work is `canon` (../pool/canon-task.ts), not solving. */
  canon?: CanonRequest;
}

/** What a run found. */
export interface StreamTotals {
  /** Records per status (see STATUSES). */
  tally: number[];
  /** The first error messages, at most {@link MAX_REPORTED_ERRORS}. */
  errors: string[];
  /** True when `stop` ended the run before the end of its input. */
  stopped: boolean;
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
  readonly totals: StreamTotals = { tally: STATUSES.map(() => 0), errors: [], stopped: false };

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
    await this.writeSettled(await outcome, bytesRead);
  }

  private async writeSettled(batch: BatchOutcome, bytesRead: number): Promise<void> {
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
/**
 * Bytes of a chunk read that are split into lines at a time (see the read loop): a file is read
 * in chunks of FILE_CHUNK_BYTES (1 MiB: each read costs a round of the event loop), but the
 * batches of a whole chunk, sealed at once, would be held beside those in flight: on 3M records
 * with 2 threads and a 64 MB heap, `--out jsonl` peaked at 142 MB RSS that way, 128–132 MB fed
 * 64 KiB at a time (121 MB with 64 KiB reads; 0a2cee6).
 */
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
 * Records per batch for the records still to come: about a (2 × workers)th of them, so every
 * worker gets a share of what is left, between {@link MIN_BATCH} and `batchSize`. The records to
 * come are the bytes left at the bytes per record read so far, for a file; for standard input
 * as many as were read (so batches grow geometrically from the smallest). Divided by the shard
 * count: a shard solves one record in N.
 */
export function batchCapacity(read: ReadSoFar, batchSize: number, workers: number, shards = 1, msPerRecord?: number | null): number {
  let toCome: number;
  if (read.totalBytes === null) toCome = read.records;
  else {
    const bytesPerRecord = read.records > 0 ? read.bytes / read.records : BYTES_PER_RECORD_GUESS;
    toCome = Math.max(0, read.totalBytes - read.bytes) / bytesPerRecord;
  }
  const share = Math.ceil(toCome / shards / (2 * Math.max(1, workers)));
  return Math.max(Math.min(MIN_BATCH, batchSize), Math.min(batchSize, share, timedBatch(msPerRecord)));
}

/**
 * Solving time a batch for the workers is sized to, once the rate is known: short, so that every
 * worker has work to the end of the input and a slow batch holds back the output of the batches
 * after it (written in order) only briefly; long next to what sending a batch costs (tens of µs).
 */
export const BATCH_TARGET_MS = 25;
/** Records per batch for the workers before any batch is solved: hard puzzles take 40 times as long as easy ones. */
export const FIRST_BATCH = 256;

/**
 * The records that take {@link BATCH_TARGET_MS} at `msPerRecord` (null: not known yet, {@link FIRST_BATCH});
 * no cap when absent (the main thread alone: nothing to balance).
 */
function timedBatch(msPerRecord: number | null | undefined): number {
  if (msPerRecord === undefined) return Infinity;
  if (msPerRecord === null) return FIRST_BATCH;
  return Math.max(1, Math.floor(BATCH_TARGET_MS / msPerRecord));
}

type Step = IteratorResult<Uint8Array> | "pause" | "solved" | "stop";

/**
 * Settles with "pause" after `ms`, rounded up to a whole millisecond (cancelled with the returned
 * function). Node keeps one list of timers per duration: a fractional duration, new at every
 * wait, made a list (and a place in its queue of lists) per chunk read.
 */
function pauseAfter(ms: number): [Promise<"pause">, () => void] {
  let timer: NodeJS.Timeout | undefined;
  const paused = new Promise<"pause">((resolve) => (timer = setTimeout(() => resolve("pause"), Math.ceil(ms))));
  return [paused, () => clearTimeout(timer)];
}

/**
 * Settles with "stop" when `signal` aborts, for one wait (the listener is removed with the
 * returned function). One promise per wait, not one for the whole run: every race against a
 * long-lived promise leaves a reaction on it that holds the race's result (a chunk of lines)
 * until that promise settles, so the run would keep every chunk it read.
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
  const read: ReadSoFar = { records: 0, bytes: 0, totalBytes: settings.totalBytes ?? null };
  /** Records per batch from here on: a share of what is left, and for workers about BATCH_TARGET_MS of solving. */
  const capacity = () => {
    read.records = batches.recordsRead;
    return batchCapacity(read, settings.batchSize, workers, shard.count, workers === 0 ? undefined : output.msPerRecord);
  };
  /** Sends the batches sealed so far. */
  const send = async (): Promise<void> => {
    for (const task of batches.takeReady()) await output.submit(solver.solve(task), read.bytes);
  };
  /** True when the oldest record held (read, not yet sent) was read INPUT_PAUSE_MS ago or more. */
  const heldTooLong = (): boolean => batches.heldSince !== null && performance.now() - batches.heldSince >= INPUT_PAUSE_MS;
  /**
   * Settles with "pause" when the records held will have waited INPUT_PAUSE_MS, at once when they
   * have and a worker is idle; never when none are held, or when they have and every worker is
   * busy (the next batch solved frees one). One reading of the clock decides: with two, the
   * wait could pass between them and leave a slow producer's records unsent for good.
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

  if (settings.header ?? true) await output.write(outputFormats[settings.output].header);
  let bytesBefore = 0;
  for (const input of inputs) {
    batches.startFile(input.name);
    batches.capacity = capacity();
    // The reader hands each record straight to the builder, which keeps the run's share.
    const reader = new RecordReader(
      batches.add.bind(batches),
      settings.input,
      { alphabet: settings.alphabet },
      fastPath ? batches.addCells.bind(batches) : null,
    );
    const lines = new LineSplitter(reader, scanner);
    const stream = input.file === undefined ? input.open() : null;
    const stopReading = () => stream?.destroy();
    settings.stop?.addEventListener("abort", stopReading, { once: true });
    const chunks = inputChunks(input, stream, settings.readBytes);
    try {
      for (;;) {
        const next = chunks.next();
        next.catch(noop); // a stream destroyed by the stop rejects it, maybe after the loop has left
        let step: Step;
        for (;;) {
          // While the next chunk is awaited: send the records held for INPUT_PAUSE_MS to an idle
          // worker (if none is idle, the next batch solved frees one), and write each batch once
          // it is solved.
          if (heldTooLong()) await sendHeld(true);
          const [paused, cancelPause] = heldTimer();
          const [stopped, cancelStop] = stopAfter(settings.stop);
          step = await Promise.race([next, paused, output.oldestSolved().then(() => "solved" as const), stopped]);
          cancelPause();
          cancelStop();
          if (step === "solved") await output.writeSolved();
          else if (step !== "pause") break;
        }
        if (step === "stop" || step.done) break;
        // FEED_BYTES of the chunk at a time: the batches sealed from one piece are sent (waiting,
        // when as many are out as may be, for the oldest to be written) before the next piece is
        // split, so a large read holds no more batches at once than a small one. ("Slice" is the
        // main thread's share of a batch, pool.ts.)
        const chunk = step.value;
        for (let at = 0; at < chunk.length && !settings.stop?.aborted; at += FEED_BYTES) {
          lines.push(chunk.subarray(at, at + FEED_BYTES));
          read.bytes = bytesBefore + lines.bytesRead;
          await send();
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
    if (settings.stop?.aborted) {
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
  return output.totals;
}
