/**
 * The benchmark as the web page runs it (inside the worker): the library's engines on seeded
 * samples of puzzle files, answers checked before timing exactly as `npm run bench` checks
 * them (bench/verify.ts), then repeated timed passes. Measuring returns rows; main.ts draws them.
 *
 *   per dataset: seededSample(file, puzzles, seed)            the same draw as `npm run bench --seed`
 *   per solver:  verify pass  → a wrong answer fails the row, naming the line
 *                warm-up pass → timed passes until timeMs     (solveBatch in one call when the engine has it)
 */
import { answerProblem, type Expectation, expectedCount } from "../bench/verify.js";
import { seededSample } from "../bench/sample.js";
import { CELLS, type SearchStats, type SolverEngine, findSolver, parsePuzzle } from "../src/index.js";

/** One puzzle file to bench. */
export interface WebDataset {
  name: string;
  text: string;
  /** "unique" for the bundled tiers; a dropped file is "unknown" (solvers must then agree). */
  expectation: Expectation;
}

/** What to run. */
export interface WebBenchPlan {
  datasets: WebDataset[];
  /** Registry ids. */
  solvers: string[];
  /** Puzzles drawn per dataset. @default 300 */
  puzzles: number;
  /** Timed time per row, ms. @default 500 */
  timeMs: number;
  /** Count solutions up to this (2 proves uniqueness). @default 2 */
  limit: number;
  /** Seed of the draw, as `npm run bench --seed`. @default 1 */
  seed: number;
  /** Search nodes per puzzle for the engines that honour a budget. @default 100000 */
  budget: number;
}

/** One measured row. */
export interface WebBenchRow {
  dataset: string;
  solver: string;
  puzzles: number;
  /** Puzzles per second: puzzles / mean pass time. */
  puzzlesPerSecond: number;
  meanMicros: number;
  /** 95% relative margin of error of the mean pass time, in percent. */
  rmePercent: number;
  /** Timed passes. */
  samples: number;
  /** Mean guesses per puzzle, or null when the engine does not report them. */
  guessesPerPuzzle: number | null;
  /** Puzzles whose answers were checked (all, unless some hit the budget). */
  verified: number;
  timeouts: number;
  /** One call per pass (solveBatch) rather than one per puzzle. */
  batchCall: boolean;
  /** Every timed pass in ms, ascending (the CLI's `batchMs`: --compare bootstraps over them). */
  batchMs: number[];
  /** Puzzles in the dataset file (comments and blank lines left out). */
  datasetSize: number;
}

/** Where a run stands, for the page's progress bar: rows finished of all planned, and the row now measured. */
export interface WebBenchProgress {
  done: number;
  total: number;
  text: string;
}

/** A puzzle line that cannot be read, or a wrong answer: the run stops with this. */
export class WebBenchError extends Error {}

interface Sample {
  name: string;
  size: number;
  lines: number[];
  grids: Uint8Array[];
  packed: Uint8Array;
  expectation: Expectation;
}

function sampleOf(dataset: WebDataset, plan: WebBenchPlan): Sample {
  const rows = dataset.text.split("\n").map((line, index) => ({ line: line.trim(), number: index + 1 }));
  const puzzles = rows.filter((row) => row.line !== "" && !row.line.startsWith("#"));
  const picked = seededSample(puzzles.length, plan.puzzles, plan.seed).map((i) => puzzles[i]);
  const grids = picked.map(({ line, number }) => {
    if (line.length !== CELLS) throw new WebBenchError(`${dataset.name} line ${number}: the page's bench runs 9×9 puzzles (81 characters); this line has ${line.length}`);
    try {
      return parsePuzzle(line);
    } catch (error) {
      throw new WebBenchError(`${dataset.name} line ${number}: ${(error as Error).message}`);
    }
  });
  const packed = new Uint8Array(grids.length * CELLS);
  grids.forEach((grid, i) => packed.set(grid, i * CELLS));
  return { name: dataset.name, size: puzzles.length, lines: picked.map((p) => p.number), grids, packed, expectation: dataset.expectation };
}

