/**
 * A planted slowdown, for bench/verdict-rates.ts: a solver module (README: "Bring your own
 * solver") that wraps the `wasm` kernel and, after each call, spins for a share of the time the
 * call took, so that the row runs that much slower and nothing else changes. The share comes from
 * the environment variable SUDOKU_WASM_PLANTED_SLOWDOWN (0.1: 10% slower; unset or 0: none), so
 * that two runs of one module, one with it and one without, form the pair whose verdict must be
 * "slower". Used as `--solvers dist/bench/planted.js`; the row is labelled "planted".
 */
import { findSolver } from "../src/registry.js";
import type { Grid } from "../src/puzzle.js";
import type { BatchResult, SearchStats, SolverEngine } from "../src/solver.js";

/** The row label: the same with and without the slowdown, so that `--compare` pairs the rows. */
export const id = "planted";
export const description = "the wasm kernel, spinning SUDOKU_WASM_PLANTED_SLOWDOWN × each call's time after it (a planted slowdown)";
export const capabilities = findSolver("wasm").capabilities;

/** The slowdown share from the environment; 0 when unset. A bad value is an error naming the variable. */
export function plantedShare(text = process.env.SUDOKU_WASM_PLANTED_SLOWDOWN): number {
  if (text === undefined || text === "") return 0;
  const share = Number(text);
  if (!(share >= 0 && share < 10)) throw new Error(`SUDOKU_WASM_PLANTED_SLOWDOWN: expected a share from 0 up to 10 (0.1 for 10% slower), got '${text}'`);
  return share;
}

/** Waits, busy, until `share` × the time since `start` (ms, performance.now()) has passed again. */
function spinAfter(start: number, share: number): void {
  if (share === 0) return;
  const now = performance.now();
  const until = now + (now - start) * share;
  while (performance.now() < until) {
    // spin: the planted work
  }
}

/** The wasm engine for grids of side `size`, each call followed by its planted spin. */
export default async function planted(size: number): Promise<SolverEngine> {
  const inner = await findSolver("wasm").load(size);
  const share = plantedShare();
  const engine: SolverEngine = {
    countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget: number): number {
      const start = performance.now();
      const count = inner.countSolutions(puzzle, limit, solution, stats, budget);
      spinAfter(start, share);
      return count;
    },
  };
  if (inner.solveBatch) {
    const solveBatch = inner.solveBatch.bind(inner);
    engine.solveBatch = (puzzles: Uint8Array, count: number, limit: number, budget: number): BatchResult => {
      const start = performance.now();
      const result = solveBatch(puzzles, count, limit, budget);
      spinAfter(start, share);
      return result;
    };
  }
  return engine;
}
