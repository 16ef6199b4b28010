/**
 * The bench's judgement: summaries and ratio intervals, noise flags, `--compare` (settings and
 * verdicts), the JSON schema and the chart. All on hand-made samples: nothing here is timed.
 */
import { formatMarkdown, formatRatio, formatSpeedup } from "../bench/report/format.js";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Random } from "../src/model/prng.js";
import { quantile } from "../src/model/quantile.js";
import { SPEED_SHIFT_LIMIT, markSpeedShifts, noiseFlags, flagMarks } from "../bench/noise.js";
import type { BenchEnvironment, BenchRecord, BenchRun } from "../bench/records.js";
import { compareRuns, formatComparison, settingDifferences, verdictOf } from "../bench/report/compare.js";
import { formatJson, parseJson } from "../bench/report/json.js";
import { checkOutputRequests, namesStandardOutput, withStdoutAliases, writeReports, writeText } from "../bench/report/output.js";
import { CompactLayout, fastestRow, formatFlagNotes, formatSummary, tiedWithFastest, wrap } from "../bench/report/compact.js";
import { formatSvg, seriesColours } from "../bench/report/svg.js";
import { colourDifference, toLab } from "./colour.js";
import { mannWhitneyCount, rankRatio, studentT95, summarize, welchRatio, spreadFromMargin } from "../bench/statistics.js";
import { calibratedFields, combineRounds, timeRounds } from "../bench/rounds.js";
import { calibrationIdentity, calibrationUnit } from "../bench/calibration.js";
import { repeater } from "../bench/planted.js";
import { checkWellFormed } from "./xml.js";
import { benchRecord } from "./bench-record.js";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `n` samples around `mean` with relative spread `spread` (seeded, uniform). */
function samplesAround(mean: number, spread: number, n: number, seed = 1): number[] {
  const random = new Random(seed);
  return Array.from({ length: n }, () => mean * (1 + spread * (random.nextUint32() / 2 ** 32 - 0.5) * 2));
}

const environment: BenchEnvironment = {
  cpu: "Test CPU",
  cores: 2,
  node: "v20.0.0",
  v8: "11.3",
  buildFlags: "optimizeLevel=3",
  commit: "abc",
  date: "2025-01-01T00:00:00.000Z",
  seed: 1,
  limit: 2,
  timeMs: 100,
  budget: 1000,
  tinybench: "6.2.5",
  puzzles: 50,
  datasets: [{ name: "easy", sha256: "0123456789abcdef", size: 100, drawn: 50 }],
};

/** The mean µs per puzzle (50 puzzles a batch) of each of up to five rounds of `batchMs`, as bench/rounds.ts records them. */
function roundsOf(batchMs: readonly number[]): number[] {
  const rounds = Math.min(5, batchMs.length);
  const size = Math.ceil(batchMs.length / rounds);
  return Array.from({ length: rounds }, (_, i) => (summarize(batchMs.slice(i * size, (i + 1) * size)).mean * 1000) / 50);
}

/** A record whose figures come from `batchMs` (batches of 50 puzzles). */
function measured(dataset: string, row: string, batchMs: number[], overrides: Partial<BenchRecord> = {}): BenchRecord {
  const summary = summarize(batchMs);
  const meanMicros = (summary.mean * 1000) / 50;
  return benchRecord(dataset, row, 1e6 / meanMicros, {
    samples: batchMs.length,
    meanMicros,
    p50Micros: meanMicros,
    p99Micros: meanMicros * 2,
    rmePercent: summary.rmePercent,
    guessesPerPuzzle: 1,
    noGuessPercent: 50,
    cpuPerWall: 0.99,
    batchMs,
    roundMicros: roundsOf(batchMs),
    roundCpuMicros: roundsOf(batchMs),
    calibrationMicros: roundsOf(batchMs).map(() => 80),
    passMeanMicros: meanMicros,
    ...overrides,
  });
}

describe("statistics", () => {
  it("summarizes samples: mean, σ, extremes, percentiles and the 95% margin", () => {
    const s = summarize([4, 1, 3, 2, 5]);
    expect(s).toMatchObject({ n: 5, mean: 3, min: 1, max: 5, p50: 3, p75: 4 });
    expect(s.sd).toBeCloseTo(Math.sqrt(2.5));
    expect(s.rmePercent).toBeCloseTo((100 * 2.776 * Math.sqrt(2.5)) / Math.sqrt(5) / 3, 2);
    expect(studentT95(1)).toBeCloseTo(12.706);
    expect(studentT95(1000)).toBeCloseTo(1.962, 2);
  });

  it("gives a Welch interval that holds the ratio, tight for steady samples and wide for noisy ones", () => {
    const welch = (a: number[], b: number[]) => welchRatio(summarize(a), summarize(b));
    const steady = welch(samplesAround(2, 0.01, 50, 1), samplesAround(1, 0.01, 50, 2));
    expect(steady.method).toBe("welch");
    expect(steady.ratio).toBeCloseTo(2, 1);
    expect(steady.low).toBeLessThan(steady.ratio);
    expect(steady.high).toBeGreaterThan(steady.ratio);
    expect(steady.high - steady.low).toBeLessThan(0.02);
    const noisy = welch(samplesAround(2, 0.9, 50, 1), samplesAround(1, 0.9, 50, 2));
    expect(noisy.high - noisy.low).toBeGreaterThan(10 * (steady.high - steady.low));
    // σ recovered from a tinybench-style margin of error gives the same interval.
    const a = samplesAround(3, 0.2, 200, 5);
    const fromMargin = welchRatio(spreadFromMargin(200, summarize(a).mean, summarize(a).rmePercent), summarize(samplesAround(2, 0.2, 200, 6)));
    expect(fromMargin.low).toBeCloseTo(welch(a, samplesAround(2, 0.2, 200, 6)).low, 6);
  });

  it("gives a Welch interval that agrees with a seeded percentile bootstrap, on well-behaved and on skewed batch times", () => {
    const bootstrap = (a: number[], b: number[]) => {
      const random = new Random(1);
      const mean = (values: number[]) => values.reduce((sum) => sum + values[random.below(values.length)], 0) / values.length;
      const ratios = Float64Array.from({ length: 2000 }, () => mean(a) / mean(b)).sort();
      return { low: quantile(ratios, 0.025), high: quantile(ratios, 0.975) };
    };
    // Skewed: a few pre-empted batches, as a busy machine gives.
    const skewed = (seed: number) => samplesAround(1, 0.05, 500, seed).map((x, i) => (i % 25 === 0 ? x * 4 : x));
    for (const [a, b] of [
      [samplesAround(3, 0.2, 200, 5), samplesAround(2, 0.2, 200, 6)],
      [skewed(9), skewed(10)],
    ]) {
      const boot = bootstrap(a, b);
      const welch = welchRatio(summarize(a), summarize(b));
      expect(Math.abs(welch.low - boot.low)).toBeLessThan(0.1 * (boot.high - boot.low));
      expect(Math.abs(welch.high - boot.high)).toBeLessThan(0.1 * (boot.high - boot.low));
    }
  });

  it("takes Mann–Whitney's 95% counts as printed tables give them, and the median pairwise ratio with the interval they cut", () => {
    // Critical values of U, two-sided 5%, equal sides 4, 5, 8, 10, 20; sides 3 and 6; none for 3 a side.
    expect([4, 5, 8, 10, 20].map((n) => mannWhitneyCount(n, n))).toEqual([0, 2, 13, 23, 127]);
    expect(mannWhitneyCount(3, 6)).toBe(1);
    expect(mannWhitneyCount(3, 3)).toBe(-1);
    // Beyond 50 a side the normal approximation, which agrees within one count.
    expect(Math.abs(mannWhitneyCount(51, 51) - mannWhitneyCount(50, 50) - 42)).toBeLessThanOrEqual(2);
    const before = [10, 11, 12, 13, 14];
    const estimate = rankRatio(
      before,
      before.map((x) => x / 2),
    )!;
    expect(estimate.ratio).toBeCloseTo(2, 9);
    // 25 pairwise ratios 2 × a/b; the interval drops the 2 lowest (10/14, 10/13) and 2 highest: 2 × 11/14 … 2 × 14/11.
    expect(estimate.low).toBeCloseTo((2 * 11) / 14, 9);
    expect(estimate.high).toBeCloseTo((2 * 14) / 11, 9);
    expect(rankRatio([1, 2, 3], [1, 2, 3])).toBeNull();
  });
});