/** Solves every puzzle once, checks each answer, and returns the counts (for agreement) and guess totals. */
function verify(engine: SolverEngine, id: string, sample: Sample, plan: WebBenchPlan, agreed: (number | null)[]) {
  const solution = new Uint8Array(CELLS);
  const stats: SearchStats = { guesses: 0, timedOut: false };
  let guesses = 0;
  let verified = 0;
  let timeouts = 0;
  sample.grids.forEach((grid, i) => {
    const count = engine.countSolutions(grid, plan.limit, solution, stats, plan.budget);
    guesses += stats.guesses;
    if (stats.timedOut) {
      timeouts++;
      return;
    }
    const where = `${id} on ${sample.name} line ${sample.lines[i]}`;
    const problem = answerProblem(grid, { count, solution, timedOut: false }, sample.expectation, plan.limit);
    if (problem) throw new WebBenchError(`${where}: ${problem}`);
    const capped = Math.min(count, plan.limit);
    if (expectedCount(sample.expectation, plan.limit) === null) {
      if (agreed[i] === null) agreed[i] = capped;
      else if (agreed[i] !== capped) throw new WebBenchError(`${where}: counts ${capped} solutions, an earlier solver counted ${agreed[i]}`);
    }
    verified++;
  });
  return { guesses, verified, timeouts };
}

/** One pass over the sample: a batch call when the engine has one, else a call per puzzle. */
function pass(engine: SolverEngine, sample: Sample, plan: WebBenchPlan): void {
  if (engine.solveBatch) {
    engine.solveBatch(sample.packed, sample.grids.length, plan.limit, plan.budget);
    return;
  }
  const solution = new Uint8Array(CELLS);
  const stats: SearchStats = { guesses: 0, timedOut: false };
  for (const grid of sample.grids) engine.countSolutions(grid, plan.limit, solution, stats, plan.budget);
}

/** Passes until `timeMs` has gone by (at least 3), after one warm-up; the pass times in ms. */
function timePasses(engine: SolverEngine, sample: Sample, plan: WebBenchPlan): number[] {
  pass(engine, sample, plan);
  const times: number[] = [];
  const start = performance.now();
  while (times.length < 3 || performance.now() - start < plan.timeMs) {
    const before = performance.now();
    pass(engine, sample, plan);
    times.push(performance.now() - before);
  }
  return times;
}

function meanAndRme(values: number[]): { mean: number; rme: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length - 1);
  return { mean, rme: mean > 0 ? ((1.96 * Math.sqrt(variance / values.length)) / mean) * 100 : 0 };
}

/** Runs the plan; `onRow` gets each row as it is measured, `onProgress` where the run stands before each row. */
export async function runWebBench(plan: WebBenchPlan, onRow: (row: WebBenchRow) => void, onProgress: (progress: WebBenchProgress) => void): Promise<WebBenchRow[]> {
  const engines = new Map<string, SolverEngine>();
  for (const id of plan.solvers) {
    const info = findSolver(id);
    if (info.unavailable) throw new WebBenchError(`${id} ${info.unavailable}`);
    engines.set(id, await info.load(9));
  }
  const rows: WebBenchRow[] = [];
  for (const dataset of plan.datasets) {
    const sample = sampleOf(dataset, plan);
    const agreed: (number | null)[] = sample.grids.map(() => null);
    for (const [id, engine] of engines) {
      onProgress({ done: rows.length, total: plan.datasets.length * engines.size, text: `${dataset.name}: ${id} (${sample.grids.length} puzzles)` });
      await new Promise((resolve) => setTimeout(resolve, 0)); // let the progress message out
      const checked = verify(engine, id, sample, plan, agreed);
      const info = findSolver(id);
      const times = timePasses(engine, sample, plan);
      const { mean, rme } = meanAndRme(times);
      const n = sample.grids.length;
      const row: WebBenchRow = {
        dataset: dataset.name,
        solver: id,
        puzzles: n,
        puzzlesPerSecond: n / (mean / 1000),
        meanMicros: (mean * 1000) / n,
        rmePercent: rme,
        samples: times.length,
        guessesPerPuzzle: info.capabilities.guesses ? checked.guesses / n : null,
        verified: checked.verified,
        timeouts: checked.timeouts,
        batchCall: engine.solveBatch !== undefined,
        batchMs: [...times].sort((a, b) => a - b),
        datasetSize: sample.size,
      };
      rows.push(row);
      onRow(row);
    }
  }
  return rows;
}
