/**
 * `--compare` that holds on a busy machine (bench/report/compare.ts): rows judged on their rounds
 * relative to the calibration timed between their calls, so that a drift of the whole machine drops out;
 * a row flagged noisy in either run is "not judged"; a verdict needs its whole interval beyond the
 * threshold. The runs compared are synthetic rounds from a seeded generator, so no verdict here
 * depends on how fast this machine is today. The command (`bench --compare OLD --against NEW`,
 * `--fail-on-regression`) is in bench-compare-cli.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { BenchRecord, BenchRun } from "../bench/records.js";
import {
  BETWEEN_RUNS_THRESHOLD,
  FRESH_ROUNDS_THRESHOLD,
  OTHER_CPU_REASON,
  type Verdict,
  betweenRunsVerdict,
  notJudgedReason,
  calibratedRounds,
  compareHeading,
  compareRuns,
  formatComparison,
  regressions,
  settingDifferences,
  verdictOf,
} from "../bench/report/compare.js";
import { Random } from "../src/model/prng.js";
import { cpuFamily, vectorUnits } from "../bench/tool.js";
import { cpuName } from "../bench/report/format.js";
import { tukeyOutliers } from "../bench/statistics.js";

/** Five round means around `micros`, spread ±`spread` (a share) from it. */
const roundsAround = (micros: number, spread = 0.005) => [-1, -0.5, 0, 0.5, 1].map((k) => micros * (1 + k * spread));

/** A calibration timed in five rounds: 80 µs per unit, steady. */
const steadyCalibration = () => [80, 80.2, 79.8, 80.1, 79.9];

/** A record whose figures raise no flag: 20 timed batches around `ms` in five steady rounds (by the clock and in CPU time), one core busy. */
function steadyRecord(row: string, ms: number, overrides: Partial<BenchRecord> = {}): BenchRecord {
  const batchMs = Array.from({ length: 20 }, (_, i) => ms * (1 + ((i % 5) - 2) / 200));
  const meanMicros = (ms * 1000) / 100;
  return {
    dataset: "easy",
    solver: row,
    mode: "engine",
    row,
    datasetSize: 1000,
    selected: 100,
    puzzles: 100,
    timeouts: 0,
    limit: 2,
    effectiveLimit: 2,
    batchCall: false,
    samples: 20,
    puzzlesPerSecond: 100_000 / ms,
    meanMicros,
    p50Micros: meanMicros,
    p99Micros: meanMicros * 2,
    rmePercent: 1,
    guessesPerPuzzle: null,
    noGuessPercent: null,
    reference: null,
    speedup: null,
    comparedOn: null,
    threads: null,
    cpuPerWall: 1,
    batchMs,
    passMeanMicros: meanMicros,
    roundMicros: roundsAround(meanMicros),
    roundCpuMicros: roundsAround(meanMicros),
    calibrationMicros: steadyCalibration(),
    ...overrides,
  };
}

const runOf = (records: BenchRecord[]): BenchRun => ({ environment: { date: "2026-12-01", commit: "x" } as BenchRun["environment"], records });

