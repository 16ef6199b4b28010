/**
 * The puzzles a run measures, drawn once per dataset, and how every answer is checked — for
 * the bench (runner.ts) and the profiler (profile/profiler.ts) alike. Answers are checked
 * after their timing, never inside it.
 *
 *   dataset ─► picked indices (seeded) ─► Draw { grids, lines, packed, shape, expectation, consensus }
 *   answer of puzzle i ─► answerChecker(draw, label, limit) ─► throws WrongAnswerError, or records the count
 */
import { type Dataset, datasetGrid } from "../../src/datasets.js";
import { type Grid, datasetShape } from "../../src/puzzle.js";
import type { Shape } from "../../src/shape.js";
import type { BatchResult } from "../../src/solver.js";
import { type Answer, CountConsensus, type Expectation, WrongAnswerError, answerProblem } from "../verify.js";

/** The parsed puzzles of one dataset that every row (or variant) solves, and what their counts must be. */
export interface Draw {
  dataset: Dataset;
  /** The grid size of every puzzle of the dataset. */
  shape: Shape;
  grids: Grid[];
  /** 1-based line in the dataset file of each grid. */
  lines: number[];
  /** Every grid, back to back (n × N² bytes). */
  packed: Uint8Array;
  expectation: Expectation;
  /** Counts seen so far on each puzzle, so that every row must agree. */
  consensus: CountConsensus;
}

/** The puzzles `picked` (indices into the dataset, in the order to solve them) of `dataset`. */
export function drawPuzzles(dataset: Dataset, picked: readonly number[], expectation: Expectation): Draw {
  if (picked.length === 0) throw new Error(`${dataset.path}: no puzzles`);
  const lines = picked.map((i) => dataset.lines[i] ?? i + 1);
  const grids = picked.map((i) => datasetGrid(dataset, i));
  const shape = datasetShape(dataset.puzzles, dataset.path);
  return { dataset, shape, grids, lines, packed: pack(grids), expectation, consensus: new CountConsensus() };
}

/** Grids back to back, N² bytes each. */
export function pack(grids: readonly Grid[]): Uint8Array {
  const cells = grids[0]?.length ?? 0;
  const packed = new Uint8Array(grids.length * cells);
  grids.forEach((grid, i) => packed.set(grid, i * cells));
  return packed;
}

/** Checks answer `index` of a row: right count and solution, agreeing with earlier rows (unless it timed out). */
export type AnswerCheck = (index: number, answer: Answer) => void;

/** The checker of a row (or variant) labelled `label`: a wrong answer throws {@link WrongAnswerError}. */
export function answerChecker(draw: Draw, label: string, limit: number): AnswerCheck {
  return (index, answer) => {
    const problem =
      answerProblem(draw.grids[index], answer, draw.expectation, limit) ??
      (answer.timedOut ? null : draw.consensus.check(index, answer.count, limit, label));
    if (problem) throw new WrongAnswerError(label, draw.dataset.name, draw.lines[index], draw.grids[index], problem);
  };
}

/** Checks the first `count` answers of a batch (views or copies); returns their total count. */
export function checkBatch(batch: BatchResult, count: number, check: AnswerCheck): number {
  const cells = batch.solutions.length / Math.max(batch.counts.length, 1);
  let total = 0;
  for (let i = 0; i < count; i++) {
    check(i, { count: batch.counts[i], solution: batch.solutions.subarray(i * cells, (i + 1) * cells), timedOut: batch.nodes[i] < 0 });
    total += batch.counts[i];
  }
  return total;
}
