/**
 * `scan`: the LeetCode 37 backtracker of seed 001.
 *
 * State is one 81-byte working grid (0 = empty). Each search level scans the grid from
 * cell 0 for the first empty cell, tries digits 1–9 there, and accepts a digit after
 * scanning its row, column and box for it (no lookup tables). Recursion depth is the
 * number of empty cells (≤ 81). A guess is counted when a second digit passes the check
 * at the same visit of a cell.
 */
import type { Grid } from "../puzzle.js";
import { CELLS } from "../shape.js";
import type { SearchStats, SolverEngine } from "../solver.js";
import { SearchTally, fitsByScanning } from "./units.js";

/** Seed 001's solver: first empty cell by scanning, digits checked by scanning. */
export class ScanEngine implements SolverEngine {
  private readonly grid = new Uint8Array(CELLS);
  private readonly tally = new SearchTally();

  /** Count the solutions of `puzzle` up to `limit` within `budget` placements. */
  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget: number): number {
    this.grid.set(puzzle);
    this.tally.start(limit, solution, budget);
    this.search();
    return this.tally.finish(stats);
  }

  private search(): void {
    const { grid, tally } = this;
    let cell = 0;
    while (cell < CELLS && grid[cell] !== 0) cell++;
    if (cell === CELLS) {
      tally.solved(grid);
      return;
    }
    let fitting = 0;
    for (let digit = 1; digit <= 9; digit++) {
      if (!fitsByScanning(grid, cell, digit)) continue;
      if (++fitting === 2) tally.guesses++;
      if (!tally.placed()) break;
      grid[cell] = digit;
      this.search();
      if (tally.stopped) break;
    }
    grid[cell] = 0;
  }
}
