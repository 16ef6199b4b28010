/**
 * A planted slowdown, for bench/verdict-rates.ts: a solver module (README: "Bring your own
 * solver") that wraps the `wasm` kernel and, after each call, spins for a share of the CPU time
 * the call took, so that the row does that much more work and nothing else changes. The share comes from
 * the environment variable SUDOKU_WASM_PLANTED_SLOWDOWN (0.1: 10% slower; unset or 0: none), so
 * that two runs of one module, one with it and one without, form the pair whose verdict must be
 * "slower". Used as `--solvers dist/bench/planted.js`; the row is labelled "planted".
 */
import { findSolver } from "../src/registry.js";
import type { Grid } from "../src/puzzle.js";
import type { BatchResult, SearchStats, SolverEngine } from "../src/solver.js";

/** The row label: the same with and without the slowdown, so that `--compare` pairs the rows. */
export const id = "planted";
export const description = "the wasm kernel, spinning SUDOKU_WASM_PLANTED_SLOWDOWN × each call's CPU time after it (a planted slowdown)";
export const capabilities = findSolver("wasm").capabilities;

/** The slowdown share from the environment; 0 when unset. A bad value is an error naming the variable. */
export function plantedShare(text = process.env.SUDOKU_WASM_PLANTED_SLOWDOWN): number {
  if (text === undefined || text === "") return 0;
  const share = Number(text);
  if (!(share >= 0 && share < 10)) throw new Error(`SUDOKU_WASM_PLANTED_SLOWDOWN: expected a share from 0 up to 10 (0.1 for 10% slower), got '${text}'`);
  return share;
}

/** This process's CPU time so far, in µs. */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Spins until this process has spent `share` × the CPU time since `start` (µs, {@link cpuMicros})
 * again: planted work in proportion to the call's own work, the same whether or not another
 * process took the core meanwhile (a share of the wall-clock time would plant more work on a busy
 * machine, where the call's wall time holds time it did not run).
 */
function spinAfter(start: number, share: number): void {
  if (share === 0) return;
  const now = cpuMicros();
  const until = now + (now - start) * share;
  while (cpuMicros() < until) {
    // spin: the planted work
  }
}

/** The wasm engine for grids of side `size`, each call followed by its planted spin. */
export default async function planted(size: number): Promise<SolverEngine> {
  const inner = await findSolver("wasm").load(size);
  const share = plantedShare();
  const engine: SolverEngine = {
    countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget: number): number {
      const start = cpuMicros();
      const count = inner.countSolutions(puzzle, limit, solution, stats, budget);
      spinAfter(start, share);
      return count;
    },
  };
  if (inner.solveBatch) {
    const solveBatch = inner.solveBatch.bind(inner);
    engine.solveBatch = (puzzles: Uint8Array, count: number, limit: number, budget: number): BatchResult => {
      const start = cpuMicros();
      const result = solveBatch(puzzles, count, limit, budget);
      spinAfter(start, share);
      return result;
    };
  }
  return engine;
}
