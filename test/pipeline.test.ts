/**
 * The streaming core's batching: batches sized to the work in flight (a small file reaches
 * every worker, the last batches shrink) and a pause in the input sends what was read and
 * writes what was solved, so a slow producer on a pipe sees its records. The solver is the
 * main-thread one, wrapped to record the batches it gets; the test decides when input comes.
 */
import { PassThrough, Readable, Writable } from "node:stream";
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { relabelledPuzzles } from "../bench/corpus.js";
import { type BatchSolver, openBatchSolver, sharedWithMain, withRetry } from "../src/pool/pool.js";
import { type BatchOutcome, type BatchTask, BatchBuilder, textTask } from "../src/pool/batch.js";
import { LineSplitter } from "../src/stream/lines.js";
import { BATCH_TARGET_MS, FIRST_BATCH, INPUT_PAUSE_MS, MIN_BATCH, batchCapacity, recordsToCome, solveStreams } from "../src/stream/pipeline.js";

const inner = await openBatchSolver(0);
afterAll(() => inner.close());

/** The main-thread solver, posing as `workers` threads; records the size of each batch it gets. */
function recordingSolver(workers: number): BatchSolver & { sizes: number[] } {
  const sizes: number[] = [];
  return {
    threads: workers,
    sizes,
    room: () => Infinity,
    solve: (task: BatchTask) => (sizes.push(task.lines.length), inner.solve(task)),
    close: async () => {},
  };
}

/** A Writable that keeps what it is given. */
function collector(): Writable & { text: string } {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      sink.text += chunk;
      done();
    },
  }) as Writable & { text: string };
  sink.text = "";
  return sink;
}

const settings = { input: "auto", output: "line", limit: 2, batchSize: 4096, maxInFlight: 4 } as const;

