/**
 * The one solver contract.
 *
 * Every solver — the WASM kernel, the TypeScript baselines and the npm peers used for
 * comparison — is a {@link SolverEngine}: it counts the solutions of a validated 81-byte
 * grid up to a limit, writes the first one into a caller-owned buffer and reports its
 * guesses when it can (the shape of tdoku's `solve()`). {@link Solver} wraps an engine
 * with parsing and records; the registry (`registry.ts`) lists every engine once.
 */
import { CELLS, type Grid, PuzzleError, checkClues, describeCell, formatPuzzle, parsePuzzle } from "./puzzle.js";

export type Status = "solved" | "unsolvable" | "multiple" | "invalid" | "timeout";

/** What one search reports besides its count. Reused across calls: engines overwrite every field. */
export interface SearchStats {
  /** Branch points taken (a cell tried with more than one candidate left); NaN when the engine cannot tell. */
  guesses: number;
  /** True when the search stopped because it ran out of budget before reaching the limit. */
  timedOut: boolean;
}

export interface SolverEngine {
  /**
   * Count the solutions of `puzzle` (81 bytes, 0 empty, clues already checked) up to `limit`,
   * write the first solution found into `solution` (untouched when none) and fill `stats`.
   * `budget` caps the work (search nodes, engine-defined); Infinity for no cap.
   * Returns the number of solutions found, at most `limit`.
   */
  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget: number): number;

  /** Present on engines that solve a whole batch in one call (the WASM kernel). */
  solveBatch?(puzzles: Uint8Array, count: number, limit: number, budget?: number): BatchResult;
}

/** Per-puzzle results of one batch, in parallel arrays indexed by puzzle. */
export interface BatchResult {
  /** Solutions found, up to the limit; -1 where a byte was over 9, -2 where a clue is repeated in a unit. */
  counts: Int32Array;
  guesses: Int32Array;
  /** Search nodes (states propagated) per puzzle, negative where the budget stopped the search; WASM only. */
  nodes?: Int32Array;
  /** count × 81 bytes: the first solution of each puzzle (undefined content when count is 0). */
  solutions: Uint8Array;
}

export interface SolveOptions {
  /** Stop counting at this many solutions: 1 finds one, 2 proves uniqueness. @default 2 */
  limit?: number;
  /** Work cap per puzzle in engine-defined search nodes; a puzzle over it reports `timeout`. @default Infinity */
  budget?: number;
}

/** The result of solving one puzzle. */
export interface SolveRecord {
  status: Status;
  /** Solutions found, up to the limit (so 2 means "at least 2" with the default limit). */
  count: number;
  /** The first solution found as 81 digits, or null. */
  solution: string | null;
  /** Guesses taken, or null when the solver cannot report them. */
  guesses: number | null;
  /** Why the puzzle is invalid (names the cell and the reason). */
  error?: string;
}

export const DEFAULT_LIMIT = 2;

/** The status that a count means under a limit. */
export function statusOf(count: number, timedOut = false): Status {
  if (timedOut) return "timeout";
  return count === 0 ? "unsolvable" : count === 1 ? "solved" : "multiple";
}

/** A record for input that could not be read. */
export function invalidRecord(error: string): SolveRecord {
  return { status: "invalid", count: 0, solution: null, guesses: null, error };
}

/**
 * The budget word the kernels take for a node budget: 0 (no cap) for Infinity, NaN or ≤ 0,
 * else the budget rounded up, at most 2^31-1.
 */
export function kernelBudget(budget: number): number {
  if (!(budget > 0) || !Number.isFinite(budget)) return 0;
  return Math.min(Math.ceil(budget), 0x7fffffff);
}

/** `budget` when it is at least 1 (Infinity: no cap); a RangeError otherwise. */
export function checkBudget(budget: number): number {
  if (!(budget >= 1)) throw new RangeError(`budget must be at least 1 search node (or Infinity), got ${budget}`);
  return budget;
}

/** `limit` when it is a whole number from 1 to 2^31-1; a RangeError otherwise. */
export function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > 0x7fffffff) {
    throw new RangeError(`limit must be a whole number from 1 to 2^31-1, got ${limit}`);
  }
  return limit;
}

/** Turns a puzzle given as text or bytes into a checked grid, or a PuzzleError. */
function toGrid(puzzle: string | Grid): Grid {
  if (typeof puzzle === "string") return parsePuzzle(puzzle);
  if (puzzle.length !== CELLS) throw new PuzzleError("length", `expected ${CELLS} cells, got ${puzzle.length}`);
  for (let cell = 0; cell < CELLS; cell++) {
    if (puzzle[cell] > 9) throw new PuzzleError("character", `${describeCell(cell)} holds ${puzzle[cell]}, not 0-9`, cell);
  }
  checkClues(puzzle);
  return puzzle;
}

