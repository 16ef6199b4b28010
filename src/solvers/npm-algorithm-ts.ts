/**
 * `npm:algorithm.ts`: an adapter over `@algorithm.ts/sudoku`'s `SudokuSolver` (DLX over arrays; an
 * optional peer, peer.ts), an outside reference for box sizes 2–5. Its `solve()` stops at the first
 * solution, so it counts at most 1 and cannot prove uniqueness. No guesses; the budget is ignored.
 */
import type { Grid } from "../model/puzzle.js";
import type { SearchStats, SolverEngine } from "./solver.js";
import { type PeerPackage, importPeer } from "./peer.js";

/** The package this adapter was written for. */
export const ALGORITHM_TS_PEER: PeerPackage = { name: "@algorithm.ts/sudoku", version: "4.0.3" };

/** The part of `@algorithm.ts/sudoku@4` this adapter uses (its own types stay out of ours, so it need not be installed). */
interface AlgorithmTsModule {
  SudokuSolver: new (options: { childMatrixWidth: number }) => { solve(board: number[], answer: number[]): boolean };
}

/** `@algorithm.ts/sudoku@4` behind the contract for box size `box`; counts 0 or 1, no guesses, no budget. */
export class AlgorithmTsPackageEngine implements SolverEngine {
  private readonly board: number[];
  private readonly answer: number[];

  private constructor(
    private readonly solver: InstanceType<AlgorithmTsModule["SudokuSolver"]>,
    box: number,
  ) {
    this.board = new Array<number>(box ** 4).fill(-1);
    this.answer = new Array<number>(box ** 4).fill(-1);
  }

  /** Imports the package (an Error with the install command when it is missing) and makes an engine for box size `box`. */
  static async load(solverId: string, box = 3): Promise<AlgorithmTsPackageEngine> {
    const { SudokuSolver } = await importPeer<AlgorithmTsModule>(solverId, ALGORITHM_TS_PEER);
    return new AlgorithmTsPackageEngine(new SudokuSolver({ childMatrixWidth: box }), box);
  }

  /** 1 when the package finds a solution (written to `solution`), else 0; `limit` ≥ 1 is capped to 1. */
  countSolutions(puzzle: Grid, _limit: number, solution: Grid, stats: SearchStats, _budget: number): number {
    const cells = this.board.length;
    for (let cell = 0; cell < cells; cell++) this.board[cell] = puzzle[cell] - 1;
    const found = this.solver.solve(this.board, this.answer);
    if (found) {
      for (let cell = 0; cell < cells; cell++) solution[cell] = this.answer[cell] + 1;
    }
    stats.guesses = NaN;
    stats.timedOut = false;
    return found ? 1 : 0;
  }
}
