/**
 * The shared fixture through `createSolver` + `solve` (test/fixtures/puzzles.txt, limit 2): the
 * rows, one per registry entry and one per debug build, and the checks every row's records must
 * pass. fixture.test.ts runs the kernels', their variants' and the TypeScript ports' rows;
 * fixture-baselines.test.ts runs the pure-TypeScript baselines' and the npm references'.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CreateSolverOptions,
  type Solver,
  type SolverInfo,
  compileKernel,
  compileSource,
  createSolver,
  findSolver,
  kernelUrl,
  kernelVariants,
  solvers,
  statusOf,
} from "../src/index.js";
import { isValidSolution, readPuzzle } from "../src/model/puzzle.js";
import { type FixtureCase, loadFixture } from "./fixture.js";

/** Work cap (search nodes) for solvers that honour one; the propagating ones never come near it. */
const BUDGET = 300_000;

/** The cap on the puzzles a solver is known to need more than BUDGET for (BEYOND_BUDGET): it must stop there just the same. */
const TIMEOUT_BUDGET = 10_000;

/**
 * The fixture puzzles over BUDGET for the plain backtrackers, where they must stop with
 * `timeout` and report nothing wrong. The row-major seeds share one search tree (cells in
 * row-major order, digits 1–9) and need up to 1,839,310,652 placements here with limit 2;
 * `wasm:none-static` branches in a fixed order without propagation.
 */
const ROW_MAJOR_SLOW = [
  "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.", // fixture line 7
  "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3", // fixture line 13
  "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........", // fixture line 14
  "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2", // fixture line 15
  ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...", // fixture line 16
  ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....", // fixture line 17
  "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........", // fixture line 18
  "..2...4..9.563.8..........6....6........73.9...8.15...7.63...5.8......4.3...2.1..", // fixture line 19
  "85...14..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.", // fixture line 29
];
const BEYOND_BUDGET: Record<string, ReadonlySet<string>> = {
  scan: new Set(ROW_MAJOR_SLOW),
  tables: new Set(ROW_MAJOR_SLOW),
  queue: new Set(ROW_MAJOR_SLOW),
  "wasm:none-static": new Set([
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3", // fixture line 13
    "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........", // fixture line 14
    "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2", // fixture line 15
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........", // fixture line 18
  ]),
};

const cases = loadFixture("all");

/** The count `info` must report for a fixture count under limit 2. */
function expectedCount(info: SolverInfo, count: number): number {
  return info.capabilities.uniqueness === false ? Math.min(count, 1) : count;
}

function checkInvalid(solver: Solver, fixture: FixtureCase): void {
  const record = solver.solve(fixture.puzzle, { limit: 2 });
  expect(record.status).toBe("invalid");
  expect(record.count).toBe(0);
  expect(record.solution).toBeNull();
  expect(record.error).toMatch(/cell \d+ \(row \d+, column \d+\)|expected 81 characters/);
}

function checkSolved(info: SolverInfo, solver: Solver, fixture: FixtureCase & { count: number }): void {
  const beyond = BEYOND_BUDGET[info.id]?.has(fixture.puzzle) ?? false;
  const budget = info.capabilities.budget ? (beyond ? TIMEOUT_BUDGET : BUDGET) : undefined;
  const record = solver.solve(fixture.puzzle, { limit: 2, budget });
  const puzzle = readPuzzle(fixture.puzzle);
  if (record.solution !== null) expect(isValidSolution(puzzle.grid, readPuzzle(record.solution, puzzle.alphabet).grid)).toBe(true);
  expect(record.count > 0).toBe(record.solution !== null);
  if (beyond) {
    expect(record.status).toBe("timeout");
    expect(record.count).toBeLessThanOrEqual(fixture.count);
    return;
  }
  const count = expectedCount(info, fixture.count);
  expect(record.count).toBe(count);
  expect(record.status).toBe(statusOf(count));
  if (fixture.solution !== undefined) expect(record.solution).toBe(fixture.solution);
  if (info.capabilities.guesses) {
    expect(Number.isInteger(record.guesses) && record.guesses! >= 0).toBe(true);
  } else {
    expect(record.guesses).toBeNull();
  }
}

type Kernels = CreateSolverOptions["kernels"];

/**
 * A row: its name, the registry row whose answers it must give, the registry id it is created as
 * (the row's own, or `wasm` running a variant's debug build) and its kernels.
 */
export type Row = [string, SolverInfo, string, () => Promise<Kernels>];

/** The debug build of a 9×9 variant, as the `wasm` row's kernel. */
const variantDebug = (name: string): Row => [
  `wasm:${name} (debug build)`,
  findSolver(`wasm:${name}`),
  "wasm",
  async () => ({ wasm: await compileSource(kernelUrl(`variants-debug/${name}`)) }),
];

export const debugVariants = kernelVariants().filter((variant) => variant.name !== "");

/** Each registry row (its kernels from the files beside the package), then the kernels' rows again on their debug builds. */
export const ROWS: Row[] = [
  ...solvers.map((info): Row => [info.id, info, info.id, async () => ({})]),
  ["wasm (debug build)", findSolver("wasm"), "wasm", async () => ({ wasm: await compileKernel("debug") })],
  ...debugVariants.map((variant) => variantDebug(variant.name)),
  ["general-wasm (debug build)", findSolver("general-wasm"), "general-wasm", async () => ({ general: await compileKernel("general-debug") })],
];

/** The pure-TypeScript baselines and the npm references: the rows fixture-baselines.test.ts runs. */
export const BASELINE_IDS: ReadonlySet<string> = new Set(["scan", "tables", "queue", "mrv", "dlx", "npm:dancing-links", "npm:algorithm.ts"]);

/** Each of `rows` solves every fixture line of the sizes it takes, on its own engine. */
export function describeRows(rows: Row[]): void {
  describe.each(rows)("%s on the shared fixture", (_name, info, id, kernels) => {
    let solver: Solver;
    // The tests' time limit, not Vitest's 10 s for a hook: a row's first load (its modules, its kernels) took longer on a loaded machine.
    beforeAll(async () => {
      solver = await createSolver({ solver: id, kernels: await kernels() });
    }, 120_000);

    it("runs on every size it takes, on its own engine", () => {
      for (const size of info.sizes) expect(solver.engines.get(size)?.id, `${size}×${size}`).toBe(id);
    });

    it.each(cases.filter((fixture) => info.sizes.includes(fixture.size)))("line $line ($size×$size, count $count)", (fixture) => {
      if (fixture.count === "invalid") checkInvalid(solver, fixture);
      else checkSolved(info, solver, { ...fixture, count: fixture.count });
    });
  });
}
