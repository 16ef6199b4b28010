/**
 * The ranged phase of `solve` (src/pool/range-task.ts; solveRanges in src/cli/pipeline.ts): a
 * regular file in `line` output goes to the solving threads as byte ranges, which they read,
 * scan and solve themselves. It must write exactly what the run writes without it, byte for
 * byte, whatever the input: a range whose lines are not all 9×9 lines of cell bytes falls back
 * to the main thread's reading from that range's start. The inputs here are mostly such lines,
 * with the lines that must make a range fall back among them; ranges are made small (tens to
 * thousands of bytes) so that a small file is cut at every kind of place.
 */
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type BatchSolver, openBatchSolver } from "../src/pool/pool.js";
import { type RangeOutcome, type RangeTask, rangeNotSolved, rangeOutputRoom, solveRange } from "../src/pool/range-task.js";
import { type StreamSettings, type StreamTotals, solveStreams } from "../src/cli/pipeline.js";
import { loadBatchEngines } from "../src/pool/solve-task.js";
import { STATUSES } from "../src/solver.js";
import { LineScanner } from "../src/wasm.js";
import { loadFixture } from "./fixture.js";
import { byteCollector } from "./sink.js";

const dir = mkdtempSync(join(tmpdir(), "sudoku-ranges-"));
const main = await openBatchSolver(0);
const workers = await openBatchSolver(2, [], { warmUp: false, ranges: true });
afterAll(async () => {
  await Promise.all([main.close(), workers.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const FIXTURE = loadFixture().filter((c) => c.puzzle.length === 81);
const PUZZLES = FIXTURE.map((c) => c.puzzle);
/** Those the kernel does not reject (no clue repeated): a range of them is solved where it is read. */
const READABLE = FIXTURE.filter((c) => c.count !== "invalid").map((c) => c.puzzle);

let files = 0;
/** `bytes` in a file of their own. */
function fileOf(bytes: Buffer): string {
  const path = join(dir, `input-${files++}.txt`);
  writeFileSync(path, bytes);
  return path;
}

/** A solver whose ranges are counted, and of which the ones `drop` picks fall back (as a failed worker's do). */
function counted(solver: BatchSolver, drop: (task: RangeTask) => boolean = () => false): BatchSolver & { solved: number; fellBack: number } {
  const wrapped: BatchSolver & { solved: number; fellBack: number } = {
    ...solver,
    solved: 0,
    fellBack: 0,
    solveRange: async (task) => {
      if (drop(task)) return rangeNotSolved(task, "dropped by the test");
      const outcome = await solver.solveRange!(task);
      if (outcome.fellBack !== undefined) wrapped.fellBack++;
      else if (outcome.lines > 0) wrapped.solved++;
      return outcome;
    },
  };
  return wrapped;
}

/** A run over the file at `path` in `line` output. */
async function run(path: string, solver: BatchSolver, settings: Partial<StreamSettings>): Promise<{ bytes: Buffer; totals: StreamTotals }> {
  const out = byteCollector();
  const all: StreamSettings = { input: "auto", output: "line", limit: 2, batchSize: 64, maxInFlight: 3, workers: solver.threads, readBytes: 1 << 10, ...settings };
  const totals = await solveStreams([{ name: path, open: () => { throw new Error("a file is read by path"); }, path }], out, solver, all);
  return { bytes: out.bytes(), totals };
}

/** Lines of the fast path, mostly, and now and then one that a range must fall back on. */
const line = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom(...PUZZLES) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...PUZZLES), fc.constantFrom(...".0_?-*xX")).map(([p, mark]) => p.replaceAll(".", mark)) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...PUZZLES), fc.constantFrom(" ", "\t", "  \t")).map(([p, space]) => p + space) },
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => p + " rated 4.5") },
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => "55" + p.slice(2)) }, // a clue repeated: its error names its line
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => p.slice(0, 80)) },
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => `Grid 01\n${Array.from({ length: 9 }, (_, r) => p.slice(r * 9, r * 9 + 9)).join("\n")}`) },
  { weight: 1, arbitrary: fc.constantFrom("", "# a comment", "x".repeat(81), ".".repeat(81), "1".repeat(81)) },
);

