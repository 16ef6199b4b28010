/** The seeded generator: PRNG, solution grids, uniqueness, minimality, symmetry, hardening, the CLI and the manifest. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createSolver } from "../src/index.js";
import { type Grid, formatPuzzle, isValidSolution } from "../src/model/puzzle.js";
import { CELLS } from "../src/model/shape.js";
import { Random } from "../src/model/prng.js";
import { median } from "../src/model/quantile.js";
import {
  GRADING_REFERENCE,
  PuzzleJudge,
  carve,
  countClues,
  dependsOnGuesses,
  GaveUp,
  generatePuzzles,
  harden,
  mutate,
  present,
  randomPresentation,
  randomSolution,
  resolveGenerateOptions,
  symmetryOrbits,
  CorpusTally,
  FigureTally,
  type GenerateOptions,
  type GeneratedPuzzle,
} from "../src/generate/generate.js";
import { generateCommand, readManifest } from "../src/cli/generate.js";
import { PuzzleSet } from "../src/model/puzzle-set.js";

/** True when every orbit of `symmetry` is all clues or all empty in `puzzle`. */
function hasSymmetry(puzzle: Grid, symmetry: Parameters<typeof symmetryOrbits>[0]): boolean {
  return symmetryOrbits(symmetry).every((orbit) => orbit.every((cell) => (puzzle[cell] === 0) === (puzzle[orbit[0]] === 0)));
}
import { datasetsFolder } from "../src/datasets/read.js";
import { combineGrades, familyOf, graderWeights } from "../src/generate/generate.js";
import type { SolverEngine } from "../src/solvers/solver.js";
import { BIN, scratchFolder } from "./cli-run.js";

let judge: PuzzleJudge;
beforeAll(async () => {
  judge = new PuzzleJudge((await createSolver()).engine);
});

const scratch = scratchFolder("sudoku-generate-");
const generate = (options: GenerateOptions): GeneratedPuzzle[] => [...generatePuzzles(judge, options)];
const lines = (puzzles: GeneratedPuzzle[]) => puzzles.map((p) => formatPuzzle(p.puzzle));

/** True when removing any one orbit of clues from `puzzle` leaves it with two or more solutions. */
function noOrbitRemovable(puzzle: Grid, orbits: number[][]): boolean {
  return orbits
    .filter((orbit) => puzzle[orbit[0]] !== 0)
    .every((orbit) => {
      const fewer = puzzle.slice();
      for (const cell of orbit) fewer[cell] = 0;
      return judge.count(fewer) === 2;
    });
}

/** Runs `sudoku-wasm generate` with the given arguments (commander parses them as the CLI would). */
async function runCli(args: string[]): Promise<void> {
  await generateCommand().exitOverride().parseAsync(args, { from: "user" });
}

describe("Random (xoshiro128**)", () => {
  it("repeats a sequence for a seed and changes with the seed and the stream", () => {
    const draw = (random: Random) => Array.from({ length: 8 }, () => random.nextUint32());
    expect(draw(new Random(42))).toEqual(draw(new Random(42)));
    expect(draw(new Random(42))).not.toEqual(draw(new Random(43)));
    expect(draw(Random.forStream(42, 0))).not.toEqual(draw(Random.forStream(42, 1)));
    expect(draw(Random.forStream(42, 5))).toEqual(draw(Random.forStream(42, 5)));
  });

  it("draws every value below a bound and shuffles into a permutation", () => {
    const random = new Random(7);
    const seen = new Set(Array.from({ length: 500 }, () => random.below(9)));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const items = Array.from({ length: 30 }, (_, i) => i);
    const shuffled = random.shuffle([...items]);
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
  });

  it("rejects seeds outside 0..2^32-1", () => {
    expect(() => new Random(-1)).toThrow(/seed/);
    expect(() => new Random(1.5)).toThrow(/seed/);
    expect(() => Random.forStream(2 ** 32, 0)).toThrow(/seed/);
  });
});

describe("randomSolution", () => {
  it("fills a valid grid, the same for the same seed", () => {
    const empty = new Uint8Array(CELLS);
    const grids = [1, 2, 3].map((seed) => randomSolution(new Random(seed)));
    for (const grid of grids) expect(isValidSolution(empty, grid)).toBe(true);
    expect(randomSolution(new Random(2))).toEqual(grids[1]);
    expect(grids[0]).not.toEqual(grids[1]);
  });
});