/** The user-facing solver: parsing, records and batches over one engine. */
export class Solver {
  private readonly solutionBuffer = new Uint8Array(CELLS);
  private readonly stats: SearchStats = { guesses: 0, timedOut: false };

  constructor(
    readonly id: string,
    readonly engine: SolverEngine,
    /** False when the engine reports no guesses (they show as null). */
    readonly reportsGuesses = true,
  ) {}

  /** Solve one puzzle (one-line text or 81 bytes). Bad input gives an `invalid` record, never a throw. */
  solve(puzzle: string | Grid, options: SolveOptions = {}): SolveRecord {
    const limit = checkLimit(options.limit ?? DEFAULT_LIMIT);
    const budget = checkBudget(options.budget ?? Infinity);
    let grid: Grid;
    try {
      grid = toGrid(puzzle);
    } catch (error) {
      if (error instanceof PuzzleError) return invalidRecord(error.message);
      throw error;
    }
    const count = this.engine.countSolutions(grid, limit, this.solutionBuffer, this.stats, budget);
    return {
      status: statusOf(count, this.stats.timedOut),
      count,
      solution: count > 0 ? formatPuzzle(this.solutionBuffer) : null,
      guesses: this.reportsGuesses ? this.stats.guesses : null,
    };
  }

  /**
   * Solve many puzzles; one record each, in input order. Engines with a batch entry point
   * (the WASM kernel) get every valid puzzle in one call.
   */
  solveMany(puzzles: Iterable<string | Grid>, options: SolveOptions = {}): SolveRecord[] {
    const limit = checkLimit(options.limit ?? DEFAULT_LIMIT);
    const budget = checkBudget(options.budget ?? Infinity);
    const engine = this.engine;
    if (!engine.solveBatch) return Array.from(puzzles, (puzzle) => this.solve(puzzle, options));
    return solveInOrder(puzzles, readGrid, (grids) => {
      const packed = new Uint8Array(grids.length * CELLS);
      grids.forEach((grid, i) => packed.set(grid, i * CELLS));
      const batch = engine.solveBatch!(packed, grids.length, limit, budget);
      return grids.map((_, i) => {
        const count = batch.counts[i];
        return {
          status: statusOf(count, batch.nodes !== undefined && batch.nodes[i] < 0),
          count,
          solution: count > 0 ? formatPuzzle(batch.solutions.subarray(i * CELLS, (i + 1) * CELLS)) : null,
          guesses: batch.guesses[i],
        };
      });
    });
  }
}

/** A puzzle ready to solve, or the record that says why it cannot be. */
export type ReadPuzzle<P> = { puzzle: P } | { record: SolveRecord };

/** {@link toGrid} as a {@link ReadPuzzle}: a PuzzleError becomes an `invalid` record. */
function readGrid(puzzle: string | Grid): ReadPuzzle<Grid> {
  try {
    return { puzzle: toGrid(puzzle) };
  } catch (error) {
    if (!(error instanceof PuzzleError)) throw error;
    return { record: invalidRecord(error.message) };
  }
}

/**
 * Solves many inputs in batches, one record per input in input order: `read` makes each input a
 * puzzle or the record of why it cannot be solved; the puzzles are grouped by `groupOf` (one
 * group by default) and each group goes to `solveGroup` whole, which returns its records in order.
 */
export function solveInOrder<I, P>(
  inputs: Iterable<I>,
  read: (input: I) => ReadPuzzle<P>,
  solveGroup: (puzzles: P[]) => SolveRecord[],
  groupOf: (puzzle: P) => number = () => 0,
): SolveRecord[] {
  const records: SolveRecord[] = [];
  const groups = new Map<number, { puzzles: P[]; slots: number[] }>();
  for (const input of inputs) {
    const item = read(input);
    if ("record" in item) {
      records.push(item.record);
      continue;
    }
    const key = groupOf(item.puzzle);
    const group = groups.get(key) ?? { puzzles: [], slots: [] };
    groups.set(key, group);
    group.puzzles.push(item.puzzle);
    group.slots.push(records.length);
    records.push(invalidRecord("not solved")); // replaced below
  }
  for (const { puzzles, slots } of groups.values()) {
    solveGroup(puzzles).forEach((record, i) => (records[slots[i]] = record));
  }
  return records;
}