describe("batches sized to the work in flight", () => {
  it("a 1,000-puzzle file with the default --batch reaches every worker; the last batches shrink", async () => {
    const text = relabelledPuzzles(1000, 5);
    const solver = recordingSolver(2);
    const out = collector();
    await solveStreams([{ name: "small.txt", open: () => Readable.from([Buffer.from(text)]) }], out, solver, {
      ...settings,
      workers: 2,
      totalBytes: text.length,
    });
    expect(solver.sizes.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(solver.sizes.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...solver.sizes)).toBeLessThanOrEqual(250);
    expect(out.text.split("\n")).toHaveLength(1001);
    // The same bytes as one batch.
    const single = collector();
    await solveStreams([{ name: "small.txt", open: () => Readable.from([Buffer.from(text)]) }], single, inner, { ...settings, batchSize: 1 << 20 });
    expect(out.text).toBe(single.text);
  });

  it("batchCapacity: a share of what is left per worker, between the smallest batch and --batch", () => {
    const file = (records: number, bytes: number) => ({ records, bytes, totalBytes: 82_000_000 });
    expect(batchCapacity(file(0, 0), 4096, 2)).toBe(4096); // a million lines ahead
    expect(batchCapacity(file(999_000, 81_918_000), 4096, 2)).toBe(250); // a thousand left: 250 per batch
    expect(batchCapacity(file(999_990, 81_999_180), 4096, 2)).toBe(MIN_BATCH);
    expect(batchCapacity(file(0, 0), 100, 2)).toBe(100); // --batch caps it
    expect(batchCapacity(file(990_000, 81_180_000), 4096, 2)).toBe(2500);
    expect(batchCapacity(file(990_000, 81_180_000), 4096, 2, 4)).toBe(625); // a shard solves a quarter of what is left
    const stdin = (records: number) => ({ records, bytes: records * 82, totalBytes: null });
    expect([0, 1000, 10_000, 100_000].map((n) => batchCapacity(stdin(n), 4096, 2))).toEqual([MIN_BATCH, 250, 2500, 4096]);
    expect(batchCapacity(stdin(0), 10, 2)).toBe(10);
    // about BATCH_TARGET_MS of solving, on workers and on the main thread alone; before any is solved, FIRST_BATCH for workers and
    // MIN_BATCH on the main thread (a signal waits for the batches of a chunk sealed)
    expect([2, 0].map((workers) => batchCapacity(file(0, 0), 4096, workers, 1, null))).toEqual([FIRST_BATCH, MIN_BATCH]);
    expect([2, 0].map((workers) => batchCapacity(file(0, 0), 4096, workers, 1, BATCH_TARGET_MS / 500))).toEqual([500, 500]);
    expect(batchCapacity(file(0, 0), 4096, 0, 1, 0.0001)).toBe(4096);
  });

  it("tells the solver, with each batch, the records its run has still to read: a share of them with --shard; none for an input of unknown size", async () => {
    expect(recordsToCome({ records: 1000, bytes: 82_000, totalBytes: 820_000 })).toBe(9000);
    expect(recordsToCome({ records: 0, bytes: 0, totalBytes: 820_000 })).toBe(10_000); // a 9×9 line's bytes until one is read
    expect(recordsToCome({ records: 1000, bytes: 82_000, totalBytes: null })).toBeNull();
    const text = relabelledPuzzles(2000, 5);
    for (const [totalBytes, shard] of [
      [text.length, { index: 0, count: 1 }],
      [text.length, { index: 1, count: 4 }],
      [null, { index: 0, count: 1 }],
    ] as const) {
      const told: (number | null | undefined)[] = [];
      const solver: BatchSolver = { ...inner, threads: 2, solve: (task, toCome) => (told.push(toCome), inner.solve(task)) };
      const input = { name: "f.txt", open: () => Readable.from([Buffer.from(text.slice(0, 82_000)), Buffer.from(text.slice(82_000))]) };
      await solveStreams([input], collector(), solver, { ...settings, batchSize: 100, workers: 2, totalBytes, shard });
      if (totalBytes === null) expect(told.every((n) => n === null)).toBe(true);
      else {
        expect(told[0]).toBeGreaterThan(900 / shard.count); // the second chunk is still to read
        expect(told[0]).toBeLessThanOrEqual(2000 / shard.count);
        expect(told.at(-1)).toBe(0);
      }
    }
  });

  it("batchCapacity with a solving rate: about BATCH_TARGET_MS of work per batch, FIRST_BATCH before any is solved", () => {
    const file = { records: 0, bytes: 0, totalBytes: 82_000_000 };
    expect(batchCapacity(file, 4096, 2, 1, null)).toBe(FIRST_BATCH);
    expect(batchCapacity(file, 4096, 2, 1, 0.1)).toBe(BATCH_TARGET_MS / 0.1); // hard puzzles, 100 µs each
    expect(batchCapacity(file, 4096, 2, 1, 0.001)).toBe(4096); // easy ones: --batch caps it
    expect(batchCapacity(file, 4096, 2, 1, 10)).toBe(MIN_BATCH);
  });

  for (const [kind, msPerRecord] of [
    ["hard", 0.1],
    ["easy", 0.001],
  ] as const) {
    it(`batches for workers are sized to the solving time each solved batch reports: ${kind} puzzles`, async () => {
      const text = relabelledPuzzles(20_000, 8);
      const recording = recordingSolver(2);
      // The outcomes say each record took msPerRecord, as a worker's solveBatch measures it.
      const solver: BatchSolver = { ...recording, solve: async (task) => ({ ...(await recording.solve(task)), solveMs: task.lines.length * msPerRecord }) };
      const out = collector();
      const bytes = Buffer.from(text);
      const chunks = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536)); // as a file is read
      await solveStreams([{ name: "f.txt", open: () => Readable.from(chunks) }], out, solver, { ...settings, workers: 2, totalBytes: text.length });
      expect(recording.sizes.reduce((a, b) => a + b, 0)).toBe(20_000);
      expect(recording.sizes[0]).toBeLessThanOrEqual(FIRST_BATCH);
      if (kind === "easy")
        expect(Math.max(...recording.sizes)).toBeGreaterThan(2000); // a share of what is left
      else {
        // FIRST_BATCH until the first is solved, then 25 ms / 0.1 ms = 250 (a share of what is left would be up to 2,500);
        // records held past INPUT_PAUSE_MS on a loaded machine go in smaller batches, never larger ones.
        expect(Math.max(...recording.sizes)).toBeLessThanOrEqual(FIRST_BATCH);
        expect(recording.sizes).toContain(BATCH_TARGET_MS / msPerRecord);
      }
    });
  }
});

