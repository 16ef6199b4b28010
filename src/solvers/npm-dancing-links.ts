/**
 * `npm:dancing-links`: an adapter over the `dancing-links` package (an optional peer, peer.ts), an
 * outside reference for every size. A grid of side N is exact cover over 4N² columns (cell filled,
 * row-digit, column-digit, box-digit), one sparse row per clue and per candidate of an empty cell,
 * whose data is `cell · N + digit − 1`. No guesses, no work cap: the budget is ignored.
 */
import type { Grid } from "../model/puzzle.js";
import type { SearchStats, SolverEngine } from "./solver.js";
import { type PeerPackage, importPeer } from "./peer.js";
import { type GridTables, gridTables } from "../model/shape.js";
import { candidateMasks, coverColumns } from "./units.js";

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

/** `dancing-links@4` solving the exact-cover encoding of grids of one side; no guesses, no budget. */
export class DancingLinksPackageEngine implements SolverEngine {
  private readonly masks: Uint32Array;

  private constructor(
    private readonly factory: InstanceType<DancingLinksModule["DancingLinks"]>,
    private readonly tables: GridTables,
  ) {
    this.masks = new Uint32Array(tables.cells);
  }

  /** Imports the package (an Error with the install command when it is missing); an engine for box size `box` (2–5, default 3). */
  static async load(solverId: string, box = 3): Promise<DancingLinksPackageEngine> {
    const { DancingLinks } = await importPeer<DancingLinksModule>(solverId, DANCING_LINKS_PEER);
    return new DancingLinksPackageEngine(new DancingLinks(), gridTables(box));
  }

  /** Count up to `limit` with the package's `find(limit)`; `budget` cannot be honoured. */
  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, _budget: number): number {
    const { tables, masks } = this;
    const side = tables.size;
    const solver = this.factory.createSolver({ columns: 4 * tables.cells });
    /** Adds the row of placing `digit` in `cell`: a fresh array of its 4 columns (the package keeps it). */
    const addRow = (cell: number, digit: number): void => {
      const columns = [0, 0, 0, 0];
      coverColumns(tables, cell, digit, columns);
      solver.addSparseConstraint(cell * side + digit - 1, columns);
    };
    candidateMasks(tables, puzzle, masks);
    for (let cell = 0; cell < tables.cells; cell++) {
      if (puzzle[cell] !== 0) addRow(cell, puzzle[cell]);
      for (let digit = 1; digit <= side; digit++) {
        if ((masks[cell] >>> digit) & 1) addRow(cell, digit);
      }
    }
    const found = solver.find(limit);
    if (found.length > 0) {
      for (const { data } of found[0]) solution[Math.floor(data / side)] = (data % side) + 1;
    }
    stats.guesses = NaN;
    stats.timedOut = false;
    return found.length;
  }
}
