/**
 * The streaming core of `solve`: inputs → lines → records → batches → solver → output.
 *
 *   read a chunk ─► RecordReader ─► BatchBuilder ─► solver.solve(batch) ─┐  (≤ maxInFlight)
 *        ▲                                                               ▼
 *        └──── waits while maxInFlight batches are out ◄── OrderedOutput: oldest first,
 *                                                           waits for the stream's 'drain'
 *
 * Memory stays constant: at most `maxInFlight` batches are out, and no chunk is read
 * while the oldest batch waits to be written. Output follows input order exactly,
 * whatever order the workers finish in.
 */
import { once } from "node:events";
import type { Readable, Writable } from "node:stream";
import { type LineChunk, readLineChunks } from "../formats/lines.js";
import { InputReadError } from "./errors.js";
import { RecordReader } from "../formats/input/reader.js";
import type { InputFormatName } from "../formats/input/format.js";
import { type OutputFormatName, outputFormats } from "../formats/output/index.js";
import type { Alphabet } from "../puzzle-general.js";
import { type BatchOutcome, BatchBuilder, TALLY_STATUSES } from "../pool/batch.js";
import type { BatchSolver } from "../pool/pool.js";
import { type Shard, RecordSelection, WHOLE_RUN } from "./resume.js";

/** One input of a run. */
export interface SolveInput {
  /** The name records and errors carry (the path, or `<stdin>`). */
  name: string;
  open(): Readable;
}

/** How records are read, solved and written. */
export interface StreamSettings {
  input: InputFormatName;
  output: OutputFormatName;
  limit: number;
  /** Records per batch. */
  batchSize: number;
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
}

/** What a run found. */
export interface StreamTotals {
  /** Records per status (see TALLY_STATUSES). */
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
}

/** Writes batch outcomes in submission order, at most `maxInFlight` outstanding. */
class OrderedOutput {
  private readonly pending: PendingBatch[] = [];
  private done = 0;
  readonly totals: StreamTotals = { tally: TALLY_STATUSES.map(() => 0), errors: [], stopped: false };

  constructor(
    private readonly out: Writable,
    private readonly maxInFlight: number,
    private readonly onProgress: ProgressListener,
  ) {}

  /** Queues a batch; waits while too many are outstanding. */
  async submit(outcome: Promise<BatchOutcome>, bytesRead: number): Promise<void> {
    outcome.catch(() => {}); // awaited in order below; this only keeps an early failure from being "unhandled"
    this.pending.push({ outcome, bytesRead });
    while (this.pending.length >= this.maxInFlight) await this.writeOldest();
  }

  /** Writes every outstanding batch. */
  async finish(): Promise<void> {
    while (this.pending.length > 0) await this.writeOldest();
  }

  async write(text: string): Promise<void> {
    if (text.length > 0 && !this.out.write(text)) await once(this.out, "drain");
  }

  private async writeOldest(): Promise<void> {
    const { outcome, bytesRead } = this.pending.shift()!;
    const batch = await outcome;
    await this.write(batch.text);
    batch.tally.forEach((n, i) => (this.totals.tally[i] += n));
    this.done += batch.tally.reduce((sum, n) => sum + n, 0);
    for (const error of batch.errors) if (this.totals.errors.length < MAX_REPORTED_ERRORS) this.totals.errors.push(error);
    this.onProgress(this.done, bytesRead);
  }
}

/** The line chunks of one input; a failure while reading it is an {@link InputReadError} naming it. */
async function* namedChunks(name: string, stream: Readable): AsyncGenerator<LineChunk> {
  const chunks = readLineChunks(stream)[Symbol.asyncIterator]();
  let next: IteratorResult<LineChunk>;
  for (;;) {
    try {
      next = await chunks.next();
    } catch (error) {
      throw new InputReadError(name, error);
    }
    if (next.done) return;
    yield next.value;
  }
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
  const batches = new BatchBuilder(settings.batchSize, settings.limit, settings.output, settings.alphabet ?? null, settings.budget);
  const shard = settings.shard ?? WHOLE_RUN;
  const selection = new RecordSelection(shard, settings.skip ?? 0);
  batches.numberFrom(selection.firstIndex, shard.count);
  let bytesBefore = 0;
  if (settings.header ?? true) await output.write(outputFormats[settings.output].header);
  for (const input of inputs) {
    batches.startFile(input.name);
    const reader = new RecordReader((line, text, error) => selection.take() && batches.add(line, text, error), settings.input, { alphabet: settings.alphabet });
    let bytesRead = bytesBefore;
    const stream = input.open();
    const stopReading = () => stream.destroy();
    settings.stop?.addEventListener("abort", stopReading, { once: true });
    try {
      for await (const chunk of namedChunks(input.name, stream)) {
        if (settings.stop?.aborted) break;
        reader.readLines(chunk.lines, chunk.longLines);
        bytesRead = bytesBefore + chunk.bytesRead;
        for (const task of batches.takeReady()) await output.submit(solver.solve(task), bytesRead);
      }
    } catch (error) {
      if (settings.stop?.aborted) {
        // a stream destroyed by the stop ends as an error
      } else if (error instanceof InputReadError) {
        // Everything read before the failure is still solved and written; then the run stops.
        batches.seal();
        for (const task of batches.takeReady()) await output.submit(solver.solve(task), bytesRead);
        await output.finish();
        throw error;
      } else throw error;
    } finally {
      settings.stop?.removeEventListener("abort", stopReading);
    }
    if (settings.stop?.aborted) {
      output.totals.stopped = true; // records read but not sent are dropped: the run resumes from the last record written
      break;
    }
    reader.end();
    batches.seal();
    for (const task of batches.takeReady()) await output.submit(solver.solve(task), bytesRead);
    bytesBefore = bytesRead;
  }
  await output.finish();
  return output.totals;
}
