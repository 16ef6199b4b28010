/**
 * The browser's pool (src/pool/web-pool.ts) run in Node over a stand-in for the browser's
 * `Worker`: each stand-in answers the worker module's protocol (web-pool-worker.ts) with the real
 * batch solving (records-task.ts) on engines of its own, and every message crosses as a browser
 * sends it, through a structured clone that detaches what is transferred. The page is not
 * cross-origin isolated, so no memory is shared: a batch's memory goes to its worker and back.
 * Workers that fail a batch, die or close themselves are driven from here; the page's Web Locks
 * are a stand-in too, each worker holding its lock until it ends. test/package.test.ts runs the
 * real module in Chromium, bundled by Vite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Solver, SolveRecord } from "../src/index.js";
import type { SolverPool } from "../src/pool/pool-core.js";
import type { RecordsOutcome, RecordsTask } from "../src/pool/records-task.js";
import type { SizeEngine } from "../src/solvers/solver.js";
import type { FromWorker, ToWorker } from "../src/pool/web-pool-worker.js";
import { relabelledPuzzles } from "../bench/corpus.js";
import { loadFixture } from "./fixture.js";

/**
 * What the stand-in workers do with a batch solved under `limit: 3`: solve it, fail it (an error answered), die (an error
 * event, no answer), or close (self.close(): no error event, no answer; only its lock is let go).
 */
let onLimitThree: "solve" | "fail once" | "fail" | "die once" | "die" | "close once" | "close" = "solve";
/** Set: a worker dies as it starts, with this message. */
let startFailure: string | null = null;
const started: StandInWorker[] = [];
/** Whether each batch's memory reached its worker as an ArrayBuffer of its own (transferred), by batch. */
const transferred: boolean[] = [];

let solveHere: (engines: ReadonlyMap<number, SizeEngine>, task: RecordsTask) => RecordsOutcome;
let outcomeBuffers: (outcome: RecordsOutcome) => ArrayBuffer[];
let loadEngines: (ids: string[]) => Promise<ReadonlyMap<number, SizeEngine>>;

/** The page's Web Locks (navigator.locks): a request is granted once no one holds the name, and holds it until its callback's promise settles. */
class StandInLocks {
  private readonly waiting = new Map<string, (() => void)[]>();

  request(name: string, callback: () => unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const grant = () =>
        Promise.resolve()
          .then(callback)
          .then(resolve, reject)
          .finally(() => this.next(name));
      const queue = this.waiting.get(name);
      if (queue === undefined) {
        this.waiting.set(name, []);
        grant();
      } else queue.push(grant);
    });
  }

  private next(name: string): void {
    const grant = this.waiting.get(name)!.shift();
    if (grant === undefined) this.waiting.delete(name);
    else grant();
  }
}
const locks = new StandInLocks();

