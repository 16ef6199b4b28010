/**
 * The command line end to end: no input lost, every failure one `sudoku-wasm: …`
 * line with a documented status. Failing and closed standard streams are in streams.test.ts.
 * Spawns bin/sudoku-wasm.mjs (dist/, built by `pretest`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkOutputRequests, writeReports } from "../bench/report/output.js";
import { formatJson } from "../bench/report/json.js";
import type { BenchRun } from "../bench/records.js";
import { type BatchOutcome, type BatchTask, BatchBuilder, textTask } from "../src/pool/batch.js";
import { runTask } from "../src/pool/solve-task.js";
import { type BatchEngines, recordsWriter } from "../src/pool/engines.js";
import { mainThreadSolver, openWorkerPool, withRetry } from "../src/pool/pool.js";
import { SHAPES } from "../src/model/shape.js";
import type { SizeEngine } from "../src/solvers/solver.js";
import { LARGE_GRID_BUDGET, STATUSES, Solver, type SolverEngine } from "../src/solvers/solver.js";
import { BIN, runCli, scratchFolder } from "./cli-run.js";
import { loadFixture } from "./fixture.js";

/** The 9×9 kernel writing records beside test engines that write none. */
const writer = await recordsWriter();

/** Test engines by grid side, with the kernel as their records' writer. */
function testEngines(entries: Iterable<[number, SizeEngine]>): BatchEngines {
  return Object.assign(new Map(entries), { writer });
}

const { dir, file } = scratchFolder("sudoku-robust-");
const cli = runCli;

