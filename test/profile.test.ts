/**
 * The profiler (`npm run profile`): records on a handful of fixture puzzles and three kernel
 * variants, count agreement (a wrapped engine that miscounts must fail the run), timeouts,
 * the JSON round trip, the table, the options and --cpu-prof.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "commander";
import { HARDEST_COUNT, type ProfilePlan, profileVariants } from "../bench/profile/profiler.js";
import type { BatchKernel } from "../bench/measure/kernel.js";
import type { ProfileRecord, ProfileRun } from "../bench/records.js";
import { formatProfileJson, kernelVariantInfos, profileCommand, runProfile, selectVariants } from "../bench/profile/run.js";
import { formatProfileTable } from "../bench/profile/table.js";
import { WrongAnswerError } from "../bench/verify.js";
import type { Dataset } from "../src/datasets/read.js";
import { parsePuzzle } from "../src/model/puzzle.js";
import { loadFixture } from "./fixture.js";

const VARIANTS = ["wasm", "wasm:naked", "wasm:static"];

/** Eight fixture puzzles in file order: four unique, two with several solutions, two with none. */
const pick = (count: number, n: number) =>
  loadFixture()
    .filter((c) => c.count === count)
    .slice(0, n);
const cases = [...pick(1, 4), ...pick(2, 2), ...pick(0, 2)].sort((a, b) => a.line - b.line);
const fixture: Dataset = { name: "fixture", path: "test/fixtures/puzzles.txt", puzzles: cases.map((c) => c.puzzle), lines: cases.map((c) => c.line) };

function plan(overrides: Partial<ProfilePlan> = {}): ProfilePlan {
  return { variants: selectVariants(VARIANTS), datasets: [fixture], limit: 2, budget: 200_000, seed: 1, ...overrides };
}

const environment = {
  cpu: "Test CPU",
  cores: 2,
  node: "v20.0.0",
  v8: "11.3",
  buildFlags: "optimizeLevel=3",
  commit: "unknown",
  date: "2025-01-01T00:00:00.000Z",
  seed: 1,
  limit: 2,
  budget: 200_000,
  tinybench: "6.2.5",
  sample: null,
};

let run: ProfileRun;

/** What `variant`'s own kernel says of the fixture cases in one batch: mean guesses and search nodes per puzzle. */
async function kernelFigures(variant: string) {
  const kernel = await selectVariants([variant])[0].load();
  kernel.input(cases.length).set(cases.flatMap((c) => [...parsePuzzle(c.puzzle)]));
  const { guesses, nodes } = kernel.run(cases.length, 2);
  const mean = (values: ArrayLike<number>) => Array.from(values).reduce((a, b) => a + Math.abs(b), 0) / values.length;
  return { guesses: mean(guesses), nodes: mean(nodes) };
}

// Three variants timed for at least 300 ms each, and checked: more than Vitest's 10 s hook limit on a loaded machine can allow.
beforeAll(async () => {
  run = { environment, records: await profileVariants(plan()) };
}, 120_000);