/** Files of such lines, with LF, CRLF or (rarely) CR line ends, maybe none after the last line. */
const input = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 150, size: "max" }), fc.constantFrom("\n", "\n", "\n", "\r\n", "\r"), fc.boolean())
  .map(([lines, end, lastEnd]) => Buffer.from(lines.join(end).replaceAll("\n", end) + (lastEnd ? end : ""), "utf8"));

describe("the ranged phase writes what the run writes without it", () => {
  it("on the main thread (--threads 0), ranges of 30 to 3,000 bytes: the same bytes, tally and errors", async () => {
    let solved = 0;
    await fc.assert(
      fc.asyncProperty(input, fc.integer({ min: 30, max: 3000 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 16, max: 1024 }), async (bytes, rangeBytes, maxInFlight, readBytes) => {
        const path = fileOf(bytes);
        const ranged = counted(main);
        const withRanges = await run(path, ranged, { rangeBytes, maxInFlight, readBytes });
        const without = await run(path, main, { ranges: false });
        expect(withRanges.bytes.toString("utf8")).toBe(without.bytes.toString("utf8"));
        expect(withRanges.totals).toEqual(without.totals);
        solved += ranged.solved;
      }),
      { numRuns: 80 },
    );
    expect(solved).toBeGreaterThan(0); // the phase ran
  });

  it("a file of 9×9 lines only (LF or CRLF, with or without a line end after the last): no range falls back", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...READABLE), { minLength: 1, maxLength: 150, size: "max" }),
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        fc.integer({ min: 30, max: 3000 }),
        async (puzzles, end, lastEnd, rangeBytes) => {
          const path = fileOf(Buffer.from(puzzles.join(end) + (lastEnd ? end : "")));
          const ranged = counted(main);
          const withRanges = await run(path, ranged, { rangeBytes, readBytes: 256 });
          const without = await run(path, main, { ranges: false });
          expect(withRanges.bytes.toString("utf8")).toBe(without.bytes.toString("utf8"));
          expect(ranged.fellBack).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("with ranges dropped at random (a worker that failed): the main thread reads them, and nothing is lost or doubled", async () => {
    await fc.assert(
      fc.asyncProperty(input, fc.integer({ min: 30, max: 2000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer(), fc.integer({ min: 16, max: 1024 }), async (bytes, rangeBytes, dropRate, seed, readBytes) => {
        const path = fileOf(bytes);
        let state = seed | 0;
        const random = () => ((state = (Math.imul(state, 1103515245) + 12345) | 0) >>> 8) / (1 << 24);
        const withRanges = await run(path, counted(main, () => random() < dropRate), { rangeBytes, maxInFlight: 3, readBytes });
        const without = await run(path, main, { ranges: false });
        expect(withRanges.bytes.toString("utf8")).toBe(without.bytes.toString("utf8"));
        expect(withRanges.totals).toEqual(without.totals);
      }),
      { numRuns: 60 },
    );
  });

  it("a resumed run (skip): the phase starts after the records skipped", async () => {
    await fc.assert(
      fc.asyncProperty(input, fc.nat(40), fc.integer({ min: 16, max: 1024 }), async (bytes, skip, readBytes) => {
        const path = fileOf(bytes);
        const withRanges = await run(path, main, { rangeBytes: 200, skip, readBytes });
        const without = await run(path, main, { ranges: false, skip });
        expect(withRanges.bytes.toString("utf8")).toBe(without.bytes.toString("utf8"));
      }),
      { numRuns: 40 },
    );
  });

  it("on two workers: a 3 MB file with a few lines that fall back, the same bytes as the main thread without ranges", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 36_000; i++) lines.push(READABLE[i % READABLE.length]);
    for (const at of [5_000, 5_001, 20_000, 35_999]) lines[at] = at === 20_000 ? "# a comment" : "55" + READABLE[at % READABLE.length].slice(2);
    const path = fileOf(Buffer.from(lines.join("\n") + "\n"));
    const ranged = counted(workers);
    const withRanges = await run(path, ranged, { batchSize: 4096, maxInFlight: 8, readBytes: 1 << 20 });
    const without = await run(path, main, { ranges: false, batchSize: 4096 });
    expect(withRanges.bytes.equals(without.bytes)).toBe(true);
    expect(withRanges.totals).toEqual(without.totals);
    expect(without.totals.errors.filter((error) => error.startsWith("invalid")).length).toBe(3); // the repeated clues, each naming its line
    expect(ranged.solved).toBeGreaterThan(10);
  });

  it("reads on after a phase as from the middle of the file: a line starting with the bytes of a UTF-16 byte order mark is one invalid record", async () => {
    const good = READABLE.slice(0, 40).map((p) => Buffer.from(p + "\n"));
    const bytes = Buffer.concat([...good.slice(0, 12), Buffer.from([0xff, 0xfe]), Buffer.from("1".repeat(79) + "\n"), ...good.slice(12)]);
    const path = fileOf(bytes);
    const withRanges = await run(path, counted(main), { rangeBytes: 300, readBytes: 1024 });
    const without = await run(path, main, { ranges: false });
    expect(withRanges.bytes.toString("utf8")).toBe(without.bytes.toString("utf8"));
    expect(withRanges.totals.tally[STATUSES.indexOf("invalid")]).toBe(1);
  });

  it("reads a file deleted during the run to its end: the ranges and the reads after them use a descriptor opened before", async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => READABLE[i % READABLE.length]);
    lines[2_000] = "# a comment: the main thread reads on from here";
    const path = fileOf(Buffer.from(lines.join("\n") + "\n"));
    const full = await run(path, main, { ranges: false });
    const out = byteCollector();
    const settings: StreamSettings = { input: "auto", output: "line", limit: 2, batchSize: 64, maxInFlight: 2, workers: 0, readBytes: 1 << 10, rangeBytes: 4000 };
    let deleted = false;
    const ranged = counted(main);
    const totals = await solveStreams([{ name: path, open: () => { throw new Error("by path"); }, path }], out, ranged, settings, () => {
      if (!deleted) rmSync(path);
      deleted = true;
    });
    expect(deleted).toBe(true);
    expect(ranged.solved).toBeGreaterThan(0);
    expect(totals).toEqual(full.totals);
    expect(out.bytes().equals(full.bytes)).toBe(true);
  });

  it.skipIf(!existsSync("/proc/self/fdinfo"))("reads standard input redirected from a file (a descriptor) from where it stood, by ranges (Linux tells where)", async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => READABLE[i % READABLE.length]);
    lines[1_500] = "# the main thread reads on from here";
    const bytes = Buffer.from(lines.join("\n") + "\n");
    const path = fileOf(bytes);
    const skipped = 7 * 82 + 40; // the descriptor stands inside line 8: the run reads from there, as from a pipe
    const rest = fileOf(bytes.subarray(skipped));
    const expected = await run(rest, main, { ranges: false });
    const fd = openSync(path, "r");
    readSync(fd, Buffer.alloc(skipped), 0, skipped, null);
    const out = byteCollector();
    const ranged = counted(main);
    const settings: StreamSettings = { input: "auto", output: "line", limit: 2, batchSize: 64, maxInFlight: 2, workers: 0, readBytes: 1 << 10, rangeBytes: 3000 };
    const totals = await solveStreams([{ name: "<stdin>", open: () => { throw new Error("by descriptor"); }, path: fd }], out, ranged, settings);
    closeSync(fd);
    expect(ranged.solved).toBeGreaterThan(0);
    expect(out.bytes().toString("utf8")).toBe(expected.bytes.toString("utf8"));
    expect(totals.tally).toEqual(expected.totals.tally);
  });

  it("is not offered where it cannot serve: an engine that writes no lines (the N×N kernel), or a run whose puzzles can take minutes (warmUp false)", async () => {
    const twin = await openBatchSolver(0, ["general-wasm"]);
    const long = await openBatchSolver(1, [], { warmUp: false });
    expect(twin.solveRange).toBeUndefined();
    expect(long.solveRange).toBeUndefined();
    expect(main.solveRange).toBeDefined();
    await Promise.all([twin.close(), long.close()]);
  });

  it("stops at an abort: the ranges sent are written whole, in order, and the run says it stopped", async () => {
    const lines = Array.from({ length: 6_000 }, (_, i) => READABLE[i % READABLE.length]);
    const path = fileOf(Buffer.from(lines.join("\n") + "\n"));
    const full = await run(path, main, { ranges: false });
    const stop = new AbortController();
    const out = byteCollector();
    let written = 0;
    const settings: StreamSettings = { input: "auto", output: "line", limit: 2, batchSize: 64, maxInFlight: 2, workers: 0, readBytes: 1 << 10, rangeBytes: 4000, stop: stop.signal };
    const totals = await solveStreams([{ name: path, open: () => { throw new Error("by path"); }, path }], out, main, settings, (done) => {
      written = done;
      if (done >= 1_000) stop.abort();
    });
    const bytes = out.bytes().toString("utf8");
    expect(totals.stopped).toBe(true);
    expect(written).toBeGreaterThanOrEqual(1_000);
    expect(written).toBeLessThan(6_000);
    expect(bytes.endsWith("\n")).toBe(true);
    expect(full.bytes.toString("utf8").startsWith(bytes)).toBe(true);
    expect(bytes.split("\n").length - 1).toBe(written);
  });
});

