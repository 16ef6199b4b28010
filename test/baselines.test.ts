/**
 * What is specific to the pure-TypeScript baselines and the npm references: their registry
 * entries, budgets that end in `timeout`, limits 1 vs 2, guesses that show as null when a solver cannot report them, and engines that keep no state between puzzles.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  CELLS,
  createSolver,
  findSolver,
  formatPuzzle,
  isValidSolution,
  parsePuzzle,
  solvers,
  solvesBatches,
  type SearchStats,
  type Solver,
} from "../src/index.js";

/** Our own search engines, in registry order. */
const BASELINES = ["scan", "tables", "queue", "mrv", "dlx"];
/** The npm solvers behind thin adapters, in registry order. */
const PACKAGES = ["npm:dancing-links", "npm:algorithm.ts"];
/** The baselines that fill cells in row-major order with digits 1–9: one search tree. */
const ROW_MAJOR = ["scan", "tables", "queue"];

/** One of Norvig's hardest (his 8th) that every baseline solves quickly (3,662 row-major placements). */
const HARD = "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...";
/** Others of Norvig's hardest (his 6th, 7th and 10th), quick for row-major search too. */
const ROW_MAJOR_SAMPLES = [
  "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
  "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
  "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
];
/** A serg benchmark puzzle with several solutions. */
const SEVERAL = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
const EMPTY = ".".repeat(CELLS);
/** A solved grid with one cell emptied: one placement, no guess. */
const ONE_EMPTY = "8596124377238541691643795289861473523752.8914241593786432981675617425893598736241";
/** No solution although no clue repeats. */
const UNSOLVABLE = "12345678.........9...............................................................";
const loaded = new Map<string, Solver>();
// Loading every baseline and npm package took over Vitest's 10 s hook limit on a loaded machine: the tests' limit instead.
beforeAll(async () => {
  for (const id of [...BASELINES, ...PACKAGES]) loaded.set(id, await createSolver({ solver: id }));
}, 120_000);
const solverFor = (id: string): Solver => loaded.get(id)!;

