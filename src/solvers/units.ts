/**
 * What the pure-TypeScript solvers share: bit counts, candidate masks (bit d set while digit d
 * is free) and exact-cover columns over the grid tables of shape.ts, and the {@link Backtracker}
 * every baseline's search runs in. A *node* is one placement tried.
 */
import type { Grid } from "../model/puzzle.js";
import { type GridTables, CELLS, SHAPE_9, gridTables } from "../model/shape.js";
import { type SearchStats, type SolverEngine, kernelBudget } from "./solver.js";

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

/** Writes the 4 exact-cover columns (ascending, from `first`) that `digit` in `cell` satisfies: cell filled, row-, column-, box-digit (N² each). */
export function coverColumns(t: GridTables, cell: number, digit: number, out: { [index: number]: number }, first = 0): void {
  out[0] = first + cell;
  out[1] = first + t.cells + t.rowOf[cell] * t.size + digit - 1;
  out[2] = first + 2 * t.cells + t.columnOf[cell] * t.size + digit - 1;
  out[3] = first + 3 * t.cells + t.boxOf[cell] * t.size + digit - 1;
}

/** Symbols used by the clues of each unit; scratch for {@link candidateMasks}. */
const usedInUnit = new Uint32Array(75);

/** Fills `masks` with each cell's candidates from the clues alone (0 for clue cells). False when a clue is repeated in a unit. */
export function candidateMasks(t: GridTables, puzzle: Grid, masks: Uint16Array | Uint32Array): boolean {
  const { size, rowOf, columnOf, boxOf } = t;
  usedInUnit.fill(0);
  let clash = 0;
  for (let cell = 0; cell < t.cells; cell++) {
    const bit = (1 << puzzle[cell]) & ~1;
    clash |= (usedInUnit[rowOf[cell]] | usedInUnit[size + columnOf[cell]] | usedInUnit[2 * size + boxOf[cell]]) & bit;
    usedInUnit[rowOf[cell]] |= bit;
    usedInUnit[size + columnOf[cell]] |= bit;
    usedInUnit[2 * size + boxOf[cell]] |= bit;
  }
  const all = (2 ** (size + 1) - 2) >>> 0; // bits 1..N
  for (let cell = 0; cell < t.cells; cell++) {
    const used = usedInUnit[rowOf[cell]] | usedInUnit[size + columnOf[cell]] | usedInUnit[2 * size + boxOf[cell]];
    masks[cell] = puzzle[cell] === 0 ? (all & ~used) >>> 0 : 0;
  }
  return clash === 0;
}

/**
 * A backtracking baseline: its {@link search} calls {@link placed} before each placement and {@link solved} on each complete
 * grid, and unwinds once {@link stopped}, so every baseline counts solutions and nodes against the limit and budget alike.
 */
export abstract class Backtracker implements SolverEngine {
  /** The working grid (0 = empty). */
  protected readonly grid = new Uint8Array(CELLS);
  /** Solutions found so far. */
  protected count = 0;
  /** Branch points taken (each baseline says what it counts). */
  protected guesses = 0;
  /** Digit placements tried. */
  private nodes = 0;
  /** True once the limit is reached or the budget is spent: the search must unwind. */
  protected stopped = false;
  /** True when the budget was spent before the limit was reached. */
  private timedOut = false;
  private limit = 1;
  private budget = Infinity;
  private solution: Grid = this.grid;

  /** Gets ready to search `puzzle`, just copied into the grid. */
  protected abstract begin(puzzle: Grid): void;
  /** The search from its first level (0). */
  protected abstract search(level: number): void;

  /** Count the solutions of `puzzle` up to `limit` within `budget` placements. */
  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget: number): number {
    this.grid.set(puzzle);
    this.begin(puzzle);
    [this.count, this.guesses, this.nodes, this.stopped, this.timedOut] = [0, 0, 0, false, false];
    this.limit = limit;
    this.budget = kernelBudget(budget) || Infinity; // the kernels' rule: 0 or Infinity: no cap
    this.solution = solution;
    this.search(0);
    stats.guesses = this.guesses;
    stats.timedOut = this.timedOut;
    return this.count;
  }

  /** Count one placement; false (and the search stops as timed out) when it exceeds the budget. */
  protected placed(): boolean {
    if (++this.nodes <= this.budget) return true;
    this.stopped = true;
    this.timedOut = true;
    return false;
  }

  /** Count the complete grid; the first one is copied into the caller's solution buffer. */
  protected solved(): void {
    if (this.count === 0) this.solution.set(this.grid);
    if (++this.count >= this.limit) this.stopped = true;
  }
}