const engines = await loadBatchEngines();
const scanner = await LineScanner.create();

describe("solveRange", () => {
  /** Solves `path` (of `size` bytes) from `from` as ranges cut at `cuts`, in order. */
  const rangesOf = (path: string, from: number, size: number, cuts: number[]): RangeOutcome[] => {
    const fd = openSync(path, "r");
    const bounds = [from, ...cuts.filter((cut) => cut > from && cut < size).sort((a, b) => a - b), size];
    const outcomes: RangeOutcome[] = [];
    for (let i = 0; i + 1 < bounds.length; i++) {
      if (bounds[i + 1] === bounds[i]) continue;
      const room = rangeOutputRoom(bounds[i], bounds[i + 1]);
      const task: RangeTask = { kind: "range", fd, from: bounds[i], to: bounds[i + 1], exact: i === 0, limit: 2, out: new Uint8Array(room) };
      outcomes.push(solveRange(engines, scanner, task));
    }
    closeSync(fd);
    return outcomes;
  };

  it("ranges cut anywhere in a file of 9×9 lines (LF or CRLF, a last line with or without its line end): each line once, in order, the chain of starts and ends unbroken; a last line without its line end is left to the main thread", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...READABLE), { minLength: 1, maxLength: 60 }),
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        fc.array(fc.nat(6000), { maxLength: 20 }),
        async (puzzles, end, lastEnd, cuts) => {
          const text = puzzles.join(end) + (lastEnd ? end : "");
          const path = fileOf(Buffer.from(text));
          const outcomes = rangesOf(path, 0, text.length, cuts).filter((o) => o.start >= 0); // -1: after the start of a last line without line end
          expect(outcomes.every((o) => o.fellBack === undefined)).toBe(true);
          for (let i = 1; i < outcomes.length; i++) expect(outcomes[i].start).toBe(outcomes[i - 1].end);
          expect(outcomes[0].start).toBe(0);
          const taken = lastEnd ? puzzles.length : puzzles.length - 1;
          expect(outcomes.at(-1)!.end).toBe(lastEnd ? text.length : text.length - 81);
          expect(outcomes.reduce((sum, o) => sum + o.lines, 0)).toBe(taken);
          const whole = (await run(path, main, { ranges: false })).bytes.toString("utf8").split("\n").slice(0, taken);
          expect(Buffer.concat(outcomes.map((o) => o.bytes)).toString("utf8")).toBe(whole.map((line) => line + "\n").join(""));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("falls back, naming why, on a range with a line that is not a 9×9 line, and on a line longer than its overlap across its end", () => {
    const good = READABLE[0];
    const path = fileOf(Buffer.from([good, "", good].join("\n") + "\n"));
    const [blank] = rangesOf(path, 0, 200, []);
    expect(blank.fellBack).toMatch(/not a 9×9 line/);
    expect(blank.lines).toBe(0);
    const long = fileOf(Buffer.from(`${good}\n${"7".repeat(10_000)}\n${good}\n`));
    const [first] = rangesOf(long, 0, 10_200, [100]);
    expect(first.fellBack).toMatch(/no line end/);
  });
});