describe("a pause in the input", () => {
  it("sends the records read and writes them solved before more input comes (a slow producer sees its records)", async () => {
    const lines = relabelledPuzzles(30, 6).split("\n");
    const input = new PassThrough();
    const out = collector();
    const written = new Promise<void>((resolve) => {
      const check = setInterval(() => out.text.split("\n").length > 10 && (clearInterval(check), resolve()), 5);
    });
    const run = solveStreams([{ name: "<stdin>", open: () => input }], out, recordingSolver(2), { ...settings, workers: 2, totalBytes: null });
    input.write(lines.slice(0, 10).join("\n") + "\n");
    await written; // resolves only if the first 10 are written while the input stays open
    expect(out.text.split("\n")).toHaveLength(11);
    input.end(lines.slice(10).join("\n"));
    await run;
    expect(out.text.split("\n")).toHaveLength(31);
  });

  /**
   * Gives one line every `every` ms (after keeping the event loop busy for `busy` ms) until the
   * output has a record; returns how many lines that took, then ends the input and checks the run.
   */
  async function trickle(every: number, busy: number): Promise<number> {
    const lines = relabelledPuzzles(2000, 8).split("\n");
    const input = new PassThrough();
    const out = collector();
    const solver = recordingSolver(2);
    const run = solveStreams([{ name: "<stdin>", open: () => input }], out, solver, { ...settings, workers: 2, totalBytes: null });
    let given = 0;
    const firstOutput = await new Promise<number>((resolve) => {
      const timer = setInterval(() => {
        if (out.text.length > 0 || given === lines.length - 1) return void (clearInterval(timer), resolve(given));
        for (const start = performance.now(); performance.now() - start < busy; );
        input.write(lines[given++] + "\n");
      }, every);
    });
    expect(out.text, "nothing written while the producer trickled").not.toBe("");
    input.end(lines.slice(given).join("\n"));
    await run;
    expect(out.text.split("\n")).toHaveLength(2001);
    expect(solver.sizes.reduce((a, b) => a + b, 0)).toBe(2000);
    return firstOutput;
  }

  it("a producer that never pauses but trickles (a line every fifth of the pause) sees its first records before it has sent a batch's worth", async () => {
    expect(await trickle(INPUT_PAUSE_MS / 5, 0)).toBeLessThan(MIN_BATCH);
  });

  it("so does one whose every line comes just after the pause, ahead of the timer (the producer keeps the event loop busy meanwhile)", async () => {
    expect(await trickle(1, INPUT_PAUSE_MS + 5)).toBeLessThan(MIN_BATCH);
  });
});

describe("a worker pool", () => {
  it("is ready only once a worker has loaded its engines (piscina counts a starting worker as idle), and then solves as the main thread does", async () => {
    const pool = await openBatchSolver(1, [], { warmUp: false });
    try {
      expect(pool.room!()).toBe(0);
      while (pool.room!() === 0) await new Promise((next) => setTimeout(next, 5));
      expect(pool.room!()).toBe(2); // the worker, its batch and the next
      const task = () => textTask({ file: "f.txt", firstIndex: 0, texts: relabelledPuzzles(50, 3).trimEnd().split("\n"), limit: 2, output: "jsonl" });
      const text = (outcome: BatchOutcome) => Buffer.from(outcome.bytes).toString("utf8");
      expect(text(await pool.solve(task()))).toBe(text(await inner.solve(task())));
    } finally {
      await pool.close();
    }
  });
});

