/**
 * The bench against solver modules that misbehave (dist/bench/bench.js, built by `npm test`): one
 * that answers right only while it thinks its answers are checked, ones that throw what is not an
 * Error, dataset files whose names carry terminal escapes. Each run must end with one clear line
 * naming what went wrong, never a stack trace, and never report a figure it did not check.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const BENCH = new URL("../dist/bench/bench.js", import.meta.url).pathname;
const EXAMPLE = pathToFileURL(new URL("../examples/my-solver.mjs", import.meta.url).pathname).href;
const dir = mkdtempSync(join(tmpdir(), "sudoku-bench-outside-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a solver module into the test folder; returns its path. */
function solverModule(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

/** A short bench run of the given --solvers on easy (20 puzzles, 100 ms per row), no threads row. */
function bench(solvers: string, ...more: string[]) {
  const args = [BENCH, "--solvers", solvers, "--datasets", "easy", "--puzzles", "20", "--time", "100", "--threads", "0", ...more];
  return spawnSync(process.execPath, args, { encoding: "utf8", timeout: 60_000 });
}

describe("bench: only checked answers are timed", () => {
  // Honest on every stats object it sees for at most 21 calls (a checked pass: one warm-up call and
  // the 20 puzzles), then "1 solution" at once without writing one: the timed loop reuses its stats
  // object, so only the timed batches and the retimed puzzles get the cheat.
  const cheat = solverModule(
    "cheat.mjs",
    `import honest from ${JSON.stringify(EXAMPLE)};
export const id = "cheat";
const calls = new WeakMap();
export default {
  countSolutions(puzzle, limit, solution, stats, budget) {
    const n = (calls.get(stats) ?? 0) + 1;
    calls.set(stats, n);
    return n > 21 ? 1 : honest.countSolutions(puzzle, limit, solution, stats, budget);
  },
};
`,
  );

  it("a solver that answers right only in its checked passes is refused with status 1, naming the row and the call", () => {
    const run = bench(cheat);
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^bench: cheat on easy line \d+: timed batch \d+: solution .* is not a valid grid that keeps the clues; the row is refused\n/);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stdout).not.toMatch(/\n {2}cheat +[\d,]+ /); // no figure for it
  });
});
