/**
 * A planted slowdown, for bench/verdict-rates.ts: a solver module (README: "Bring your own
 * solver") that wraps the `wasm` kernel and makes a share of its calls twice, so that the row does
 * that much more of the same work and nothing else changes: no clock, no other kind of work, the
 * same calls in every run. The share comes from the environment variable
 * SUDOKU_WASM_PLANTED_SLOWDOWN (0.1: one call in ten, drawn, made twice: 10% slower; unset or 0:
 * none), so that two runs of one module, one with it and one without, form the pair whose verdict
 * must be "slower". Used as `--solvers dist/bench/planted.js`; the row is labelled "planted".
 */
import { findSolver } from "../src/solvers/registry.js";
import type { Grid } from "../src/model/puzzle.js";
import type { BatchResult, SearchStats, SolverEngine } from "../src/solvers/solver.js";

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
 * How many times to repeat each call for `share`: the whole part of `share` every time, and once
 * more with the probability of its fraction, drawn from a fixed-seed xorshift32 so that every run
 * repeats the same calls. Drawn rather than every tenth call, so that the repeats fall evenly on
 * every puzzle of a batch, and the planted work is `share` of the row's work whatever the puzzles
 * cost (every tenth call of a batch of 100 would repeat the same ten puzzles).
 */
export function repeater(share: number): () => number {
  const whole = Math.floor(share);
  const threshold = Math.round((share - whole) * 2 ** 32);
  let state = 0x9e3779b9;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return whole + (state >>> 0 < threshold ? 1 : 0);
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
