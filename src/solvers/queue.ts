/**
 * `queue`: the HDU 1426 backtracker of seed 002.
 *
 * State is one 81-byte working grid (0 = empty) and the list of its empty cells, built
 * once before the search in row-major order. Level i of the depth-first search fills the
 * i-th listed cell with each digit 1–9 that scanning its row, column and box allows.
 * Recursion depth is the number of empty cells (≤ 81). A guess is counted when a second
 * digit passes the check at the same visit of a cell.
 */
import { CELLS } from "../model/shape.js";
import { ScanningBacktracker } from "./units.js";

/** Seed 002's solver: depth-first over the list of empty cells, digits checked by scanning. */
export class QueueEngine extends ScanningBacktracker {
  /** The empty cells of the puzzle, in row-major order; the first `emptyCount` are used. */
  private readonly emptyCells = new Uint8Array(CELLS);
  private emptyCount = 0;

  /** Lists the puzzle's empty cells, once, before the search. */
  protected begin(): void {
    this.emptyCount = 0;
    for (let cell = 0; cell < CELLS; cell++) {
      if (this.grid[cell] === 0) this.emptyCells[this.emptyCount++] = cell;
    }
  }

  /** The level-th listed empty cell, or CELLS past the last. */
  protected cellAt(level: number): number {
    return level < this.emptyCount ? this.emptyCells[level] : CELLS;
  }
}