describe("profileVariants", () => {
  it("returns one record per variant × dataset with every field, its guesses and nodes those of the variant's own kernel", async () => {
    expect(cases.map((c) => c.count)).toEqual(expect.arrayContaining([0, 1, 2]));
    expect(run.records.map((r) => r.variant)).toEqual(VARIANTS);
    for (const record of run.records) {
      expect(record).toMatchObject({ dataset: "fixture", datasetSize: cases.length, puzzles: cases.length, limit: 2, budget: 200_000, timeouts: 0 });
      expect(record.description.length).toBeGreaterThan(0);
      const own = await kernelFigures(record.variant);
      expect(record.guessesPerPuzzle).toBeCloseTo(own.guesses, 9);
      expect(record.nodesPerPuzzle).toBeCloseTo(own.nodes, 9);
      for (const value of [record.puzzlesPerSecond, record.batchMs, ...Object.values(record.micros)]) {
        expect(value).toBeGreaterThan(0);
        expect(Number.isFinite(value)).toBe(true);
      }
      expect(record.batchCalls).toBeGreaterThanOrEqual(1);
      expect(record.noGuessPercent).toBeGreaterThanOrEqual(0);
      expect(record.micros.p50).toBeLessThanOrEqual(record.micros.p90);
      expect(record.micros.p90).toBeLessThanOrEqual(record.micros.p99);
      expect(record.micros.p99).toBeLessThanOrEqual(record.micros.max);
      for (const column of Object.values(record.perPuzzle)) expect(column).toHaveLength(cases.length);
      expect(record.perPuzzle.lines).toEqual(fixture.lines);
      expect(record.hardestByTime).toHaveLength(Math.min(HARDEST_COUNT, cases.length));
      expect(record.hardestByTime[0].micros).toBe(record.micros.max);
      const guesses = record.hardestByGuesses.map((p) => p.guesses);
      expect(guesses).toEqual([...guesses].sort((a, b) => b - a));
      expect(guesses[0]).toBe(Math.max(...record.perPuzzle.guesses));
      for (const puzzle of [...record.hardestByTime, ...record.hardestByGuesses]) expect(fixture.lines).toContain(puzzle.line);
    }
  });

  it("counts what the fixture says, the same for every variant", () => {
    for (const record of run.records) expect(record.perPuzzle.counts, record.variant).toEqual(cases.map((c) => c.count));
  });

  it("shows what propagation buys: naked singles alone guess more than the full kernel", () => {
    const [full, naked] = run.records;
    expect(naked.guessesPerPuzzle).toBeGreaterThan(full.guessesPerPuzzle);
    expect(naked.nodesPerPuzzle).toBeGreaterThan(full.nodesPerPuzzle);
  });

  it("fails loudly when a variant miscounts", async () => {
    const [good, bad] = selectVariants(["wasm", "wasm:static"]);
    const miscounting = {
      ...bad,
      id: "wasm:static (miscounting)",
      load: async (): Promise<BatchKernel> => {
        const kernel = await bad.load();
        return {
          input: (count) => kernel.input(count),
          run: (count, limit, budget) => {
            const result = kernel.run(count, limit, budget);
            for (let i = 0; i < count; i++) if (result.counts[i] === 1) result.counts[i] = 2;
            return result;
          },
        };
      },
    };
    const error = await profileVariants(plan({ variants: [good, miscounting] })).catch((e: Error) => e);
    expect(error).toBeInstanceOf(WrongAnswerError);
    expect((error as Error).message).toMatch(/miscounting\) on fixture line \d+: counted 2 solution\(s\) where wasm counted 1/);
  });

  it("counts timeouts and keeps their puzzles instead of dropping them", async () => {
    const [record] = await profileVariants(plan({ variants: selectVariants(["wasm:naked"]), budget: 3 }));
    // exactly the puzzles whose search needs more than 3 nodes, as the variant's own kernel counts them
    const kernel = await selectVariants(["wasm:naked"])[0].load();
    const over = cases.filter((c) => {
      kernel.input(1).set(parsePuzzle(c.puzzle));
      return Math.abs(kernel.run(1, 2).nodes[0]) > 3;
    }).length;
    expect(record.timeouts).toBe(over);
    expect(over).toBeGreaterThan(0);
    expect(record.puzzles).toBe(cases.length);
    expect(record.perPuzzle.nodes.filter((n) => n < 0)).toHaveLength(record.timeouts);
    expect(formatProfileTable({ environment, records: [record] })).toMatch(/\d+: [\d,.]+\+/);
  });

  it("draws a seeded sample in file order", async () => {
    const sampled = await profileVariants(plan({ variants: selectVariants(["wasm"]), sample: 3, seed: 9 }));
    const again = await profileVariants(plan({ variants: selectVariants(["wasm"]), sample: 3, seed: 9 }));
    const lines = sampled[0].perPuzzle.lines;
    expect(lines).toHaveLength(3);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(again[0].perPuzzle.lines).toEqual(lines);
    expect(sampled[0].datasetSize).toBe(cases.length);
  });

  it("names the file line and the cell of a bad puzzle", async () => {
    const bad: Dataset = { ...fixture, puzzles: [fixture.puzzles[0], "y" + fixture.puzzles[0].slice(1)], lines: [3, 7] };
    await expect(profileVariants(plan({ datasets: [bad] }))).rejects.toThrow(/line 7: .*cell 1/);
  });

  it("refuses an id that is not a kernel variant, none, and one given twice, as usage errors (status 2)", () => {
    for (const [ids, says] of [
      [["mrv"], /not a WASM kernel variant/],
      [["nope"], /unknown solver/],
      [[], /no variants: --variants names none/],
      [["wasm", "wasm:first", "wasm"], /--variants: 'wasm' is given twice/], // it ran twice, where the bench refuses a solver given twice
    ] as const) {
      expect(() => selectVariants(ids)).toThrow(says);
      expect(() => selectVariants(ids)).toThrow(InvalidArgumentError); // runTool's usage error
    }
  });
});

