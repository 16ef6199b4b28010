/**
 * The scanning backtrackers: `scan` (LeetCode 37) fills the first empty cell found by scanning the grid; `queue` (HDU 1426)
 * fills the cells of a list of the empty ones built first. Both check a digit by scanning its row, column and box.
 */
import type { Grid } from "../model/puzzle.js";
import { CELLS, SIZE } from "../model/shape.js";
import { Backtracker, TABLES_9 } from "./units.js";

const { rowOf: ROW_OF, columnOf: COLUMN_OF } = TABLES_9;

/** True when `digit` is in none of the row, column and box of `cell`, checked by scanning the grid. */
function fitsByScanning(grid: Grid, cell: number, digit: number): boolean {
  const row = ROW_OF[cell];
  const column = COLUMN_OF[cell];
  for (let i = 0; i < SIZE; i++) {
    if (grid[row * SIZE + i] === digit || grid[i * SIZE + column] === digit) return false;
  }
  const boxStart = (row - (row % 3)) * SIZE + column - (column % 3);
  for (let r = 0; r < 3; r++) {
    const start = boxStart + r * SIZE;
    if (grid[start] === digit || grid[start + 1] === digit || grid[start + 2] === digit) return false;
  }
  return true;
}

/**
 * Depth-first over one working grid, one empty cell per level (which cell is all `scan` and `queue` differ in), each digit
 * {@link fitsByScanning} allows in turn. A guess is a second digit passing at the same visit of a cell; a node a placement.
 */
abstract class ScanningBacktracker extends Backtracker {
  /** The cell level `level` fills (the grid holds the placements of the levels before), or CELLS when none is empty. */
  protected abstract cellAt(level: number): number;

  protected search(level: number): void {
    const { grid } = this;
    const cell = this.cellAt(level);
    if (cell === CELLS) return this.solved();
    let fitting = 0;
    for (let digit = 1; digit <= 9; digit++) {
      if (!fitsByScanning(grid, cell, digit)) continue;
      if (++fitting === 2) this.guesses++;
      if (!this.placed()) break;
      grid[cell] = digit;
      this.search(level + 1);
      if (this.stopped) break;
    }
    grid[cell] = 0;
  }
}

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

/** Seed 002's solver: depth-first over the list of empty cells, digits checked by scanning. */
export class QueueEngine extends ScanningBacktracker {
  /** The empty cells of the puzzle, in row-major order; the first `emptyCount` are used. */
  private readonly emptyCells = new Uint8Array(CELLS);
  private emptyCount = 0;

  /** Lists the puzzle's empty cells, once, before the search. */
  protected begin(puzzle: Grid): void {
    this.emptyCount = 0;
    for (let cell = 0; cell < CELLS; cell++) if (puzzle[cell] === 0) this.emptyCells[this.emptyCount++] = cell;
  }

  /** The level-th listed empty cell, or CELLS past the last. */
  protected cellAt(level: number): number {
    return level < this.emptyCount ? this.emptyCells[level] : CELLS;
  }
}
