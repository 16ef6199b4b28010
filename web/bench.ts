/**
 * The benchmark as the web page runs it (inside the worker), through the bench's measuring core:
 * the library's engines on seeded samples of puzzle files, every answer checked before timing by
 * the bench's own check (bench/measure/check.ts), then timed by its batch timing
 * (bench/measure/batches.ts: tinybench, warm-up first). Measuring returns rows; main.ts draws them.
 *
 *   per dataset: seededSample(file, puzzles, seed)            the same draw as `npm run bench --seed`
 *   per solver:  checked pass → a wrong answer fails the row, naming the line
 *                timed passes until timeMs                    (solveBatch in one call when the engine has it),
 *                each held to the checked answers after its timing
 */
import {
  type AnswerCheck,
  type KeptAnswers,
  type PassAnswers,
  answerChecker,
  batchAnswers,
  batchViews,
  checkAnswers,
  checkSameAnswers,
  passAnswers,
  sameAsChecked,
  solveInto,
} from "../bench/measure/check.js";
import { type Draw, drawPuzzles, seededSample } from "../bench/measure/draw.js";
import { timeBatches } from "../bench/measure/batches.js";
import type { Expectation } from "../bench/verify.js";
import { CELLS, type SearchStats, type SolverEngine, findSolver } from "../src/index.js";

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
  /** Every timed pass in ms, ascending (the CLI's `batchMs`: --compare takes their spread). */
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

/** A puzzle line that cannot be read, or a solver that cannot run: the run stops with this (a wrong answer stops it with the bench's WrongAnswerError). */
export class WebBenchError extends Error {}

/** A dataset's sample: the bench's draw of it (the puzzles every solver solves, and what their counts must be). */
type Sample = Draw;

/** Least timed passes per row. */
const MIN_PASSES = 3;
/** Share of `timeMs` spent warming up before timing (as the bench's rows). */
const WARMUP_SHARE = 0.2;

/** The bench's seeded draw of a dropped or bundled file (the page's bench takes 9×9 puzzles only). */
function sampleOf(dataset: WebDataset, plan: WebBenchPlan): Sample {
  const rows = dataset.text.split("\n").map((line, index) => ({ line: line.trim(), number: index + 1 }));
  const puzzles = rows.filter((row) => row.line !== "" && !row.line.startsWith("#"));
  const picked = seededSample(puzzles.length, plan.puzzles, plan.seed);
  for (const { line, number } of picked.map((i) => puzzles[i])) {
    if (line.length !== CELLS)
      throw new WebBenchError(`${dataset.name} line ${number}: the page's bench runs 9×9 puzzles (81 characters); this line has ${line.length}`);
  }
  const file = { name: dataset.name, path: dataset.name, puzzles: puzzles.map((p) => p.line), lines: puzzles.map((p) => p.number) };
  return drawPuzzles(file, picked, dataset.expectation);
}

/** What a row's checked pass found: its answers' total count (every timed pass must give it), guesses and timeouts. */
interface Checked {
  total: number;
  /** The answers checked, which every timed pass must give again. */
  answers: KeptAnswers;
  /** Mean guesses per puzzle (read only for a solver that reports guesses; NaN when a batch engine could not count them). */
  guesses: number;
  /** Puzzles stopped by the budget (their counts are not held to what the file promises). */
  timeouts: number;
}

/** Solves every puzzle once, untimed, each answer checked by the bench's check (and agreeing with the rows before). */
function checkedPass(engine: SolverEngine, sample: Sample, plan: WebBenchPlan, check: AnswerCheck): Checked {
  const n = sample.grids.length;
  if (engine.solveBatch) {
    const answers = batchAnswers(engine.solveBatch(sample.packed, n, plan.limit, plan.budget), n);
    let guesses = 0;
    let timeouts = 0;
    for (let i = 0; i < n; i++) {
      guesses += answers.guesses[i];
      if (answers.timedOut(i)) timeouts++;
    }
    return { total: checkAnswers(answers, n, check), answers, guesses: guesses / n, timeouts };
  }
  const answers = passAnswers(n, CELLS);
  const stats: SearchStats = { guesses: 0, timedOut: false };
  let guesses = 0;
  let timeouts = 0;
  sample.grids.forEach((grid, i) => {
    solveInto(engine, grid, i, answers, plan.limit, plan.budget, stats);
    guesses += stats.guesses;
    if (stats.timedOut) timeouts++;
  });
  return { total: checkAnswers(answers, n, check), answers, guesses: guesses / n, timeouts };
}

