/**
 * The general kernel's TS twin: assembly/general.ts (glossary and rules there) step for step in plain TypeScript (box sizes
 * 2–5), so the bench shows what WebAssembly buys on N×N grids. A test holds it to the kernel's guesses, first solution and
 * node count, so the same puzzles time out at a given budget.
 *
 * A state is `cells + 1 + 4N` words of one Uint32Array, as the kernel's: each cell's candidate mask (bit s-1 for symbol s),
 * the count of unplaced cells, then the locked symbols of each unit orientation. State `depth` starts at `depth * stride`.
 */
import { type GridTables, LARGEST_SHAPE, gridTables } from "../model/shape.js";
import { type SearchStats, type SolverEngine, kernelBudget } from "./solver.js";
import { candidateMasks, ctz, popcnt } from "./units.js";

/** Scratch sized for any grid handled (the box sizes of shape.ts). */
const { box: MAX_BOX, size: MAX_SIZE, cells: MAX_CELLS } = LARGEST_SHAPE;

const isSingle = (mask: number): boolean => (mask & (mask - 1)) === 0;

/** Plain-TS twin of the general WASM kernel, for grids of one box size; one search at a time. */
export class GeneralTsEngine implements SolverEngine {
  private readonly tables: GridTables;
  /** Every symbol's bit (bit s-1 for symbol s). */
  private readonly allSymbols: number;
  /** The search stack of states, one per level, {@link stride} words apart. */
  private readonly states: Uint32Array;
  private readonly stride: number;
  private readonly queue = new Uint16Array(MAX_CELLS);
  private readonly frameCell = new Int32Array(MAX_CELLS + 1);
  private readonly frameSymbols = new Uint32Array(MAX_CELLS + 1);
  private queueHead = 0;
  private queueTail = 0;
  /** Unscanned units: one bit per row, per column and per box (words 0, 1, 2). */
  private readonly dirtyUnits = new Uint32Array(3);
  /** Lines whose triads are unscanned: one bit per row and per column (words 0, 1). */
  private readonly triadLines = new Uint32Array(2);
  /** Scratch: the candidates of each segment of the line whose triads are scanned. */
  private readonly segments = new Uint32Array(MAX_BOX);
  /** Scratch for branching: unplaced cells per unit (rows, columns, boxes). */
  private readonly unitOpen = new Uint8Array(3 * MAX_SIZE);
  /** Scratch for loading a puzzle: each cell's candidates given the clues (bit s for symbol s). */
  private readonly clueMasks = new Uint32Array(MAX_CELLS);

  /** An engine for grids of box size `box` (its tables and state stack); a RangeError outside BOX_SIZES. */
  constructor(box: number) {
    this.tables = gridTables(box);
    this.allSymbols = 2 ** this.tables.size - 1;
    this.stride = this.tables.cells + 1 + 4 * this.tables.size;
    this.states = new Uint32Array(this.stride * (this.tables.cells + 1));
  }

  private markDirty(cell: number): void {
    const t = this.tables;
    const [row, column] = [1 << t.rowOf[cell], 1 << t.columnOf[cell]];
    this.dirtyUnits[0] |= row;
    this.dirtyUnits[1] |= column;
    this.dirtyUnits[2] |= 1 << t.boxOf[cell];
    this.triadLines[0] |= row;
    this.triadLines[1] |= column;
  }

  private place(st: number, cell: number, symbol: number): void {
    this.states[st + cell] = symbol;
    this.states[st + this.tables.cells]--;
    this.queue[this.queueTail++] = cell;
    this.markDirty(cell);
  }

  private resetWork(): void {
    this.queueHead = this.queueTail = 0;
    this.dirtyUnits.fill(0);
    this.triadLines.fill(0);
  }

