/**
 * `npm:algorithm.ts`: a thin adapter over `@algorithm.ts/sudoku` (its `SudokuSolver`, a DLX
 * over plain arrays), used only as an outside reference. The package is an optional peer
 * (see peer.ts): imported when this solver is loaded.
 *
 * The package takes a board of 81 numbers, -1 for empty and 0–8 for digits 1–9, and its
 * `solve()` answers only "is there a solution" (it stops at the first). So this adapter
 * counts at most 1 whatever the limit: it cannot prove uniqueness, and a puzzle with several
 * solutions comes back with count 1. No guesses, no work cap (the budget is ignored).
 */
import { CELLS, type Grid } from "../puzzle.js";
import type { SearchStats, SolverEngine } from "../solver.js";
import { type PeerPackage, importPeer } from "./peer.js";

/** The package this adapter was written for. */
export const ALGORITHM_TS_PEER: PeerPackage = { name: "@algorithm.ts/sudoku", version: "4.0.3" };

/** The part of `@algorithm.ts/sudoku@4` this adapter uses. */
interface AlgorithmTsModule {
  SudokuSolver: new (options: { childMatrixWidth: number }) => { solve(board: number[], answer: number[]): boolean };
}

/** `@algorithm.ts/sudoku@4` behind the contract; counts 0 or 1, no guesses, no budget. */
export class AlgorithmTsPackageEngine implements SolverEngine {
  private readonly board: number[] = new Array<number>(CELLS).fill(-1);
  private readonly answer: number[] = new Array<number>(CELLS).fill(-1);

  private constructor(private readonly solver: InstanceType<AlgorithmTsModule["SudokuSolver"]>) {}

  /** Imports the package (an Error with the install command when it is missing). */
  static async load(solverId: string): Promise<AlgorithmTsPackageEngine> {
    const { SudokuSolver } = await importPeer<AlgorithmTsModule>(solverId, ALGORITHM_TS_PEER);
    return new AlgorithmTsPackageEngine(new SudokuSolver({ childMatrixWidth: 3 }));
  }

  /** 1 when the package finds a solution (written to `solution`), else 0; `limit` ≥ 1 is capped to 1. */
  countSolutions(puzzle: Grid, _limit: number, solution: Grid, stats: SearchStats, _budget: number): number {
    for (let cell = 0; cell < CELLS; cell++) this.board[cell] = puzzle[cell] - 1;
    const found = this.solver.solve(this.board, this.answer);
    if (found) {
      for (let cell = 0; cell < CELLS; cell++) solution[cell] = this.answer[cell] + 1;
    }
    stats.guesses = NaN;
    stats.timedOut = false;
    return found ? 1 : 0;
  }
}
