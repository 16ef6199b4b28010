/**
 * The bench: report writers on hand-made records, and the runner on a tiny input
 * (5 puzzles of Norvig's hardest, a few solvers, 10 ms per row).
 */
import { describe, expect, it } from "vitest";
import { loadDatasets } from "../src/datasets/read.js";
import { findSolver, type SolverInfo } from "../src/solvers/registry.js";
import type { SolverEngine } from "../src/solvers/solver.js";
import type { BenchRun } from "../bench/records.js";
import { compareRuns, formatComparison } from "../bench/report/compare.js";
import { formatJson, parseJson } from "../bench/report/json.js";
import { formatSvg } from "../bench/report/svg.js";
import { CSV_FIELDS, describeEnvironment, formatCsv, formatMarkdown, formatTables } from "../bench/report/format.js";
import { applyReference, runBench, samplingRule, samplingSteps } from "../bench/runner.js";
import { retimeFastest, retimes } from "../bench/measure/timing.js";
import { median } from "../src/model/quantile.js";
import { poolRow } from "../bench/threads.js";
import { noiseFlags } from "../bench/noise.js";
import { seededSample } from "../bench/measure/draw.js";
import { createSolver } from "../src/index.js";
import { WrongAnswerError } from "../bench/verify.js";
import { benchRecord } from "./bench-record.js";
import { checkWellFormed } from "./xml.js";
import { RUN_CSV_FIELDS, formatRunCsv } from "../bench/report/run-csv.js";
import { csvField } from "../src/formats/output/format.js";

const record = benchRecord;

const handMade: BenchRun = {
  environment: {
    cpu: "Test CPU",
    cores: 2,
    node: "v20.0.0",
    v8: "11.3",
    buildFlags: "optimizeLevel=3",
    commit: "unknown",
    date: "2025-01-01T00:00:00.000Z",
    seed: 7,
    limit: 2,
    timeMs: 100,
    budget: 1000,
    tinybench: "6.2.5",
  },
  records: [
    record("easy", "wasm", 200_000, { batchCall: true, speedup: 5.2, reference: "mrv", comparedOn: 50 }),
    record("easy", "mrv", 38_000, { speedup: 1, reference: "mrv", comparedOn: 50 }),
    record("easy", "npm:dancing-links", 9_000, { guessesPerPuzzle: null, noGuessPercent: null, puzzles: 12, timeouts: 3 }),
    record("hard", "wasm", 20_000),
    record("hard", "wasm (2 threads)", 35_000, { mode: "threads", threads: 2, cpuPerWall: 1.9, p50Micros: null, p99Micros: null }),
    record('hard, "quoted"', "mrv", 150),
  ],
};