/** Runs a shell pipeline with `$CLI` standing for the command line; returns its status and output. */
function shell(script: string) {
  const result = spawnSync("sh", ["-c", script], { cwd: dir, encoding: "utf8", env: { ...process.env, CLI: `${process.execPath} ${BIN}` } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const fixture = loadFixture();
const UNIQUE = fixture.filter((c) => c.count === 1 && c.puzzle.includes(".")).map((c) => c.puzzle);
const PUZZLES = Array.from({ length: 200 }, (_, i) => UNIQUE[i % UNIQUE.length]).join("\n") + "\n";
/** One `sudoku-wasm: …` line and nothing else (no stack trace). */
const ONE_ERROR_LINE = /^sudoku-wasm: [^\n]+\n$/;

describe("an output never overwrites an input", () => {
  it("refuses -o naming an input (also as ./path, through a link, or as standard input) before opening it, and leaves the input whole", () => {
    const same = file("same.txt", PUZZLES);
    symlinkSync(same, join(dir, "link.txt"));
    for (const [args, input] of [
      [["solve", "same.txt", "-o", "same.txt"]],
      [["solve", "./same.txt", "-o", "link.txt"]],
      [["solve", "-o", "same.txt"], "stdin"],
      [["solve", "same.txt", "-o", "same.txt", "--format", "poj3074"]],
    ] as [string[], string?][]) {
      const run = input ? shell(`$CLI ${args.join(" ")} < same.txt`) : cli(args, { cwd: dir });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(ONE_ERROR_LINE);
      expect(run.stderr).toMatch(/is the same file as .*would destroy the input/);
      expect(readFileSync(same, "utf8")).toBe(PUZZLES);
    }
  });

  it("refuses standard output appended to an input file", () => {
    const same = file("append.txt", PUZZLES);
    const run = shell(`$CLI solve append.txt >> append.txt`);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/standard output is the same file as input 'append\.txt'/);
    expect(readFileSync(same, "utf8")).toBe(PUZZLES);
  });
});

describe("`#` and white space in --alphabet are refused", () => {
  it("exits 2 with one line naming the symbol, instead of reading lines that start with it as comments", () => {
    for (const [alphabet, reason] of [
      ["#12345678", /'#', which starts a comment/],
      [" 12345678", /white space/],
    ] as const) {
      const run = cli(["solve", "--alphabet", alphabet], { input: "#23456781\n" });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(ONE_ERROR_LINE);
      expect(run.stderr).toMatch(reason);
    }
  });
});

describe("a read error names its file, and what was read before it is written", () => {
  it.runIf(existsSync("/proc/self/mem"))("writes the first file's records, then one line naming the unreadable file, status 2", () => {
    const good = file("good.txt", PUZZLES);
    const run = cli(["solve", "--no-progress", "--threads", "0", good, "/proc/self/mem", good]);
    expect(run.status).toBe(2);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(200);
    expect(run.stderr).toMatch(/^sudoku-wasm: cannot read '\/proc\/self\/mem': EIO \(i\/o error\)\n$/);
  });
});

describe("bench outputs never overwrite each other", () => {
  it("puts the chart beside a --json file named x.svg as x.chart.svg, and refuses two outputs on one path", () => {
    const run = { environment: {}, records: [] } as unknown as BenchRun;
    const written = writeReports(run, { json: join(dir, "x.svg") }, "stamp", dir, () => {});
    expect(written).toEqual([join(dir, "x.svg"), join(dir, "x.chart.svg")]);
    expect(readFileSync(join(dir, "x.svg"), "utf8")).toBe(formatJson(run));
    expect(() => checkOutputRequests({ json: join(dir, "r.txt"), csv: join(dir, "r.txt") })).toThrow(/--json and --csv would both write/);
    expect(() => checkOutputRequests({ json: join(dir, "x.svg"), chart: join(dir, "x.svg") })).toThrow(/--json and --chart/);
  });
});

describe("--format refuses the options it would ignore", () => {
  it("exits 2 naming the conflict for --out, --in, --limit and --budget, and still runs without them", () => {
    for (const option of [["--out", "jsonl"], ["--in", "line"], ["--limit", "5"], ["--budget", "100"], ["--count"], ["--alphabet", "ABCDEFGHI"]]) {
      const run = cli(["solve", "--format", "poj3074", ...option], { input: `${UNIQUE[0]}\nend\n` });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(ONE_ERROR_LINE);
      expect(run.stderr).toContain(`cannot be used with option '${option[0]}`);
    }
    expect(cli(["solve", "--format", "poj3074"], { input: `${UNIQUE[0]}\nend\n` }).status).toBe(0);
  });
});

describe("messages name the options as typed and count one in the singular", () => {
  it("generate names --min-guesses and --max-guesses in an empty guess range, and says '1 puzzle'", () => {
    const empty = cli(["generate", "-n", "1", "--min-guesses", "5", "--max-guesses", "1"]);
    expect([empty.status, empty.stdout, empty.stderr]).toEqual([
      2,
      "",
      "sudoku-wasm: --min-guesses (5) is above --max-guesses (1): the guess range is empty\n",
    ]);
    const one = cli(["generate", "-n", "1", "--seed", "1"]);
    expect([one.status, one.stdout.split("\n").length]).toEqual([0, 2]);
    expect(one.stderr).toMatch(/^generated 1 puzzle in /);
  });
});

describe("a default budget for 16×16 and 25×25, lifted with --budget none", () => {
  /** A batch engine that only records the budget each call gets (every puzzle: unsolvable). */
  function budgetSpy(cells: number, budgets: number[]): SolverEngine {
    return {
      countSolutions: () => 0,
      solveBatch(_puzzles, count, _limit, budget) {
        budgets.push(budget);
        return { counts: new Int32Array(count), guesses: new Int32Array(count), nodes: new Int32Array(count), solutions: new Uint8Array(count * cells) };
      },
    };
  }

  it("gives 4×4, 16×16 and 25×25 records the default node budget when the run sets none, 9×9 records no cap, and an explicit budget to all", () => {
    const seen = new Map<number, number[]>(SHAPES.map((shape) => [shape.size, []]));
    const engines = testEngines(
      SHAPES.map((shape) => [shape.size, { id: "spy", engine: budgetSpy(shape.cells, seen.get(shape.size)!), reportsGuesses: true }]),
    );
    const texts = SHAPES.map((shape) => ".".repeat(shape.cells));
    const task = textTask({ file: "f", firstIndex: 0, texts, limit: 2, output: "line" });
    runTask(engines, task);
    runTask(engines, { ...task, budget: Infinity }); // --budget none
    runTask(engines, { ...task, budget: 500 });
    expect(seen.get(9)).toEqual([Infinity, Infinity, 500]);
    for (const size of [4, 16, 25]) expect(seen.get(size)).toEqual([LARGE_GRID_BUDGET, Infinity, 500]);
  });

  it("gives the library's solveMany the same default budgets (one batch core): none for 9×9, LARGE_GRID_BUDGET for the other sizes", () => {
    const seen = new Map<number, number[]>(SHAPES.map((shape) => [shape.size, []]));
    const solver = new Solver(
      new Map(SHAPES.map((shape) => [shape.size, { id: "spy", engine: budgetSpy(shape.cells, seen.get(shape.size)!), reportsGuesses: true }])),
    );
    const texts = SHAPES.map((shape) => ".".repeat(shape.cells));
    solver.solveMany(texts, { alphabet: undefined });
    solver.solveMany(texts, { budget: Infinity });
    solver.solveMany(texts, { budget: 500 });
    expect(seen.get(9)).toEqual([Infinity, Infinity, 500]);
    for (const size of [16, 25]) expect(seen.get(size)).toEqual([LARGE_GRID_BUDGET, Infinity, 500]);
  });

  it("takes `none` for --budget (no cap) and refuses other words, saying it takes none", () => {
    const input = file("none.txt", PUZZLES);
    const run = cli(["solve", "--no-progress", "--threads", "0", "--budget", "none", input]);
    expect(run.status).toBe(0);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(200);
    const bad = cli(["solve", "--budget", "lots", input]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(
      "sudoku-wasm: option '--budget <nodes>' argument 'lots' is invalid. expected a whole number from 1 to 2147483647, or none, got 'lots'\n",
    );
  });
});

describe("judge errors show input as escaped, short excerpts", () => {
  it("escapes a terminal escape sequence and cuts a long line in a judge error", () => {
    const hostile = cli(["solve", "--format", "poj2676"], { input: "\x1b]0;PWNED\x07\x1b[31mRED\n" });
    expect(hostile.status).toBe(2);
    expect(hostile.stderr).toMatch(ONE_ERROR_LINE);
    expect(hostile.stderr).not.toContain("\x1b");
    expect(hostile.stderr).toContain("\\x1b]0;PWNED\\x07");
    const long = cli(["solve", "--format", "poj2676"], { input: "x".repeat(1_000_000) + "\n" });
    expect(long.stderr).toMatch(ONE_ERROR_LINE);
    expect(long.stderr.length).toBeLessThan(200);
  });
});

describe("CSV output defuses formulas end to end", () => {
  it("writes an input line starting with = as a quoted text field behind an apostrophe", () => {
    const run = cli(["solve", "--out", "csv", "--threads", "0", "--no-progress"], { input: "=1+1\n" });
    expect(run.stdout.split("\n")[1]).toMatch(/^0,<stdin>,1,"'=1\+1",invalid,/);
  });
});

describe("a batch the solver fails on is retried, then written as `error` records; nothing after it is lost", () => {
  const task = (texts: string[]): BatchTask =>
    textTask({ file: "in.txt", firstIndex: 7, texts, lines: Int32Array.from(texts, (_, i) => 10 + i), limit: 2, output: "jsonl" });
  /** The output of an outcome as text. */
  const outputText = (outcome: BatchOutcome): string => Buffer.from(outcome.bytes).toString("utf8");
  /** An outcome of `output` text. */
  const textOutcome = (output: string): BatchOutcome => ({ bytes: Buffer.from(output), tally: [], errors: [] });

  it("runs a failed batch once more and keeps the second outcome", async () => {
    let attempts = 0;
    const outcome = await withRetry(task(["a", "b"]), async (attempt) => {
      if (attempts++ === 0) throw new Error("worker died");
      return textOutcome(`${attempt.lines.join(",")}\n`);
    });
    expect(attempts).toBe(2);
    expect(outputText(outcome)).toBe("10,11\n"); // the retry got its own copy of the line numbers
  });

  it("retries a failed batch on a freshly started worker, and ends the worker that failed", async () => {
    // A worker that breaks on the first "break" batch of the run (counted across workers) and then fails every batch;
    // each outcome says which worker solved it and how many batches that worker had solved before.
    const retire = new URL("../dist/src/pool/retire.js", import.meta.url).href;
    const worker = file(
      "breaking-worker.mjs",
      `import { threadId, workerData } from "node:worker_threads";
import { retiringOnFailure } from "${retire}";
const counts = new Int32Array(workerData.counts); // [batches "break" seen, failures]
let solved = 0;
let broken = false;
export default retiringOnFailure((task) => {
  if (broken) {
    Atomics.add(counts, 1, 1);
    throw new Error("worker " + threadId + " is broken");
  }
  if (task.texts[0] === "break" && Atomics.add(counts, 0, 1) === 0) {
    Atomics.add(counts, 1, 1);
    broken = true;
    throw new Error("worker " + threadId + " broke");
  }
  return { bytes: new TextEncoder().encode(task.texts[0] + " " + threadId + " " + solved++), tally: [], errors: [] };
});
`,
    );
    const counts = new SharedArrayBuffer(8);
    const pool = openWorkerPool(1, { filename: worker, workerData: { counts } });
    try {
      const solved = async (texts: string) => outputText(await pool.solve(task([texts]))).split(" ");
      const [, first, before] = await solved("a");
      expect(before).toBe("0");
      await solved("a"); // the pool's worker has now solved two batches
      const [text, retried, retriedBefore] = await solved("break");
      expect(text).toBe("break"); // solved, not written as `error` records
      expect(retried).not.toBe(first);
      expect(retriedBefore).toBe("0"); // a worker that had solved nothing: started for the retry
      const [, next, nextBefore] = await solved("b");
      expect(next).not.toBe(first); // the worker that broke was ended, not given the next batch
      expect(next).not.toBe(retried); // the retry's worker was ended after it
      expect(nextBefore).toBe("0");
      expect(new Int32Array(counts)[1]).toBe(1); // one failure in all: no batch went to the broken worker
    } finally {
      await pool.close();
    }
  });

  it("retries a batch whose worker died on the cells it shares with that worker: the retry reads them whole", async () => {
    // A worker that dies (exits) on the first batch of the run and echoes the fast bytes of every other one.
    const worker = file(
      "dying-worker.mjs",
      `import { workerData } from "node:worker_threads";
const counts = new Int32Array(workerData.counts);
export default (task) => {
  if (Atomics.add(counts, 0, 1) === 0) process.exit(1);
  return { bytes: task.fastBytes.slice(), tally: [], errors: [] };
};
`,
    );
    const builder = new BatchBuilder(64, 2, "line", null, undefined, undefined, true); // a batch for workers
    builder.startFile("in.txt");
    const cells = new TextEncoder().encode(`${"1".repeat(81)}${"2".repeat(81)}`);
    builder.addCells(1, cells, 0, 2);
    builder.seal();
    const [shared] = builder.takeReady();
    expect(shared.fastBytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    const counts = new SharedArrayBuffer(4);
    const pool = openWorkerPool(1, { filename: worker, workerData: { counts } });
    try {
      const outcome = await pool.solve(shared);
      expect(new Int32Array(counts)[0]).toBe(2); // died once, then the retry
      expect(Buffer.from(outcome.bytes).equals(Buffer.from(cells))).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it("with --threads 0, retries a failed batch on freshly loaded engines, which replace the ones that failed", async () => {
    let loads = 0;
    let breakNext = false;
    const calls: number[] = []; // which load's engines each engine call ran on
    /** Engines (every puzzle: unsolvable) that fail once `breakNext` is set, and on every call after. */
    const load = async () => {
      const id = ++loads;
      let broken = false;
      const engine: SolverEngine = {
        countSolutions: () => 0,
        solveBatch(_puzzles, count) {
          calls.push(id);
          if (broken || breakNext) {
            breakNext = false;
            broken = true;
            throw new Error(`engines ${id} broke`);
          }
          return { counts: new Int32Array(count), guesses: new Int32Array(count), nodes: new Int32Array(count), solutions: new Uint8Array(count * 81) };
        },
      };
      return testEngines(SHAPES.map((shape) => [shape.size, { id: "spy", engine, reportsGuesses: false }]));
    };
    const solver = mainThreadSolver(await load(), load);
    const puzzle = { ...task([UNIQUE[0]]), output: "line" as const };
    expect(outputText(await solver.solve(puzzle))).toBe("unsolvable\n");
    breakNext = true;
    expect(outputText(await solver.solve(puzzle))).toBe("unsolvable\n"); // not `error`: the retry ran on new engines
    expect(outputText(await solver.solve(puzzle))).toBe("unsolvable\n");
    expect(calls).toEqual([1, 1, 2, 2]);
  });

  it("writes one `error` record per record, naming its file and line, when the retry fails too", async () => {
    const outcome = await withRetry(task(["a", "b", "c"]), async () => {
      throw new RangeError("Invalid string length");
    });
    const records = outputText(outcome)
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((r) => [r.index, r.line, r.status])).toEqual([
      [7, 10, "error"],
      [8, 11, "error"],
      [9, 12, "error"],
    ]);
    expect(records[1].error).toBe("in.txt:11: the solver failed on this record's batch (twice): Invalid string length");
    expect(outcome.tally[STATUSES.indexOf("error")]).toBe(3);
  });

  it("numbers the `error` records of a failed batch of a shard by the shard's step (--shard 1/4: 1, 5, 9), as merge and --resume expect", async () => {
    const outcome = await withRetry({ ...task(["a", "b", "c"]), firstIndex: 1, indexStep: 4 }, async () => {
      throw new Error("worker died");
    });
    expect(
      outputText(outcome)
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).index),
    ).toEqual([1, 5, 9]);
  });

  it("keeps a batch's output that is too long for one string (the NUL lines that broke jsonl) as bytes, every record kept", () => {
    const nul = "\u0000".repeat(1_000_000); // 6,000,000 characters each in JSON
    const engines = testEngines(SHAPES.map((shape) => [shape.size, { id: "none", engine: { countSolutions: () => 0 }, reportsGuesses: false }]));
    const outcome = runTask(engines, task(Array.from({ length: 12 }, () => nul))) as BatchOutcome;
    expect(outcome.bytes.length).toBeGreaterThan(12 * 6_000_000);
    let records = 0;
    for (let at = outcome.bytes.indexOf(10); at >= 0; at = outcome.bytes.indexOf(10, at + 1)) records++;
    expect(records).toBe(12);
    expect(outcome.bytes[outcome.bytes.length - 1]).toBe(10);
    expect(outcome.tally[STATUSES.indexOf("invalid")]).toBe(12);
  });
});