describe("the main thread solves beside the workers", () => {
  const SLICE = 64;
  /**
   * Stand-in workers: no room until `room()` has been asked `after` times, then room for
   * `capacity` batches out; they record the tasks they get and answer with the main thread when
   * the test lets them (`answer()`), or at once.
   */
  function stubWorkers(after: number, capacity = Infinity, held = false) {
    let asked = 0;
    let out = 0;
    const tasks: BatchTask[] = [];
    const pending: (() => void)[] = [];
    const workers: BatchSolver = {
      threads: 2,
      room: () => (++asked > after ? capacity - out : 0),
      solve: (task) => {
        tasks.push(task);
        out++;
        const answer = () => inner.solve(task).finally(() => out--);
        return held ? new Promise((resolve) => pending.push(() => resolve(answer()))) : answer();
      },
      close: async () => {},
    };
    const started = { count: 0 };
    const start = () => (started.count++, workers);
    return { start, tasks, started, answer: () => pending.shift()!() };
  }
  const task = (firstIndex = 10) => {
    const text = relabelledPuzzles(300, 9 + firstIndex);
    return textTask({ file: "f.txt", firstIndex, indexStep: 3, texts: text.trimEnd().split("\n"), limit: 2, output: "jsonl" });
  };
  const text = (outcome: BatchOutcome) => Buffer.from(outcome.bytes).toString("utf8");
  const turn = () => new Promise((next) => setImmediate(next));

  it("solves a small input on the main thread and starts no worker", async () => {
    const { start, tasks, started } = stubWorkers(0);
    const whole = text(await inner.solve(task()));
    expect(text(await sharedWithMain(start, inner, 2, { startAfterMs: Infinity }).solve(task()))).toBe(whole);
    expect(started.count).toBe(0);
    expect(tasks).toHaveLength(0);
  });

  it("starts the workers only when the solving the run says it has left pays for their start; when it cannot tell, at once", async () => {
    const whole = text(await inner.solve(task()));
    // The first slice takes all but the last record: the rule then weighs one record left at the rate those solved at, so
    // no stall of the main thread on a loaded machine (64 records taking 61 ms would have started the workers) sways it.
    const slice = 299;
    for (const [recordsToCome, starts, threads, cores] of [
      [0, 0, 2, 2], // 300 easy records in all: well under a millisecond of solving
      [1e9, 1, 2, 2], // a billion to come
      [null, 1, 2, 2], // an input of unknown size
      [1e9, 0, 2, 1], // one core: threads solve no faster than the main thread alone
      [3e5, 1, 2, 4], // 300,000 to come (under a second of solving), on enough cores
      // 256 threads on 4 cores: each start costs a core its time, 64 starts per core (9.6 s); 30,000 records would need 430 µs
      // each to pay for them (300,000 needed 43 µs, which a loaded machine's first slice reached)
      [3e4, 0, 256, 4],
    ] as const) {
      const { start, started } = stubWorkers(Infinity);
      const solved = await sharedWithMain(start, inner, threads, { startAfterMs: 0, sliceRecords: slice, cores }).solve(task(), recordsToCome);
      expect(text(solved)).toBe(whole);
      expect(started.count, `records to come: ${recordsToCome}, ${threads} threads on ${cores} cores`).toBe(starts);
    }
  });

  it("solves on the main thread, a slice at a time, while no worker has room: the batch's own output", async () => {
    const { start, tasks, started } = stubWorkers(Infinity);
    const whole = text(await inner.solve(task()));
    expect(text(await sharedWithMain(start, inner, 2, { startAfterMs: 0, sliceRecords: SLICE }).solve(task()))).toBe(whole);
    expect(started.count).toBe(1);
    expect(tasks).toHaveLength(0);
  });

  it("sends the rest of the batch to the workers once they have room, numbered from where the main thread stopped", async () => {
    const { start, tasks } = stubWorkers(2);
    const whole = text(await inner.solve(task()));
    expect(text(await sharedWithMain(start, inner, 2, { startAfterMs: 0, sliceRecords: SLICE }).solve(task()))).toBe(whole);
    const mainSlices = 3; // room is asked after each slice, and there is none the first two times
    expect(tasks).toHaveLength(1);
    expect(tasks[0].lines.length).toBe(300 - mainSlices * SLICE);
    expect(tasks[0].firstIndex).toBe(10 + mainSlices * SLICE * 3);
    expect(tasks[0].lines[0]).toBe(mainSlices * SLICE + 1);
  });

  it("takes a waiting batch while the workers are full, and gives them the rest once one of theirs is answered", async () => {
    const { start, tasks, answer } = stubWorkers(0, 1, true);
    const solver = sharedWithMain(start, inner, 2, { startAfterMs: 0, sliceRecords: SLICE });
    const [a, b] = [task(10), task(1000)];
    const wholeA = text(await inner.solve(task(10)));
    const wholeB = text(await inner.solve(task(1000)));
    const solvedA = solver.solve(a); // the first slice of A on the main thread starts the workers
    await turn();
    await turn(); // the rest of A went to the workers, which are now full
    expect(tasks).toHaveLength(1);
    const solvedB = solver.solve(b);
    await turn(); // the main thread solves a slice of B
    expect(tasks).toHaveLength(1);
    answer(); // A's part is answered: room for B's rest
    expect(text(await solvedA)).toBe(wholeA);
    while (tasks.length < 2) await turn();
    answer();
    expect(text(await solvedB)).toBe(wholeB);
    const mainRecords = tasks[1].lines[0] - 1; // B's records solved on the main thread
    expect(mainRecords).toBeGreaterThan(0);
    expect(mainRecords % SLICE).toBe(0);
    expect(tasks[1].lines.length).toBe(300 - mainRecords);
    expect(tasks[1].firstIndex).toBe(1000 + mainRecords * 3);
  });

  it("without mainHelps, leaves a waiting batch to the workers once they have started", async () => {
    const { start, tasks, answer } = stubWorkers(0, 1, true);
    const solver = sharedWithMain(start, inner, 2, { startAfterMs: 0, sliceRecords: SLICE, mainHelps: false });
    const wholeB = text(await inner.solve(task(1000)));
    const solvedA = solver.solve(task(10));
    await turn();
    await turn();
    const solvedB = solver.solve(task(1000));
    await turn();
    await turn();
    expect(tasks).toHaveLength(1); // B waits whole
    answer();
    await solvedA;
    while (tasks.length < 2) await turn();
    answer();
    expect(text(await solvedB)).toBe(wholeB);
    expect(tasks[1].lines.length).toBe(300);
    expect(tasks[1].firstIndex).toBe(1000);
  });
});

