/**
 * `queue`: the HDU 1426 backtracker of seed 002.
 *
 * State is one 81-byte working grid (0 = empty) and the list of its empty cells, built
 * once before the search in row-major order. Level i of the depth-first search fills the
 * i-th listed cell with each digit 1–9 that scanning its row, column and box allows.
 * Recursion depth is the number of empty cells (≤ 81). A guess is counted when a second
 * digit passes the check at the same visit of a cell.
 */
import type { Grid } from "../puzzle.js";
import { CELLS } from "../shape.js";
import type { SearchStats, SolverEngine } from "../solver.js";
import { SearchTally, fitsByScanning } from "./units.js";

/** Seed 002's solver: depth-first over the list of empty cells, digits checked by scanning. */
export class QueueEngine implements SolverEngine {
  private readonly grid = new Uint8Array(CELLS);
  /** The empty cells of the puzzle, in row-major order; the first `emptyCount` are used. */
  private readonly emptyCells = new Uint8Array(CELLS);
  private emptyCount = 0;
  private readonly tally = new SearchTally();

  /** Count the solutions of `puzzle` up to `limit` within `budget` placements. */
  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget: number): number {
    this.grid.set(puzzle);
    this.emptyCount = 0;
    for (let cell = 0; cell < CELLS; cell++) {
      if (puzzle[cell] === 0) this.emptyCells[this.emptyCount++] = cell;
    }
    this.tally.start(limit, solution, budget);
    this.search(0);
    return this.tally.finish(stats);
  }

  private search(level: number): void {
    const { grid, tally } = this;
    if (level === this.emptyCount) {
      tally.solved(grid);
      return;
    }
    const cell = this.emptyCells[level];
    let fitting = 0;
    for (let digit = 1; digit <= 9; digit++) {
      if (!fitsByScanning(grid, cell, digit)) continue;
      if (++fitting === 2) tally.guesses++;
      if (!tally.placed()) break;
      grid[cell] = digit;
      this.search(level + 1);
      grid[cell] = 0;
      if (tally.stopped) break;
    }
  }
}