describe("profile writers", () => {
  it("round-trips through JSON", () => {
    const text = formatProfileJson(run);
    expect(JSON.parse(text)).toEqual({ format: "sudoku-wasm-profile", version: 1, ...run });
    expect(text).toMatch(/"micros": \[[\d.e+-]+(,[\d.e+-]+)*\]/); // per-puzzle columns on one line
  });

  it("fits 100 columns when piped (the method wrapped, the hardest tables split by variant), every variant still shown", () => {
    const many = { ...run, records: Array.from({ length: 15 }, (_, i) => ({ ...run.records[i % run.records.length], variant: `wasm:variant-${i}` })) };
    const text = formatProfileTable(many);
    expect(Math.max(...text.split("\n").map((line) => line.length))).toBeLessThanOrEqual(100);
    expect(
      Math.max(
        ...formatProfileTable(many, 400)
          .split("\n")
          .map((line) => line.length),
      ),
    ).toBeGreaterThan(100); // a wide terminal gets it all
    for (let i = 0; i < 15; i++) expect(text.match(new RegExp(`wasm:variant-${i}\\b`, "g"))!.length).toBeGreaterThanOrEqual(3); // its row and both hardest tables
  });

  it("says the sample taken of a dataset smaller than --sample: all of it", () => {
    const record = run.records[0];
    const method = (sample: number | null) =>
      formatProfileTable({ ...run, environment: { ...run.environment, sample } }, 1000)
        .split("\n")
        .find((line) => line.startsWith("method:"));
    expect(method(record.datasetSize + 1)).toContain(
      `method: a seeded sample of ${(record.datasetSize + 1).toLocaleString("en-US")} puzzles per dataset (seed ${run.environment.seed}), or every puzzle of a smaller one (${record.dataset}: ${record.datasetSize.toLocaleString("en-US")}), limit `,
    );
    expect(method(record.datasetSize)).toContain(
      `method: a seeded sample of ${record.datasetSize.toLocaleString("en-US")} puzzles per dataset (seed ${run.environment.seed}), limit `,
    );
    expect(method(null)).toContain("method: every puzzle, limit ");
  });

  it("prints a row per variant and the hardest puzzles by file line", () => {
    const text = formatProfileTable(run);
    expect(text).toContain("CPU: Test CPU (2 cores)");
    for (const variant of VARIANTS) expect(text).toMatch(new RegExp(`^${variant}\\s+[\\d,.]+\\s`, "m"));
    expect(text).toMatch(/^wasm\s+[\d,.]+\s+=\s/m);
    const hardest = run.records[0].hardestByGuesses[0];
    expect(text).toContain("hardest by guesses");
    expect(text).toMatch(new RegExp(`^\\s*1\\s+${hardest.line}: ${hardest.guesses}\\s`, "m"));
  });
});

