/**
 * `scan`: the LeetCode 37 backtracker of seed 001: each level scans the grid for the first empty
 * cell and accepts a digit after scanning its row, column and box for it (no tables).
 */
import { CELLS } from "../model/shape.js";
import { ScanningBacktracker } from "./units.js";

/** Seed 001's solver: first empty cell by scanning, digits checked by scanning. */
export class ScanEngine extends ScanningBacktracker {
  protected begin(): void {}

  /** The first empty cell from cell 0 (whatever the level), or CELLS. */
  protected cellAt(): number {
    let cell = 0;
    while (cell < CELLS && this.grid[cell] !== 0) cell++;
    return cell;
  }
}