describe("--compare verdicts", () => {
  it("a row flagged noisy in either run is not judged, however far apart the runs are; pre-empted alone is judged (CPU time leaves it out)", () => {
    // A steady fourth solver: three solvers of one dataset all slower alone would be set aside as a stretch of the run.
    const before = runOf([steadyRecord("a", 10), steadyRecord("b", 10), steadyRecord("c", 10), steadyRecord("d", 10)]);
    const after = runOf([steadyRecord("a", 20, { rmePercent: 12 }), steadyRecord("b", 20), steadyRecord("c", 20, { cpuPerWall: 0.4 }), steadyRecord("d", 10)]);
    const [a, b, c] = compareRuns(before, after);
    expect(a).toMatchObject({ verdict: "not judged", flags: { before: [], after: ["noisy"] } });
    expect(b.verdict).toBe("slower");
    expect(c).toMatchObject({ verdict: "slower", flags: { before: [], after: ["preempted"] } });
  });

  it("a row most of whose puzzles hit the budget (T) in either run is not judged: its rate is how fast it gives up", () => {
    const before = runOf([steadyRecord("a", 10), steadyRecord("b", 10), steadyRecord("c", 10), steadyRecord("d", 10)]);
    const after = runOf([steadyRecord("a", 20, { timeouts: 51 }), steadyRecord("b", 20, { timeouts: 50 }), steadyRecord("c", 10), steadyRecord("d", 10)]); // of 100 puzzles: 51 is more than half
    const [a, b] = compareRuns(before, after);
    expect(a).toMatchObject({ verdict: "not judged", flags: { before: [], after: ["timeouts"] } });
    expect(b).toMatchObject({ verdict: "slower", flags: { before: [], after: [] } });
  });

  it("a verdict needs the whole interval beyond the threshold, not only the ratio", () => {
    expect(verdictOf({ ratio: 0.97, low: 0.96, high: 0.985, method: "bootstrap" })).toBe("no change"); // 3% slower, but the interval reaches 1.5%
    expect(verdictOf({ ratio: 0.95, low: 0.94, high: 0.97, method: "bootstrap" })).toBe("slower");
    expect(verdictOf({ ratio: 1.05, low: 1.03, high: 1.07, method: "bootstrap" })).toBe("faster");
    expect(verdictOf({ ratio: 1.05, low: 1.03, high: 1.07, method: "bootstrap" }, 0.05)).toBe("no change");
  });

  it("regressions are the rows judged slower by more than the percentage", () => {
    const changes = compareRuns(runOf([steadyRecord("a", 10), steadyRecord("b", 10)]), runOf([steadyRecord("a", 20), steadyRecord("b", 10.5)]), 0.02);
    expect(regressions(changes, 2).map((c) => c.row)).toEqual(["a", "b"]);
    expect(regressions(changes, 10).map((c) => c.row)).toEqual(["a"]);
  });

  it("judges the calibrated rounds: a 10% slowdown is slower, 3% is no change at 5%, a run without calibrated rounds judges nothing", () => {
    const before = runOf([steadyRecord("ten", 10), steadyRecord("three", 10), steadyRecord("uncalibrated", 10)]);
    const after = runOf([steadyRecord("ten", 11), steadyRecord("three", 10.3), steadyRecord("uncalibrated", 20, { calibrationMicros: undefined })]);
    const [ten, three, uncalibrated] = compareRuns(before, after);
    expect(ten).toMatchObject({ verdict: "slower", floor: BETWEEN_RUNS_THRESHOLD });
    expect(ten.estimate!.method).toBe("calibrated");
    expect(ten.estimate!.ratio).toBeCloseTo(1 / 1.1, 3);
    expect(three.verdict).toBe("no change");
    // Twice as slow by the clock, but a run without calibration cannot tell the code from the machine.
    expect(uncalibrated).toMatchObject({ verdict: "not judged", reason: "no calibrated rounds in the later run" });
    expect(uncalibrated.estimate!.method).toBe("welch");
  });

  it("runs on different CPUs are not judged, with the reason, unless asked (--compare-anyway); the heading names both CPUs", () => {
    const on = (records: BenchRecord[], cpuFamily: string): BenchRun => {
      const run = runOf(records);
      return { ...run, environment: { ...run.environment, cpu: "AMD EPYC", vectorUnits: "AVX-512", cpuFamily } };
    };
    const before = on([steadyRecord("ten", 10), steadyRecord("same", 10)], "family 25 model 17");
    const after = on([steadyRecord("ten", 11), steadyRecord("same", 10)], "family 26 model 2");
    expect(compareRuns(before, after).map((c) => [c.verdict, c.reason])).toEqual([
      ["not judged", OTHER_CPU_REASON],
      ["not judged", OTHER_CPU_REASON],
    ]);
    expect(regressions(compareRuns(before, after), 5)).toEqual([]); // --fail-on-regression does not fail on another CPU
    expect(compareRuns(before, after, undefined, { acrossCpus: true }).map((c) => c.verdict)).toEqual(["slower", "no change"]);
    expect(compareRuns(before, on(after.records, "family 25 model 17")).map((c) => c.verdict)).toEqual(["slower", "no change"]);
    expect(compareHeading(before, 0.05, after)[0]).toBe(
      "Compared with 2026-12-01 (commit x; AMD EPYC, AVX-512, family 25 model 17): puzzles/s before → now, now 2026-12-01 (commit x; AMD EPYC, AVX-512, family 26 model 2)",
    );
  });

  it("a drift of the whole machine drops out: the row and its calibration 1.4× slower is no change; the row alone 1.4× slower is slower", () => {
    const scaled = (values: number[], k: number) => values.map((value) => value * k);
    const before = runOf([steadyRecord("drift", 10), steadyRecord("code", 10)]);
    const drift = steadyRecord("drift", 14, { calibrationMicros: scaled(steadyCalibration(), 1.4) });
    const [machine, code] = compareRuns(before, runOf([drift, steadyRecord("code", 14)]));
    expect(machine.verdict).toBe("no change");
    expect(machine.estimate!.ratio).toBeCloseTo(1, 3);
    expect(code.verdict).toBe("slower");
  });

  it("every solver's rows moving together is the machine, not the code: not judged, with the reason; one solver's rows moving alone are judged", () => {
    const solversAndSets = ["easy", "medium"].flatMap((dataset) => ["wasm", "bitmask", "dlx"].map((solver) => ({ dataset, solver })));
    const run = (msOf: (solver: string) => number) =>
      runOf(solversAndSets.map(({ dataset, solver }) => steadyRecord(solver, msOf(solver), { dataset, solver })));
    const before = run(() => 10);

    const everyone = compareRuns(
      before,
      run(() => 11),
    );
    expect(everyone.map((c) => c.verdict)).toEqual(Array(6).fill("not judged"));
    expect(everyone[0].reason).toBe("every solver moved, median 0.909×");
    expect(formatComparison(before, everyone)).toContain("WARNING, every solver's rows moved the same way");
    expect(formatComparison(before, compareRuns(before, before))).not.toContain("WARNING");
    // a run against itself: a ratio of 1.00 is said as no change, neither faster nor slower
    const itself = formatComparison(before, compareRuns(before, before));
    expect(itself).toMatch(/no change: 1\.00× \([\d.]+–[\d.]+\)\n/);
    expect(itself).not.toMatch(/1\.00[^\n]*(faster|slower)/);

    const oneSolver = compareRuns(
      before,
      run((solver) => (solver === "wasm" ? 11 : 10)),
    );
    expect(oneSolver.map((c) => `${c.dataset} ${c.row} ${c.verdict}`)).toEqual([
      "easy wasm slower",
      "easy bitmask no change",
      "easy dlx no change",
      "medium wasm slower",
      "medium bitmask no change",
      "medium dlx no change",
    ]);
    // Two of three solvers slower, the third steady: still changes to judge.
    const twoSolvers = compareRuns(
      before,
      run((solver) => (solver === "dlx" ? 10 : 11)),
    );
    expect(twoSolvers.filter((c) => c.verdict === "slower")).toHaveLength(4);
    // Too few rows to tell the machine from the code (four, of two solvers): judged row by row.
    const withoutDlx = (rows: BenchRun) => runOf(rows.records.filter((r) => r.solver !== "dlx"));
    const small = compareRuns(withoutDlx(before), withoutDlx(run(() => 11)));
    expect(small.map((c) => c.verdict)).toEqual(["slower", "slower", "slower", "slower"]);
  });

  it("one dataset's rows of three solvers moving together are a stretch of the run, not the code: those rows not judged, the others judged", () => {
    const solversAndSets = ["easy", "medium", "hard"].flatMap((dataset) => ["wasm", "bitmask", "dlx"].map((solver) => ({ dataset, solver })));
    const run = (msOf: (dataset: string, solver: string) => number) =>
      runOf(solversAndSets.map(({ dataset, solver }) => steadyRecord(solver, msOf(dataset, solver), { dataset, solver })));
    const before = run(() => 10);
    const hardMoved = compareRuns(
      before,
      run((dataset) => (dataset === "hard" ? 11 : 10)),
    );
    expect(hardMoved.map((c) => `${c.dataset} ${c.row} ${c.verdict}`)).toEqual([
      "easy wasm no change",
      "easy bitmask no change",
      "easy dlx no change",
      "medium wasm no change",
      "medium bitmask no change",
      "medium dlx no change",
      "hard wasm not judged",
      "hard bitmask not judged",
      "hard dlx not judged",
    ]);
    expect(hardMoved[6].reason).toBe("every solver moved on hard, median 0.909×");
    expect(formatComparison(before, hardMoved)).toContain("WARNING, every solver's rows on hard moved the same way");
    // One solver steady on that dataset: a change to the other two, judged.
    const twoOnHard = compareRuns(
      before,
      run((dataset, solver) => (dataset === "hard" && solver !== "dlx" ? 11 : 10)),
    );
    expect(twoOnHard.filter((c) => c.verdict === "slower").map((c) => `${c.dataset} ${c.row}`)).toEqual(["hard wasm", "hard bitmask"]);
    // Two solvers on a dataset are too few to tell a stretch of the run from a change to both.
    const twoSolvers = (rows: BenchRun) => runOf(rows.records.filter((r) => r.solver !== "dlx"));
    const small = compareRuns(twoSolvers(before), twoSolvers(run((dataset) => (dataset === "hard" ? 11 : 10))));
    expect(small.filter((c) => c.verdict === "slower").map((c) => `${c.dataset} ${c.row}`)).toEqual(["hard wasm", "hard bitmask"]);
  });

  it("a row whose calibrated rounds swing ±12% is not judged on a 10% change; an interval within the threshold is no change", () => {
    const swinging = (micros: number) => [0.88, 1.12, 0.95, 1.05, 1].map((k) => micros * k);
    const before = runOf([steadyRecord("a", 10, { roundCpuMicros: swinging(100) })]);
    const after = runOf([steadyRecord("a", 11, { roundCpuMicros: swinging(110) })]);
    const [a] = compareRuns(before, after);
    expect(a).toMatchObject({ verdict: "not judged", reason: "± wider than the 5% it would judge" });
    expect(betweenRunsVerdict({ ratio: 0.9, low: 0.7, high: 1.15, method: "calibrated" }, 0.05)).toBe("not judged");
    expect(betweenRunsVerdict({ ratio: 1.0, low: 0.98, high: 1.02, method: "calibrated" }, 0.05)).toBe("no change");
    // narrow, but crossing the threshold: a 6% change may be there, so not "no change" (nor a verdict: it does not lie wholly beyond)
    for (const [low, high] of [
      [1.037, 1.072],
      [0.93, 0.965],
    ]) {
      const crossing = { ratio: Math.sqrt(low * high), low, high, method: "calibrated" } as const;
      expect(betweenRunsVerdict(crossing, 0.05)).toBe("not judged");
      expect(notJudgedReason(crossing, 0.05, "5")).toBe("its interval crosses the 5% it would judge");
    }
    expect(notJudgedReason({ ratio: 0.9, low: 0.7, high: 1.15, method: "calibrated" }, 0.05, "5")).toBe("± wider than the 5% it would judge");
    expect(calibratedRounds({ roundCpuMicros: [10, 20], calibrationMicros: [5, 10] })).toEqual([2, 2]);
    expect(calibratedRounds({ roundCpuMicros: [10, 20], calibrationMicros: [5] })).toBeNull();
    expect(calibratedRounds({ roundCpuMicros: [10], calibrationMicros: [5] })).toBeNull();
  });

  it("one disturbed round in ten does not hide a 10% slowdown (ranks, not means); three rounds a side are not judged, with the reason", () => {
    const ten = (micros: number) => Array.from({ length: 10 }, (_, i) => micros * (1 + ((i % 5) - 2) / 400));
    const tenCalibration = () => Array.from({ length: 10 }, () => 80);
    const before = runOf([steadyRecord("a", 10, { roundCpuMicros: ten(100), calibrationMicros: tenCalibration() })]);
    const stalled = ten(110);
    stalled[3] *= 1.35;
    const [a] = compareRuns(before, runOf([steadyRecord("a", 11, { roundCpuMicros: stalled, calibrationMicros: tenCalibration() })]));
    expect(a.verdict).toBe("slower");
    expect(a.estimate!.high).toBeLessThan(1 - BETWEEN_RUNS_THRESHOLD);
    const three = { roundCpuMicros: [100, 101, 99], calibrationMicros: [80, 80, 80] };
    const [few] = compareRuns(runOf([steadyRecord("a", 10, three)]), runOf([steadyRecord("a", 20, { ...three, roundCpuMicros: [200, 202, 198] })]));
    expect(few).toMatchObject({ verdict: "not judged", reason: "3 rounds a side, fewer than the 4 a judgement needs" });
  });

  it("a side with fewer than 4 rounds is not judged when the other side has more (3 against 5, 2 against 10)", () => {
    const rounds = (micros: number, n: number) => ({
      roundCpuMicros: Array.from({ length: n }, (_, i) => micros * (1 + ((i % 5) - 2) / 400)),
      calibrationMicros: Array.from({ length: n }, () => 80),
    });
    // Twice as slow, rounds within ±0.5%: rankRatio alone gives both pairs an interval wholly beyond 5%.
    const [threeFive] = compareRuns(runOf([steadyRecord("a", 10, rounds(100, 5))]), runOf([steadyRecord("a", 20, rounds(200, 3))]));
    expect(threeFive).toMatchObject({ verdict: "not judged", reason: "3 rounds in the later run, fewer than the 4 a judgement needs" });
    const [twoTen] = compareRuns(runOf([steadyRecord("a", 10, rounds(100, 2))]), runOf([steadyRecord("a", 20, rounds(200, 10))]));
    expect(twoTen).toMatchObject({ verdict: "not judged", reason: "2 rounds in the earlier run, fewer than the 4 a judgement needs" });
    expect(regressions([threeFive, twoTen], 5)).toEqual([]);
  });

  it("runs that both timed fresh rounds are judged against 4%, others against 5%", () => {
    const fresh = (records: BenchRecord[]): BenchRun => ({ ...runOf(records), environment: { ...runOf(records).environment, freshRounds: true } });
    // 4.5% slower, rounds within ±0.1%.
    const row = (ms: number) => steadyRecord("a", ms, { roundCpuMicros: roundsAround(ms * 10, 0.001) });
    const [plain] = compareRuns(runOf([row(10)]), runOf([row(10.47)]));
    expect(plain).toMatchObject({ verdict: "no change", floor: BETWEEN_RUNS_THRESHOLD });
    const [both] = compareRuns(fresh([row(10)]), fresh([row(10.47)]));
    expect(both).toMatchObject({ verdict: "slower", floor: FRESH_ROUNDS_THRESHOLD });
    const [one] = compareRuns(runOf([row(10)]), fresh([row(10.47)]));
    expect(one.floor).toBe(BETWEEN_RUNS_THRESHOLD);
  });

  /**
   * `pairs` synthetic pairs of runs of one row, five rounds a side, from a seeded generator: per
   * run, the machine drifts by a factor up to ±`drift` (the row and its calibration alike) and the
   * row by a residual up to ±`residual` of its own; per round, each of the two moves by up to
   * ±`jitter`. The later run's row is `slowdown` slower. Returns the verdicts' tally.
   */
  function syntheticPairs(pairs: number, { drift = 0.4, residual = 0.01, jitter = 0.015, slowdown = 0 } = {}): Record<Verdict, number> {
    const random = new Random(7);
    const spread = (share: number) => 1 + share * (2 * (random.nextUint32() / 2 ** 32) - 1);
    const side = (row: string, slower: number): BenchRecord => {
      const machine = spread(drift);
      const own = spread(residual) * (1 + slower);
      const calibrationMicros = Array.from({ length: 5 }, () => 80 * machine * spread(jitter));
      const roundCpuMicros = Array.from({ length: 5 }, () => 100 * machine * own * spread(jitter));
      return steadyRecord(row, 10, { roundCpuMicros, calibrationMicros });
    };
    const tally = { faster: 0, slower: 0, "no change": 0, "not judged": 0, undecided: 0, "not run before": 0, "not run now": 0 };
    for (let i = 0; i < pairs; i++) {
      const [change] = compareRuns(runOf([side("row", 0)]), runOf([side("row", slowdown)]));
      tally[change.verdict]++;
    }
    return tally;
  }

  it("synthetic noise of one commit (the machine drifting ±40% between runs, the row ±1%, rounds ±1.5%) is judged changed in at most 1 pair in 100", () => {
    const same = syntheticPairs(500);
    expect(same.faster + same.slower).toBeLessThanOrEqual(5);
    expect(same["no change"]).toBeGreaterThan(400);
    // Rounds that swing more make intervals too wide to judge, not verdicts.
    const swinging = syntheticPairs(500, { jitter: 0.1 });
    expect(swinging.faster + swinging.slower).toBeLessThanOrEqual(5);
    expect(swinging["not judged"]).toBeGreaterThan(250);
  });

  it("a synthetic 10% slowdown under the same noise is judged slower in at least 9 pairs of 10", () => {
    const slowed = syntheticPairs(500, { slowdown: 0.1 });
    expect(slowed.slower).toBeGreaterThanOrEqual(450);
    expect(slowed.faster).toBe(0);
  });

  /** The settings a comparison reads of a run, each test varying one. */
  const runSettings = { limit: 2, budget: 1, seed: 1, buildFlags: "", cpu: "AMD EPYC", cores: 2, node: "", datasets: [] };

  it('warns when the CPUs\' vector instructions differ (two machines may both report only "AMD EPYC"), and not when a run could not tell them', () => {
    const settings = (vectorUnits?: string) => ({ ...runSettings, vectorUnits });
    expect(settingDifferences(settings("AVX2"), settings("AVX-512"))).toEqual([
      { setting: "CPU's vector instructions", before: "AVX2", after: "AVX-512", severity: "warn" },
    ]);
    expect(settingDifferences(settings(undefined), settings("AVX-512"))).toEqual([]);
    expect(settingDifferences(settings("AVX2"), settings("AVX2"))).toEqual([]);
  });

  it("reads the widest vector instructions from /proc/cpuinfo's text: x86 flags, Arm features, nothing it knows", () => {
    const x86 = (flags: string) => `processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: ${flags}\n\nprocessor\t: 1\nflags\t\t: fpu\n`;
    expect(vectorUnits(x86("fpu sse4_1 sse4_2 avx avx2 avx512f avx512bw"))).toBe("AVX-512");
    expect(vectorUnits(x86("fpu sse4_2 avx avx2"))).toBe("AVX2");
    expect(vectorUnits(x86("fpu sse4_2"))).toBe("SSE4.2");
    expect(vectorUnits(x86("fpu sse2"))).toBeUndefined();
    expect(vectorUnits("processor\t: 0\nFeatures\t: fp asimd evtstrm aes sve\n")).toBe("SVE");
    expect(vectorUnits("processor\t: 0\nFeatures\t: fp asimd evtstrm\n")).toBe("NEON");
    expect(vectorUnits("")).toBeUndefined();
  });

  it("reads the CPU's family and model numbers from /proc/cpuinfo's text (not the model name's line), and warns when two runs' differ", () => {
    const zen5 = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC\nstepping\t: 1\n";
    expect(cpuFamily(zen5)).toBe("family 26 model 2");
    expect(cpuFamily("processor\t: 0\nmodel name\t: AMD EPYC\n")).toBeUndefined();
    expect(cpuFamily("processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd0c\n")).toBe(
      "implementer 0x41 part 0xd0c",
    );
    expect(cpuFamily("")).toBeUndefined();
    const settings = (family?: string) => ({ ...runSettings, vectorUnits: "AVX-512", cpuFamily: family });
    expect(settingDifferences(settings("family 25 model 17"), settings("family 26 model 2"))).toEqual([
      { setting: "CPU's family and model", before: "family 25 model 17", after: "family 26 model 2", severity: "warn" },
    ]);
    expect(settingDifferences(settings(undefined), settings("family 26 model 2"))).toEqual([]);
    expect(cpuName({ cpu: "AMD EPYC", vectorUnits: "AVX-512", cpuFamily: "family 26 model 2" })).toBe("AMD EPYC, AVX-512, family 26 model 2");
    expect(cpuName({ cpu: "AMD EPYC", vectorUnits: "", cpuFamily: undefined })).toBe("AMD EPYC");
  });

  it("refuses to compare runs whose calibration work differs: their calibrated figures are in different units", () => {
    const settings = (calibration: string) => ({ ...runSettings, calibration });
    expect(settingDifferences(settings("masks-v1 aaaa"), settings("masks-v2 bbbb"))).toEqual([
      { setting: "calibration work (bench/calibration.ts)", before: "masks-v1 aaaa", after: "masks-v2 bbbb", severity: "refuse" },
    ]);
    expect(settingDifferences(settings("masks-v1 aaaa"), settings("masks-v1 aaaa"))).toEqual([]);
  });

  it("does not judge a row whose two runs timed different puzzles or limits, and names it in a warning", () => {
    const before = runOf([steadyRecord("mrv", 10), steadyRecord("dlx", 10), steadyRecord("wasm", 10)]);
    const after = runOf([steadyRecord("mrv", 30, { puzzles: 24, selected: 100 }), steadyRecord("dlx", 30, { effectiveLimit: 1 }), steadyRecord("wasm", 30)]);
    const changes = compareRuns(before, after);
    expect(changes.map((c) => c.verdict)).toEqual(["not judged", "not judged", "slower"]);
    expect(changes[0].mismatch).toBe("timed 100 → 24 puzzles (sampled)");
    expect(changes[1].mismatch).toBe("limit 2 → 1");
    expect(regressions(changes, 5).map((c) => c.row)).toEqual(["wasm"]);
    const text = formatComparison(before, changes);
    expect(text).toContain("WARNING, rows that timed different work are not judged: easy · mrv (timed 100 → 24 puzzles (sampled)); easy · dlx (limit 2 → 1)");
    expect(text).toMatch(/mrv .*not judged \(timed 100 → 24 puzzles \(sampled\)\): 3\.\d\d× \([\d.]+–[\d.]+\) slower/);
  });

  it("counts outliers as Criterion.rs does: beyond 1.5 IQR mild, beyond 3 IQR severe", () => {
    const samples = [10, 10, 10, 10, 11, 11, 11, 11, 12.6, 15, 1];
    expect(tukeyOutliers(samples)).toEqual({ mild: 1, severe: 2 });
    expect(tukeyOutliers([1, 1, 1])).toEqual({ mild: 0, severe: 0 });
  });
});