/**
 * One pass over the sample, returning its total count: a batch call when the engine has one, else
 * a call per puzzle into `answers`; `last.answers` holds what the pass answered, to check after its
 * timing.
 */
function pass(engine: SolverEngine, sample: Sample, plan: WebBenchPlan, answers: PassAnswers, last: { answers?: KeptAnswers }): number {
  const n = sample.grids.length;
  if (engine.solveBatch) {
    const batch = engine.solveBatch(sample.packed, n, plan.limit, plan.budget);
    last.answers = batchViews(batch);
    let total = 0;
    for (let i = 0; i < n; i++) total += batch.counts[i];
    return total;
  }
  const stats: SearchStats = { guesses: 0, timedOut: false };
  let total = 0;
  for (let i = 0; i < n; i++) total += solveInto(engine, sample.grids[i], i, answers, plan.limit, plan.budget, stats);
  last.answers = answers;
  return total;
}

/** Runs the plan; `onRow` gets each row as it is measured, `onProgress` where the run stands before each row. */
export async function runWebBench(
  plan: WebBenchPlan,
  onRow: (row: WebBenchRow) => void,
  onProgress: (progress: WebBenchProgress) => void,
): Promise<WebBenchRow[]> {
  const engines = new Map<string, SolverEngine>();
  for (const id of plan.solvers) {
    const info = findSolver(id);
    if (info.unavailable) throw new WebBenchError(`${id} ${info.unavailable}`);
    engines.set(id, await info.load(9));
  }
  const rows: WebBenchRow[] = [];
  for (const dataset of plan.datasets) {
    const sample = sampleOf(dataset, plan);
    for (const [id, engine] of engines) {
      onProgress({ done: rows.length, total: plan.datasets.length * engines.size, text: `${dataset.name}: ${id} (${sample.grids.length} puzzles)` });
      await new Promise((resolve) => setTimeout(resolve, 0)); // let the progress message out
      const checked = checkedPass(engine, sample, plan, answerChecker(sample, id, plan.limit));
      const info = findSolver(id);
      // Every timed pass gives the checked answers again, held against them after its timing.
      const same = sameAsChecked(sample, id, plan.limit, checked.answers);
      const answers = passAnswers(engine.solveBatch ? 0 : sample.grids.length, CELLS);
      const last: { answers?: KeptAnswers } = {};
      let calls = 0;
      const timing = await timeBatches(`${dataset.name} · ${id}`, () => pass(engine, sample, plan, answers, last), checked.total, {
        timeMs: plan.timeMs,
        minCalls: MIN_PASSES,
        warmupMs: plan.timeMs * WARMUP_SHARE,
        afterEach: () => checkSameAnswers(last.answers!, sample.grids.length, same, `timed pass ${++calls}`),
      });
      const n = sample.grids.length;
      const row: WebBenchRow = {
        dataset: dataset.name,
        solver: id,
        puzzles: n,
        puzzlesPerSecond: (n * 1000) / timing.meanMs,
        meanMicros: (timing.meanMs * 1000) / n,
        rmePercent: timing.rmePercent,
        samples: timing.samples,
        guessesPerPuzzle: info.capabilities.guesses && Number.isFinite(checked.guesses) ? checked.guesses : null,
        verified: n - checked.timeouts,
        timeouts: checked.timeouts,
        batchCall: engine.solveBatch !== undefined,
        batchMs: timing.batchMs,
        datasetSize: sample.dataset.puzzles.length,
      };
      rows.push(row);
      onRow(row);
    }
  }
  return rows;
}
