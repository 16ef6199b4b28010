/**
 * The batch buffers are used again (src/pool/batch.ts): a run makes as many buffers as it has
 * batches in flight, not as many as it has batches, on the main thread and through a worker;
 * and a buffer is never used again while the output stream still holds its bytes. The sink here
 * reads each chunk's bytes only when it calls back, a turn later, so a buffer handed out again
 * too early would show in the output, which must equal the text path's byte for byte.
 */
import { once } from "node:events";
import { spawnSync } from "node:child_process";
import { closeSync, openSync, writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { relabelledPuzzleBytes } from "../bench/corpus.js";
import { type BatchSolver, openBatchSolver } from "../src/pool/pool.js";
import { BatchBuilder, batchBuffers, BufferPool, copyTask, giveBackCopy, taskBuffers, transferable } from "../src/pool/batch.js";
import { type StreamSettings, solveStreams } from "../src/stream/pipeline.js";
import { BIN, scratchFolder } from "./cli-run.js";

const { dir } = scratchFolder("sudoku-buffers-");

/** A Writable that reads each chunk's bytes only when it calls back, on a later turn (it holds up to 16 KiB, as a file stream does). */
function lateReader(): Writable & { bytes(): Buffer } {
  const parts: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Uint8Array, _encoding, done) {
      setImmediate(() => {
        parts.push(Buffer.from(chunk)); // a copy, taken late
        done();
      });
    },
  }) as Writable & { bytes(): Buffer };
  sink.bytes = () => Buffer.concat(parts);
  return sink;
}

/** A file of `records` distinct puzzle lines, written once for the tests that read it. */
const puzzleFiles = new Map<number, string>();
function puzzleFile(records: number): string {
  const path = `${dir}/puzzles-${records}.txt`;
  if (!puzzleFiles.has(records)) writeFileSync(path, relabelledPuzzleBytes(records, records));
  puzzleFiles.set(records, path);
  return path;
}

/** Solves the file at `path` with `solver`; the output and the buffers the main thread's pool made meanwhile. */
async function run(path: string, solver: BatchSolver, settings: Partial<StreamSettings>): Promise<{ output: Buffer; made: number }> {
  const out = lateReader();
  const before = batchBuffers.made;
  const input = {
    name: path,
    file: path,
    open: () => {
      throw new Error("a file with a path is read through it");
    },
  };
  const readBytes = 1 << 16; // the count below is of the batches sealed from one chunk
  await solveStreams([input], out, solver, {
    input: "auto",
    output: "line",
    limit: 2,
    batchSize: 64,
    maxInFlight: 4,
    workers: solver.threads,
    totalBytes: null,
    readBytes,
    ...settings,
  });
  out.end();
  await once(out, "finish");
  return { output: out.bytes(), made: batchBuffers.made - before };
}

describe("batch buffers", () => {
  const main = openBatchSolver(0);
  const worker = openBatchSolver(1, [], { warmUp: false });
  afterAll(async () => {
    await (await main).close();
    await (await worker).close();
  });

  /** The text path's bytes for the large file in each output format, solved once for the main thread's test and the worker's. */
  const textPath = new Map<string, Promise<Buffer>>();
  const textBytes = (path: string, output: "line" | "jsonl" | "csv") => {
    if (!textPath.has(output))
      textPath.set(
        output,
        main.then((solver) => run(path, solver, { output, fastPath: false, batchSize: 997 })).then((text) => text.output),
      );
    return textPath.get(output)!;
  };

  for (const [name, solver] of [
    ["the main thread", main],
    ["one worker", worker],
  ] as const) {
    for (const output of ["line", "jsonl", "csv"] as const) {
      it(`${name}, --out ${output}: buffers as many as are in use at once, not one set per batch; the bytes are the text path's`, async () => {
        const small = puzzleFile(2_000);
        const large = puzzleFile(20_000);
        await run(small, await solver, { output }); // the pool's first buffers of each size
        const { output: bytes, made } = await run(large, await solver, { output });
        // 313 batches of 64 records, 3 buffers each and 1 for the copy kept for a retry (its line
        // numbers; the cells are shared): ~1,250 made without reuse. With it, as many as are in use at once: the ~12 batches sealed from one
        // 64 KiB chunk, 4 in flight, and those whose bytes the stream still holds (16 KiB).
        expect(made).toBeLessThanOrEqual(48);
        expect(bytes.equals(await textBytes(large, output))).toBe(true);
        expect(bytes.length).toBeGreaterThan(20_000 * 82 - 1);
      }, 60_000);
    }
  }

  it("standard input redirected from a file (`solve < FILE`) is read through the one buffer too: the bytes of the file given by name", () => {
    const path = puzzleFile(30_000);
    const fd = openSync(path, "r");
    try {
      const redirected = spawnSync(process.execPath, [BIN, "solve", "--out", "jsonl", "--threads", "2"], { stdio: [fd, "pipe", "pipe"], maxBuffer: 1 << 28 });
      const named = spawnSync(process.execPath, [BIN, "solve", "--out", "jsonl", "--threads", "2", path], { maxBuffer: 1 << 28 });
      expect(redirected.status, redirected.stderr.toString()).toBe(0);
      expect(redirected.stdout.toString().split(JSON.stringify(path)).length).toBe(1);
      expect(redirected.stdout.toString()).toBe(named.stdout.toString().replaceAll(JSON.stringify(path), JSON.stringify("<stdin>")));
    } finally {
      closeSync(fd);
    }
  }, 60_000);

  it("a pool hands out powers of two, takes back only its own sizes, and never one buffer twice", () => {
    const pool = new BufferPool();
    const a = pool.take(5_000);
    expect(a.byteLength).toBe(8192);
    pool.give(a);
    pool.give(a);
    pool.give(new ArrayBuffer(5_000)); // not a pool size
    expect(pool.heldBytes).toBe(8192);
    expect(pool.take(8192)).toBe(a);
    expect(pool.take(8192)).not.toBe(a);
    expect(pool.made).toBe(2);
    const shared = pool.take(5_000, true);
    expect(shared).toBeInstanceOf(SharedArrayBuffer);
    pool.give(shared);
    expect(pool.take(8192)).not.toBe(shared); // kept apart from the ArrayBuffers
    expect(pool.take(8192, true)).toBe(shared);
  });

  it("a batch for workers holds its cells in shared memory: the copy kept for a retry shares them, and gives back only its own buffers", () => {
    const cells = new Uint8Array(3 * 81).fill(49);
    const build = (forWorkers: boolean) => {
      const builder = new BatchBuilder(64, 2, "line", null, undefined, undefined, forWorkers);
      builder.startFile("f.txt");
      builder.addCells(1, cells, 0, 3);
      builder.seal();
      return builder.takeReady()[0];
    };
    expect(build(false).fastBytes.buffer).toBeInstanceOf(ArrayBuffer); // the main thread's own batches
    const task = build(true);
    expect(task.fastBytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(transferable(taskBuffers(task))).not.toContain(task.fastBytes.buffer); // a message shares it
    const kept = copyTask(task);
    expect(kept.fastBytes).toBe(task.fastBytes);
    expect(kept.lines.buffer).not.toBe(task.lines.buffer);
    const held = batchBuffers.heldBytes;
    giveBackCopy(kept);
    expect(batchBuffers.heldBytes - held).toBe(kept.lines.buffer.byteLength); // the cells come back with the outcome, once
  });
});
