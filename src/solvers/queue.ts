/**
 * `queue`: the HDU 1426 backtracker of seed 002: level i fills the i-th empty cell of a list built
 * before the search, with each digit that scanning its row, column and box allows.
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
