/**
 * sudoku-wasm/pool in Node: the library on every core. A pool ({@link SolverPool}, pool-core.ts)
 * of worker threads, each with its own engines, over the CLI's worker pool (pool/pool.ts,
 * piscina) and its batch core; a stream of bytes (a file, stdin, a `fetch` body) is read as
 * lines by the streaming core's line splitter ({@link byteBatches}). What the pool needs of the
 * worker pool is one function, {@link openRecordsSolver}. A browser's bundler takes web-pool.ts
 * instead (package.json's "browser" condition): the same interface over Web Workers.
 */
import { availableParallelism } from "node:os";
import { Readable } from "node:stream";
import { ReadableStream as NodeReadableStream } from "node:stream/web";
import { type BatchInput, type LineScan, Solver, UnreadInput } from "../solvers/solver.js";
import { CELLS } from "../model/shape.js";
import { openWorkerPool, workerFile } from "./pool.js";
import type { WorkerData } from "./solve-task.js";
import { loadBatchEngines } from "./engines.js";
import { WORKER_NICE } from "./priority.js";
import { BatchMemory } from "./records-task.js";
import { compiledKernels } from "../kernel/wasm.js";
import { LineSplitter, longLineReason, utf8Chunks } from "../stream/input.js";
import {
  type PoolBatch,
  type PoolInputs,
  type PoolOptions,
  type RecordsSolver,
  type WrittenLines,
  SolverPool,
  checkPoolOptions,
  writtenLines,
} from "./pool-core.js";

export { type PoolInputs, type PoolOptions, POOL_BATCH_SIZE, SolverPool } from "./pool-core.js";

/**
 * The worker threads of a pool: `threads` piscina workers of the CLI's worker module, on the
 * engines `solverIds` name, which load here first (a bad id, or an engine that cannot solve
 * batches, rejects before any worker starts) and are compiled once for all the workers.
 * `filename` replaces the worker module (tests).
 */
async function openRecordsSolver(threads: number, solverIds: readonly string[], filename = workerFile()): Promise<{ solver: RecordsSolver; main: Solver }> {
  const engines = await loadBatchEngines(solverIds);
  const workerData: WorkerData = { solvers: [...solverIds], kernels: await compiledKernels(), nice: WORKER_NICE };
  const workers = openWorkerPool(threads, { filename, workerData });
  return { solver: { threads, solve: (task, retry) => workers.solveRecords!(task, retry), close: () => workers.close() }, main: new Solver(engines) };
}

/** The batches of a stream of bytes ({@link byteStream}), read as lines by {@link byteBatches}; null for any other input. */
const readNodeBytes = (puzzles: PoolInputs, size: number, scanner: () => LineScan | null): AsyncIterable<PoolBatch> | null => {
  const bytes = byteStream(puzzles);
  return bytes === null ? null : byteBatches(bytes, size, scanner());
};

/**
 * The lines of a stream of bytes in batches of `size`, split by the streaming core's line
 * splitter. With a `scanner` (the 9×9 kernel's line scan), a batch whose lines are all 9×9 lines
 * it found is written as their text straight into the memory the worker reads, no line ever a
 * string; a batch with any other line (a blank, a comment, another size) is a batch of strings.
 */
async function* byteBatches(stream: Readable, size: number, scanner: LineScan | null): AsyncGenerator<PoolBatch, void, undefined> {
  const ready: PoolBatch[] = [];
  let written: WrittenLines | null = null; // the batch so far, while each of its lines was found by the scan
  let inputs: BatchInput[] = []; // the batch so far, once one of its lines was not
  const splitter = new LineSplitter(
    {
      line(text, length) {
        if (written !== null) {
          inputs = writtenLines(written);
          written.memory.release();
          written = null;
        }
        inputs.push(length === undefined ? text : new UnreadInput(longLineReason(text, length)));
        if (inputs.length < size) return;
        ready.push(inputs);
        inputs = [];
      },
      fastLines(cells, start, count) {
        if (inputs.length > 0) return 0; // the batch is strings already: these lines come to line() too
        written ??= { memory: new BatchMemory(size), count: 0 };
        const taken = Math.min(count, size - written.count);
        written.memory.text(size).set(cells.subarray(start, start + taken * CELLS), written.count * CELLS);
        written.count += taken;
        if (written.count === size) {
          ready.push(written);
          written = null;
        }
        return taken;
      },
    },
    scanner,
  );
  // A chunk is split a piece at a time, each piece's batches handed on before the next: a large chunk (a stream's
  // choice) would otherwise fill a batch's memory for each of its batches at once.
  const piece = Math.max(1 << 12, size * (CELLS + 1));
  try {
    for await (const chunk of utf8Chunks(stream)) {
      for (let at = 0; at < chunk.length; at += piece) {
        splitter.push(chunk.subarray(at, at + piece));
        while (ready.length > 0) yield ready.shift()!;
      }
    }
    splitter.end();
    if (written !== null) ready.push(written);
    if (inputs.length > 0) ready.push(inputs);
    written = null;
    while (ready.length > 0) yield ready.shift()!;
  } finally {
    // Ended early (the loop over the stream left, an error): the memory of the batches not sent goes back.
    for (const batch of [...ready, ...(written === null ? [] : [written])]) if (!Array.isArray(batch)) batch.memory.release();
  }
}

/**
 * `puzzles` as a Node stream of bytes when it is one: a Node Readable not in object mode, or a
 * web ReadableStream with a byte source (a `fetch` response's body: one that gives a reader in
 * "byob" mode). Any other ReadableStream is an async iterable of its chunks, lines or grids.
 */
function byteStream(puzzles: PoolInputs): Readable | null {
  const node = puzzles as { pipe?: unknown; readableObjectMode?: unknown };
  if (typeof node.pipe === "function" && node.readableObjectMode === false) return puzzles as Readable;
  if (!(puzzles instanceof NodeReadableStream)) return null; // (the global ReadableStream)
  try {
    puzzles.getReader({ mode: "byob" }).releaseLock();
  } catch {
    return null; // not a byte source (or locked: reading it then fails as it would have)
  }
  return Readable.fromWeb(puzzles);
}

/**
 * A pool of `threads` worker threads, each with its own engines (the fastest of each grid size,
 * or those `solver` names), ready once its engines have loaded here.
 */
export async function createPool(options: PoolOptions = {}): Promise<SolverPool> {
  const { threads, batchSize, ids } = checkPoolOptions(options, availableParallelism());
  const { solver, main } = await openRecordsSolver(threads, ids, poolWorkerFile);
  return new SolverPool(solver, main, batchSize, readNodeBytes);
}

/** The worker module of the pools made from now on; undefined: the CLI's (tests replace it, see {@link usePoolWorker}). */
let poolWorkerFile: string | undefined;

/** @internal Makes the pools created from now on run `filename` as their worker module (undefined: the CLI's); for tests. */
export function usePoolWorker(filename: string | undefined): void {
  poolWorkerFile = filename;
}