describe("registry entries", () => {
  it("lists each baseline and package once, after wasm and bitmask, in the issue's order", () => {
    const ids = solvers.map((info) => info.id);
    expect(new Set(ids).size).toBe(ids.length);
    const positions = [...BASELINES, ...PACKAGES].map((id) => ids.indexOf(id));
    expect(positions[0]).toBeGreaterThan(ids.indexOf("bitmask"));
    expect(ids.indexOf("bitmask")).toBeGreaterThan(ids.indexOf("wasm"));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it.each(BASELINES)("%s is ours, reports guesses, honours a budget and solves one puzzle per call", async (id) => {
    const info = findSolver(id);
    expect(info.external).toBe(false);
    expect(info.capabilities).toMatchObject({ guesses: true, budget: true });
    expect(solvesBatches(await info.load(9))).toBe(false);
    expect(info.capabilities.uniqueness).not.toBe(false);
    expect(info.description.length).toBeGreaterThan(20);
    expect(info.source.length).toBeGreaterThan(5);
  });

  it.each(PACKAGES)("%s is external, without guesses or budget, one puzzle per call", async (id) => {
    const info = findSolver(id);
    expect(info.external).toBe(true);
    expect(info.capabilities).toMatchObject({ guesses: false, budget: false });
    expect(solvesBatches(await info.load(9))).toBe(false);
    expect(info.source).toMatch(/^npm /);
  });

  it("marks npm:algorithm.ts as unable to count past the first solution", () => {
    expect(findSolver("npm:algorithm.ts").capabilities.uniqueness).toBe(false);
    expect(findSolver("npm:dancing-links").capabilities.uniqueness).not.toBe(false);
  });
});

describe.each(BASELINES)("budget: %s", (id) => {
  it("stops a search that exceeds its budget with status timeout", () => {
    const record = solverFor(id).solve(HARD, { limit: 2, budget: 20 });
    expect(record).toMatchObject({ status: "timeout", count: 0, solution: null });
  });

  it("counts a budget of n as n placements allowed, and refuses one under 1", () => {
    expect(solverFor(id).solve(ONE_EMPTY, { budget: 1 })).toMatchObject({ status: "solved", count: 1 });
    expect(solverFor(id).solve(HARD, { budget: 1 }).status).toBe("timeout");
    expect(() => solverFor(id).solve(ONE_EMPTY, { budget: 0 })).toThrow(RangeError);
  });

  it("returns what it counted before the budget ran out", () => {
    const record = solverFor(id).solve(EMPTY, { limit: 1_000_000, budget: 5_000 });
    expect(record.status).toBe("timeout");
    expect(record.count).toBeGreaterThan(0);
    expect(record.count).toBeLessThan(1_000_000);
    expect(isValidSolution(parsePuzzle(EMPTY), parsePuzzle(record.solution!))).toBe(true);
  });
});

describe.each([...BASELINES, ...PACKAGES])("limits: %s", (id) => {
  const countsPastFirst = findSolver(id).capabilities.uniqueness !== false;

  it("finds one solution with limit 1 and keeps searching with limit 2", () => {
    const one = solverFor(id).solve(SEVERAL, { limit: 1 });
    expect(one).toMatchObject({ status: "solved", count: 1 });
    const two = solverFor(id).solve(SEVERAL, { limit: 2 });
    expect(two.count).toBe(countsPastFirst ? 2 : 1);
    expect(two.status).toBe(countsPastFirst ? "multiple" : "solved");
    for (const record of [one, two]) expect(isValidSolution(parsePuzzle(SEVERAL), parsePuzzle(record.solution!))).toBe(true);
  });

  it("counts exactly up to a larger limit", () => {
    expect(solverFor(id).solve(EMPTY, { limit: 5 }).count).toBe(countsPastFirst ? 5 : 1);
  });
});

describe("guesses", () => {
  it.each(BASELINES)("%s reports none on a forced puzzle and some on a hard one", (id) => {
    expect(solverFor(id).solve(ONE_EMPTY).guesses).toBe(0);
    const guesses = solverFor(id).solve(HARD).guesses!;
    expect(Number.isInteger(guesses) && guesses > 0).toBe(true);
  });

  it("is the same for the row-major baselines, which walk one search tree", () => {
    for (const line of [HARD, ...ROW_MAJOR_SAMPLES]) {
      const [first, ...rest] = ROW_MAJOR.map((id) => solverFor(id).solve(line).guesses);
      for (const guesses of rest) expect(guesses).toBe(first);
    }
  });

  it.each(PACKAGES)("%s sets NaN in the stats, which the record shows as null", async (id) => {
    const engine = await findSolver(id).load(9);
    const stats: SearchStats = { guesses: 7, timedOut: true };
    const count = engine.countSolutions(parsePuzzle(HARD), 2, new Uint8Array(CELLS), stats, Infinity);
    expect(count).toBe(1);
    expect(stats).toEqual({ guesses: NaN, timedOut: false });
    expect(solverFor(id).solve(HARD).guesses).toBeNull();
  });
});

describe.each([...BASELINES, ...PACKAGES])("engine hygiene: %s", (id) => {
  it("leaves the puzzle and, without a solution, the solution buffer untouched", async () => {
    const engine = await findSolver(id).load(9);
    const stats: SearchStats = { guesses: 0, timedOut: false };
    const puzzle = parsePuzzle(UNSOLVABLE);
    const buffer = new Uint8Array(CELLS).fill(7);
    expect(engine.countSolutions(puzzle, 2, buffer, stats, Infinity)).toBe(0);
    expect(buffer.every((value) => value === 7)).toBe(true);
    expect(formatPuzzle(puzzle)).toBe(UNSOLVABLE);
  });

  it("gives the same record for a puzzle before and after other puzzles", () => {
    const solver = solverFor(id);
    const before = solver.solve(HARD);
    solver.solve(UNSOLVABLE);
    solver.solve(SEVERAL);
    solver.solve(ROW_MAJOR_SAMPLES[0]);
    expect(solver.solve(HARD)).toEqual(before);
  });
});

describe("one budget rule for every engine", () => {
  it("reads 0 and Infinity as no cap, as the kernels do, and refuses NaN and a negative budget, naming it", async () => {
    const grid = parsePuzzle(ONE_EMPTY);
    for (const info of solvers.filter((s) => s.capabilities.budget)) {
      const engine = await info.load(9);
      for (const budget of [0, Infinity]) {
        const stats = { guesses: 0, timedOut: false };
        expect(engine.countSolutions(grid, 2, new Uint8Array(81), stats, budget), `${info.id}, budget ${budget}`).toBe(1);
        expect(stats.timedOut, `${info.id}, budget ${budget}`).toBe(false);
      }
      for (const budget of [Number.NaN, -5])
        expect(() => engine.countSolutions(grid, 2, new Uint8Array(81), { guesses: 0, timedOut: false }, budget), `${info.id}, budget ${budget}`).toThrow(
          new RangeError(`budget must be a number of search nodes from 0 up (0 or Infinity: no cap), got ${budget}`),
        );
    }
  });
});