describe("report writers", () => {
  it("round-trips a run through JSON and rejects other files", () => {
    expect(parseJson(formatJson(handMade))).toEqual(handMade);
    expect(() => parseJson("{}", "old.json")).toThrow(/old\.json: not a sudoku-wasm-bench/);
    expect(() => parseJson("nope", "old.json")).toThrow(/old\.json: not JSON/);
  });

  it("writes one Markdown row per record with its fields, n/a for missing capabilities", () => {
    const rows = formatMarkdown(handMade)
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| dataset"));
    expect(rows).toHaveLength(handMade.records.length);
    handMade.records.forEach((r, i) => {
      expect(rows[i]).toContain(`| ${r.dataset.replace(/\|/g, "\\|")} |`);
      expect(rows[i]).toContain(`| ${r.row} |`);
      expect(rows[i]).toContain(Math.round(r.puzzlesPerSecond).toLocaleString("en-US"));
    });
    expect(rows[2]).toMatch(/\| n\/a \| n\/a \|/);
    expect(rows[2]).toContain("sampled 12, 3 timeouts");
    expect(rows[0]).toContain("5.20× faster than mrv");
  });

  it("writes one CSV line per record with every field, quoting where needed", () => {
    const lines = formatCsv(handMade.records).trimEnd().split("\n");
    expect(lines[0]).toBe(CSV_FIELDS.join(","));
    expect(lines).toHaveLength(handMade.records.length + 1);
    const first = lines[1].split(",");
    expect(first).toHaveLength(CSV_FIELDS.length);
    expect(Number(first[CSV_FIELDS.indexOf("puzzlesPerSecond")])).toBe(200_000);
    expect(lines[3].split(",")[CSV_FIELDS.indexOf("guessesPerPuzzle")]).toBe(""); // null → empty, never 0
    expect(lines[6]).toMatch(/^"hard, ""quoted""",mrv,/);
  });

  it("--csv's file gives every line the run's CPU, commit and incomplete mark, as the JSON holds them once (the CSV had none)", () => {
    const cpu = [handMade.environment.cpu, handMade.environment.vectorUnits, handMade.environment.cpuFamily].filter(Boolean).join(", ");
    const whole = formatRunCsv(handMade).trimEnd().split("\n");
    expect(whole[0]).toBe([...CSV_FIELDS, ...RUN_CSV_FIELDS].join(","));
    expect(whole).toHaveLength(handMade.records.length + 1);
    const records = formatCsv(handMade.records).trimEnd().split("\n").slice(1);
    whole.slice(1).forEach((line, i) => expect(line).toBe(`${records[i]},${csvField(cpu)},${handMade.environment.commit},`)); // a whole run: no mark
    const stopped = formatRunCsv({ ...handMade, incomplete: { signal: "SIGINT", rowsPlanned: 9 } })
      .trimEnd()
      .split("\n");
    for (const line of stopped.slice(1)) expect(line.endsWith(`,${handMade.environment.commit},SIGINT: ${handMade.records.length} of 9 rows`), line).toBe(true);
    // a record whose quoted field holds a line break keeps the columns after it
    const broken = formatRunCsv({ ...handMade, records: [{ ...handMade.records[0], dataset: "two\nlines" }] });
    expect(broken.startsWith(`${whole[0]}\n"two\nlines",`)).toBe(true);
    expect(broken.endsWith(`,${handMade.environment.commit},\n`)).toBe(true);
  });

  it("defuses a CSV cell a spreadsheet would read as a formula, as the CLI's csv output does", () => {
    const lines = formatCsv([{ ...handMade.records[0], dataset: "=HYPERLINK(1)", batchCall: true }])
      .trimEnd()
      .split("\n");
    expect(lines[1]).toMatch(/^"'=HYPERLINK\(1\)",/);
    expect(lines[1].split(",")[CSV_FIELDS.indexOf("batchCall")]).toBe("true");
  });

  it("draws a well-formed SVG with one bar per record, taller for faster rows", () => {
    const svg = formatSvg(handMade);
    const names = checkWellFormed(svg);
    expect(names[0]).toBe("svg");
    const bars = [...svg.matchAll(/<rect class="bar"[^>]*height="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(bars).toHaveLength(handMade.records.length);
    expect(bars[0]).toBeGreaterThan(bars[1]); // 200k > 38k puzzles/s
    expect(bars[1]).toBeGreaterThan(bars[2]);
    expect(bars[5]).toBeGreaterThan(0);
    expect(svg).toContain("hard, &quot;quoted&quot;");
  });

  it("compares two runs per dataset × row", () => {
    const after: BenchRun = {
      ...handMade,
      records: [record("easy", "wasm", 300_000), record("easy", "mrv", 19_000), record("easy", "bitmask", 50_000)],
    };
    const changes = compareRuns(handMade, after);
    expect(changes.slice(0, 3).map((c) => c.estimate?.ratio ?? null)).toEqual([1.5, 0.5, null]);
    expect(changes.filter((c) => c.after === null)).toHaveLength(handMade.records.length - 2);
    const text = formatComparison(handMade, changes);
    // Hand-made records carry no calibrated rounds: their ratios are shown, not judged.
    expect(text).toMatch(/wasm\s+200,000\s+300,000\s+not judged \(no calibrated rounds in the earlier run[^)]*\): 1\.50× \(1\.[45]\d–1\.5\d\) faster/);
    expect(text).toMatch(/mrv\s+38,000\s+19,000\s+not judged \(no calibrated rounds in the earlier run[^)]*\): 2\.00× \([12]\.\d\d–2\.\d\d\) slower/);
    expect(text).toMatch(/bitmask\s+n\/a\s+50,000\s+not run before/);
    expect(text).toMatch(/wasm\s+20,000\s+n\/a\s+not run now/);
  });

  it("prints the environment and a table per dataset, n/a where a solver cannot report", () => {
    const text = [...describeEnvironment(handMade.environment), ...formatTables(handMade.records, handMade.environment.seed)].join("\n");
    expect(text).toContain("CPU: Test CPU (2 cores)");
    expect(text).toContain("seed 7");
    const dancing = text.split("\n").find((line) => line.startsWith("npm:dancing-links"))!;
    expect(dancing).toMatch(/n\/a\s+n\/a/);
    expect(text).toContain("2 threads via src/pool (text in/out), CPU/wall 1.9");
  });
});