describe("one 9×9 kernel instance per thread", () => {
  const puzzles = relabelledPuzzles(5, 7).trimEnd().split("\n");

  it("the main thread's line scan runs on the kernel it solves on: it scans after a batch that grew that kernel's memory; beside the N×N kernel, on the kernel that writes the records", async () => {
    const solver = await openBatchSolver(0);
    const twin = await openBatchSolver(0, ["general-wasm"]);
    try {
      const chunk = Buffer.from(`${puzzles.join("\n")}\n# not a puzzle\n`);
      // The reader's split of the chunk on the solver's scanner: the 9×9 lines as cells, the rest as text.
      const scanned = (on = solver) => {
        const fast: string[] = [];
        const text: string[] = [];
        const sink = {
          line: (line: string) => text.push(line),
          fastLines: (cells: Uint8Array, start: number, count: number) => {
            for (let k = 0; k < count; k++) fast.push(Buffer.from(cells.subarray(start + 81 * k, start + 81 * (k + 1))).toString("latin1"));
            return count;
          },
        };
        new LineSplitter(sink, on.scanner).push(chunk);
        return { fast, text };
      };
      const before = scanned();
      expect(before).toEqual({ fast: puzzles, text: ["# not a puzzle"] });
      expect(scanned(twin)).toEqual(before);
      const many = relabelledPuzzles(20_000, 3).trimEnd().split("\n");
      const solved = await solver.solve(textTask({ file: "in.txt", firstIndex: 0, limit: 2, output: "line", texts: many }));
      expect(solved.tally[0]).toBe(many.length);
      expect(scanned()).toEqual(before);
    } finally {
      await solver.close();
      await twin.close();
    }
  });

  it("the main thread's retry solves the task itself (nothing of it went to another thread), a worker's retry a copy", async () => {
    const task = textTask({ file: "in.txt", firstIndex: 0, limit: 2, output: "line", texts: [puzzles[0]] });
    const attempts: BatchTask[] = [];
    const failOnce = async (attempt: BatchTask) => {
      attempts.push(attempt);
      if (attempts.length % 2 === 1) throw new Error("the first attempt fails");
      return inner.solve(attempt);
    };
    await withRetry(task, failOnce, failOnce, false);
    expect(attempts[1]).toBe(task);
    await withRetry(task, failOnce, failOnce);
    expect(attempts[3]).not.toBe(task);
    expect(attempts[3].texts).toEqual(task.texts);
  });
});