describe("noise flags", () => {
  it("marks a row whose injected samples are noisy, and leaves a steady one alone", () => {
    const steady = measured("easy", "steady", samplesAround(5, 0.02, 40));
    const noisy = measured("easy", "noisy", [...samplesAround(5, 0.02, 30), 40, 45, 60, 38]); // a few pre-empted batches
    expect(noiseFlags(steady)).toEqual([]);
    expect(noiseFlags(noisy)).toContain("noisy");
    expect(flagMarks(noiseFlags(noisy))).toBe("N");
  });

  it("marks passes that disagree and rows that were pre-empted", () => {
    const row = measured("easy", "x", samplesAround(5, 0.02, 40));
    expect(noiseFlags({ ...row, passMeanMicros: row.meanMicros / 3 })).toEqual(["disagree"]);
    expect(noiseFlags({ ...row, passMeanMicros: row.meanMicros * 3 })).toEqual(["disagree"]);
    // A batch row's pass times single calls: slower than the batch is expected; faster is not.
    expect(noiseFlags({ ...row, batchCall: true, passMeanMicros: row.meanMicros * 1.7, p99Micros: row.meanMicros * 2 })).toEqual([]);
    expect(noiseFlags({ ...row, batchCall: true, passMeanMicros: row.meanMicros / 3 })).toEqual(["disagree"]);
    expect(noiseFlags({ ...row, passMeanMicros: row.meanMicros * 1.2 })).toEqual([]);
    // A mean above p99 from the other pass, within PASS_RATIO_LIMIT of the pass's mean (the issue's "mean above p99").
    expect(noiseFlags({ ...row, passMeanMicros: row.meanMicros / 1.3, p99Micros: row.meanMicros / 1.2 })).toEqual(["disagree"]);
    expect(noiseFlags({ ...row, passMeanMicros: row.meanMicros / 1.3, p99Micros: row.meanMicros * 1.01 })).toEqual([]);
    // A heavy tail whose own mean lies above its p99 is the pass agreeing with itself, not a disagreement.
    expect(noiseFlags({ ...row, passMeanMicros: row.meanMicros, p99Micros: row.meanMicros / 1.2 })).toEqual([]);
    expect(noiseFlags({ ...row, cpuPerWall: 0.5 })).toEqual(["preempted"]);
    expect(noiseFlags({ ...row, threads: 2, cpuPerWall: 1.9 })).toEqual([]);
    expect(noiseFlags({ ...row, threads: 2, cpuPerWall: 1.0 })).toEqual(["preempted"]);
  });

  it("marks a row most of whose puzzles hit the budget, whose passes it then does not compare", () => {
    const row = measured("hardest", "tables", samplesAround(5, 0.02, 40));
    expect(noiseFlags({ ...row, puzzles: 23, timeouts: 22, passMeanMicros: row.meanMicros / 3 })).toEqual(["timeouts"]);
    expect(flagMarks(noiseFlags({ ...row, puzzles: 23, timeouts: 22 }))).toBe("T");
    expect(noiseFlags({ ...row, puzzles: 24, timeouts: 12 })).toEqual([]); // half: not more than half
    expect(noiseFlags({ ...row, puzzles: 24, timeouts: 12, passMeanMicros: row.meanMicros / 3 })).toEqual(["disagree"]);
  });

  it("marks a row timed while the machine ran at another speed than over the run, by the calibration beside each row", () => {
    const row = (name: string, calibrationMicros: number[] | undefined, threads: number | null = null) =>
      measured("hardest", name, samplesAround(5, 0.02, 40), { calibrationMicros, threads, cpuPerWall: threads === null ? 0.99 : 1.9 });
    // The machine's slow spell during "slowed" (its calibration 1.4× the run's), a fast one during "hurried"; a pool row's
    // calibration shares the process's CPU time with its workers', so it is left out, whatever it reads.
    const records = markSpeedShifts([
      row("a", [35, 36, 35, 34, 35]),
      row("b", [36, 35, 34, 35, 35]),
      row("c", [34, 35, 36, 35, 35]),
      row("slowed", [49, 50, 48, 49, 50]),
      row("hurried", [25, 25, 26, 24, 25]),
      row("spell", [35, 35, 35, 60, 60]), // slowed for two rounds of five: its median is the run's, its rate is not
      row("pool", [300, 70, 55, 50, 47], 2),
      row("web", undefined),
    ]);
    const shift = (name: string) => records.find((r) => r.row === name)!.speedShift;
    expect(shift("a")).toBeCloseTo(1, 5);
    expect(shift("slowed")).toBeCloseTo(49.2 / 35, 5);
    expect(shift("hurried")).toBeCloseTo(25 / 35, 5);
    expect(shift("spell")).toBeCloseTo(45 / 35, 5);
    expect(shift("pool")).toBeNull();
    expect(shift("web")).toBeNull();
    expect(records.map((r) => flagMarks(noiseFlags(r)))).toEqual(["", "", "", "S", "S", "S", "", ""]);
    // A round whose calibration did not run (NaN) is left out of the row's mean.
    expect(markSpeedShifts([row("a", [35, Number.NaN]), row("b", [35]), row("c", [35])])[0].speedShift).toBeCloseTo(1, 5);
    // Within the limit either way: no flag.
    expect(noiseFlags({ ...records[0], speedShift: SPEED_SHIFT_LIMIT * 0.99 })).toEqual([]);
    expect(noiseFlags({ ...records[0], speedShift: 1 / (SPEED_SHIFT_LIMIT * 0.99) })).toEqual([]);
    // Too few calibrated one-thread rows to tell the run's speed: none is marked.
    expect(markSpeedShifts([row("a", [35]), row("slowed", [50])]).map((r) => r.speedShift)).toEqual([null, null]);
    // A flagged row's note says how much slower or faster, and that the rows printed live do not show S.
    const notes = formatFlagNotes(records, 100, undefined, true).join("\n");
    expect(notes).toMatch(/S {2}speed changed: the calibration work/);
    expect(notes.replace(/\s+/g, " ")).toContain("hardest · hurried (1.4× faster, ~");
    expect(notes.replace(/\s+/g, " ")).toContain("the rows above, printed as they finished, do not show it");
    expect(formatFlagNotes(records, 100).join(" ").replace(/\s+/g, " ")).not.toContain("do not show it");
    expect(notes.replace(/\s+/g, " ")).toMatch(/hardest · slowed \(1\.4× slower, ~[\d,]+\/s at the run's speed\)/);
    for (const line of formatFlagNotes(records, 80, undefined, true)) expect(line.length, line).toBeLessThanOrEqual(80);
    // The summary's ratio is qualified when a row it sets side by side was marked.
    const summary = (rows: BenchRecord[]) => formatSummary(rows, (r) => r.row === "b", 200).join("\n");
    const fastest = { ...records[3], puzzlesPerSecond: 1e9 }; // "slowed", made the fastest
    expect(summary([records[0], records[1], fastest])).toContain("(S: the machine changed speed");
    expect(summary([records[0], records[1], { ...fastest, speedShift: 1 }])).not.toContain("(S:");
    // A marked row that is not the fastest, but would have been at the run's speed, qualifies the ratio too.
    const slowest = { ...records[3], puzzlesPerSecond: records[0].puzzlesPerSecond * 0.8, speedShift: 1.4 };
    expect(summary([records[0], records[1], slowest])).toContain("(S:");
    expect(summary([records[0], records[1], { ...slowest, puzzlesPerSecond: records[0].puzzlesPerSecond * 0.3 }])).not.toContain("(S:");
  });
});

describe("--compare", () => {
  const before: BenchRun = {
    environment,
    records: [
      measured("easy", "wasm", samplesAround(5, 0.3, 60, 1)),
      measured("easy", "bitmask", samplesAround(10, 0.05, 60, 2)),
      measured("easy", "scan", samplesAround(50, 0.05, 60, 3)),
    ],
  };

  it("classifies a row within noise as no change, and a clear change by its direction", () => {
    const after: BenchRun = {
      environment,
      records: [
        measured("easy", "wasm", samplesAround(5 / 1.01, 0.3, 60, 11)), // 1% faster inside ±30% noise
        measured("easy", "bitmask", samplesAround(5, 0.05, 60, 12)), // 2× faster
        measured("easy", "mrv", samplesAround(20, 0.05, 60, 13)),
      ],
    };
    const changes = compareRuns(before, after);
    expect(changes.map((c) => [c.row, c.verdict])).toEqual([
      ["wasm", expect.stringMatching(/^(no change|not judged)$/)],
      ["bitmask", "faster"],
      ["mrv", "not run before"],
      ["scan", "not run now"],
    ]);
    expect(changes[0].estimate!.method).toBe("calibrated");
    expect(changes[1].estimate!.ratio).toBeCloseTo(2, 1);
    const text = formatComparison(before, changes);
    expect(text).toMatch(
      /wasm\s+[\d,]+\s+[\d,]+\s+(no change|not judged \(± wider than the [\d.]+% it would judge\)): 1\.\d\d× \([\d.]+–[\d.]+\) (faster|slower)/,
    );
    expect(text).toMatch(/bitmask\s+[\d,]+\s+[\d,]+\s+(1\.9\d|2\.0\d)× \([\d.]+–[\d.]+\) faster/);
    expect(text).toMatch(/scan\s+[\d,]+\s+n\/a\s+not run now/);
    expect(text).not.toContain("gone");
    expect(text).toContain("calibrated rounds");
  });

  it("calls a change under the noise threshold no change even when its interval excludes 1×", () => {
    expect(verdictOf({ ratio: 1.01, low: 1.005, high: 1.015, method: "bootstrap" })).toBe("no change");
    expect(verdictOf({ ratio: 1.05, low: 1.03, high: 1.07, method: "bootstrap" })).toBe("faster");
    expect(verdictOf({ ratio: 0.9, low: 0.85, high: 0.95, method: "welch" })).toBe("slower");
  });

  it("shows the ratio of a row without calibrated rounds on a side (the web page's export) but does not judge it", () => {
    const old = { ...before, records: before.records.map(({ roundCpuMicros: _cpu, calibrationMicros: _calibration, ...r }) => r) };
    const [wasm, bitmask] = compareRuns(old, before);
    expect(wasm.estimate!.method).toBe("welch");
    expect(wasm.verdict).toBe("not judged");
    expect(bitmask).toMatchObject({ verdict: "not judged", reason: "no calibrated rounds in the earlier run" });
  });

  it("names the settings that make two runs different experiments, and warns on the build", () => {
    const after = { ...environment, limit: 1, buildFlags: "optimizeLevel=2", datasets: [{ name: "easy", sha256: "fedcba9876543210", size: 100, drawn: 20 }] };
    const differences = settingDifferences(before.environment, after);
    expect(differences.filter((d) => d.severity === "refuse").map((d) => d.setting)).toEqual(["limit", "puzzles drawn from easy", "content of easy (sha256)"]);
    expect(differences.filter((d) => d.severity === "warn").map((d) => d.setting)).toEqual(["WASM build flags"]);
    expect(settingDifferences(before.environment, before.environment)).toEqual([]);
  });
});

describe("JSON export", () => {
  const run: BenchRun = {
    environment,
    records: [measured("easy", "wasm", samplesAround(5, 0.3, 20)), measured("easy", "scan", [1, 2], { p50Micros: null, guessesPerPuzzle: null })],
    incomplete: { signal: "SIGINT", rowsPlanned: 5 },
  };

  it("validates against the documented schema, with settings, samples, their summary and flags", () => {
    const schema = JSON.parse(readFileSync(new URL("../docs/bench-result.schema.json", import.meta.url), "utf8"));
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(schema);
    const written = JSON.parse(formatJson(run));
    expect(validate(written), JSON.stringify(validate.errors)).toBe(true);
    expect(written).toMatchObject({ format: "sudoku-wasm-bench", version: 3, incomplete: { signal: "SIGINT" }, settings: { limit: 2, seed: 1, puzzles: 50 } });
    expect(written.environment.limit).toBeUndefined();
    expect(written.records[0].batchMs).toHaveLength(20);
    expect(written.records[0].perPuzzleMicros).toMatchObject({ n: 20, min: expect.any(Number), max: expect.any(Number), p99: expect.any(Number) });
    expect(written.records[0].flags).toContain("noisy");
    // A speed shift and its flag are in the schema too.
    const shifted = JSON.parse(formatJson({ ...run, records: run.records.map((r) => ({ ...r, speedShift: 1.4 })) }));
    expect(shifted.records[0].flags).toContain("speed");
    expect(validate(shifted), JSON.stringify(validate.errors)).toBe(true);
    const withShift = (speedShift: number | null) => JSON.parse(formatJson({ ...run, records: run.records.map((r) => ({ ...r, speedShift })) }));
    expect(validate(withShift(null))).toBe(true);
    expect(validate(withShift(0))).toBe(false);
    // The schema is not a rubber stamp: a record without its flags fails.
    delete written.records[0].flags;
    expect(validate(written)).toBe(false);
  });

  it("round-trips through the reader, and refuses a file with a row twice on one dataset (the second replaced the first in a comparison)", () => {
    expect(parseJson(formatJson(run))).toEqual(run);
    const twice = JSON.parse(formatJson(run));
    twice.records.push(twice.records[0]);
    const [{ dataset, row }] = run.records;
    expect(() => parseJson(twice, "x.json")).toThrow(
      `x.json: the row '${row}' on '${dataset}' appears twice; a result file has one record per row and dataset`,
    );
  });

  it("marks an interrupted run in the Markdown too", () => {
    expect(formatMarkdown(run)).toContain("**Incomplete:** interrupted by SIGINT after 2 of 5 rows.");
    expect(formatMarkdown({ ...run, incomplete: undefined })).not.toContain("Incomplete");
  });
});

describe("chart", () => {
  it("gives up to thirty-six series each its own colour, far apart to the eye (CIEDE2000), then repeats them", () => {
    expect(toLab("#ffffff")[0]).toBeCloseTo(100, 1);
    expect(toLab("#ff0000").map((v) => Math.round(v * 10) / 10)).toEqual([53.2, 80.1, 67.2]); // sRGB red's published Lab
    // Sharma, Wu and Dalal's test pairs (2005): 1, 7, 17 and 24.
    expect(colourDifference([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(colourDifference([50, 0, 0], [50, -1, 2])).toBeCloseTo(2.3669, 4);
    expect(colourDifference([50, 2.5, 0], [73, 25, -18])).toBeCloseTo(27.1492, 4);
    expect(colourDifference([60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387])).toBeCloseTo(1.2644, 4);
    for (let count = 3; count <= 36; count++) {
      const colours = seriesColours(count);
      expect(new Set(colours).size).toBe(count);
      const labs = colours.map(toLab);
      let closest = Infinity;
      for (let i = 0; i < count; i++) for (let j = i + 1; j < count; j++) closest = Math.min(closest, colourDifference(labs[i], labs[j]));
      // Tableau 10 up to ten series (its closest pair is ΔE00 18.1); beyond, the fixed max–min list (19.2 at a default run's 23).
      expect(closest, `${count} series`).toBeGreaterThan(count === 23 ? 19 : 16);
      if (count > 10) for (const lab of labs) expect(lab[0]).toBeLessThanOrEqual(80); // no picked bar fades into the page
    }
    expect(seriesColours(38).slice(36)).toEqual(seriesColours(38).slice(0, 2));
  });

  it("draws an error bar per bar and a footer with machine, commit and date", () => {
    const rows = Array.from({ length: 17 }, (_, i) => measured("easy", `solver ${i}`, samplesAround(1 + i, 0.1, 10, i + 1)));
    const svg = formatSvg({ environment, records: rows });
    checkWellFormed(svg);
    expect(svg.match(/class="error-bar"/g)).toHaveLength(17);
    const fills = [...svg.matchAll(/<rect class="bar"[^>]*fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
    expect(new Set(fills).size).toBe(17);
    expect(svg).toContain("Test CPU (2 cores)");
    expect(svg).toContain("commit abc");
    expect(svg).toContain("2025-01-01T00:00:00.000Z");
  });
});

describe("compact view", () => {
  const rows = [
    measured("easy", "wasm", samplesAround(1, 0.02, 40, 1), {
      batchCall: true,
      reference: "bitmask",
      speedup: 5,
      speedupInterval: { low: 4.9, high: 5.1, method: "bootstrap" },
    }),
    measured("easy", "bitmask", samplesAround(5, 0.02, 40, 2), { reference: "bitmask", speedup: 1 }),
    measured("easy", "wasm-abi:./a/very/long/path/to/solver.wasm", [...samplesAround(3, 0.02, 30, 3), 40, 45, 60], {
      puzzles: 10,
      timeouts: 3,
      cpuPerWall: 0.4,
    }),
  ];

  for (const columns of [80, 100, 120]) {
    it(`fits a ${columns}-column terminal, aligned, and marks the noisy row`, () => {
      const layout = new CompactLayout(
        rows.map((r) => r.row),
        columns,
      );
      const lines = [layout.header(), ...rows.flatMap((r) => layout.line(r).split("\n"))];
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
      const flagsAt = layout.header().indexOf("flags");
      const noisy = layout.line(rows[2]).split("\n")[0];
      expect(noisy.slice(flagsAt, flagsAt + 5).trim()).toBe("N P");
      expect(
        layout
          .line(rows[0])
          .slice(flagsAt, flagsAt + 5)
          .trim(),
      ).toBe("");
      expect(noisy).toMatch(/^ {2}wasm-abi:\.\/a…solver\.wasm/);
      expect(layout.line(rows[2])).toContain("3 timeouts"); // notes wrap, never cut
      if (columns >= 120) expect(layout.header()).toContain("µs p99");
    });
  }

  it("explains each flag once, naming the rows it marks", () => {
    const notes = formatFlagNotes(rows, 100).join("\n");
    expect(notes).toMatch(/N {2}noisy: ± above 5%; give each row more time \(--time 2000\)/);
    expect(notes).toMatch(/1 row: easy · wasm-abi:\.\/a\/very\/long\/path\/to\/solver\.wasm/);
    expect(notes).toMatch(/P {2}pre-empted/);
    expect(notes).toContain("(CPU/wall 0.4)");
    // A row's name never breaks across lines.
    const many = Array.from({ length: 5 }, (_, i) => ({ ...rows[2], dataset: "hardest", row: `wasm (${i + 1} call/puzzle)` }));
    const wrapped = formatFlagNotes(many, 80);
    for (const line of wrapped) expect(line.length).toBeLessThanOrEqual(80);
    expect(wrapped.join("\n").match(/hardest · wasm \(\d call\/puzzle\)/g)?.length).toBe(10);
    expect(formatFlagNotes(rows.slice(0, 2))).toEqual([]);
  });

  it("says a threads row's P comes from its own threads when they outnumber the cores the process may use, not from another process", () => {
    const pool = measured("easy", "wasm (2 threads)", samplesAround(1, 0.02, 40, 7), { threads: 2, cpuPerWall: 0.98 });
    expect(flagMarks(noiseFlags(pool))).toBe("P");
    const own = formatFlagNotes([pool], 400, undefined, false, 1).join("\n");
    expect(own).toMatch(
      /P {2}pre-empted: .* because the row's threads outnumber the 1 core this process may use .*took turns on it, not because another process/,
    );
    expect(own).not.toContain("so another process had the core");
    expect(own).toContain("easy · wasm (2 threads) (CPU/wall 0.98, 2 threads on 1 core)");
    // with a row that another process slowed too, both are said
    const both = formatFlagNotes([pool, rows[2]], 400, undefined, false, 1).join("\n");
    expect(both).toContain("so another process had the core");
    expect(both).toContain('a row whose entry says "K threads on N cores" was slowed by its own threads instead');
    expect(both).toContain("(CPU/wall 0.4)");
    // on as many cores as threads, a P is another process's
    const enough = formatFlagNotes([{ ...pool, cpuPerWall: 1.2 }], 200, undefined, false, 2).join("\n");
    expect(enough).toContain("so another process had the core");
    expect(enough).toContain("(CPU/wall 1.2)");
  });

  it("closes with the fastest row per dataset against the reference and the fastest pure-TS row", () => {
    const [summary] = formatSummary(rows, (r) => r.row === "bitmask", 200).slice(1);
    expect(summary).toMatch(/^ {2}easy: wasm, [\d,]+\/s; 5\.00× \(4\.9\d–5\.1\d\) faster than bitmask \(reference, the fastest pure TS\)$/);
    const other = formatSummary(rows, (r) => r.row.startsWith("wasm-abi"), 200)[1];
    expect(other).toMatch(/faster than bitmask \(reference\); [\d.]+× \([\d.]+–[\d.]+\) faster than wasm-abi:\S+ \(the fastest pure TS\)/);
  });

  it("prints a ratio's interval as its two ends, which need not lie evenly around it", () => {
    expect(formatRatio({ ratio: 1.12, low: 1.013, high: 1.159, method: "welch" })).toBe("1.12× (1.01–1.16)");
    // below 1, the inverse (read "slower"), its ends swapped
    expect(formatRatio({ ratio: 0.5, low: 0.45, high: 0.6, method: "welch" })).toBe("2.00× (1.67–2.22)");
    // ends that would read the same get a digit more
    expect(formatRatio({ ratio: 4.24, low: 4.238, high: 4.2421, method: "welch" })).toBe("4.24× (4.238–4.242)");
    expect(formatRatio({ ratio: 24.7, low: 23.9, high: 25.5, method: "welch" })).toBe("24.7× (23.9–25.5)");
    expect(formatSpeedup(rows[0])).toBe("5.00× (4.90–5.10) faster than bitmask");
  });

  it("says a ratio below 1 against the reference inverted, as 'slower', where no interval is known", () => {
    // (a row without the reference, as a run stopped part-way leaves, ranks the rows by their plain rate)
    const unreferenced = { ...rows[2], puzzles: 50, reference: null };
    const [summary] = formatSummary([{ ...rows[0], speedup: 0.769, speedupInterval: null }, rows[1], unreferenced], (r) => r.row === "bitmask", 200).slice(1);
    expect(summary).toMatch(/; 1\.30× slower than bitmask \(reference, the fastest pure TS\)$/);
    expect(summary).not.toContain("0.769");
  });

  it("never names a row that mostly timed out (flag T) the fastest; says when every row did", () => {
    const gaveUp = (r: BenchRecord): BenchRecord => ({ ...r, timeouts: Math.ceil(r.puzzles * 0.6) }); // on the same puzzles as the rest
    const quick = { ...gaveUp(rows[2]), row: "scan", puzzlesPerSecond: rows[0].puzzlesPerSecond * 10, reference: null };
    const [summary] = formatSummary([...rows, quick], (r) => r.row === "bitmask" || r.row === "scan", 200).slice(1);
    expect(summary).toMatch(/^ {2}easy: wasm, [\d,]+\/s; 5\.00× \(4\.9\d–5\.1\d\) faster than bitmask \(reference, the fastest pure TS\)$/);
    expect(formatSummary(rows.map(gaveUp), () => true, 200)[1]).toBe(
      "  easy: every row gave up on most puzzles (T), so none is the fastest; a larger --budget lets them solve",
    );
    // a row timed on fewer of the puzzles (sampled) is never the fastest by its plain rate
    const sampled = { ...rows[2], row: "mrv", puzzles: rows[0].puzzles - 1, puzzlesPerSecond: rows[0].puzzlesPerSecond * 10, reference: null };
    expect(formatSummary([...rows, sampled], (r) => r.row === "bitmask", 200)[1]).toMatch(/^ {2}easy: wasm, /);
    // with a reference, every row is ranked by its ratio to it on the puzzles both solved, a sampled row too
    const prefix = { ...rows[1], row: "mrv", solver: "mrv", puzzles: 10, comparedOn: 10, puzzlesPerSecond: rows[0].puzzlesPerSecond * 10 };
    const slower = formatSummary([rows[0], rows[1], { ...prefix, speedup: 3 }], (r) => r.row === "bitmask", 300)[1];
    expect(slower).toMatch(/^ {2}easy: wasm, [\d,]+\/s; 5\.00× /);
    const faster = formatSummary([rows[0], rows[1], { ...prefix, speedup: 8 }], (r) => r.row === "bitmask", 300)[1];
    expect(faster).toMatch(/^ {2}easy: mrv, [\d,]+\/s on its first 10 puzzles \(sampled\); 8\.00× faster than bitmask \(reference, the fastest pure TS\)$/);
    expect(fastestRow([rows[0], rows[1], { ...prefix, speedup: 8 }]).row).toBe("mrv");
    // two rows timed on the same puzzles: by puzzles/s, whatever the rescaled ratios say
    const twin = { ...rows[0], row: "wasm (1 call/puzzle)", puzzlesPerSecond: rows[0].puzzlesPerSecond * 1.1, speedup: 4.9 };
    expect(fastestRow([rows[0], rows[1], twin]).row).toBe("wasm (1 call/puzzle)");
    const alone = formatSummary([rows[2]], () => true, 200)[1];
    expect(alone).toContain("the fastest is the fastest pure TS");
    expect(alone).not.toContain("the the");
  });

  it("names the rows the fastest is tied with (interval holding 1×), and none when it stands alone", () => {
    const close = [
      measured("hard", "wasm", samplesAround(1, 0.3, 40, 4)),
      measured("hard", "wasm (1 call/puzzle)", samplesAround(1.01, 0.3, 40, 5)),
      measured("hard", "bitmask", samplesAround(5, 0.02, 40, 6)),
    ];
    const fastest = close.reduce((a, r) => (r.puzzlesPerSecond > a.puzzlesPerSecond ? r : a));
    const tied = close.find((r) => r !== fastest && r.row !== "bitmask")!;
    expect(tiedWithFastest(fastest, close).map((t) => t.record)).toEqual([tied]);
    // a row timed on fewer of the puzzles (sampled) is not compared by its plain mean
    expect(
      tiedWithFastest(
        fastest,
        close.map((r) => (r === tied ? { ...r, puzzles: r.puzzles - 1 } : r)),
      ),
    ).toEqual([]);
    const [line] = formatSummary(close, (r) => r.row === "bitmask", 300).slice(-1);
    expect(line).toMatch(
      new RegExp(`^  hard: ${escapeRegExp(fastest.row)}, [\\d,]+/s, tied within noise with ${escapeRegExp(tied.row)} at 1\\.\\d\\d× \\([\\d.]+–[\\d.]+\\); `),
    );
    expect(formatSummary(rows, (r) => r.row === "bitmask", 200)[1]).not.toContain("tied");
    // Without a reference, the summary says so once, not on every dataset's line.
    const unreferenced = formatSummary([...rows.map((r) => ({ ...r, reference: null })), ...close], () => false, 200);
    expect(unreferenced.slice(1, 3).join("\n")).not.toContain("reference");
    expect(unreferenced[3]).toBe("  No reference: no pure-TS baseline was selected; --reference ID names one.");
    expect(formatSummary([...rows, ...close], () => false, 200)[3]).toBe("  No reference on hard: no pure-TS baseline was selected; --reference ID names one.");
    // a run stopped (Ctrl-C) before the rows that could be the reference: they were selected, not measured
    const stopped = formatSummary([...rows, ...close], () => false, 200, new Set(["hard"]));
    expect(stopped.slice(3)).toEqual(["  No reference on hard: the run was stopped before its reference rows were measured."]);
    // pure-TS rows measured, all of which gave up on most puzzles (T): selected, not usable as the reference
    const gaveUp = formatSummary([...close, { ...close[2], row: "dlx", reference: null, timeouts: close[2].puzzles }], (r) => r.row === "dlx", 200);
    expect(gaveUp.slice(-1)).toEqual(["  No reference: its pure-TS rows gave up on most puzzles (T); a larger --budget lets them solve."]);
  });

  it("wraps long lines at spaces, keeping their indent", () => {
    expect(wrap("  one two three four", 10, "    ")).toEqual(["  one two", "    three", "    four"]);
  });
});

describe("exports", () => {
  const run: BenchRun = { environment, records: [measured("easy", "wasm", samplesAround(5, 0.02, 10))] };
  const folder = mkdtempSync(join(tmpdir(), "sudoku-exports-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("sends one export to standard output with '-', and no chart beside it", () => {
    let stdout = "";
    const written = writeReports(run, { json: "-" }, "stamp", folder, (text) => (stdout += text));
    expect(written).toEqual(["-"]);
    expect(JSON.parse(stdout).version).toBe(3);
    expect(readdirSync(folder)).toEqual([]);
    expect(() => writeReports(run, { json: "-", csv: "-" }, "stamp", folder)).toThrow(/only one export can go to standard output .*, got --json - and --csv -/);
  });

  it("puts the chart beside the first file, or where --chart says, or nowhere with --no-chart or without a file", () => {
    expect(writeReports(run, {}, "a", folder)).toEqual([]);
    expect(writeReports(run, { json: true }, "b", folder)).toEqual([join(folder, "b.json"), join(folder, "b.svg")]);
    expect(writeReports(run, { csv: true, chart: false }, "c", folder)).toEqual([join(folder, "c.csv")]);
    const chart = join(folder, "chart.svg");
    expect(writeReports(run, { chart }, "d", folder)).toEqual([chart]);
    expect(readFileSync(chart, "utf8")).toContain("<svg");
    // A device is no place for a chart beside it (`--json /dev/stdout` once wrote /dev/stdout.svg).
    expect(writeReports(run, { markdown: "/dev/null" }, "e", folder)).toEqual(["/dev/null"]);
  });

  it("never writes a bare flag's file over one of another run started in the same second: the later run's name gets -2", () => {
    const names = (stamp: string) => ["json", "csv", "svg"].map((extension) => join(folder, `${stamp}.${extension}`));
    expect(writeReports(run, { json: true, csv: true }, "same", folder)).toEqual(names("same"));
    expect(writeReports(run, { json: true, csv: true }, "same", folder)).toEqual(names("same-2"));
    expect(writeReports(run, { csv: true }, "same", folder)).toEqual([join(folder, "same-3.csv"), join(folder, "same-3.svg")]);
  });

  it("refuses before the run an export that cannot be written, naming the flag, the path and why; a failed write names its file", () => {
    const file = join(folder, "a-file.txt");
    writeFileSync(file, "");
    expect(() => checkOutputRequests({ json: join(file, "x.json") })).toThrow(`--json ${join(file, "x.json")}: cannot write it (${file} is not a folder)`);
    expect(() => checkOutputRequests({ csv: folder })).toThrow(`--csv ${folder}: cannot write it (a folder, not a file)`);
    expect(() => checkOutputRequests({ markdown: join(folder, "new", "deeper", "x.md"), chart: "/dev/null" })).not.toThrow();
    expect(() => writeReports(run, { json: join(file, "y.json"), chart: false }, "f", folder, undefined)).toThrow(
      new RegExp(`^--json ${escapeRegExp(join(file, "y.json"))}: cannot write it`),
    );
    // mkdir's code (EEXIST here), but always the file's name, which a bare "EEXIST (file already exists)" left out.
    expect(() => writeText(join(file, "z.json"), "{}")).toThrow(new RegExp(`^cannot write '${escapeRegExp(join(file, "z.json"))}': E[A-Z]+ `));
  });

  it("refuses to replace an export of more than one name (hard links), which would keep the old content, before the run and when writing", () => {
    const json = join(folder, "linked.json");
    const other = join(folder, "linked-other.json");
    writeFileSync(json, "earlier");
    linkSync(json, other);
    const why = "it has 2 names (hard links), which would keep the old content: give a file of one name";
    expect(() => checkOutputRequests({ json })).toThrow(`--json ${json}: cannot write it (${why})`);
    expect(() => writeText(json, "{}")).toThrow(`cannot write '${json}': ${why}`);
    expect([readFileSync(json, "utf8"), readFileSync(other, "utf8")]).toEqual(["earlier", "earlier"]);
  });

  it("keeps a replaced export's mode, and its owner where the process may (root)", (context) => {
    const csv = join(folder, "owned.csv");
    writeFileSync(csv, "earlier", { mode: 0o640 });
    chmodSync(csv, 0o640);
    writeText(csv, "new");
    expect(statSync(csv).mode & 0o777).toBe(0o640);
    if (process.getuid?.() !== 0) context.skip("giving a file to another owner takes root");
    chownSync(csv, 4321, 4322);
    writeText(csv, "newer");
    expect(readFileSync(csv, "utf8")).toBe("newer");
    expect([statSync(csv).uid, statSync(csv).gid]).toEqual([4321, 4322]);
  });

  describe("on a full disk", () => {
    // a tmpfs mounted in a hook, as test/output-lock.test.ts does: none is left mounted by a run that filters this out
    let mount: string | undefined;
    beforeAll(() => {
      const at = join(folder, "tmpfs");
      mkdirSync(at);
      mount = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", at]).status === 0 ? at : undefined;
    });
    afterAll(() => void (mount && spawnSync("umount", [mount])));

    it("leaves no cut file, keeps an earlier file whole, and names each export not written", (context) => {
      if (mount === undefined) context.skip("mounting a tmpfs is refused here (not root): the full-disk case needs one");
      const json = join(mount!, "run.json");
      writeFileSync(json, "earlier");
      spawnSync("sh", ["-c", `cat /dev/zero > '${mount}/fill'`]); // until ENOSPC
      const csv = join(mount!, "run.csv");
      expect(() => writeReports(run, { json, csv, chart: false }, "g", folder)).toThrow(
        `cannot write '${json}': ENOSPC (no space left on device); cannot write '${csv}': ENOSPC (no space left on device); not written: --json, --csv`,
      );
      expect(readdirSync(mount!).sort()).toEqual(["fill", "run.json"]);
      expect(readFileSync(json, "utf8")).toBe("earlier");
      // one export written, one not: the error says which was
      const md = join(folder, "beside.md");
      expect(() => writeReports(run, { markdown: md, csv, chart: false }, "h", folder)).toThrow(
        `cannot write '${csv}': ENOSPC (no space left on device); not written: --csv; written: ${md}`,
      );
      expect(readFileSync(md, "utf8")).toContain("wasm");
    });
  });

  it("takes a path naming standard output (its device, or the file it is redirected to) for '-'", () => {
    const redirected = join(folder, "redirected.txt");
    const other = join(folder, "other.txt");
    writeFileSync(other, "");
    const fd = openSync(redirected, "w"); // stands for a standard output redirected to this file
    try {
      expect(namesStandardOutput(redirected, fd)).toBe(true);
      expect(namesStandardOutput(other, fd)).toBe(false);
      expect(namesStandardOutput(join(folder, "absent.json"), fd)).toBe(false);
      expect(withStdoutAliases({ json: redirected, csv: other, chart: false }, fd)).toMatchObject({ json: "-", csv: other, chart: false });
      expect(() => checkOutputRequests(withStdoutAliases({ json: redirected, csv: "-" }, fd))).toThrow(/only one export can go to standard output/);
    } finally {
      closeSync(fd);
    }
  });
});

describe("timing rounds", () => {
  const round = (batchMs: number[], cpuPerWall: number | null, cpuMs: number | null = null) => ({ ...summaryOf(batchMs), batchMs, cpuPerWall, cpuMs });
  const summaryOf = (batchMs: number[]) => {
    const s = summarize(batchMs);
    return { meanMs: s.mean, medianMs: s.p50, rmePercent: s.rmePercent, samples: s.n };
  };

  it("pools the rounds' batches, keeps each round's mean in order, and weighs the CPU share by each round's time", () => {
    const combined = combineRounds([round([2, 4], 1), round([10, 10, 10], 0.5), round([3, 3], 1)]);
    expect(combined.roundMs).toEqual([3, 10, 3]);
    expect(combined.batchMs).toEqual([2, 3, 3, 4, 10, 10, 10]);
    expect(combined.samples).toBe(7);
    expect(combined.meanMs).toBeCloseTo(42 / 7, 10);
    expect(combined.cpuPerWall).toBeCloseTo((6 * 1 + 30 * 0.5 + 6 * 1) / 42, 10);
    expect(combineRounds([round([1, 2], null), round([1, 2], 1)]).cpuPerWall).toBeNull();
    expect(combineRounds([round([2, 4], 1, 3), round([10, 10, 10], 0.5, 5)]).cpuMs).toBeCloseTo((2 * 3 + 3 * 5) / 5, 10);
    expect(combineRounds([round([2, 4], 1, 3), round([1], 1, null)]).cpuMs).toBeNull();
  });

  it("times the calibration between the calls: one CPU figure of the row and one of the calibration per round", async () => {
    let calls = 0;
    const timing = await timeRounds("counting", () => ++calls && 1, 1, { timeMs: 2, rounds: 4, minCalls: 4, warmupMs: 0 });
    expect(timing.roundMs).toHaveLength(4);
    expect(timing.roundCpuMs).toHaveLength(4);
    expect(timing.calibrationMs).toHaveLength(4);
    timing.calibrationMs!.forEach((ms) => expect(ms).toBeGreaterThan(0));
    const fields = calibratedFields(timing, 10);
    fields.roundCpuMicros!.forEach((micros, round) => expect(micros).toBeCloseTo(timing.roundCpuMs![round] * 100, 9));
    fields.calibrationMicros!.forEach((micros, round) => expect(micros).toBeCloseTo(timing.calibrationMs![round] * 1000, 9));
    expect(calibratedFields({ ...timing, calibrationMs: undefined }, 10)).toEqual({});
  });

  it("takes a call timed elsewhere at its own CPU time and calibration (a worker row's), not the main thread's", async () => {
    const elsewhere = () => ({ total: 1, ms: 1, cpuMs: 2, calibration: { cpuMs: 3, units: 6 } });
    const timing = await timeRounds("worker", elsewhere, 1, { timeMs: 4, rounds: 2, minCalls: 4, warmupMs: 1 });
    expect(timing.roundCpuMs).toEqual([2, 2]);
    expect(timing.calibrationMs).toEqual([0.5, 0.5]);
    expect(timing.roundMs).toEqual([1, 1]);
  });

  it("plants a slowdown by making the share of calls twice, drawn evenly over the calls, the same calls every time", () => {
    const repeatsOf = (share: number, calls: number) => Array.from({ length: calls }, repeater(share));
    const total = (repeats: number[]) => repeats.reduce((a, b) => a + b, 0);
    const tenth = repeatsOf(0.1, 100_000);
    expect(total(tenth) / 100_000).toBeCloseTo(0.1, 2);
    expect(repeatsOf(0.1, 100_000)).toEqual(tenth);
    // Every position of a batch of 100 is repeated about as often: the repeats do not favour some puzzles.
    const byPosition = Array.from({ length: 100 }, (_, position) => total(tenth.filter((_, call) => call % 100 === position)));
    expect(Math.min(...byPosition)).toBeGreaterThan(70);
    expect(Math.max(...byPosition)).toBeLessThan(130);
    expect(repeatsOf(0, 1000).every((n) => n === 0)).toBe(true);
    const twoAndAHalf = repeatsOf(2.5, 10_000);
    expect(twoAndAHalf.every((n) => n === 2 || n === 3)).toBe(true);
    expect(total(twoAndAHalf) / 10_000).toBeCloseTo(2.5, 1);
  });

  it("names the calibration by its source: a fixed work, the same checksum every time", () => {
    expect(calibrationIdentity()).toMatch(/^masks-v2 [0-9a-f]{16}$/);
    expect(calibrationIdentity()).toBe(calibrationIdentity());
    expect(calibrationUnit()).toBe(calibrationUnit());
  });

  it("writes the rounds to the JSON, as the schema allows, and reads them back", () => {
    const record = measured("easy", "wasm", samplesAround(5, 0.05, 20));
    const text = formatJson({ environment, records: [record] });
    expect(JSON.parse(text).records[0].roundMicros).toEqual(record.roundMicros);
    expect(parseJson(text).records[0].roundMicros).toEqual(record.roundMicros);
    expect(parseJson(text).records[0].roundCpuMicros).toEqual(record.roundCpuMicros);
    expect(parseJson(text).records[0].calibrationMicros).toEqual(record.calibrationMicros);
  });
});
