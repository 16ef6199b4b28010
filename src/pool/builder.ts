/**
 * The main thread's side of batching: records, as the reader gives them (fast ones as cell bytes,
 * the others as texts), collected into {@link BatchTask}s of a capacity the pipeline sets
 * (pipeline.ts sizes them), their buffers from this thread's pool (buffers.ts).
 */
import type { OutputFormatName } from "../formats/output/index.js";
import type { Alphabet } from "../model/puzzle.js";
import { CELLS } from "../model/shape.js";
import { batchBuffers } from "./buffers.js";
import { type BatchTask, type CanonRequest, sliceTask, withOutputRoom } from "./task.js";

/** Cell bytes over a buffer of this thread's pool, at least `length` of them (the whole buffer). */
const pooledCells = (length: number): Uint8Array => new Uint8Array(batchBuffers.take(length));
/** Line numbers over a buffer of this thread's pool, at least `length` of them (the whole buffer). */
const pooledLines = (length: number): Int32Array => new Int32Array(batchBuffers.take(4 * length));

/** Collects records into batches of at most `size` (see {@link BatchBuilder.capacity}); a batch never spans two files. */
export class BatchBuilder {
  private file = "";
  private firstIndex = 0;
  private indexStep = 1;
  /** Records held (not yet in a sealed batch). */
  private count = 0;
  /** The held records' line numbers and fast records' cells, in buffers of the pool: a batch sealed whole takes them as they are (no copy). */
  private lines = pooledLines(64);
  private cells = pooledCells(64 * CELLS);
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
    /** Set: the batches are `canon` work (see BatchTask.canon). */
    private readonly canon?: CanonRequest,
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
      if (at + n * CELLS > this.cells.length) this.cells = this.grownCells(at + n * CELLS, at);
      this.cells.set(bytes.subarray(start, start + n * CELLS), at);
      this.fastCount += n;
      if (this.count === 0) this.heldSince = performance.now();
      if (this.count + n > this.lines.length) this.lines = this.grownLines(this.count + n);
      for (let k = 0; k < n; k++) this.lines[this.count++] = line + k;
      if (this.count >= this.size) this.seal();
      line += n;
      start += n * CELLS;
      count -= n;
    }
  }

  private addLine(line: number): void {
    if (this.count === 0) this.heldSince = performance.now();
    if (this.count === this.lines.length) this.lines = this.grownLines(this.count + 1);
    this.lines[this.count++] = line;
    if (this.count >= this.size) this.seal();
  }

  /** Cells with room for `least` bytes, the first `used` of {@link cells} copied; the old buffer goes back to the pool. */
  private grownCells(least: number, used: number): Uint8Array {
    const bigger = pooledCells(Math.max(least, 2 * this.cells.length));
    bigger.set(this.cells.subarray(0, used));
    batchBuffers.give(this.cells.buffer);
    return bigger;
  }

  /** Line numbers with room for `least`, those held copied; the old buffer goes back to the pool. */
  private grownLines(least: number): Int32Array {
    const bigger = pooledLines(Math.max(least, 2 * this.lines.length));
    bigger.set(this.lines.subarray(0, this.count));
    batchBuffers.give(this.lines.buffer);
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
      cells: this.cells.subarray(0, this.fastCount * CELLS),
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
      this.ready.push(withOutputRoom(whole, batchBuffers));
      this.lines = pooledLines(this.lines.length);
      this.cells = pooledCells(this.cells.length);
    } else {
      for (let piece = 0, start = 0; piece < pieces; piece++) {
        const end = Math.round(((piece + 1) * count) / pieces);
        this.ready.push(sliceTask(whole, start, end, batchBuffers));
        start = end;
      }
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