/** The browser's Worker, for web-pool.ts: answers as web-pool-worker.ts does, a macrotask later. */
class StandInWorker {
  onmessage: ((event: { data: FromWorker }) => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  terminated = false;
  private engines: ReadonlyMap<number, SizeEngine> | null = null;
  /** Lets go of the worker's lock, as a browser does when the worker ends. */
  private letGo: () => void = () => {};

  constructor(
    readonly url: URL,
    readonly options: { type?: string },
  ) {
    started.push(this);
  }

  postMessage(message: ToWorker, transfer: Transferable[] = []): void {
    // A browser refuses to send a buffer already sent (Node's structuredClone sends it empty).
    if (transfer.some((buffer) => buffer instanceof ArrayBuffer && buffer.byteLength === 0))
      throw new DOMException("An ArrayBuffer is detached", "DataCloneError");
    const received = structuredClone(message, { transfer }); // a transferred buffer is detached here, as in a browser
    setImmediate(() => void this.receive(received));
  }

  terminate(): void {
    this.terminated = true;
    this.letGo();
  }

  private answer(message: FromWorker, transfer: Transferable[] = []): void {
    const received = structuredClone(message, { transfer });
    setImmediate(() => !this.terminated && this.onmessage?.({ data: received }));
  }

  private die(message: string): void {
    this.terminate();
    this.fail(message);
  }

  /** An error event, as a browser fires for an error the worker did not catch (here it goes on answering, unless it died). */
  fail(message: string): void {
    this.onerror?.({ message, preventDefault: () => {} });
  }

  private async receive(message: ToWorker): Promise<void> {
    if (this.terminated) return;
    if (message.kind === "start") {
      const { lock } = message;
      if (lock !== undefined) {
        const held = () => {
          this.answer({ kind: "watch" });
          return new Promise<void>((letGo) => (this.letGo = letGo));
        };
        await new Promise<void>((granted) => {
          void locks.request(lock, () => {
            granted();
            return held();
          });
        });
      }
      if (startFailure !== null) return this.die(startFailure);
      this.engines = await loadEngines(message.solvers);
      return this.answer({ kind: "ready" });
    }
    const { id, task } = message;
    const memory = task.memory instanceof ArrayBuffer ? task.memory : undefined;
    transferred.push(memory !== undefined);
    if (task.options.limit === 3 && onLimitThree !== "solve") {
      const mode = onLimitThree;
      if (mode.endsWith("once")) onLimitThree = "solve";
      if (mode.startsWith("die")) return this.die("killed");
      if (mode.startsWith("close")) return this.terminate(); // self.close(): no error event, no answer
      return this.answer({ kind: "failed", id, error: "a failure", memory }, memory ? [memory] : []);
    }
    let outcome: RecordsOutcome;
    try {
      outcome = solveHere(this.engines!, task);
    } catch (error) {
      return this.answer({ kind: "failed", id, error: String(error), memory }, memory ? [memory] : []);
    }
    this.answer({ kind: "solved", id, outcome: { ...outcome, memory } }, [...(memory ? [memory] : []), ...outcomeBuffers(outcome)]);
  }
}

let createPool: (options?: { threads?: number; batchSize?: number; solver?: string }) => Promise<SolverPool>;
/** Node's own navigator (Node 21 on), put back after the tests. */
const navigator = Object.getOwnPropertyDescriptor(globalThis, "navigator");
let solver: Solver;
let pool: SolverPool;

beforeAll(async () => {
  // Before the package's modules load: a page that is not cross-origin isolated, with the stand-ins for its Worker and Web Locks.
  Object.assign(globalThis, { crossOriginIsolated: false, Worker: StandInWorker });
  Object.defineProperty(globalThis, "navigator", { value: { locks }, configurable: true, writable: true }); // (Node 21 on has a navigator of its own)
  const records = await import("../src/pool/records-task.js");
  solveHere = records.solveRecordsHere;
  outcomeBuffers = records.recordsOutcomeBuffers;
  loadEngines = (await import("../src/pool/engines.js")).loadBatchEngines as typeof loadEngines;
  createPool = (await import("../src/pool/web-pool.js")).createPool;
  solver = await (await import("../src/index.js")).createSolver();
  pool = await createPool({ threads: 2, batchSize: 7 });
});
afterAll(async () => {
  await pool?.close();
  Object.assign(globalThis, { crossOriginIsolated: undefined, Worker: undefined });
  if (navigator === undefined) delete (globalThis as { navigator?: unknown }).navigator;
  else Object.defineProperty(globalThis, "navigator", navigator);
});

const fixture = loadFixture("all").map((c) => c.puzzle);
const MIXED = [...fixture, "bad", "..3..4.22...4..1", fixture[0].replace(/\./, "x"), ...relabelledPuzzles(40).split("\n").slice(0, 40)];

const collect = async (records: AsyncIterable<SolveRecord>) => {
  const all: SolveRecord[] = [];
  for await (const record of records) all.push(record);
  return all;
};

describe("the browser's pool, over stand-in Web Workers", () => {
  it("starts its workers as module workers of web-pool-worker.js", () => {
    expect(started.length).toBe(2);
    expect(started.every((worker) => worker.options.type === "module" && /web-pool-worker\.js$/.test(worker.url.pathname))).toBe(true);
  });

  it("gives Solver.solveMany's records in input order, each batch's memory transferred to its worker and back", async () => {
    const expected = solver.solveMany(MIXED, { limit: 2 });
    transferred.length = 0;
    expect(await pool.solveMany(MIXED, { limit: 2 })).toEqual(expected);
    expect(transferred.length).toBeGreaterThan(MIXED.length / 7 - 1);
    expect(transferred.every(Boolean)).toBe(true);
    async function* lines() {
      yield* MIXED;
    }
    expect(await collect(pool.solveStream(lines(), { limit: 2 }))).toEqual(expected);
    // A web stream of lines, read with its reader.
    const web = new ReadableStream<string>({
      start(controller) {
        for (const line of MIXED) controller.enqueue(line);
        controller.close();
      },
    });
    expect(await collect(pool.solveStream(web, { limit: 2 }))).toEqual(expected);
  });

  it("reads a stream of bytes (a fetch body) as lines, one record per line as Node's pool reads it", async () => {
    const text = `\uFEFF${MIXED.join("\r\n")}\n\nlast line`;
    const expected = solver.solveMany([...MIXED, "", "last line"], { limit: 2 });
    expect(await pool.solveMany(new Response(text).body!, { limit: 2 })).toEqual(expected);
    expect(await collect(pool.solveStream(new Response(text).body!, { limit: 2 }))).toEqual(expected);
  });

  it("says what a chunk of bytes from a stream of items is (a web ReadableStream that is no byte source, as a DecompressionStream's)", async () => {
    const text = new TextEncoder().encode(`${fixture[0]}\n${fixture[1]}\n`);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(text);
        controller.close();
      },
    });
    const records = await pool.solveMany(chunks as never);
    expect(records).toHaveLength(1); // one chunk, one input, as docs/library.md says
    expect(records[0].error).toMatch(
      /^expected 16, 81, 256, 625 cells, got 164 \(bytes of text with line breaks: a chunk of a stream\? .*stream of bytes itself, which it reads as lines\)$/,
    );
  });

  it("solves a batch again on a fresh worker when its worker answers with a failure, and replaces that worker", async () => {
    const expected = solver.solveMany(MIXED, { limit: 3 });
    const before = started.length;
    onLimitThree = "fail once";
    expect(await pool.solveMany(MIXED, { limit: 3 })).toEqual(expected);
    expect(started.length).toBe(before + 2); // the retry's worker, and the failed one's replacement
    expect(started.filter((worker) => !worker.terminated).length).toBe(2);
  });

  it("solves a batch again on a fresh worker when its worker closes itself (no error event, no answer), and replaces that worker", async () => {
    const expected = solver.solveMany(MIXED, { limit: 3 });
    const before = started.length;
    onLimitThree = "close once";
    expect(await pool.solveMany(MIXED, { limit: 3 })).toEqual(expected);
    expect(onLimitThree).toBe("solve"); // a worker did close
    expect(started.length).toBe(before + 2); // the retry's worker, and the closed one's replacement
    expect(started.filter((worker) => !worker.terminated).length).toBe(2);
  });

  it("gives `error` records for the batches of a worker that fails twice, dies or closes itself, keeps the other records, and goes on", async () => {
    const lines = MIXED.slice(0, 21);
    const expected = solver.solveMany(lines, { limit: 3 });
    for (const mode of ["fail", "die", "close"] as const) {
      onLimitThree = mode;
      const records = await pool.solveMany(lines, { limit: 3 });
      onLimitThree = "solve";
      expect(records.length).toBe(lines.length);
      records.forEach((record, i) => {
        if (expected[i].status === "invalid") expect(record).toEqual(expected[i]);
        else expect(record).toMatchObject({ status: "error", error: expect.stringContaining("the solver failed on this puzzle's batch (twice)") });
      });
      expect(await pool.solveMany(lines, { limit: 2 })).toEqual(solver.solveMany(lines, { limit: 2 }));
    }
    expect(started.filter((worker) => !worker.terminated).length).toBe(2);
  });

  it("solves again a batch whose worker died with its memory (not shared), from an array and from a stream of bytes", async () => {
    const lines = MIXED.slice(0, 30);
    const expected = solver.solveMany(lines, { limit: 3 });
    for (const input of [() => lines, () => new Response(lines.join("\n")).body!]) {
      onLimitThree = "die once";
      expect(await pool.solveMany(input(), { limit: 3 })).toEqual(expected);
      expect(onLimitThree).toBe("solve"); // a worker did die
    }
  });

  it("gives a stream of bytes' lines `error` records, one each in order, when their worker fails twice or dies twice, and goes on", async () => {
    const lines = MIXED.slice(0, 21);
    const expected = solver.solveMany(lines, { limit: 3 });
    for (const mode of ["fail", "die"] as const) {
      onLimitThree = mode;
      const records = await pool.solveMany(new Response(lines.join("\n")).body!, { limit: 3 });
      onLimitThree = "solve";
      expect(records.length).toBe(lines.length);
      records.forEach((record, i) => {
        if (expected[i].status === "invalid") expect(record).toEqual(expected[i]);
        else expect(record).toMatchObject({ status: "error", error: expect.stringContaining("the solver failed on this puzzle's batch (twice)") });
      });
    }
    expect(await pool.solveMany(new Response(lines.join("\n")).body!, { limit: 2 })).toEqual(solver.solveMany(lines, { limit: 2 }));
  });

  it("closes while a retry's worker is starting: the call rejects, nothing waits on the start", async () => {
    const closing = await createPool({ threads: 1, batchSize: 10 });
    const before = started.length;
    onLimitThree = "fail once";
    const busy = closing.solveMany(MIXED.slice(0, 30), { limit: 3 });
    while (started.length < before + 2) await new Promise(setImmediate); // the replacement and the retry's worker, starting
    await closing.close();
    onLimitThree = "solve";
    await expect(busy).rejects.toThrow("the pool is closed");
    expect(started.slice(before - 1).every((worker) => worker.terminated)).toBe(true);
  });

  it("replaces a worker that fails while it holds no batch (an error event): the next batches go to a new one", async () => {
    const lines = MIXED.slice(0, 30);
    const live = started.filter((worker) => !worker.terminated);
    live[0].fail("an uncaught error");
    expect(await pool.solveMany(lines, { limit: 2 })).toEqual(solver.solveMany(lines, { limit: 2 }));
    expect(live[0].terminated).toBe(true);
    expect(started.filter((worker) => !worker.terminated).length).toBe(2);
  });

  it("closes while busy: the call in progress and every later one reject, every worker ends, and no batch's memory is reused", async () => {
    const { batchBuffers } = await import("../src/pool/batch.js");
    const closing = await createPool({ threads: 2, batchSize: 50 });
    const mine = started.slice(-2);
    const busy = closing.solveMany(relabelledPuzzles(5_000).split("\n").slice(0, 5_000));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const held = batchBuffers.heldBytes;
    await closing.close();
    await expect(busy).rejects.toThrow("the pool is closed");
    await expect(closing.solveMany(["x"])).rejects.toThrow("the pool is closed");
    expect(mine.every((worker) => worker.terminated)).toBe(true);
    expect(batchBuffers.heldBytes).toBe(held); // a worker being ended may still write into a batch's memory: none goes back for reuse
  });

  it("rejects createPool with the reason when a worker cannot start, and leaves no worker running", async () => {
    startFailure = "the module did not load";
    const before = started.length;
    await expect(createPool({ threads: 3 })).rejects.toThrow("a pool worker failed: the module did not load");
    startFailure = null;
    expect(started.slice(before).every((worker) => worker.terminated)).toBe(true);
    await expect(createPool({ threads: 0 })).rejects.toThrow(RangeError);
  });

  it("names the worker module and how to ship it when the browser gives no reason (a module that was not shipped)", async () => {
    startFailure = ""; // a browser's error event for a module worker it could not load has no message
    const before = started.length;
    const failed = createPool({ threads: 2 });
    await expect(failed).rejects.toThrow(/^sudoku-wasm: a pool worker failed: its module did not load \(.*\/web-pool-worker\.js\); .*esbuild.*second entry/);
    startFailure = null;
    expect(started.slice(before).every((worker) => worker.terminated)).toBe(true);
  });
});
