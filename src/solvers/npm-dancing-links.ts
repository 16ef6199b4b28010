/**
 * `npm:dancing-links`: an adapter over the `dancing-links` package (an optional peer, peer.ts), an
 * outside reference for every size. A grid of side N is exact cover over 4N² columns (cell filled,
 * row-digit, column-digit, box-digit), one sparse row per clue and per candidate of an empty cell,
 * whose data is `cell · N + digit − 1`. No guesses, no work cap: the budget is ignored.
 */
import type { Grid } from "../model/puzzle.js";
import type { SearchStats, SolverEngine } from "./solver.js";
import { type PeerPackage, importPeer } from "./peer.js";

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

/** The exact-cover layout of grids of side `side`: each cell's row, column and box. */
class CoverLayout {
  readonly cells: number;
  readonly columns: number;
  readonly rowOf: Uint8Array;
  readonly columnOf: Uint8Array;
  readonly boxOf: Uint8Array;

  constructor(readonly side: number) {
    const box = Math.round(Math.sqrt(side));
    this.cells = side * side;
    this.columns = 4 * this.cells;
    this.rowOf = Uint8Array.from({ length: this.cells }, (_, cell) => Math.floor(cell / side));
    this.columnOf = Uint8Array.from({ length: this.cells }, (_, cell) => cell % side);
    this.boxOf = Uint8Array.from({ length: this.cells }, (_, cell) => Math.floor(this.rowOf[cell] / box) * box + Math.floor(this.columnOf[cell] / box));
  }

  /** A fresh array of the 4 columns of placing `digit` in `cell` (the package keeps it). */
  constraintColumns(cell: number, digit: number): number[] {
    const { cells, side } = this;
    return [
      cell,
      cells + this.rowOf[cell] * side + digit - 1,
      2 * cells + this.columnOf[cell] * side + digit - 1,
      3 * cells + this.boxOf[cell] * side + digit - 1,
    ];
  }

  /** Each empty cell's candidates given the clues (bit d set: digit d is in none of its units); 0 for clues. */
  candidateMasks(puzzle: Grid, used: Uint32Array, masks: Uint32Array): void {
    const { side } = this;
    used.fill(0);
    for (let cell = 0; cell < this.cells; cell++) {
      if (puzzle[cell] === 0) continue;
      const bit = 1 << puzzle[cell];
      used[this.rowOf[cell]] |= bit;
      used[side + this.columnOf[cell]] |= bit;
      used[2 * side + this.boxOf[cell]] |= bit;
    }
    const all = (2 ** (side + 1) - 2) >>> 0; // bits 1..side
    for (let cell = 0; cell < this.cells; cell++) {
      const taken = used[this.rowOf[cell]] | used[side + this.columnOf[cell]] | used[2 * side + this.boxOf[cell]];
      masks[cell] = puzzle[cell] === 0 ? (all & ~taken) >>> 0 : 0;
    }
  }
}

/** `dancing-links@4` solving the exact-cover encoding of grids of one side; no guesses, no budget. */
export class DancingLinksPackageEngine implements SolverEngine {
  private readonly masks: Uint32Array;
  /** Digits used per unit (rows, then columns, then boxes); scratch for the candidate masks. */
  private readonly used: Uint32Array;

  private constructor(
    private readonly factory: InstanceType<DancingLinksModule["DancingLinks"]>,
    private readonly layout: CoverLayout,
  ) {
    this.masks = new Uint32Array(layout.cells);
    this.used = new Uint32Array(3 * layout.side);
  }

  /** Imports the package (an Error with the install command when it is missing); an engine for box size `box` (2–5, default 3). */
  static async load(solverId: string, box = 3): Promise<DancingLinksPackageEngine> {
    const { DancingLinks } = await importPeer<DancingLinksModule>(solverId, DANCING_LINKS_PEER);
    return new DancingLinksPackageEngine(new DancingLinks(), new CoverLayout(box * box));
  }

  /** Count up to `limit` with the package's `find(limit)`; `budget` cannot be honoured. */
  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, _budget: number): number {
    const { layout, masks } = this;
    const side = layout.side;
    const solver = this.factory.createSolver({ columns: layout.columns });
    layout.candidateMasks(puzzle, this.used, masks);
    for (let cell = 0; cell < layout.cells; cell++) {
      if (puzzle[cell] !== 0) solver.addSparseConstraint(cell * side + puzzle[cell] - 1, layout.constraintColumns(cell, puzzle[cell]));
      for (let digit = 1; digit <= side; digit++) {
        if ((masks[cell] >>> digit) & 1) solver.addSparseConstraint(cell * side + digit - 1, layout.constraintColumns(cell, digit));
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
