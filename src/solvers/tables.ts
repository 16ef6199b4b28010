/**
 * `tables`: the row/column/box table backtracker (POJ 2676): cells in
 * row-major order, clues skipped, each digit whose three table entries are clear placed in turn.
 * A guess is counted when a second digit passes at the same visit of a cell.
 */
import type { Grid } from "../model/puzzle.js";
import { CELLS } from "../model/shape.js";
import { Backtracker, TABLES_9 } from "./units.js";

const { rowOf: ROW_OF, columnOf: COLUMN_OF, boxOf: BOX_OF } = TABLES_9;

export class TablesEngine extends Backtracker {
  private readonly inRow = new Uint8Array(90);
  private readonly inColumn = new Uint8Array(90);
  private readonly inBox = new Uint8Array(90);

  protected begin(puzzle: Grid): void {
    this.inRow.fill(0);
    this.inColumn.fill(0);
    this.inBox.fill(0);
    for (let cell = 0; cell < CELLS; cell++) if (puzzle[cell] !== 0) this.mark(cell, puzzle[cell], 1);
  }

  /** Set (1) or clear (0) the table entries of `digit` at `cell`. */
  private mark(cell: number, digit: number, value: number): void {
    this.inRow[ROW_OF[cell] * 10 + digit] = value;
    this.inColumn[COLUMN_OF[cell] * 10 + digit] = value;
    this.inBox[BOX_OF[cell] * 10 + digit] = value;
  }

  protected search(cell: number): void {
    const { grid, inRow, inColumn, inBox } = this;
    if (cell === CELLS) return this.solved();
    if (grid[cell] !== 0) {
      this.search(cell + 1);
      return;
    }
    const row = ROW_OF[cell] * 10,
      column = COLUMN_OF[cell] * 10,
      box = BOX_OF[cell] * 10;
    let fitting = 0;
    for (let digit = 1; digit <= 9; digit++) {
      if (inRow[row + digit] | inColumn[column + digit] | inBox[box + digit]) continue;
      if (++fitting === 2) this.guesses++;
      if (!this.placed()) break;
      grid[cell] = digit;
      this.mark(cell, digit, 1);
      this.search(cell + 1);
      this.mark(cell, digit, 0);
      if (this.stopped) break;
    }
    grid[cell] = 0;
  }
}
