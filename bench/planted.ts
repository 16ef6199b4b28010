/**
 * A planted slowdown, for bench/verdict-rates.ts: a solver module (README: "Bring your own
 * solver") that wraps the `wasm` kernel and makes a share of its calls twice, so that the row does
 * that much more of the same work and nothing else changes: no clock, no other kind of work, the
 * same calls in every run. The share comes from the environment variable
 * SUDOKU_WASM_PLANTED_SLOWDOWN (0.1: every tenth call made twice, about 10% slower; unset or 0:
 * none), so that two runs of one module, one with it and one without, form the pair whose verdict
 * must be "slower". Used as `--solvers dist/bench/planted.js`; the row is labelled "planted".
 */
import { findSolver } from "../src/registry.js";
import type { Grid } from "../src/puzzle.js";
import type { BatchResult, SearchStats, SolverEngine } from "../src/solver.js";

/** The row label: the same with and without the slowdown, so that `--compare` pairs the rows. */
export const id = "planted";
export const description = "the wasm kernel, making the share SUDOKU_WASM_PLANTED_SLOWDOWN of its calls twice (a planted slowdown)";
export const capabilities = findSolver("wasm").capabilities;

/** The slowdown share from the environment; 0 when unset. A bad value is an error naming the variable. */
export function plantedShare(text = process.env.SUDOKU_WASM_PLANTED_SLOWDOWN): number {
  if (text === undefined || text === "") return 0;
  const share = Number(text);
  if (!(share >= 0 && share < 10)) throw new Error(`SUDOKU_WASM_PLANTED_SLOWDOWN: expected a share from 0 up to 10 (0.1 for 10% slower), got '${text}'`);
  return share;
}

/**
 * How many times to repeat each call for `share`: call n (from 0) is repeated
 * floor((n + 1) × share) − floor(n × share) times, so that over many calls the repeats come to
 * `share` of them, at the same calls in every run (integers of thousandths, free of rounding drift).
 */
export function repeater(share: number): () => number {
  const perMille = Math.round(share * 1000);
  let calls = 0;
  return () => {
    const before = Math.floor((calls * perMille) / 1000);
    calls++;
    return Math.floor((calls * perMille) / 1000) - before;
  };
}

/** The wasm engine for grids of side `size`, a share of its calls made twice. */
export default async function planted(size: number): Promise<SolverEngine> {
  const inner = await findSolver("wasm").load(size);
  const repeats = repeater(plantedShare());
  const engine: SolverEngine = {
    countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget: number): number {
      for (let again = repeats(); again > 0; again--) inner.countSolutions(puzzle, limit, solution, stats, budget);
      return inner.countSolutions(puzzle, limit, solution, stats, budget);
    },
  };
  if (inner.solveBatch) {
    const solveBatch = inner.solveBatch.bind(inner);
    engine.solveBatch = (puzzles: Uint8Array, count: number, limit: number, budget: number): BatchResult => {
      for (let again = repeats(); again > 0; again--) solveBatch(puzzles, count, limit, budget);
      return solveBatch(puzzles, count, limit, budget);
    };
  }
  return engine;
}
