/**
 * The puzzles a run measures, drawn once per dataset; it reads no file, so the web page's worker runs it too. Every row
 * of a dataset solves a prefix of one seeded order, so a sampled row's puzzles are a subset of every faster row's.
 */
import type { Dataset } from "../../src/datasets/read.js";
import { DatasetSpecError } from "../../src/datasets/spec-error.js";
import { type Grid, ONE_LINE_EMPTY, PuzzleError, readPuzzle } from "../../src/model/puzzle.js";
import { CELLS, type Shape, SHAPES, shapeOfCells } from "../../src/model/shape.js";
import { Random } from "../../src/model/prng.js";
import { CountConsensus, type Expectation, expectationOf } from "../verify.js";
import type { CheckedPuzzles } from "./check.js";

/** The parsed puzzles of one dataset that every row (or variant) solves, and what their counts must be. */
export interface Draw extends CheckedPuzzles {
  dataset: Dataset;
  shape: Shape;
  grids: Grid[];
  lines: number[];
  /** Every grid, back to back (n × N² bytes). */
  packed: Uint8Array;
}

/** The puzzles `picked` (indices into the dataset, in the order to solve them) of `dataset`; their counts must meet `expectation`. */
export function drawPuzzles(dataset: Dataset, picked: readonly number[], expectation: Expectation = expectationOf(dataset.name)): Draw {
  if (picked.length === 0) throw new Error(`${dataset.path}: no puzzles`);
  const shape = checkedShape(dataset);
  const lines = picked.map((i) => dataset.lines[i] ?? i + 1);
  const grids = picked.map((i) => gridOf(dataset, i));
  return { dataset, shape, grids, lines, packed: pack(grids), expectation, consensus: new CountConsensus() };
}

/** The shape of a file's puzzle lines (all of one size, judged by the first); an Error naming the file otherwise. */
export function datasetShape(puzzles: readonly string[], path: string): Shape {
  const shape = shapeOfCells(puzzles[0]?.length ?? 0);
  if (!shape)
    throw new DatasetSpecError(`${path}: the first puzzle has ${puzzles[0]?.length ?? 0} characters, not one of ${SHAPES.map((s) => s.cells).join(", ")}`);
  return shape;
}

/**
 * The shape of every puzzle line of the dataset; throws naming the first line of another length (it would shift the
 * packed grids) or that does not read as a puzzle (its cell and why), drawn or not: a run that draws it would fail
 * mid-run, and one that does not would measure a file with a bad line.
 */
export function checkedShape(dataset: Dataset): Shape {
  const shape = datasetShape(dataset.puzzles, dataset.path);
  const bad = dataset.puzzles.findIndex((puzzle) => puzzle.length !== shape.cells);
  if (bad >= 0)
    throw new DatasetSpecError(
      `${dataset.path} line ${dataset.lines[bad] ?? bad + 1}: ${dataset.puzzles[bad].length} characters, where the file's first puzzle has ${shape.cells} (every puzzle of a dataset is of one size, one a line)`,
    );
  dataset.puzzles.forEach((puzzle, index) => {
    if (shape.cells === CELLS && PLAIN_NINE.test(puzzle)) return; // the common line, without parsing it
    try {
      readPuzzle(puzzle);
    } catch (error) {
      if (error instanceof PuzzleError) throw new DatasetSpecError(`${dataset.path} line ${dataset.lines[index] ?? index + 1}: ${error.message}`);
      throw error;
    }
  });
  return shape;
}

/** A 9×9 line that reads as a puzzle: digits 1–9 and the one-line format's empty marks. */
const PLAIN_NINE = new RegExp(`^[1-9${ONE_LINE_EMPTY.replace(/[\\\]^-]/g, "\\$&")}]{${CELLS}}$`);

/** Puzzle `index` of the dataset as a grid; a bad line throws naming the file and the line. */
function gridOf(dataset: Dataset, index: number): Grid {
  try {
    return readPuzzle(dataset.puzzles[index]).grid;
  } catch (error) {
    if (error instanceof PuzzleError) throw new Error(`${dataset.path} line ${dataset.lines[index]}: ${error.message}`);
    throw error;
  }
}

export function pack(grids: readonly Grid[]): Uint8Array {
  const cells = grids[0]?.length ?? 0;
  const packed = new Uint8Array(grids.length * cells);
  grids.forEach((grid, i) => packed.set(grid, i * cells));
  return packed;
}

/** The first `count` indices of a seeded random permutation of 0..size-1. */
export function seededSample(size: number, count: number, seed: number): number[] {
  const order = Array.from({ length: size }, (_, i) => i);
  return new Random(seed).shuffle(order).slice(0, Math.min(count, size));
}