describe("reference", () => {
  const infos = (ids: string[]) => ids.map(findSolver);

  it("defaults to the fastest pure-TS baseline of each dataset", () => {
    const records = [
      record("d", "wasm", 100_000, { batchCall: true }),
      record("d", "mrv", 20_000),
      record("d", "dlx", 25_000),
      record("d", "npm:dancing-links", 50_000),
    ];
    applyReference(records, infos(["wasm", "mrv", "dlx", "npm:dancing-links"]));
    expect(records.map((r) => r.reference)).toEqual(["dlx", "dlx", "dlx", "dlx"]);
    expect(records[0].speedup).toBeCloseTo(4);
    expect(records[1].speedup).toBeCloseTo(0.8);
  });

  it("never chooses as the reference a baseline that mostly timed out (it gave up fast, flag T), unless named", () => {
    const records = [record("d", "wasm", 100_000, { batchCall: true }), record("d", "mrv", 20_000), record("d", "dlx", 500_000, { puzzles: 20, timeouts: 20 })];
    applyReference(records, infos(["wasm", "mrv", "dlx"]));
    expect(records.map((r) => r.reference)).toEqual(["mrv", "mrv", "mrv"]);
    applyReference(records, infos(["wasm", "mrv", "dlx"]), "dlx");
    expect(records.map((r) => r.reference)).toEqual(["dlx", "dlx", "dlx"]);
  });

  it("compares on the puzzles both rows solved when one was sampled", () => {
    const fast = record("d", "wasm", 1000, { puzzles: 4, meanMicros: 1000 });
    const slow = record("d", "mrv", 100, { puzzles: 2, meanMicros: 10_000 });
    // wasm spent 3× longer per puzzle on its first two puzzles than on average over four.
    const micros = new Map([
      [fast, Float64Array.of(1500, 1500, 500, 500)],
      [slow, Float64Array.of(9000, 11_000)],
    ]);
    applyReference([fast, slow], infos(["wasm", "mrv"]), "mrv", micros);
    expect(fast.comparedOn).toBe(2);
    expect(fast.speedup).toBeCloseTo(10_000 / 1500);
  });
});

describe("the per-puzzle timing", () => {
  it("times a puzzle again when it is short or a spike over its pass's median (a 2 ms pause of a 1 µs puzzle skewed the summary's ratio 60×)", () => {
    expect([0.8, 999, 1001, 2500, 2501].map((micros) => retimes(micros, 50))).toEqual([true, true, false, false, true]);
    const again = (first: number[]) => {
      const micros = Float64Array.from(first);
      const firstMedian = median(micros); // the first pass's, as the bench takes it
      retimeFastest(
        micros,
        3,
        (_, time) => retimes(time, firstMedian),
        () => {}, // a solve that takes no time
      );
      return [...micros];
    };
    expect(again([1, 1, 1900, 1, 1])[2]).toBeLessThan(1900); // the spike is timed again, and its fastest pass kept
    expect(again([100, 100, 2000, 100, 100])[2]).toBe(2000); // 20× the median, over 1 ms: a slow puzzle, timed once
  });
});