  /** Removes `symbols` from `cell`; queues it when one candidate is left. False when none is. */
  private eliminate(st: number, cell: number, symbols: number): boolean {
    const s = this.states;
    let mask = s[st + cell];
    if (!(mask & symbols)) return true;
    mask &= ~symbols;
    if (mask === 0) return false;
    s[st + cell] = mask;
    this.markDirty(cell);
    if (isSingle(mask)) {
      s[st + this.tables.cells]--;
      this.queue[this.queueTail++] = cell;
    }
    return true;
  }

  /** Naked singles: each queued cell's symbol leaves its peers. */
  private drainQueue(st: number): boolean {
    const { peers, peerCount } = this.tables;
    while (this.queueHead < this.queueTail) {
      const cell = this.queue[this.queueHead++];
      const symbol = this.states[st + cell];
      const first = cell * peerCount;
      for (let i = 0; i < peerCount; i++) if (!this.eliminate(st, peers[first + i], symbol)) return false;
    }
    return true;
  }

  /** The next unit (kind * N + index) of `sets`, rows first, taken from it; -1 when every set is empty. */
  private takeNext(sets: Uint32Array): number {
    for (let kind = 0; kind < sets.length; kind++) {
      const bits = sets[kind];
      if (!bits) continue;
      sets[kind] = bits & (bits - 1);
      return kind * this.tables.size + ctz(bits);
    }
    return -1;
  }

  private segmentMask(st: number, unitFirst: number, first: number, stride: number): number {
    const { box, unitCells } = this.tables;
    let mask = 0;
    for (let k = 0; k < box; k++) mask |= this.states[st + unitCells[unitFirst + first + k * stride]];
    return mask;
  }

  /** Removes `symbols` from the cells of unit `target` outside the unit `source` (of kind `kind`). */
  private eliminateOutside(st: number, target: number, symbols: number, kind: Uint8Array, source: number): boolean {
    const { size, unitCells } = this.tables;
    const first = target * size;
    for (let i = 0; i < size; i++) {
      const cell = unitCells[first + i];
      if (kind[cell] === source) continue;
      if (!this.eliminate(st, cell, symbols)) return false;
    }
    return true;
  }

  /** The unit crossing segment `k` of `unit` (see the kernel's crossingUnit). */
  private crossingUnit(unit: number, k: number, stride: number): number {
    const { box, size } = this.tables;
    if (unit < size) return 2 * size + Math.floor(unit / box) * box + k;
    if (unit < 2 * size) return 2 * size + k * box + Math.floor((unit - size) / box);
    const boxIndex = unit - 2 * size;
    if (stride === 1) return Math.floor(boxIndex / box) * box + k;
    return size + (boxIndex % box) * box + k;
  }

  /** Locked candidates of one orientation (see the kernel's lockSegments). */
  private lockSegments(st: number, unit: number, slot: number, step: number, stride: number, open: number): boolean {
    const t = this.tables;
    const unitFirst = unit * t.size;
    let once = 0;
    let twice = 0;
    for (let k = 0; k < t.box; k++) {
      const mask = this.segmentMask(st, unitFirst, k * step, stride);
      twice |= once & mask;
      once |= mask;
    }
    const lockedAt = st + t.cells + 1 + slot;
    const confined = once & ~twice & open & ~this.states[lockedAt];
    if (!confined) return true;
    this.states[lockedAt] |= confined;
    const kind = unit < t.size ? t.rowOf : unit < 2 * t.size ? t.columnOf : t.boxOf;
    const index = unit < t.size ? unit : unit < 2 * t.size ? unit - t.size : unit - 2 * t.size;
    for (let k = 0; k < t.box; k++) {
      const symbols = this.segmentMask(st, unitFirst, k * step, stride) & confined;
      if (!symbols) continue;
      if (!this.eliminateOutside(st, this.crossingUnit(unit, k, stride), symbols, kind, index)) return false;
    }
    return true;
  }

