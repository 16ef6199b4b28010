/**
 * `dlx`: Knuth's Algorithm X with dancing links, on typed arrays. Node 0 is the root; nodes 1–324
 * the column headers (cell filled, row-digit, column-digit, box-digit: `coverColumns` from 1);
 * from 325 on, one ring of 4 row nodes per (cell, digit) candidate the clues allow. Columns the
 * clues satisfy are left out. Each level takes the column with the fewest rows (the first on
 * ties); a guess is a chosen column of two or more rows. Recursion depth ≤ 81.
 */
import type { Grid } from "../model/puzzle.js";
import { CELLS } from "../model/shape.js";
import { Backtracker, TABLES_9, candidateMasks, coverColumns } from "./units.js";

const ROOT = 0;
const COLUMNS = 4 * CELLS;
const FIRST_ROW_NODE = COLUMNS + 1;
const MAX_NODES = FIRST_ROW_NODE + 4 * CELLS * 9;

/** The four header nodes of the columns that placing `digit` in `cell` covers. */
const constraintColumns = (cell: number, digit: number, out: Int32Array): void => coverColumns(TABLES_9, cell, digit, out, 1);

/** Algorithm X over Int32Array dancing links, rebuilt in place for every puzzle. */
export class DlxEngine extends Backtracker {
  private readonly left = new Int32Array(MAX_NODES);
  private readonly right = new Int32Array(MAX_NODES);
  private readonly up = new Int32Array(MAX_NODES);
  private readonly down = new Int32Array(MAX_NODES);
  private readonly columnOf = new Int32Array(MAX_NODES);
  private readonly columnSize = new Int32Array(COLUMNS + 1);
  private readonly cellOf = new Uint8Array(MAX_NODES);
  private readonly digitOf = new Uint8Array(MAX_NODES);
  private readonly satisfied = new Uint8Array(COLUMNS + 1);
  private readonly masks = new Uint16Array(CELLS);
  private readonly rowColumns = new Int32Array(4);
  private nodeCount = FIRST_ROW_NODE;

  /** Link the headers of the columns the clues leave open, then one row per candidate (a node is a chosen row). */
  protected begin(puzzle: Grid): void {
    const { left, right, up, down, columnSize, satisfied, rowColumns } = this;
    satisfied.fill(0);
    for (let cell = 0; cell < CELLS; cell++) {
      if (puzzle[cell] === 0) continue;
      constraintColumns(cell, puzzle[cell], rowColumns);
      for (let i = 0; i < 4; i++) satisfied[rowColumns[i]] = 1;
    }
    let last = ROOT;
    for (let column = 1; column <= COLUMNS; column++) {
      up[column] = down[column] = column;
      columnSize[column] = 0;
      if (satisfied[column]) continue;
      right[last] = column;
      left[column] = last;
      last = column;
    }
    right[last] = ROOT;
    left[ROOT] = last;

    this.nodeCount = FIRST_ROW_NODE;
    candidateMasks(TABLES_9, puzzle, this.masks);
    for (let cell = 0; cell < CELLS; cell++) {
      for (let digit = 1; digit <= 9; digit++) {
        if ((this.masks[cell] >> digit) & 1) this.addRow(cell, digit);
      }
    }
  }

  /** Append the 4-node row of candidate (`cell`, `digit`) at the bottom of its columns. */
  private addRow(cell: number, digit: number): void {
    const { left, right, up, down, columnOf, columnSize, rowColumns } = this;
    constraintColumns(cell, digit, rowColumns);
    const first = this.nodeCount;
    for (let i = 0; i < 4; i++) {
      const node = first + i,
        column = rowColumns[i];
      columnOf[node] = column;
      this.cellOf[node] = cell;
      this.digitOf[node] = digit;
      up[node] = up[column];
      down[node] = column;
      down[up[column]] = node;
      up[column] = node;
      columnSize[column]++;
      left[node] = i === 0 ? first + 3 : node - 1;
      right[node] = i === 3 ? first : node + 1;
    }
    this.nodeCount += 4;
  }

  /** Unlink `column` from the header ring and every row through it from the other columns. */
  private cover(column: number): void {
    const { left, right, up, down, columnOf, columnSize } = this;
    right[left[column]] = right[column];
    left[right[column]] = left[column];
    for (let row = down[column]; row !== column; row = down[row]) {
      for (let node = right[row]; node !== row; node = right[node]) {
        down[up[node]] = down[node];
        up[down[node]] = up[node];
        columnSize[columnOf[node]]--;
      }
    }
  }

  /** Undo {@link cover} in exactly the reverse order. */
  private uncover(column: number): void {
    const { left, right, up, down, columnOf, columnSize } = this;
    for (let row = up[column]; row !== column; row = up[row]) {
      for (let node = left[row]; node !== row; node = left[node]) {
        columnSize[columnOf[node]]++;
        down[up[node]] = node;
        up[down[node]] = node;
      }
    }
    right[left[column]] = column;
    left[right[column]] = column;
  }

  /** The open column with the fewest rows (the first on ties; at once one of at most one), or ROOT when none is open. */
  private smallestColumn(): number {
    const { right, columnSize } = this;
    let best = ROOT,
      bestSize = 0x7fffffff;
    for (let column = right[ROOT]; column !== ROOT; column = right[column]) {
      if (columnSize[column] < bestSize) {
        best = column;
        bestSize = columnSize[column];
        if (bestSize <= 1) break;
      }
    }
    return best;
  }

  protected search(): void {
    const { right, left, down, columnOf, grid } = this;
    const column = this.smallestColumn();
    if (column === ROOT) return this.solved();
    if (this.columnSize[column] === 0) return;
    if (this.columnSize[column] >= 2) this.guesses++;
    this.cover(column);
    for (let row = down[column]; row !== column; row = down[row]) {
      if (!this.placed()) break;
      grid[this.cellOf[row]] = this.digitOf[row];
      for (let node = right[row]; node !== row; node = right[node]) this.cover(columnOf[node]);
      this.search();
      for (let node = left[row]; node !== row; node = left[node]) this.uncover(columnOf[node]);
      if (this.stopped) break;
    }
    this.uncover(column);
  }
}