describe("runner", () => {
  const [dataset] = loadDatasets("hard"); // bundled, so the test needs no shared datasets
  const plan = {
    datasets: [dataset],
    limit: 2,
    timeMs: 10,
    budget: 100_000,
    seed: 3,
    maxPuzzles: 5,
    expectationOf: () => "unique" as const, // the bundled sets are unique (bench.ts says so from the manifest)
  };

  it("returns one complete record per dataset × row", async () => {
    const solvers = ["wasm", "dlx", "npm:dancing-links"].map(findSolver);
    const records = await runBench({ ...plan, solvers, extraRows: [poolRow(1)] });
    expect(records.map((r) => r.row)).toEqual(["wasm", "wasm (1 call/puzzle)", "wasm (1 thread)", "dlx", "npm:dancing-links"]);
    for (const r of records) {
      for (const field of CSV_FIELDS) expect(r[field], `${r.row}.${field}`).not.toBeUndefined();
      expect(r).toMatchObject({ dataset: "hard", datasetSize: 300, selected: 5, puzzles: 5, limit: 2, reference: "dlx", comparedOn: 5 });
      expect(r.puzzlesPerSecond).toBeGreaterThan(0);
      expect(r.meanMicros).toBeCloseTo(1e6 / r.puzzlesPerSecond);
      expect(r.samples).toBeGreaterThanOrEqual(5);
      expect(Number.isFinite(r.rmePercent)).toBe(true);
    }
    const [wasm, perPuzzle, threads, dlx, dancing] = records;
    expect(wasm.batchCall).toBe(true);
    expect(perPuzzle.batchCall).toBe(false);
    const drawn = seededSample(dataset.puzzles.length, plan.maxPuzzles, plan.seed).map((i) => dataset.puzzles[i]);
    const kernel = await createSolver();
    const guesses = drawn.map((line) => kernel.solve(line, { limit: plan.limit }).guesses!);
    expect(wasm.guessesPerPuzzle).toBeCloseTo(guesses.reduce((sum, g) => sum + g, 0) / guesses.length, 9); // the kernel's own, on the puzzles drawn
    expect(wasm.guessesPerPuzzle).toBeGreaterThan(0); // and the hard tier needs some
    expect(threads).toMatchObject({ mode: "threads", threads: 1, p50Micros: null, p99Micros: null });
    expect(threads.cpuPerWall).toBeGreaterThan(0);
    expect(dlx.speedup).toBe(1);
    expect(dlx.p99Micros!).toBeGreaterThanOrEqual(dlx.p50Micros!);
    expect(dancing.guessesPerPuzzle).toBeNull();
    expect(dancing.noGuessPercent).toBeNull();
  });

  it("times the pool's row under a budget that stops most puzzles, with the kernel's timeouts, and flags both rows T", async () => {
    const records = await runBench({ ...plan, budget: 5, solvers: [findSolver("wasm")], extraRows: [poolRow(1)] });
    const [wasm, , threads] = records;
    expect(wasm.timeouts).toBeGreaterThan(wasm.puzzles / 2);
    expect(threads).toMatchObject({ row: "wasm (1 thread)", puzzles: wasm.puzzles, timeouts: wasm.timeouts });
    for (const record of [wasm, threads]) expect(noiseFlags(record)).toContain("timeouts");
  });

  /**
   * A registry entry `id` over the registry's `base` whose engine solves one puzzle a call, each
   * call going through `call` (given the wrapped engine's call).
   */
  function wrappedSolver(base: string, id: string, call: (solve: () => number, solution: Uint8Array) => number): SolverInfo {
    const info = findSolver(base);
    return {
      ...info,
      id,
      load: async (): Promise<SolverEngine> => {
        const engine = await info.load(9);
        return {
          countSolutions: (puzzle, limit, solution, stats, budget) => call(() => engine.countSolutions(puzzle, limit, solution, stats, budget), solution),
        };
      },
    };
  }

  /** dlx, with answers that `corrupt` spoils. */
  const brokenSolver = (corrupt: (solution: Uint8Array) => number): SolverInfo =>
    wrappedSolver("dlx", "broken", (solve, solution) => solve() + corrupt(solution));

  it("throws when a solver's solution is wrong", async () => {
    const swapsTwoCells = brokenSolver((solution) => {
      [solution[0], solution[1]] = [solution[1], solution[0]];
      return 0;
    });
    await expect(runBench({ ...plan, solvers: [findSolver("dlx"), swapsTwoCells] })).rejects.toThrow(WrongAnswerError);
    await expect(runBench({ ...plan, solvers: [swapsTwoCells] })).rejects.toThrow(/broken on hard line \d+: solution \d{81} is not a valid grid/);
  });

  it("does not sample a row because the clock ran while the process waited (the pass's budget is CPU time too)", async () => {
    // the kernel, one puzzle a call, each call also blocked 5 ms without using the CPU, as when
    // another process holds the core
    const blocked = new Int32Array(new SharedArrayBuffer(4));
    const waits = wrappedSolver("wasm", "waits", (solve) => {
      Atomics.wait(blocked, 0, 0, 5);
      return solve();
    });
    // 20 puzzles × 5 ms is 100 ms by the clock, past the checking pass's 1/5 of 400 ms (the clock
    // alone stopped it after about 15); its CPU time, about 20 µs a puzzle, is far from it
    const [record] = await runBench({ ...plan, timeMs: 400, maxPuzzles: 20, solvers: [waits] });
    expect(record).toMatchObject({ row: "waits", selected: 20, puzzles: 20 });
  });

  it("does not sample a row because its first calls were slow (a solver still being compiled): the decision times it warm", async () => {
    // the kernel, its first 15 calls each also spinning 2 ms of CPU time, as code not yet compiled runs
    let calls = 0;
    const cold = wrappedSolver("wasm", "cold", (solve) => {
      if (calls++ < 15) for (const end = performance.now() + 2; performance.now() < end; ); // busy, so CPU time too
      return solve();
    });
    // 15 × 2 ms is past the pass's 1/5 of 100 ms, in CPU time too: the first pass alone stopped after about 10 puzzles
    const [record] = await runBench({ ...plan, timeMs: 100, maxPuzzles: 20, solvers: [cold] });
    expect(record).toMatchObject({ row: "cold", selected: 20, puzzles: 20 });
  });

  it("keeps the prefix the run it is compared with timed, for a row on the edge of sampling (--compare's sampledBefore)", async () => {
    // the kernel, every call also busy for 6 ms of CPU time: 20 puzzles would take 120 ms of the pass's 1/5 of 500 ms
    const busy = wrappedSolver("wasm", "busy", (solve) => {
      for (const start = process.cpuUsage(); ; ) {
        const { user, system } = process.cpuUsage(start);
        if (user + system >= 6000) break;
      }
      return solve();
    });
    const run = (sampledBefore?: () => number) =>
      runBench({ ...plan, timeMs: 500, rounds: 1, maxPuzzles: 40, solvers: [busy], ...(sampledBefore ? { sampledBefore } : {}) });
    expect((await run())[0]).toMatchObject({ selected: 40, puzzles: 10 });
    expect((await run(() => 20))[0]).toMatchObject({ selected: 40, puzzles: 20 });
  });

  it("samples a row to one of the prefixes 10, 20, 40, … (or all), by the time its puzzles took warm", () => {
    expect(samplingSteps(100)).toEqual([10, 20, 40, 80, 100]);
    expect(samplingSteps(10)).toEqual([10]);
    expect(samplingSteps(7)).toEqual([7]);
    // asked before each puzzle with the µs the calls took so far (and the pass's CPU µs), until it says stop
    const kept = (count: number, budgetMs: number, microsEach: (i: number) => number, cpu = Infinity, before?: number) => {
      const rule = samplingRule(count, budgetMs, before);
      let spent = 0;
      let solved = 0;
      while (solved < count && rule(solved, spent, () => cpu)) spent += microsEach(solved++);
      if (solved === count) rule(solved, spent, () => cpu);
      return rule.kept();
    };
    expect(kept(100, 10, () => 30)).toBe(100);
    // every rate between two steps keeps the same prefix: 40 puzzles fit 10 ms, 80 would not
    for (const micros of [126, 150, 200, 240]) expect(kept(100, 10, () => micros)).toBe(40);
    expect(kept(100, 10, () => 2000)).toBe(10); // the first step, always
    // a slow puzzle past a step that fitted: the step before it is kept
    expect(kept(100, 10, (i) => (i === 30 ? 20_000 : 50))).toBe(20);
    // the clock ran while the process waited: its CPU time decides
    expect(kept(100, 10, () => 5000, 2000)).toBe(100);
    // near a step's edge, the prefix an earlier run kept (--compare's) is kept again, on either side of it
    expect([kept(100, 10, () => 250), kept(100, 10, () => 250, Infinity, 20)]).toEqual([40, 20]);
    expect([kept(100, 10, () => 270), kept(100, 10, () => 270, Infinity, 40)]).toEqual([20, 40]);
    // far from it, or a prefix that is no step (an older run's), it is not
    expect(kept(100, 10, () => 100, Infinity, 20)).toBe(100);
    expect(kept(100, 10, () => 2000, Infinity, 80)).toBe(10);
    expect(kept(100, 10, () => 270, Infinity, 28)).toBe(20);
  });

  it("throws when a solver's count is wrong", async () => {
    const countsTwo = brokenSolver(() => 1);
    await expect(runBench({ ...plan, solvers: [countsTwo] })).rejects.toThrow(/expected 1 solution \(the dataset is unique\), got 2/);
  });
});

describe("environment", () => {
  it("names the commit measured, -dirty when a tracked file differs from it (an untracked one does not count)", async () => {
    const { gitCommit } = await import("../bench/tool.js");
    const { execFileSync } = await import("node:child_process");
    const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "sudoku-wasm-commit-"));
    try {
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], { cwd: dir })
          .toString()
          .trim();
      git("init", "-q");
      writeFileSync(join(dir, "a.txt"), "one\n");
      git("add", "a.txt");
      git("commit", "-q", "-m", "one");
      const head = git("rev-parse", "--short=12", "HEAD");
      expect(gitCommit(dir)).toBe(head);
      writeFileSync(join(dir, "b.txt"), "untracked\n");
      expect(gitCommit(dir)).toBe(head);
      writeFileSync(join(dir, "a.txt"), "two\n");
      expect(gitCommit(dir)).toBe(`${head}-dirty`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