  /** Hidden singles of one unit, else its locked candidates (see the kernel's scanUnit). */
  private scanUnit(st: number, unit: number): boolean {
    const { box, size, unitCells } = this.tables;
    const allSymbols = this.allSymbols;
    const s = this.states;
    const first = unit * size;
    let once = 0;
    let twice = 0;
    let placed = 0;
    for (let i = 0; i < size; i++) {
      const mask = s[st + unitCells[first + i]];
      twice |= once & mask;
      once |= mask;
      if (isSingle(mask)) placed |= mask;
    }
    if (once !== allSymbols) return false;
    let hidden = once & ~twice & ~placed;
    if (hidden) {
      while (hidden) {
        const symbol = hidden & -hidden;
        hidden ^= symbol;
        let i = 0;
        while (i < size && !(s[st + unitCells[first + i]] & symbol)) i++;
        if (i === size) return false;
        this.place(st, unitCells[first + i], symbol);
      }
      return true;
    }
    const open = allSymbols & ~placed;
    if (unit < 2 * size) return this.lockSegments(st, unit, unit, box, 1, open);
    return this.lockSegments(st, unit, unit, box, 1, open) && this.lockSegments(st, unit, unit + size, 1, box, open);
  }

  /** The triads of a line (see the kernel's triadsOfLine and scanTriads). */
  private scanTriads(st: number, unit: number): boolean {
    const t = this.tables;
    const { box: b, size, unitCells } = t;
    const s = this.states;
    const segments = this.segments;
    const first = unit * size;
    let placed = 0;
    for (let k = 0; k < b; k++) {
      let segment = 0;
      for (let j = 0; j < b; j++) {
        const mask = s[st + unitCells[first + k * b + j]];
        segment |= mask;
        if (isSingle(mask)) placed |= mask;
      }
      segments[k] = segment;
    }
    const isRow = unit < size;
    const line = isRow ? unit : unit - size;
    const bandStart = Math.floor(line / b) * b;
    for (let k = 0; k < b; k++) {
      const segment = segments[k];
      const count = popcnt(segment);
      if (count < b) return false;
      if (count === b && (segment & ~placed) === 0) continue;
      let lineOthers = 0;
      for (let other = 0; other < b; other++) if (other !== k) lineOthers |= segments[other];
      let boxOthers = 0;
      for (let otherLine = bandStart; otherLine < bandStart + b; otherLine++) {
        if (otherLine === line) continue;
        for (let j = k * b; j < k * b + b; j++) boxOthers |= s[st + (isRow ? otherLine * size + j : j * size + otherLine)];
      }
      const boxIndex = isRow ? Math.floor(line / b) * b + k : k * b + Math.floor(line / b);
      if (count === b) {
        const outside = segment & (lineOthers | boxOthers);
        if (outside) {
          if (!this.eliminateOutside(st, unit, outside, t.boxOf, boxIndex)) return false;
          if (!this.eliminateOutside(st, 2 * size + boxIndex, outside, isRow ? t.rowOf : t.columnOf, line)) return false;
        }
        continue;
      }
      const required = segment & (~lineOthers | ~boxOthers);
      const requiredCount = popcnt(required);
      if (requiredCount > b) return false;
      if (requiredCount === b && segment !== required) {
        for (let j = k * b; j < k * b + b; j++) {
          if (!this.eliminate(st, isRow ? line * size + j : j * size + line, ~required)) return false;
        }
      }
    }
    return true;
  }

  /** Naked singles, then dirty units, then the triads of a line, to a fixed point (see the kernel's propagate). */
  private propagate(st: number): boolean {
    const unplacedAt = st + this.tables.cells;
    for (;;) {
      if (!this.drainQueue(st)) return false;
      if (this.states[unplacedAt] === 0) return true;
      const unit = this.takeNext(this.dirtyUnits);
      if (unit >= 0) {
        if (!this.scanUnit(st, unit)) return false;
        continue;
      }
      const line = this.takeNext(this.triadLines);
      if (line < 0) return true;
      if (!this.scanTriads(st, line)) return false;
    }
  }

