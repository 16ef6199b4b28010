/**
 * `scan`: the LeetCode 37 backtracker of seed 001.
 *
 * State is one 81-byte working grid (0 = empty). Each search level scans the grid from
 * cell 0 for the first empty cell, tries digits 1–9 there, and accepts a digit after
 * scanning its row, column and box for it (no lookup tables). Recursion depth is the
 * number of empty cells (≤ 81). A guess is counted when a second digit passes the check
 * at the same visit of a cell.
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
