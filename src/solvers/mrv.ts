/**
 * `mrv`: the fast Sicily 1317 solver. Per-cell candidate flags and counts; each level
 * takes the empty cell with the fewest candidates (the first in row-major order; none: back at
 * once), tries each, clears it from the peers and recurses; a trail undoes the flags on backtrack.
 * A guess is a chosen cell with two or more candidates.
 */
import type { Grid } from "../model/puzzle.js";
import { CELLS } from "../model/shape.js";
import { Backtracker, TABLES_9, candidateMasks, popcnt } from "./units.js";

const { peers: PEERS, peerCount: PEER_COUNT } = TABLES_9;

export class MrvEngine extends Backtracker {
  private readonly allowed = new Uint8Array(CELLS * 9);
  private readonly candidateCount = new Uint8Array(CELLS);
  /** Every placement clears at most 20 peer flags, and at most 81 placements are stacked. */
  private readonly trail = new Uint8Array(CELLS * PEER_COUNT);
  private trailTop = 0;
  private readonly masks = new Uint16Array(CELLS);

  protected begin(puzzle: Grid): void {
    candidateMasks(TABLES_9, puzzle, this.masks);
    for (let cell = 0; cell < CELLS; cell++) {
      for (let digit = 1; digit <= 9; digit++) this.allowed[cell * 9 + digit - 1] = (this.masks[cell] >> digit) & 1;
      this.candidateCount[cell] = popcnt(this.masks[cell]);
    }
    this.trailTop = 0;
  }

  /** The empty cell with the fewest candidates, -1 when the grid is full, -2 at a dead end. */
  private fewestCandidatesCell(): number {
    const { grid, candidateCount } = this;
    let best = -1,
      bestCount = 10;
    for (let cell = 0; cell < CELLS; cell++) {
      if (grid[cell] !== 0) continue;
      const count = candidateCount[cell];
      if (count === 0) return -2;
      if (count < bestCount) {
        best = cell;
        bestCount = count;
      }
    }
    return best;
  }

  protected search(): void {
    const { grid, allowed } = this;
    const cell = this.fewestCandidatesCell();
    if (cell === -2) return;
    if (cell === -1) return this.solved();
    if (this.candidateCount[cell] >= 2) this.guesses++;
    for (let digit = 1; digit <= 9; digit++) {
      if (allowed[cell * 9 + digit - 1] === 0) continue;
      if (!this.placed()) break;
      grid[cell] = digit;
      const mark = this.trailTop;
      this.eliminate(cell, digit);
      this.search();
      this.restore(mark, digit);
      if (this.stopped) break;
    }
    grid[cell] = 0;
  }

  /** Clear `digit` from the peers of `cell` that still allow it, recording them on the trail. */
  private eliminate(cell: number, digit: number): void {
    const { allowed, candidateCount, trail } = this;
    for (let i = cell * PEER_COUNT, end = i + PEER_COUNT; i < end; i++) {
      const peer = PEERS[i];
      const flag = peer * 9 + digit - 1;
      if (allowed[flag] === 0) continue;
      allowed[flag] = 0;
      candidateCount[peer]--;
      trail[this.trailTop++] = peer;
    }
  }

  /** Give `digit` back to the cells recorded on the trail above `mark`. */
  private restore(mark: number, digit: number): void {
    const { allowed, candidateCount, trail } = this;
    while (this.trailTop > mark) {
      const peer = trail[--this.trailTop];
      allowed[peer * 9 + digit - 1] = 1;
      candidateCount[peer]++;
    }
  }
}
