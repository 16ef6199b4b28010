/**
 * What the pure-TypeScript solvers share: bit counts, candidate masks (bit d set while digit d
 * is free) and exact-cover columns over the grid tables of shape.ts. A *node* is one placement tried;
 * {@link SearchTally} counts solutions against the limit and nodes against the budget so every
 * baseline stops and reports alike (the two scanning baselines' search is in scan.ts).
 */
import type { Grid } from "../model/puzzle.js";
import { type GridTables, CELLS, SHAPE_9, gridTables } from "../model/shape.js";
import { type SearchStats, kernelBudget } from "./solver.js";

/** The 9×9 grid's tables: each cell's row, column, box and 20 peers. */
export const TABLES_9 = gridTables(SHAPE_9.box);

/** The index of the lowest set bit of `x` (x ≠ 0). */
export const ctz = (x: number): number => 31 - Math.clz32(x & -x);

/** The set bits of a 32-bit `x`. */
export function popcnt(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Writes the 4 exact-cover columns (ascending, from `first`) that placing `digit` in `cell`
 * satisfies: N² "cell filled" columns, then row-digit, column-digit and box-digit, N² each.
 */
export function coverColumns(t: GridTables, cell: number, digit: number, out: { [index: number]: number }, first = 0): void {
  out[0] = first + cell;
  out[1] = first + t.cells + t.rowOf[cell] * t.size + digit - 1;
  out[2] = first + 2 * t.cells + t.columnOf[cell] * t.size + digit - 1;
  out[3] = first + 3 * t.cells + t.boxOf[cell] * t.size + digit - 1;
}

/** Symbols used by the clues of each unit; scratch for {@link candidateMasks}. */
const usedInUnit = new Uint32Array(75);

/** Fills `masks` with each cell's candidates given the clues only: bit d set when digit d is in none of the cell's units; 0 for clue cells. */
export function candidateMasks(t: GridTables, puzzle: Grid, masks: Uint16Array | Uint32Array): void {
  const { size, rowOf, columnOf, boxOf } = t;
  usedInUnit.fill(0);
  for (let cell = 0; cell < t.cells; cell++) {
    const bit = (1 << puzzle[cell]) & ~1;
    usedInUnit[rowOf[cell]] |= bit;
    usedInUnit[size + columnOf[cell]] |= bit;
    usedInUnit[2 * size + boxOf[cell]] |= bit;
  }
  const all = (2 ** (size + 1) - 2) >>> 0; // bits 1..N
  for (let cell = 0; cell < t.cells; cell++) {
    const used = usedInUnit[rowOf[cell]] | usedInUnit[size + columnOf[cell]] | usedInUnit[2 * size + boxOf[cell]];
    masks[cell] = puzzle[cell] === 0 ? (all & ~used) >>> 0 : 0;
  }
}

/**
 * Counts solutions up to a limit and nodes against a budget for one search at a time.
 * A search calls {@link placed} before each placement and {@link solved} on each complete
 * grid, and unwinds as soon as {@link stopped} is true.
 */
export class SearchTally {
  /** Solutions found so far. */
  count = 0;
  /** Branch points taken (each baseline says what it counts). */
  guesses = 0;
  /** Digit placements tried. */
  nodes = 0;
  /** True once the limit is reached or the budget is spent: the search must unwind. */
  stopped = false;
  /** True when the budget was spent before the limit was reached. */
  timedOut = false;
  private limit = 1;
  private budget = Infinity;
  private solution: Grid = new Uint8Array(CELLS);

  /** Reset for a new search that writes its first solution into `solution`. */
  start(limit: number, solution: Grid, budget: number): void {
    this.count = 0;
    this.guesses = 0;
    this.nodes = 0;
    this.stopped = false;
    this.timedOut = false;
    this.limit = limit;
    this.budget = kernelBudget(budget) || Infinity; // the kernels' rule: 0, NaN, Infinity: no cap
    this.solution = solution;
  }

  /** Count one placement; false (and the search stops as timed out) when it exceeds the budget. */
  placed(): boolean {
    if (++this.nodes <= this.budget) return true;
    this.stopped = true;
    this.timedOut = true;
    return false;
  }

  /** Count a complete grid; the first one is copied into the caller's solution buffer. */
  solved(grid: Grid): void {
    if (this.count === 0) this.solution.set(grid);
    if (++this.count >= this.limit) this.stopped = true;
  }

  /** Write the stats of the finished search and return its count. */
  finish(stats: SearchStats): number {
    stats.guesses = this.guesses;
    stats.timedOut = this.timedOut;
    return this.count;
  }
}