describe("generatePuzzles", () => {
  it("gives the same puzzles for the same seed and others for another seed", () => {
    const first = lines(generate({ count: 12, seed: 99 }));
    expect(lines(generate({ count: 12, seed: 99 }))).toEqual(first);
    const other = lines(generate({ count: 12, seed: 100 }));
    expect(other.filter((line) => first.includes(line))).toEqual([]);
  });

  it("extends a run: the first n of a longer run are the shorter run", () => {
    expect(lines(generate({ count: 10, seed: 5 })).slice(0, 4)).toEqual(lines(generate({ count: 4, seed: 5 })));
  });

  it("makes unique minimal puzzles that keep the solution grid's digits", () => {
    const orbits = symmetryOrbits("none");
    const made = generate({ count: 25, seed: 3 });
    expect(new Set(lines(made)).size).toBe(made.length);
    for (const { puzzle, solution, clues } of made) {
      expect(isValidSolution(puzzle, solution)).toBe(true); // every clue is the grid's digit
      expect(judge.count(puzzle)).toBe(1);
      expect(countClues(puzzle)).toBe(clues);
      expect(noOrbitRemovable(puzzle, orbits)).toBe(true);
    }
  });

  it("keeps 180° rotational symmetry, minimal over symmetric pairs", () => {
    const orbits = symmetryOrbits("rotational");
    for (const { puzzle } of generate({ count: 15, seed: 4, symmetry: "rotational" })) {
      expect(hasSymmetry(puzzle, "rotational")).toBe(true);
      for (let cell = 0; cell < CELLS; cell++) expect(puzzle[cell] === 0).toBe(puzzle[CELLS - 1 - cell] === 0);
      expect(judge.count(puzzle)).toBe(1);
      expect(noOrbitRemovable(puzzle, orbits)).toBe(true);
    }
  });

  it("stops at a clue target, symmetric or not", () => {
    for (const symmetry of ["none", "rotational"] as const) {
      for (const { puzzle } of generate({ count: 10, seed: 6, clues: 30, symmetry })) {
        expect(countClues(puzzle)).toBe(30);
        expect(hasSymmetry(puzzle, symmetry)).toBe(true);
        expect(judge.count(puzzle)).toBe(1);
      }
    }
  });

  it("keeps only minimal puzzles of the target size when both are asked", () => {
    for (const { puzzle } of generate({ count: 5, seed: 8, clues: 24, minimal: true })) {
      expect(countClues(puzzle)).toBe(24);
      expect(noOrbitRemovable(puzzle, symmetryOrbits("none"))).toBe(true);
    }
  });

  it("honours the guess range", () => {
    const made = generate({ count: 10, seed: 9, minGuesses: 2, maxGuesses: 6 });
    for (const { puzzle, guesses } of made) {
      expect(guesses).toBeGreaterThanOrEqual(2);
      expect(guesses).toBeLessThanOrEqual(6);
      expect(judge.guesses(puzzle)).toBe(guesses);
    }
  });

  it("gives up with an error when the attempts run out", () => {
    expect(() => generate({ count: 3, seed: 1, clues: 17, maxAttempts: 2 })).toThrow(/made 0 of 3 puzzles in 2 attempts/);
  });

  it("rejects bad and contradictory options", () => {
    expect(() => resolveGenerateOptions({ count: 0 })).toThrow(/count/);
    expect(() => resolveGenerateOptions({ count: 1, clues: 16 })).toThrow(/clues/);
    expect(() => resolveGenerateOptions({ count: 1, symmetry: "diagonal" as never })).toThrow(/symmetry/);
    expect(() => resolveGenerateOptions({ count: 1, minGuesses: 5, maxGuesses: 4 })).toThrow(
      "minGuesses (5) is above maxGuesses (4): the guess range is empty",
    );
    // a clue target and hardening, minimal or not: the climb's moves change the clue count
    expect(() => resolveGenerateOptions({ count: 1, clues: 30, hardenSteps: 5 })).toThrow(/no clue target/);
    expect(() => resolveGenerateOptions({ count: 1, clues: 26, minimal: true, hardenSteps: 5 })).toThrow(/no clue target/);
    expect(dependsOnGuesses(resolveGenerateOptions({ count: 1, clues: 30 }))).toBe(false);
    expect(dependsOnGuesses(resolveGenerateOptions({ count: 1, hardenSteps: 3 }))).toBe(true);
  });

  it("takes any whole count: the default attempt limit stays a whole number however many are asked", () => {
    expect(resolveGenerateOptions({ count: 99_999_999_999_999 }).maxAttempts).toBe(Number.MAX_SAFE_INTEGER);
    expect(resolveGenerateOptions({ count: Number.MAX_SAFE_INTEGER }).maxAttempts).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("the set of puzzles made, which tells a repeat", () => {
  /** Puzzle `n`: its digits (base 10) in the last cells, one further digit changed in cell 0 by `variant`. */
  const numbered = (n: number, variant = 0): Grid => {
    const puzzle = new Uint8Array(CELLS);
    for (let cell = CELLS - 1; n > 0; cell--, n = Math.floor(n / 10)) puzzle[cell] = n % 10;
    puzzle[0] = variant;
    return puzzle;
  };

  it("tells a repeat from a puzzle one cell apart, however small it starts, past a block of its store (65,536 puzzles)", () => {
    const seen = new PuzzleSet(1);
    const count = 70_000;
    let added = 0;
    for (let n = 0; n < count; n++) added += seen.add(numbered(n)) ? 1 : 0;
    expect(added).toBe(count);
    for (let n = 0; n < count; n++) if (seen.add(numbered(n))) throw new Error(`puzzle ${n} added twice`);
    expect(seen.add(numbered(17, 9))).toBe(true);
    expect(seen.add(numbered(17, 9))).toBe(false);
    expect(seen.size).toBe(count + 1);
  });

  it("takes a puzzle as 81 digit characters (canon --unique's forms) as the same entry as its cells", () => {
    const seen = new PuzzleSet(1);
    const text = (puzzle: Grid) => puzzle.join("");
    for (let n = 0; n < 300; n++) expect(seen.addDigits(text(numbered(n * 7919, n % 10)))).toBe(true);
    for (let n = 0; n < 300; n++) expect(seen.add(numbered(n * 7919, n % 10))).toBe(false);
    expect(seen.addDigits(text(numbered(1, 1)))).toBe(true);
    expect(seen.add(numbered(1, 1))).toBe(false);
  });
});

describe("harden", () => {
  it("never ends easier than it starts, and stays unique and minimal", () => {
    const orbits = symmetryOrbits("none");
    for (const seed of [11, 12, 13]) {
      const random = new Random(seed);
      const solution = randomSolution(random);
      const start = solution.slice();
      carve(start, solution, orbits, random, judge);
      const startGuesses = judge.guesses(start);
      const climbed = harden(start, solution, orbits, random, judge, 30);
      expect(climbed.guesses).toBeGreaterThanOrEqual(startGuesses); // one view: the score is the guesses as written
      expect(judge.guesses(climbed.puzzle)).toBe(climbed.guesses);
      expect(isValidSolution(climbed.puzzle, solution)).toBe(true);
      expect(judge.count(climbed.puzzle)).toBe(1);
      expect(noOrbitRemovable(climbed.puzzle, orbits)).toBe(true);
    }
  });

  it("climbs: hardened puzzles need more guesses than plain minimal ones, also when scored over several views", () => {
    const plain = summariseCorpus(generate({ count: 20, seed: 21 }));
    for (const presentations of [1, 3]) {
      const made = generate({ count: 20, seed: 21, hardenSteps: 40, presentations });
      for (const { puzzle } of made.slice(0, 5)) expect(judge.count(puzzle)).toBe(1);
      expect(summariseCorpus(made).guesses.mean).toBeGreaterThan(plain.guesses.mean);
    }
  });
});

describe("harden's search savings", () => {
  /** The climb's rule spelled out: grade candidate and current on every view, keep the candidate when its sum is at least the current's. */
  function plainClimb(start: Grid, solution: Grid, random: Random, scorer: PuzzleJudge, steps: number, presentations: number): Grid {
    const orbits = symmetryOrbits("none");
    let current = start;
    for (let step = 0; step < steps; step++) {
      const candidate = mutate(current, solution, orbits, random, scorer);
      const views = Array.from({ length: presentations - 1 }, () => randomPresentation(random));
      const score = (puzzle: Grid) => views.reduce((sum, view) => sum + scorer.guesses(present(puzzle, view)), scorer.guesses(puzzle));
      if (score(candidate) >= score(current)) current = candidate;
    }
    return current;
  }

  it("makes the climb's puzzles with fewer searches: the current puzzle is graded once as written, and a candidate's views only until it reaches the current's sum", async () => {
    const wasm = (await createSolver()).engine;
    const dlx = (await createSolver({ solver: "dlx" })).engine;
    const graders = [
      { id: "wasm", engine: wasm },
      { id: "dlx", engine: dlx },
    ];
    const orbits = symmetryOrbits("none");
    for (const seed of [41, 42, 43]) {
      const setup = () => {
        const random = new Random(seed);
        const solution = randomSolution(random);
        const start = solution.slice();
        carve(start, solution, orbits, random, judge);
        return { random, solution, start };
      };
      const plainJudge = new PuzzleJudge(wasm, graders),
        fastJudge = new PuzzleJudge(wasm, graders);
      plainJudge.referenceMeans();
      fastJudge.referenceMeans();
      const [plainSearches, fastSearches] = [plainJudge.searches, fastJudge.searches];
      const a = setup();
      const expected = plainClimb(a.start, a.solution, a.random, plainJudge, 25, 4);
      const b = setup();
      const climbed = harden(b.start, b.solution, orbits, b.random, fastJudge, 25, 4);
      expect(formatPuzzle(climbed.puzzle)).toBe(formatPuzzle(expected));
      expect(climbed.guesses).toBe(fastJudge.guesses(expected));
      expect(b.random.nextUint32()).toBe(a.random.nextUint32()); // the same draws: later attempts are unchanged too
      // the plain rule grades the current puzzle as written every step (2 searches); the climb once, at the start, and skips some candidate views too
      expect(fastJudge.searches - fastSearches).toBeLessThan(plainJudge.searches - plainSearches - 2 * (25 - 1));
    }
  });
});

describe("presentations", () => {
  it("turn a puzzle into a unique puzzle with as many clues, and its solution into that puzzle's solution", () => {
    const random = new Random(31);
    const [{ puzzle, solution }] = generate({ count: 1, seed: 31 });
    for (let i = 0; i < 5; i++) {
      const view = randomPresentation(random);
      expect([...view.cells].sort((a, b) => a - b)).toEqual(Array.from({ length: CELLS }, (_, cell) => cell));
      const seen = present(puzzle, view);
      expect(countClues(seen)).toBe(countClues(puzzle));
      expect(isValidSolution(seen, present(solution, view))).toBe(true);
      expect(judge.count(seen)).toBe(1);
    }
  });
});

/** The summary of a list of puzzles, as generate keeps it while they come. */
function summariseCorpus(puzzles: readonly { clues: number; guesses: number }[]) {
  const tally = new CorpusTally();
  for (const puzzle of puzzles) tally.add(puzzle.clues, puzzle.guesses);
  return tally.summary();
}

describe("summaries", () => {
  it("computes the median and the clue and guess ranges", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(
      summariseCorpus([
        { clues: 22, guesses: 1 },
        { clues: 25, guesses: 7 },
      ]),
    ).toEqual({
      count: 2,
      clues: { min: 22, max: 25 },
      guesses: { mean: 4, median: 4, min: 1, max: 7 },
    });
  });

  it("summarises a corpus of a million puzzles (the ranges of a long list)", () => {
    const puzzles = Array.from({ length: 1_000_000 }, (_, i) => ({ clues: 17 + (i % 20), guesses: i % 1000 === 999 ? 5000 : i % 2 }));
    expect(summariseCorpus(puzzles)).toEqual({
      count: 1_000_000,
      clues: { min: 17, max: 36 },
      guesses: { mean: 5.5, median: 0.5, min: 0, max: 5000 }, // (1,000 × 5000 + 499,000 ones) ÷ 1M = 5.499
    });
  });
});

describe("the summary kept as the puzzles come (no list of them)", () => {
  /** The figures of a whole list, as the summary took them from its list of every puzzle. */
  const fromList = (values: number[]) => {
    const sum = values.reduce((total, value) => total + value, 0);
    let [min, max] = [Infinity, -Infinity];
    for (const value of values) [min, max] = [Math.min(min, value), Math.max(max, value)];
    const round = (value: number) => Math.round(value * 100) / 100;
    return { mean: round(sum / Math.max(1, values.length)), median: round(median(values)), min: round(min), max: round(max) };
  };

  it("gives a list's mean, median, least and most to the last bit: whole guesses, grades of 6 decimals, odd and even counts, NaN", () => {
    const random = new Random(31);
    const lists: number[][] = [[0], [3, 1], [2, 2, 2, 9], [Number.NaN, Number.NaN], [0.1, 0.2, 0.3, 0.4, 0.5]];
    for (let n = 1; n <= 400; n += 37) {
      lists.push(Array.from({ length: n }, () => random.below(12)));
      lists.push(Array.from({ length: n }, () => Math.round(random.below(3_000_000) / 7) / 1e6)); // grades: fractions, rounded to 6 decimals
      lists.push(Array.from({ length: n + 1 }, () => random.below(5) * 0.1)); // sums that float arithmetic rounds
    }
    for (const values of lists) {
      const tally = new FigureTally();
      for (const value of values) tally.add(value);
      expect(tally.figures(), values.slice(0, 8).join(" ")).toEqual(fromList(values));
      expect(tally.count).toBe(values.length);
    }
  });

  it("holds one entry per distinct value, not one per puzzle: a million puzzles of 21 guess counts keep 21", () => {
    const tally = new CorpusTally();
    const guesses = (i: number) => (i % 1000 === 999 ? 5000 : i % 20);
    for (let i = 0; i < 1_000_000; i++) tally.add(17 + (i % 20), guesses(i));
    expect(tally.summary()).toEqual({
      count: 1_000_000,
      clues: { min: 17, max: 36 },
      guesses: fromList(Array.from({ length: 1_000_000 }, (_, i) => guesses(i))),
    });
    const figures = new FigureTally();
    for (let i = 0; i < 1_000_000; i++) figures.add(guesses(i));
    expect(figures.distinct).toBe(21);
  });

  it("prints and records the summary a list of every puzzle gives, for fixed seeds: one grader, several (grades), hardening, no guesses", async () => {
    const runs: { options: GenerateOptions; solver?: string; graders?: string[] }[] = [
      { options: { count: 200, seed: 5 } },
      { options: { count: 41, seed: 9 }, graders: ["wasm", "mrv", "dlx"] },
      { options: { count: 60, seed: 11, hardenSteps: 3 }, graders: ["wasm", "wasm:first", "dlx"] },
      { options: { count: 30, seed: 3 }, solver: "npm:dancing-links" },
    ];
    const folder = mkdtempSync(join(scratch.dir, "summary-"));
    for (const [i, { options, solver = "wasm", graders = [solver] }] of runs.entries()) {
      // the run in this process, its figures taken from lists of every puzzle, as the command took them
      const engine = (await createSolver({ solver })).engine;
      const graded = new PuzzleJudge(
        engine,
        await Promise.all(graders.map(async (id) => ({ id, engine: id === solver ? engine : (await createSolver({ solver: id })).engine }))),
      );
      const made = [...generatePuzzles(graded, options)];
      const costs = made.map((p) => (graders.length > 1 ? graded.costs(p.puzzle) : []));
      const clues = fromList(made.map((p) => p.clues));
      const guesses = fromList(made.map((p) => p.guesses));
      const grading =
        graders.length > 1
          ? graders.map((id, g) => ({ id, ...fromList(costs.map((c) => c[g])), reference: Math.round(graded.referenceMeans()[g] * 100) / 100 }))
          : undefined;
      const figures = Number.isNaN(guesses.mean) ? "guesses n/a" : `${grading ? "grade" : "guesses"} mean ${guesses.mean}, median ${guesses.median}`;
      const printed =
        `clues ${clues.min}-${clues.max}; ${figures}\n` +
        (grading ? `guesses per grader, mean: ${grading.map((g) => `${g.id} ${g.mean} (median ${g.median}, reference ${g.reference})`).join("; ")}\n` : "");

      const [output, manifest] = [join(folder, `${i}.txt`), join(folder, `${i}.json`)];
      const args = ["--count", String(options.count), "--seed", String(options.seed), "--solver", solver];
      if (graders.length > 1) args.push("--graders", graders.join(","));
      if (options.hardenSteps) args.push("--harden", String(options.hardenSteps));
      const run = spawnSync(process.execPath, [BIN, "generate", ...args, "-o", output, "--manifest", manifest], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(readFileSync(output, "utf8")).toBe(lines(made).join("\n") + "\n");
      expect(run.stderr, args.join(" ")).toMatch(new RegExp(`^generated ${options.count} puzzles in \\d+\\.\\d\\d s \\(.*searches\\); `));
      expect(run.stderr.slice(run.stderr.indexOf("searches); ") + "searches); ".length), args.join(" ")).toBe(printed);
      const entry = readManifest(manifest).files[0];
      const recorded = { count: made.length, clues: { min: clues.min, max: clues.max }, guesses };
      expect({ count: entry.count, clues: entry.clues, guesses: entry.guesses }).toEqual(JSON.parse(JSON.stringify(recorded))); // NaN: null in JSON
      if (grading) expect(Object.entries(entry.grading!.graders)).toEqual(grading.map(({ id, mean, median, reference }) => [id, { mean, median, reference }]));
    }
  }, 120_000);
});

describe("sudoku-wasm generate", () => {
  it("writes the puzzles and records the run in a manifest whose command remakes the file", async () => {
    const folder = mkdtempSync(join(scratch.dir, "generate-"));
    const output = join(folder, "tiny.txt");
    const manifest = join(folder, "manifest.json");
    await runCli(["--count", "6", "--seed", "17", "--symmetry", "rotational", "--output", output, "--manifest", manifest, "--quiet"]);
    const written = readFileSync(output, "utf8");
    expect(written.split("\n")).toEqual([...lines(generate({ count: 6, seed: 17, symmetry: "rotational" })), ""]);
    const [entry] = readManifest(manifest).files;
    expect(entry).toMatchObject({ file: "tiny.txt", seed: 17, count: 6, solver: "wasm", dependsOnGuesses: false });
    expect(entry.command).toMatch(/^sudoku-wasm generate --count 6 --seed 17 --symmetry rotational --minimal --output /);
    const again = join(folder, "again.txt");
    await runCli([...commandArguments(entry.command, again), "--quiet"]);
    expect(readFileSync(again, "utf8")).toBe(written);
  });

  it("quotes an output and a manifest whose names hold a space or a quote, so the command a shell reads names them (it wrote them bare)", async () => {
    const folder = mkdtempSync(join(scratch.dir, "generate quoted-"));
    const output = join(folder, "it's out.txt");
    const manifest = join(folder, "the manifest.json");
    await runCli(["--count", "2", "--output", output, "--manifest", manifest, "--quiet"]);
    const [entry] = readManifest(manifest).files;
    const words = spawnSync("sh", ["-c", `set -- ${entry.command}; printf '%s\\n' "$@"`], { encoding: "utf8" }).stdout.split("\n");
    expect(words.slice(words.indexOf("--output") + 1, words.indexOf("--output") + 2)).toEqual([output]);
    expect(words.slice(words.indexOf("--manifest") + 1, words.indexOf("--manifest") + 2)).toEqual([manifest]);
  });

  it("regenerates a bundled file byte for byte from its manifest command", async () => {
    const entries = readManifest(join(datasetsFolder(), "manifest.json")).files.filter((e) => !e.dependsOnGuesses);
    expect(entries.length).toBeGreaterThan(0);
    const smallest = entries.reduce((a, b) => (b.count < a.count ? b : a));
    const output = join(mkdtempSync(join(scratch.dir, "regenerate-")), smallest.file);
    await runCli([...commandArguments(smallest.command, output), "--quiet"]);
    expect(readFileSync(output, "utf8")).toBe(readFileSync(join(datasetsFolder(), smallest.file), "utf8"));
  });
});

/** The arguments of a recorded `sudoku-wasm generate ...` command, writing to `output` and leaving any manifest alone. */
function commandArguments(command: string, output: string): string[] {
  const words = command.split(/\s+/);
  expect(words.slice(0, 2)).toEqual(["sudoku-wasm", "generate"]);
  const args: string[] = [];
  for (let i = 2; i < words.length; i++) {
    if (words[i] === "--manifest") {
      i++; // drop the flag and its file
    } else if (words[i] === "--output") {
      args.push("--output", output);
      i++; // in place of the recorded file
    } else {
      args.push(words[i]);
    }
  }
  return args;
}

describe("grading by several engines", () => {
  it("grades by one engine's guesses, and by several as the weighted geometric mean of their guesses on one scale", async () => {
    const wasm = (await createSolver()).engine;
    const first = (await createSolver({ solver: "wasm:first" })).engine;
    const puzzles = generate({ count: 12, seed: 11, minimal: true });
    const one = new PuzzleJudge(wasm);
    const other = new PuzzleJudge(first);
    const both = new PuzzleJudge(wasm, [
      { id: "wasm", engine: wasm },
      { id: "wasm:first", engine: first },
    ]);
    const [meanWasm, meanFirst] = both.referenceMeans();
    expect(meanWasm).toBeGreaterThan(0);
    let differ = 0;
    for (const { puzzle } of puzzles) {
      const [a, b] = [one.guesses(puzzle), other.guesses(puzzle)];
      expect(one.costs(puzzle)).toEqual([a]); // one grader: the grade is its guesses
      // one family: the two share its weight; b is put on wasm's scale by the reference means
      expect(both.guesses(puzzle)).toBeCloseTo(Math.sqrt((a + 1) * ((b * meanWasm) / meanFirst + 1)) - 1, 5);
      expect(both.isUnique(puzzle)).toBe(true);
      if (a !== b) differ++;
    }
    expect(differ).toBeGreaterThan(0); // the two branching orders do disagree somewhere
  });

  it("weighs families, not graders: each family weighs the same, its graders share the weight", () => {
    expect(familyOf("wasm:first")).toBe("wasm");
    expect(familyOf("dlx")).toBe("dlx");
    expect(graderWeights(["wasm", "wasm:first", "wasm:static", "dlx"])).toEqual([1 / 6, 1 / 6, 1 / 6, 1 / 2]);
    expect(graderWeights(["dlx", "mrv"])).toEqual([1 / 2, 1 / 2]);
    // three kernel variants at 10 guesses and dlx at 40, all with reference mean 2: (11^(1/2) * 41^(1/2)) - 1
    expect(combineGrades([10, 10, 10, 40], [2, 2, 2, 2], graderWeights(["wasm", "wasm:first", "wasm:static", "dlx"]))).toBeCloseTo(Math.sqrt(11 * 41) - 1, 5);
    expect(combineGrades([0, 0], [1.5, 3], [0.5, 0.5])).toBe(0); // no guess from anyone: grade 0
    expect(combineGrades([7], [3], [1])).toBe(7);
    expect(combineGrades([3, NaN], [1, 1], [0.5, 0.5])).toBeNaN();
  });

  it("a grader of another family changes the grade, and scaling a grader's guesses does not", async () => {
    const wasm = (await createSolver()).engine;
    const dlx = (await createSolver({ solver: "dlx" })).engine;
    /** dlx with every guess counted four times over: the same difficulty on another scale. */
    const dlxTimesFour: SolverEngine = {
      countSolutions(puzzle, limit, solution, stats, budget) {
        const count = dlx.countSolutions(puzzle, limit, solution, stats, budget);
        stats.guesses *= 4;
        return count;
      },
    };
    const kernelOnly = new PuzzleJudge(wasm, [{ id: "wasm", engine: wasm }]);
    const mixed = new PuzzleJudge(wasm, [
      { id: "wasm", engine: wasm },
      { id: "dlx", engine: dlx },
    ]);
    const scaled = new PuzzleJudge(wasm, [
      { id: "wasm", engine: wasm },
      { id: "dlx", engine: dlxTimesFour },
    ]);
    const [, dlxMean] = mixed.referenceMeans();
    expect(scaled.referenceMeans()[1]).toBe(4 * dlxMean);
    let changed = 0;
    for (const { puzzle } of generate({ count: 15, seed: 12, hardenSteps: 5 })) {
      if (mixed.guesses(puzzle) !== kernelOnly.guesses(puzzle)) changed++;
      expect(scaled.guesses(puzzle)).toBe(mixed.guesses(puzzle));
    }
    expect(changed).toBeGreaterThan(0);
  });

  it("gives the same puzzles for a seed when graded by two families, and others than one family gives", async () => {
    const wasm = (await createSolver()).engine;
    const dlx = (await createSolver({ solver: "dlx" })).engine;
    const graders = [
      { id: "wasm", engine: wasm },
      { id: "dlx", engine: dlx },
    ];
    const options: GenerateOptions = { count: 4, seed: 13, hardenSteps: 15, presentations: 2, minGuesses: 1 };
    const run = () => lines([...generatePuzzles(new PuzzleJudge(wasm, graders), options)]);
    const mixed = run();
    expect(run()).toEqual(mixed);
    expect(lines(generate(options))).not.toEqual(mixed);
  });

  it("records the graders, their guesses and reference means in the command and the manifest", async () => {
    const folder = mkdtempSync(join(scratch.dir, "graders-"));
    const output = join(folder, "graded.txt");
    const manifest = join(folder, "manifest.json");
    const args = [
      "--count",
      "3",
      "--seed",
      "5",
      "--minimal",
      "--min-guesses",
      "1",
      "--graders",
      "wasm, wasm:first,dlx,", // as typed: the command records one word, so that it remakes the file
      "--output",
      output,
      "--manifest",
      manifest,
      "--quiet",
    ];
    await runCli(args);
    const [entry] = readManifest(manifest).files;
    expect(entry.graders).toEqual(["wasm", "wasm:first", "dlx"]);
    expect(entry.command).toContain("--graders wasm,wasm:first,dlx");
    expect(Object.keys(entry.grading!.graders)).toEqual(["wasm", "wasm:first", "dlx"]);
    expect(entry.grading!.reference).toEqual(GRADING_REFERENCE);
    for (const figures of Object.values(entry.grading!.graders)) expect(figures.reference).toBeGreaterThan(0);
    const written = readFileSync(output, "utf8");
    expect(written.trim().split("\n")).toHaveLength(3);
    const again = join(folder, "again.txt");
    await runCli([...commandArguments(entry.command, again), "--quiet"]);
    expect(readFileSync(again, "utf8")).toBe(written);
  });
});

describe("--manifest checks, before the puzzles are written", () => {
  it("refuses a manifest that is the output, is no JSON, or holds an entry without its guesses, naming it, and writes no puzzles", async () => {
    const folder = mkdtempSync(join(scratch.dir, "manifest-"));
    const output = join(folder, "out.txt");
    const notJson = join(folder, "notes.json");
    writeFileSync(notJson, "not json\n");
    const partial = join(folder, "partial.json");
    writeFileSync(partial, JSON.stringify({ files: [{ file: "other.txt", seed: 9 }] }));
    await expect(runCli(["--count", "2", "--quiet", "-o", output, "--manifest", output])).rejects.toThrow(/--manifest and --output name the same file/);
    await expect(runCli(["--count", "2", "--quiet", "-o", output, "--manifest", notJson])).rejects.toThrow(
      `--manifest '${notJson}' cannot be read as a manifest`,
    );
    await expect(runCli(["--count", "2", "--quiet", "-o", output, "--manifest", partial])).rejects.toThrow(
      `--manifest '${partial}' is not a manifest of sudoku-wasm generate: its entry 1 has no file or no guesses`,
    );
    expect(existsSync(output)).toBe(false);
  });

  it("refuses a manifest that cannot be written (its folder is missing), naming it, and writes no puzzles", async () => {
    const folder = mkdtempSync(join(scratch.dir, "manifest-"));
    const output = join(folder, "out.txt");
    const nowhere = join(folder, "missing", "manifest.json");
    await expect(runCli(["--count", "2", "--quiet", "-o", output, "--manifest", nowhere])).rejects.toThrow(`cannot write '${nowhere}': ENOENT`);
    expect(existsSync(output)).toBe(false);
  });
});

describe("--progress", () => {
  it("shows the bar on standard error when asked, also when it is no terminal (a log)", () => {
    const output = join(mkdtempSync(join(scratch.dir, "progress-")), "out.txt");
    const run = spawnSync(process.execPath, [BIN, "generate", "--count", "3", "--progress", "--quiet", "-o", output], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^generate \[.*\] 3\/3 puzzles/m);
  });
});

describe("giving up after --max-attempts", () => {
  it("writes the puzzles made whole, says how many of how many, leaves the manifest alone, and exits 1 (it exited 2, as for a usage error)", () => {
    const folder = mkdtempSync(join(scratch.dir, "gave-up-"));
    const [output, manifest] = [join(folder, "out.txt"), join(folder, "manifest.json")];
    const args = ["--count", "20", "--seed", "3", "--min-guesses", "1", "--max-attempts", "30"];
    const run = spawnSync(process.execPath, [BIN, "generate", ...args, "-o", output, "--manifest", manifest], { encoding: "utf8" });
    const made: GeneratedPuzzle[] = [];
    expect(() => {
      for (const puzzle of generatePuzzles(judge, { count: 20, seed: 3, minGuesses: 1, maxAttempts: 30 })) made.push(puzzle);
    }).toThrow(GaveUp);
    expect(made.length).toBeGreaterThan(0);
    expect(made.length).toBeLessThan(20);
    expect([run.status, run.stderr]).toEqual([
      1,
      `sudoku-wasm: gave up after 30 attempts (--max-attempts): ${made.length} of 20 puzzles made, written whole to ${output}; loosen the clue target or guess range; ${manifest} is not updated, so its entry for ${output}, if any, no longer describes it\n`,
    ]);
    expect(readFileSync(output, "utf8")).toBe(lines(made).join("\n") + "\n");
    expect(existsSync(manifest)).toBe(false);
  });
});

describe("giving up: the counts as the other messages write them", () => {
  it("says '1 attempt' and '1,200 attempts', and 'of 1 puzzle' (it said '1 attempts' and '1200 attempts')", () => {
    for (const [attempts, count, said] of [
      ["1", "1", "gave up after 1 attempt (--max-attempts): 0 of 1 puzzle made"],
      ["1200", "2", "gave up after 1,200 attempts (--max-attempts): 0 of 2 puzzles made"],
    ]) {
      const run = spawnSync(process.execPath, [BIN, "generate", "--count", count, "--clues", "17", "--max-attempts", attempts, "--quiet"], {
        encoding: "utf8",
      });
      expect([run.status, run.stderr]).toEqual([1, `sudoku-wasm: ${said}, written whole to standard output; loosen the clue target or guess range\n`]);
    }
  });
});

describe("option ranges, as the options name them", () => {
  it("refuses a seed past 2^32-1 and a clue target past 81 as bad arguments of --seed and --clues", async () => {
    await expect(runCli(["--count", "1", "--seed", "4294967296", "--quiet"])).rejects.toThrow(
      "option '-s, --seed <seed>' argument '4294967296' is invalid. expected a whole number from 0 to 4294967295",
    );
    await expect(runCli(["--count", "1", "--clues", "82", "--quiet"])).rejects.toThrow(
      "option '--clues <n>' argument '82' is invalid. expected a whole number from 17 to 81",
    );
  });
});

describe("clue targets no minimal puzzle has", () => {
  it("refuses --minimal with more than 72 clues at once, naming both options and why, and writes nothing (it ran every attempt)", () => {
    const output = join(mkdtempSync(join(scratch.dir, "minimal-clues-")), "out.txt");
    for (const [clues, symmetry] of [
      ["81", "none"],
      ["73", "rotational"],
    ]) {
      const run = spawnSync(process.execPath, [BIN, "generate", "--count", "5", "--minimal", "--clues", clues, "--symmetry", symmetry, "-o", output], {
        encoding: "utf8",
      });
      expect([run.status, run.stderr]).toEqual([
        2,
        `sudoku-wasm: a minimal puzzle (--minimal) has at most 72 clues, so none has ${clues} (--clues): every row of one holds an empty cell (a clue it cannot lose has one in its row); drop --minimal, or ask for fewer clues\n`,
      ]);
      expect(existsSync(output)).toBe(false);
    }
    expect(() => resolveGenerateOptions({ count: 1, clues: 72, minimal: true })).not.toThrow();
    expect(() => resolveGenerateOptions({ count: 1, clues: 81 })).not.toThrow(); // not minimal: the full grid
  });
});

describe("runs sharing one --manifest", () => {
  /** Resolves with the exit status and standard error of `child` once it has ended. */
  const ended = (child: ChildProcess) =>
    new Promise<[number | null, string]>((resolve) => {
      let stderr = "";
      child.stderr!.on("data", (data) => (stderr += data));
      child.on("close", (status) => resolve([status, stderr]));
    });

  it("keeps every run's entry when two processes add theirs at once (a read, change and write without the manifest's lock lost some)", async () => {
    const manifest = join(mkdtempSync(join(scratch.dir, "shared-manifest-")), "manifest.json");
    const module = new URL("../dist/src/cli/generate.js", import.meta.url).href;
    // each child adds 150 entries of its own, one at a time, as 150 runs would
    const script = `
      const [module, manifest, name] = process.argv.slice(1);
      const { addToManifest } = await import(module);
      for (let i = 0; i < 150; i++) {
        const summary = { count: 1, clues: { min: 20, max: 20 }, guesses: { mean: i % 7, median: 0, min: 0, max: 0 } };
        await addToManifest(manifest, { file: name + i + ".txt", command: "", seed: i, solver: "wasm", kernel: null, dependsOnGuesses: false, ...summary });
      }`;
    const writers = ["a", "b"].map((name) => ended(spawn(process.execPath, ["--input-type=module", "-e", script, module, manifest, name])));
    expect(await Promise.all(writers)).toEqual([
      [0, ""],
      [0, ""],
    ]);
    const files = readManifest(manifest).files.map((entry) => entry.file);
    expect(files.length).toBe(300);
    expect(new Set(files).size).toBe(300);
    expect(existsSync(`${manifest}.lock`)).toBe(false);
  });

  it("keeps the manifest's permissions and a link to it, which it replaces whole", async () => {
    const folder = mkdtempSync(join(scratch.dir, "manifest-mode-"));
    const [manifest, link] = [join(folder, "manifest.json"), join(folder, "link.json")];
    await runCli(["--count", "2", "--quiet", "-o", join(folder, "one.txt"), "--manifest", manifest]);
    chmodSync(manifest, 0o640);
    symlinkSync(manifest, link);
    await runCli(["--count", "2", "--quiet", "-o", join(folder, "two.txt"), "--manifest", link]);
    expect(statSync(manifest).mode & 0o777).toBe(0o640);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readManifest(manifest).files.map((entry) => entry.file)).toEqual(expect.arrayContaining(["one.txt", "two.txt"]));
  });

  it("records both of two generate runs that end together", async () => {
    const folder = mkdtempSync(join(scratch.dir, "shared-manifest-"));
    const manifest = join(folder, "manifest.json");
    const runs = ["one", "two"].map((name) =>
      ended(spawn(process.execPath, [BIN, "generate", "--count", "20", "--quiet", "-o", join(folder, `${name}.txt`), "--manifest", manifest])),
    );
    expect(await Promise.all(runs)).toEqual([
      [0, ""],
      [0, ""],
    ]);
    expect(
      readManifest(manifest)
        .files.map((entry) => entry.file)
        .sort(),
    ).toEqual(["one.txt", "two.txt"]);
  });
});

describe("a manifest of a solver without guesses", () => {
  it("records its guesses as n/a (null), and takes further runs after it", async () => {
    const folder = mkdtempSync(join(scratch.dir, "blind-"));
    const manifest = join(folder, "manifest.json");
    await runCli(["--count", "2", "--solver", "npm:dancing-links", "--quiet", "-o", join(folder, "blind.txt"), "--manifest", manifest]);
    await runCli(["--count", "2", "--quiet", "-o", join(folder, "seen.txt"), "--manifest", manifest]);
    const files = readManifest(manifest).files;
    expect(files.map((entry) => [entry.file, entry.guesses.mean])).toEqual([
      ["seen.txt", expect.any(Number)],
      ["blind.txt", null],
    ]);
  });
});

describe("solver checks", () => {
  it("refuses a solver that cannot prove uniqueness, and a grader without guesses", async () => {
    await expect(runCli(["--count", "1", "--solver", "npm:algorithm.ts", "--quiet"])).rejects.toThrow(/cannot prove a puzzle unique/);
    await expect(runCli(["--count", "1", "--min-guesses", "1", "--graders", "wasm,npm:dancing-links", "--quiet"])).rejects.toThrow(
      /npm:dancing-links reports no guesses/,
    );
    // --graders only grade: one that reports no guesses grades nothing (every grade would be NaN)
    await expect(runCli(["--count", "1", "--graders", "wasm,npm:dancing-links", "--quiet"])).rejects.toThrow(/npm:dancing-links reports no guesses/);
    await expect(runCli(["--count", "1", "--solver", "nope", "--quiet"])).rejects.toThrow(/unknown solver 'nope'/);
  });
});
