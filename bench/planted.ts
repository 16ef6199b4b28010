/**
 * A planted slowdown for verdict-rates.ts: a solver module wrapping the `wasm` kernel that makes the share
 * SUDOKU_WASM_PLANTED_SLOWDOWN of its calls twice, so the row does that much more of the same work and nothing else changes.
 */
import { findSolver } from "../src/solvers/registry.js";
import type { Grid } from "../src/model/puzzle.js";
import { Random } from "../src/model/prng.js";
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
 * How many times to repeat each call for `share`: its whole part, and once more with the probability of its fraction,
 * from a fixed seed. Drawn, not every tenth call, so the repeats fall evenly on the puzzles whatever each costs.
 */
export function repeater(share: number): () => number {
  const whole = Math.floor(share);
  const threshold = Math.round((share - whole) * 2 ** 32);
  const random = new Random(0x9e3779b9);
  return () => whole + (random.nextUint32() < threshold ? 1 : 0);
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
