/**
 * `npm:dancing-links`: a thin adapter over the `dancing-links` package (Knuth's DLX, the
 * fastest exact-cover solver on npm), used only as an outside reference. The package is an
 * optional peer (see peer.ts): imported when this solver is loaded.
 *
 * The Sudoku goes in as exact cover over 324 columns (cell, row-digit, column-digit and
 * box-digit constraints): one sparse row per clue, and one per digit an empty cell can take
 * given the clues. A row's data is `cell * 9 + digit - 1`. The package counts up to the
 * limit itself; it reports no guesses and has no work cap, so the budget is ignored.
 */
import { CELLS, type Grid } from "../puzzle.js";
import type { SearchStats, SolverEngine } from "../solver.js";
import { type PeerPackage, importPeer } from "./peer.js";
import { EXACT_COVER_COLUMNS, candidateMasks, exactCoverColumns } from "./units.js";

/** The package this adapter was written for. */
export const DANCING_LINKS_PEER: PeerPackage = { name: "dancing-links", version: "4.3.10" };

/** The part of `dancing-links@4` this adapter uses (its own types stay out of ours, so they need not be installed). */
interface DancingLinksModule {
  DancingLinks: new () => {
    createSolver(options: { columns: number }): {
      addSparseConstraint(data: number, columns: number[]): void;
      find(limit: number): { data: number }[][];
    };
  };
}

/** A fresh array of the 4 exact-cover columns of placing `digit` in `cell` (the package keeps it). */
function constraintColumns(cell: number, digit: number): number[] {
  const columns = new Array<number>(4);
  exactCoverColumns(cell, digit, columns);
  return columns;
}

/** `dancing-links@4` solving the Sudoku's exact-cover encoding; no guesses, no budget. */
export class DancingLinksPackageEngine implements SolverEngine {
  private readonly masks = new Uint16Array(CELLS);

  private constructor(private readonly factory: InstanceType<DancingLinksModule["DancingLinks"]>) {}

  /** Imports the package (an Error with the install command when it is missing). */
  static async load(solverId: string): Promise<DancingLinksPackageEngine> {
    const { DancingLinks } = await importPeer<DancingLinksModule>(solverId, DANCING_LINKS_PEER);
    return new DancingLinksPackageEngine(new DancingLinks());
  }

  /** Count up to `limit` with the package's `find(limit)`; `budget` cannot be honoured. */
  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, _budget: number): number {
    const solver = this.factory.createSolver({ columns: EXACT_COVER_COLUMNS });
    candidateMasks(puzzle, this.masks);
    for (let cell = 0; cell < CELLS; cell++) {
      if (puzzle[cell] !== 0) solver.addSparseConstraint(cell * 9 + puzzle[cell] - 1, constraintColumns(cell, puzzle[cell]));
      for (let digit = 1; digit <= 9; digit++) {
        if ((this.masks[cell] >> digit) & 1) solver.addSparseConstraint(cell * 9 + digit - 1, constraintColumns(cell, digit));
      }
    }
    const found = solver.find(limit);
    if (found.length > 0) {
      for (const { data } of found[0]) solution[Math.floor(data / 9)] = (data % 9) + 1;
    }
    stats.guesses = NaN;
    stats.timedOut = false;
    return found.length;
  }
}