  /** Frame `depth`: the cell with the fewest candidates, ties to the most unplaced cells in its units. */
  private chooseBranch(st: number, depth: number): void {
    const s = this.states;
    const { cells, size, rowOf, columnOf, boxOf } = this.tables;
    const open = this.unitOpen;
    open.fill(0, 0, 3 * size);
    for (let cell = 0; cell < cells; cell++) {
      if (isSingle(s[st + cell])) continue;
      open[rowOf[cell]]++;
      open[size + columnOf[cell]]++;
      open[2 * size + boxOf[cell]]++;
    }
    let bestCell = 0;
    let bestScore = Infinity;
    for (let cell = 0; cell < cells; cell++) {
      const mask = s[st + cell];
      if (isSingle(mask)) continue;
      const score = popcnt(mask) * 256 - (open[rowOf[cell]] + open[size + columnOf[cell]] + open[2 * size + boxOf[cell]]);
      if (score < bestScore) {
        bestScore = score;
        bestCell = cell;
      }
    }
    this.frameCell[depth] = bestCell;
    this.frameSymbols[depth] = s[st + bestCell];
  }

  private takeSymbol(depth: number): number {
    const symbols = this.frameSymbols[depth];
    this.frameSymbols[depth] = symbols & (symbols - 1);
    return symbols & -symbols;
  }

  /** Loads the puzzle into state 0 (the kernel's loadPuzzle): -1 a byte over N, -2 a repeated clue, 0 a cell with no candidate, 1 otherwise. */
  private loadPuzzle(puzzle: Uint8Array): number {
    const { size, cells } = this.tables;
    for (let cell = 0; cell < cells; cell++) if (puzzle[cell] > size) return -1;
    this.resetWork();
    const s = this.states;
    s.fill(0, cells + 1, this.stride);
    if (!candidateMasks(this.tables, puzzle, this.clueMasks)) return -2;
    let open = 0;
    for (let cell = 0; cell < cells; cell++) {
      if (puzzle[cell] !== 0) {
        s[cell] = 1 << (puzzle[cell] - 1);
        continue;
      }
      const mask = this.clueMasks[cell] >>> 1;
      if (mask === 0) return 0;
      s[cell] = mask;
      if (isSingle(mask)) this.queue[this.queueTail++] = cell;
      else open++;
    }
    s[cells] = open;
    this.dirtyUnits.fill(this.allSymbols);
    this.triadLines.fill(this.allSymbols);
    return 1;
  }

  /**
   * {@link SolverEngine.countSolutions}, with the kernel's codes: -1 when a byte is over N, -2 when a clue is repeated in a
   * unit. Stops before branching once `budget` nodes are spent, with `stats.timedOut`.
   */
  countSolutions(puzzle: Uint8Array, limit: number, solution: Uint8Array, stats: SearchStats, budget = Infinity): number {
    stats.guesses = 0;
    stats.timedOut = false;
    const loaded = this.loadPuzzle(puzzle);
    if (loaded <= 0) return loaded;
    const { cells } = this.tables;
    const stride = this.stride;
    const s = this.states;
    const nodeCap = kernelBudget(budget) || Infinity;
    let guesses = 0;
    let nodes = 0;
    let count = 0;
    let depth = 0;
    let st = 0;
    for (;;) {
      nodes++;
      if (this.propagate(st)) {
        if (s[st + cells] === 0) {
          if (count === 0) for (let cell = 0; cell < cells; cell++) solution[cell] = ctz(s[st + cell]) + 1;
          if (++count >= limit) break;
        } else if (nodes >= nodeCap) {
          stats.timedOut = true;
          break;
        } else {
          this.chooseBranch(st, depth);
          depth++; // the new frame's first symbol is taken below as any frame's next is
        }
      }
      if (depth === 0) break;
      const frame = depth - 1;
      const symbol = this.takeSymbol(frame);
      if (this.frameSymbols[frame]) {
        s.copyWithin(depth * stride, frame * stride, depth * stride);
        guesses++;
      } else {
        depth = frame;
      }
      st = depth * stride;
      this.resetWork();
      this.place(st, this.frameCell[frame], symbol);
    }
    stats.guesses = guesses;
    return count;
  }
}