describe("profile command", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "profile-test-"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("lists every kernel variant, the defaults and how to open a CPU profile in its help", () => {
    const out: string[] = [];
    const command = profileCommand()
      .configureOutput({ writeOut: (text) => out.push(text) })
      .exitOverride();
    expect(() => command.parse(["--help"], { from: "user" })).toThrow(/outputHelp/);
    const help = out.join("");
    for (const option of ["--variants", "--datasets", "--json", "--limit", "--budget", "--sample", "--cpu-prof", "--out"]) expect(help).toContain(option);
    expect(help).toMatch(/--budget <nodes>[\s\S]*default: 200000/);
    for (const info of kernelVariantInfos()) expect(help).toContain(info.id);
    expect(help).toMatch(/Chrome DevTools/);
  });

  it("refuses a --json path it cannot write before measuring (it failed after the whole run)", async () => {
    const blocker = join(folder, "a-file.txt");
    writeFileSync(blocker, "");
    let printed = "";
    const json = join(blocker, "x.json");
    await expect(
      runProfile({ variants: ["wasm"], datasets: ["hard"], json, limit: 2, budget: 1000, seed: 1, cpuProf: false, out: folder }, (text) => (printed += text)),
    ).rejects.toThrow(`--json ${json}: cannot write it (${blocker} is not a folder)`);
    expect(printed).toBe(""); // nothing measured
  });

  it("writes the JSON and a parseable --cpu-prof profile", async () => {
    const file = join(folder, "tiny.txt");
    writeFileSync(file, ["# three fixture puzzles", ...cases.slice(0, 3).map((c) => c.puzzle)].join("\n") + "\n");
    let printed = "";
    const { run: tiny, written } = await runProfile(
      { variants: ["wasm", "wasm:first"], datasets: [file], json: true, limit: 1, budget: 1000, seed: 1, cpuProf: true, out: folder },
      (text) => (printed += text),
    );
    expect(tiny.records.map((r: ProfileRecord) => [r.dataset, r.variant, r.limit])).toEqual([
      ["tiny", "wasm", 1],
      ["tiny", "wasm:first", 1],
    ]);
    expect(tiny.records[0].perPuzzle.lines).toEqual([2, 3, 4]);
    expect(written.map((path) => path.slice(folder.length + 1))).toEqual([
      expect.stringMatching(/^profile-[\dT-]+\.json$/),
      expect.stringMatching(/^profile-[\dT-]+\.cpuprofile$/),
    ]);
    expect(JSON.parse(readFileSync(written[0], "utf8"))).toEqual({ format: "sudoku-wasm-profile", version: 1, ...tiny });
    const profile = JSON.parse(readFileSync(written[1], "utf8"));
    expect(Array.isArray(profile.nodes) && profile.nodes.length).toBeGreaterThan(0);
    expect(Array.isArray(profile.samples)).toBe(true);
    expect(profile.endTime).toBeGreaterThan(profile.startTime);
    for (const path of written) expect(printed).toContain(`wrote ${path}`);
  });
});

describe("profile table: vs first", () => {
  it("says 'same' within 0.5% (not '1× slower') and gives two decimals otherwise", async () => {
    const { PROFILE_COLUMNS } = await import("../bench/profile/table.js");
    const column = PROFILE_COLUMNS.find((c) => c.header === "vs first")!;
    const row = (puzzlesPerSecond: number) => ({ puzzlesPerSecond }) as ProfileRecord;
    const first = row(1000);
    expect(column.cell(first, first)).toBe("=");
    expect(column.cell(row(999.6), first)).toBe("same");
    expect(column.cell(row(1003), first)).toBe("same");
    expect(column.cell(row(980), first)).toBe("1.02× slower");
    expect(column.cell(row(1500), first)).toBe("1.50× faster");
  });
});
