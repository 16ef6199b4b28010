/** How every answer a run measures is checked, after its timing, never inside it. It reads no file, so the web page's worker runs it too. */
import type { Grid } from "../../src/model/puzzle.js";
import { quantile } from "../../src/model/quantile.js";
import type { BatchResult, SearchStats, SolverEngine } from "../../src/solvers/solver.js";
import { type Answer, type CountConsensus, type Expectation, WrongAnswerError, answerProblem } from "../verify.js";

/** A run's draw of one dataset, as answers are checked against it. */
export interface CheckedPuzzles {
  dataset: { name: string };
  grids: readonly Grid[];
  /** 1-based line in the dataset file of each grid. */
  lines: readonly number[];
  expectation: Expectation;
  /** Counts seen so far on each puzzle, so that every row must agree. */
  consensus: CountConsensus;
}

/** Checks answer `index` of a row: right count and solution, agreeing with earlier rows (unless it timed out). */
export type AnswerCheck = (index: number, answer: Answer) => void;

/** The checker of a row (or variant, or kernel) labelled `label`: a wrong answer throws {@link WrongAnswerError}. */
export function answerChecker(puzzles: CheckedPuzzles, label: string, limit: number): AnswerCheck {
  return (index, answer) => {
    const problem =
      answerProblem(puzzles.grids[index], answer, puzzles.expectation, limit) ??
      (answer.timedOut ? null : puzzles.consensus.check(index, answer.count, limit, label));
    if (problem) throw new WrongAnswerError(label, puzzles.dataset.name, puzzles.lines[index], puzzles.grids[index], problem);
  };
}

/** A batch's answers as they are checked; guesses NaN where the solver cannot tell. */
export interface BatchAnswers {
  counts: ArrayLike<number>;
  /** count × N² bytes, the first solution of each puzzle. */
  solutions: Uint8Array;
  guesses: ArrayLike<number>;
  timedOut(index: number): boolean;
}

/** The first `count` answers of a kernel or engine batch (nodes < 0: the budget stopped it), copied out of its regions. */
export function batchAnswers(batch: BatchResult, count = batch.counts.length): PassAnswers {
  const answers = passAnswers(count, batch.solutions.length / Math.max(batch.counts.length, 1));
  answers.counts.set(batch.counts.subarray(0, count));
  answers.solutions.set(batch.solutions.subarray(0, answers.solutions.length));
  answers.guesses.set(batch.guesses.subarray(0, count));
  for (let i = 0; i < count; i++) answers.stopped[i] = batch.nodes[i] < 0 ? 1 : 0;
  return answers;
}

/** Checks the first `count` answers; returns their total solution count. */
export function checkAnswers(answers: BatchAnswers, count: number, check: AnswerCheck): number {
  const cells = answers.solutions.length / Math.max(answers.counts.length, 1);
  let total = 0;
  for (let i = 0; i < count; i++) {
    check(i, { count: answers.counts[i], solution: answers.solutions.subarray(i * cells, (i + 1) * cells), timedOut: answers.timedOut(i) });
    total += answers.counts[i];
  }
  return total;
}

/** Answers kept to hold later calls against. */
export type KeptAnswers = Pick<BatchAnswers, "counts" | "solutions" | "timedOut">;

/** A batch's answers as kept views of its result (valid until the engine's next call): nothing copied. */
export function batchViews(batch: BatchResult): KeptAnswers {
  return { counts: batch.counts, solutions: batch.solutions, timedOut: (index) => batch.nodes[index] < 0 };
}

/** The answers of a pass of one countSolutions call per puzzle, in buffers made once and written again by every pass. */
export interface PassAnswers extends KeptAnswers {
  counts: Int32Array;
  guesses: Float64Array;
  /** 1 where the budget stopped the puzzle. */
  stopped: Uint8Array;
  /** Each puzzle's place in `solutions`, made once so that a call allocates nothing. */
  views: Uint8Array[];
}

export function passAnswers(count: number, cells: number): PassAnswers {
  const stopped = new Uint8Array(count);
  const solutions = new Uint8Array(count * cells);
  return {
    counts: new Int32Array(count),
    solutions,
    guesses: new Float64Array(count),
    stopped,
    views: Array.from({ length: count }, (_, i) => solutions.subarray(i * cells, (i + 1) * cells)),
    timedOut: (index) => stopped[index] === 1,
  };
}

