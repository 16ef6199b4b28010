/**
 * `bench --compare OLD --against NEW`: judges two result files without measuring, and
 * `--fail-on-regression` turns a judged slowdown into exit status 1. The files are one real run
 * (`--quick`, one solver, one dataset) and copies of it with their timings scaled or their
 * fields corrupted, so no verdict here depends on how fast this machine is today. The verdicts
 * themselves are in bench-compare.test.ts.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readResultFile } from "../bench/report/read-result.js";
import { scratchFolder } from "./cli-run.js";

const BENCH = new URL("../dist/bench/bench.js", import.meta.url).pathname;
const { dir } = scratchFolder("sudoku-bench-compare-");

/** Five round means around `micros`, spread ±`spread` (a share) from it. */
const roundsAround = (micros: number, spread = 0.005) => [-1, -0.5, 0, 0.5, 1].map((k) => micros * (1 + k * spread));

/** A calibration timed in five rounds: 80 µs per unit, steady. */
const steadyCalibration = () => [80, 80.2, 79.8, 80.1, 79.9];

describe("bench --compare OLD --against NEW", () => {
  let measured: string;
  /** The measured run with every record changed by `change`, written to `name`. */
  const variant = (name: string, change: (record: Record<string, unknown>) => void): string => {
    const run = JSON.parse(readFileSync(measured, "utf8"));
    for (const record of run.records) change(record);
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(run));
    return path;
  };
  const bench = (args: string[]) => spawnSync(process.execPath, [BENCH, ...args], { encoding: "utf8" });

  beforeAll(() => {
    measured = join(dir, "measured.json");
    const run = bench(["--quick", "--solvers", "bitmask", "--datasets", "easy", "--json", measured, "--no-chart"]);
    expect(run.status, run.stderr).toBe(0);
  }, 60_000);

  /**
   * The measured run made steady (its batches within ±1% of their median, one core busy, the
   * passes agreeing: no flag), timings × `scale`.
   */
  const steady = (name: string, scale: number, cpuPerWall = 1) =>
    variant(name, (r) => {
      const batches = r.batchMs as number[];
      const median = batches[Math.floor(batches.length / 2)];
      r.batchMs = batches.map((_, i) => median * scale * (1 + ((i % 5) - 2) / 200));
      for (const key of ["meanMicros", "p50Micros", "p99Micros"]) r[key] = (r[key] as number) * scale;
      r.passMeanMicros = r.meanMicros;
      r.roundMicros = roundsAround(r.meanMicros as number);
      r.roundCpuMicros = roundsAround(r.meanMicros as number);
      r.calibrationMicros = steadyCalibration();
      r.puzzlesPerSecond = (r.puzzlesPerSecond as number) / scale;
      Object.assign(r, { rmePercent: 1, cpuPerWall });
    });

  it("a file against itself: no change on every row, exit 0 even with --fail-on-regression", () => {
    const same = steady("same.json", 1);
    const run = bench(["--compare", same, "--against", same, "--fail-on-regression"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/0 faster, 0 slower, 1 no change, 0 not judged/);
  });

  it("says when a run was interrupted, when no row was run in both, and another --time; refuses exports, since it measures nothing", () => {
    const before = steady("whole.json", 1);
    const cut = JSON.parse(readFileSync(before, "utf8"));
    Object.assign(cut, { incomplete: { signal: "SIGINT", rowsPlanned: 3 } });
    cut.settings.timeMs = 99_999; // (the file keeps the run's settings apart from its machine)
    const interrupted = join(dir, "interrupted.json");
    writeFileSync(interrupted, JSON.stringify(cut));
    const run = bench(["--compare", before, "--against", interrupted]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('note: the later run was interrupted by SIGINT (1 of 3 rows): the rest are "not run" on its side');
    expect(run.stdout).toMatch(/note: time per row \(--time, ms\) \d+ → 99999/);
    const other = variant("other-solver.json", (r) => (r.row = r.solver = "mrv"));
    const apart = bench(["--compare", before, "--against", other]);
    expect(apart.stdout).toContain("WARNING, no row was run in both runs (other solvers or datasets): nothing is compared");
    // no dataset in common: a usage error (status 2), as when measuring, not a comparison of nothing that passes a CI gate
    const elsewhere = join(dir, "other-dataset.json");
    const moved = JSON.parse(readFileSync(before, "utf8"));
    moved.settings.datasets = moved.settings.datasets.map((d: { name: string }) => ({ ...d, name: "elsewhere" }));
    for (const record of moved.records) record.dataset = "elsewhere";
    writeFileSync(elsewhere, JSON.stringify(moved));
    const none = bench(["--compare", before, "--against", elsewhere, "--fail-on-regression", "5"]);
    expect([none.status, none.stdout]).toEqual([2, ""]);
    expect(none.stderr).toMatch(
      /^bench: --compare .*: none of --against's datasets \(elsewhere\) is in it \(easy\), so nothing would be compared; judge two runs of the same datasets\n$/,
    );
    const exports = bench(["--compare", before, "--against", before, "--json", join(dir, "x.json"), "--csv", "-"]);
    expect([exports.status, exports.stderr]).toEqual([
      2,
      "bench: --against compares two saved runs and measures nothing, so it writes no files: leave out --json, --csv\n",
    ]);
    // --chart FILE was silently ignored; --no-chart asks for nothing
    const chart = bench(["--compare", before, "--against", before, "--chart", join(dir, "x.svg")]);
    expect([chart.status, chart.stderr]).toEqual([
      2,
      "bench: --against compares two saved runs and measures nothing, so it writes no files: leave out --chart\n",
    ]);
    expect(bench(["--compare", before, "--against", before, "--no-chart"]).status).toBe(0);
  });

  it("refuses, before measuring, a run that shares no dataset with OLD.json, naming both runs' datasets (it measured all and compared nothing, exit 0)", () => {
    const run = bench(["--quick", "--solvers", "bitmask", "--datasets", "medium,hard", "--compare", measured, "--fail-on-regression"]);
    expect([run.status, run.stderr, run.stdout]).toEqual([
      2,
      `bench: --compare ${measured}: none of this run's datasets (medium, hard) is in it (easy), so nothing would be compared; give --datasets of that run\n`,
      "",
    ]);
  });

  it("twice as slow: judged slower, and --fail-on-regression exits 1 naming the row", () => {
    const before = steady("before.json", 1);
    const after = steady("slower.json", 2);
    const plain = bench(["--compare", before, "--against", after]);
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/bitmask +[\d,.]+ +[\d,.]+ +2\.\d+× \([\d.]+–[\d.]+\) slower/);
    const ci = bench(["--compare", before, "--against", after, "--fail-on-regression", "10"]);
    expect(ci.status).toBe(1);
    expect(ci.stdout).toContain("--fail-on-regression 10: 1 row judged slower by more than 10%: easy · bitmask");
  });

  it("twice as slow but noisy in the new run: not judged, with the flags shown, exit 0", () => {
    const before = steady("before2.json", 1);
    const after = variant("noisy.json", () => {});
    const noisy = JSON.parse(readFileSync(steady("noisy-base.json", 2, 0.3), "utf8"));
    for (const record of noisy.records) record.rmePercent = 12;
    writeFileSync(after, JSON.stringify(noisy));
    const run = bench(["--compare", before, "--against", after, "--fail-on-regression"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/bitmask .*not judged \(flags none → N P\)/);
    expect(run.stdout).toMatch(/0 faster, 0 slower, 0 no change, 1 not judged/);
  });

  it("answers a crafted or corrupt file with one line naming it and what is wrong, status 2", () => {
    // biome-ignore lint/suspicious/noExplicitAny: each case corrupts a result file a different way, past its schema's types
    const cases: [string, (run: Record<string, any>) => unknown, RegExp][] = [
      ["row-number.json", (run) => (run.records[0].row = 5), /records\[0\]\.row must be string$/],
      ["datasets-number.json", (run) => (run.settings.datasets = 3), /settings\.datasets must be array$/],
      ["records-string.json", (run) => (run.records = "x"), /: not a sudoku-wasm-bench v3 result file$|records must be array$/],
      ["rounds-strings.json", (run) => (run.records[0].roundMicros = ["1", "2"]), /records\[0\]\.roundMicros\[0\] must be number$/],
      ["version-1.json", (run) => (run.version = 1), /a version 1 result file, written before timing rounds and samples: it cannot be judged/],
      [
        "version-2.json",
        (run) => (run.version = 2),
        /a version 2 result file, written before calibrated rounds \(CPU time relative to a calibration work\): it cannot be judged; measure the earlier commit again, or use --ref COMMIT$/,
      ],
      ["calibration-strings.json", (run) => (run.records[0].calibrationMicros = ["1"]), /records\[0\]\.calibrationMicros\[0\] must be number$/],
      // text that would print as lines of the report's own, and rates no run measures (both were printed as they came)
      ["cpu-newline.json", (run) => (run.environment.cpu = "AMD EPYC\n  bitmask  faster"), /environment\.cpu must match pattern/],
      ["row-escape.json", (run) => (run.records[0].row = "wasm\u001b[2J"), /records\[0\]\.row must match pattern/],
      ["negative-rate.json", (run) => (run.records[0].puzzlesPerSecond = -5), /records\[0\]\.puzzlesPerSecond must be >= 0$/],
      [
        "signal-forged.json",
        (run) => (run.incomplete = { signal: "SIGINT\nforged line", rowsPlanned: 5 }),
        /incomplete\.signal must be equal to one of the allowed values/,
      ],
      ["dataset-newline.json", (run) => (run.settings.datasets[0].name = "easy\nforged"), /settings\.datasets\[0\]\.name must match pattern/],
      ["reference-newline.json", (run) => (run.records[0].reference = "bitmask\nforged"), /records\[0\]\.reference must match pattern/],
    ];
    for (const [name, corrupt, reason] of cases) {
      const path = variant(name, () => {});
      const run = JSON.parse(readFileSync(path, "utf8"));
      corrupt(run);
      writeFileSync(path, JSON.stringify(run));
      expect(() => readResultFile(path, "--against"), name).toThrow(new RegExp(`^--against ${path}: `));
      expect(() => readResultFile(path, "--against"), name).toThrow(reason);
    }
    // The command: one line on stderr naming the tool, the option and the file; status 2.
    const result = bench(["--compare", measured, "--against", join(dir, "row-number.json")]);
    expect([result.status, result.stdout, result.stderr]).toEqual([
      2,
      "",
      `bench: --against ${join(dir, "row-number.json")}: not a bench result as docs/bench-result.schema.json describes: records[0].row must be string\n`,
    ]);
    const truncated = join(dir, "truncated.json");
    writeFileSync(truncated, readFileSync(measured, "utf8").slice(0, 200));
    expect(() => readResultFile(truncated, "--compare")).toThrow(/^--compare .*truncated\.json: not JSON \(.+\)$/);
    // a text file: V8's message quotes its start, line break and all, which made the error two lines
    const notes = join(dir, "notes.json");
    writeFileSync(notes, "not json\nat all\n");
    const refused = bench(["--compare", notes, "--datasets", "easy"]);
    expect([refused.status, refused.stdout]).toEqual([2, ""]);
    expect(refused.stderr).toMatch(/^bench: --compare \S*notes\.json: not JSON \([^\n]*"not json\\n[^\n]*\)\n$/);
    expect(() => readResultFile(join(dir, "nowhere.json"), "--compare")).toThrow(`--compare ${join(dir, "nowhere.json")}: cannot read it (no such file)`);
    expect(() => readResultFile(dir, "--compare")).toThrow(`--compare ${dir}: cannot read it (a folder, not a file)`);
  });

  it("rows that timed different puzzles are named and not judged, so --fail-on-regression does not fail on them", () => {
    const before = steady("before3.json", 1);
    const after = variant("sampled.json", (r) => {
      r.puzzles = Math.max(1, Math.floor((r.puzzles as number) / 4));
    });
    const timed = (file: string): number => JSON.parse(readFileSync(file, "utf8")).records[0].puzzles;
    const run = bench(["--compare", before, "--against", after, "--fail-on-regression"]);
    expect(run.status, run.stderr).toBe(0);
    // The counts as both files hold them: the first run may itself have sampled its row (a loaded machine), to a count that is no multiple of 4.
    const warning = `WARNING, rows that timed different work are not judged: easy · bitmask (timed ${timed(before)} → ${timed(after)} puzzles (sampled))`;
    expect(run.stdout).toContain(warning);
  });

  it("--fail-on-regression or --against without --compare is a usage error (status 2)", () => {
    expect(bench(["--fail-on-regression"]).status).toBe(2);
    expect(bench(["--against", measured]).status).toBe(2);
  });
});