describe("the batch builder keeps the run's share of the records it is given", () => {
  /** Builds batches of `fast` fast records, then `texts` text records, with `--shard shard/shards` and `--resume` past `skip`. */
  const build = (shard: number, shards: number, skip: number, fast: number, texts: number): BatchTask[] => {
    const builder = new BatchBuilder(1000, 2, "line");
    builder.select(shard, shards, skip);
    builder.startFile("f.txt");
    const cells = new Uint8Array(fast * 81).map((_, i) => 49 + Math.floor(i / 81)); // record k's cells all hold byte 49 + k
    builder.addCells(1, cells, 0, fast);
    for (let t = 0; t < texts; t++) builder.add(fast + 1 + t, `text ${t}`, null);
    expect(builder.recordsRead).toBe(fast + texts);
    builder.seal();
    return builder.takeReady();
  };

  it("takes every record of a whole run, the fast ones in one piece", () => {
    const [task] = build(0, 1, 0, 5, 2);
    expect([task.firstIndex, task.indexStep]).toEqual([0, 1]);
    expect([...task.lines]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(task.texts).toEqual(["text 0", "text 1"]);
  });

  it("takes index mod N = K from the shard's record number `skip` on, fast and text records alike", () => {
    const [task] = build(1, 3, 1, 8, 4); // indexes 0–11; shard 1 has 1, 4, 7, 10; past the first: 4, 7, 10
    expect([task.firstIndex, task.indexStep]).toEqual([4, 3]);
    expect([...task.lines]).toEqual([5, 8, 11]);
    expect([...task.fastBytes.subarray(0, 2 * 81)].filter((_, i) => i % 81 === 0)).toEqual([49 + 4, 49 + 7]);
    expect(task.texts).toEqual(["text 2"]);
  });

  it("skips the records a resumed whole run wrote before, even within one run of fast lines", () => {
    const [task] = build(0, 1, 3, 5, 1);
    expect(task.firstIndex).toBe(3);
    expect([...task.lines]).toEqual([4, 5, 6]);
    expect(task.fastBytes[0]).toBe(49 + 3);
  });
});

describe("a stop", () => {
  it("once a file's last record was read lets the run finish (nothing stopped); before, it stops the run and sends no more batches", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sudoku-pipeline-stop-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "ended.txt");
    writeFileSync(path, relabelledPuzzles(300, 8)); // one chunk: five batches of 60, none held
    for (const abortAfter of [5, 1]) {
      const stop = new AbortController();
      let batches = 0;
      const solver: BatchSolver = {
        ...inner,
        threads: 0,
        solve: (task) => {
          const solved = inner.solve(task);
          if (++batches === abortAfter) stop.abort(); // the signal, as the batch is solved
          return solved;
        },
      };
      const out = collector();
      const input = { name: "ended.txt", open: () => createReadStream(path), file: path };
      const totals = await solveStreams([input], out, solver, { ...settings, batchSize: 60, workers: 0, stop: stop.signal });
      expect([totals.stopped, out.text.split("\n").length - 1, batches], `abort after batch ${abortAfter}`).toEqual(
        abortAfter === 5 ? [false, 300, 5] : [true, 60, 1],
      );
    }
  });
});

describe("a stop between the batches of a chunk", () => {
  it("sends none after the first it drops, the records held too: the output ends before it, with no gap", async () => {
    const text = relabelledPuzzles(300, 9); // one chunk: four batches of 64 sealed at once, 44 records held
    const stop = new AbortController();
    const solver: BatchSolver = {
      ...inner,
      threads: 0,
      solve: (task) => {
        const solved = inner.solve(task);
        const until = performance.now() + INPUT_PAUSE_MS + 10; // the held records wait long enough to be sent at the next pause
        while (performance.now() < until);
        stop.abort(); // the signal, as the first batch is solved
        return solved;
      },
    };
    const out = collector();
    const input = { name: "stopped.txt", open: () => Readable.from([Buffer.from(text)]) };
    const totals = await solveStreams([input], out, solver, { ...settings, output: "jsonl", batchSize: 64, workers: 0, stop: stop.signal });
    expect(totals.stopped).toBe(true);
    const indices = out.text
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { index: number }).index);
    expect(indices).toEqual(Array.from({ length: 64 }, (_, i) => i));
  });
});