/** Solves puzzle `index` with one countSolutions call into its place in `answers`; returns its count. */
export function solveInto(
  engine: Pick<SolverEngine, "countSolutions">,
  grid: Grid,
  index: number,
  answers: PassAnswers,
  limit: number,
  budget: number,
  stats: SearchStats,
): number {
  const count = engine.countSolutions(grid, limit, answers.views[index], stats, budget);
  answers.counts[index] = count;
  answers.guesses[index] = stats.guesses;
  answers.stopped[index] = stats.timedOut ? 1 : 0;
  return count;
}

/** One countSolutions call per puzzle of `grids`, each answer kept in buffers made once; `call` returns the total count. */
export function countingLoop(
  engine: Pick<SolverEngine, "countSolutions">,
  grids: readonly Grid[],
  limit: number,
  budget: number,
): { call: () => number; answers: PassAnswers } {
  const answers = passAnswers(grids.length, grids[0]?.length ?? 0);
  const stats: SearchStats = { guesses: 0, timedOut: false };
  const call = () => {
    let total = 0;
    for (let i = 0; i < grids.length; i++) total += solveInto(engine, grids[i], i, answers, limit, budget, stats);
    return total;
  };
  return { call, answers };
}

/** Holds answer `index` of a later call (`call`: "timed call 3") against the checked one of the same puzzle. */
export type SameAnswerCheck = (index: number, answer: Answer, call: string) => void;

/** Every later answer of a row must be its checked call's: the same count and budget stop, and the same solution or another valid one. */
export function sameAsChecked(puzzles: CheckedPuzzles, label: string, limit: number, checked: KeptAnswers): SameAnswerCheck {
  const cells = puzzles.grids[0]?.length ?? 0;
  return (index, answer, call) => {
    const count = checked.counts[index];
    const stopped = checked.timedOut(index);
    let problem: string | null = null;
    if (answer.count !== count || answer.timedOut !== stopped) {
      const said = (n: number, timedOut: boolean) => `${n} solution${n === 1 ? "" : "s"}${timedOut ? " (stopped by the budget)" : ""}`;
      problem = `${call} answered ${said(answer.count, answer.timedOut)} where its checked call answered ${said(count, stopped)}`;
    } else if (count > 0 && !sameBytes(answer.solution, checked.solutions, index * cells)) {
      const wrong = answerProblem(puzzles.grids[index], answer, puzzles.expectation, limit);
      if (wrong) problem = `${call}: ${wrong}`;
    }
    if (problem) throw new WrongAnswerError(label, puzzles.dataset.name, puzzles.lines[index], puzzles.grids[index], `${problem}; the row is refused`);
  };
}

/** Holds the first `count` answers of a later call against the checked ones (see {@link sameAsChecked}). */
export function checkSameAnswers(answers: KeptAnswers, count: number, same: SameAnswerCheck, call: string): void {
  const cells = answers.solutions.length / Math.max(answers.counts.length, 1);
  for (let i = 0; i < count; i++) {
    same(i, { count: answers.counts[i], solution: answers.solutions.subarray(i * cells, (i + 1) * cells), timedOut: answers.timedOut(i) }, call);
  }
}

function sameBytes(grid: ArrayLike<number>, all: Uint8Array, offset: number): boolean {
  for (let i = 0; i < grid.length; i++) if (grid[i] !== all[offset + i]) return false;
  return true;
}

/* The one guess summary of every tool: a puzzle the budget stopped counts with the guesses it made, never as solved without a guess. */
export interface GuessSummary {
  mean: number;
  median: number;
  /** Share of puzzles solved without a guess (and not stopped by the budget), in percent. */
  noGuessPercent: number;
}

/** The summary of per-puzzle `guesses`; null when there are none or any is NaN (a solver that cannot count them). */
export function summarizeGuesses(guesses: ArrayLike<number>, timedOut: (index: number) => boolean = () => false): GuessSummary | null {
  if (guesses.length === 0) return null;
  let sum = 0;
  let none = 0;
  for (let i = 0; i < guesses.length; i++) {
    if (!Number.isFinite(guesses[i])) return null;
    sum += guesses[i];
    if (guesses[i] === 0 && !timedOut(i)) none++;
  }
  const sorted = Float64Array.from(guesses).sort();
  return { mean: sum / guesses.length, median: quantile(sorted, 0.5), noGuessPercent: (100 * none) / guesses.length };
}
