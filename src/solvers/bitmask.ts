/**
 * The TS twin: the WASM kernel's algorithm (assembly/index.ts, which holds the glossary, the layout and the rules) in plain
 * TypeScript, so the bench shows what WebAssembly itself buys; a test holds it to the kernel's guesses on every puzzle.
 *
 * A state is 32 words of one Uint32Array: words 0–26 the slot masks (slot = digit * 3 + band), words 27–29 the unsolved
 * cells of each band. State `depth` starts at word `depth * 32`.
 */
import type { Grid } from "../model/puzzle.js";
import { CELLS, gridTables } from "../model/shape.js";
import { type SearchStats, type SolverEngine, kernelBudget } from "./solver.js";
import { ctz, popcnt } from "./units.js";

const SLOTS = 27;
const BAND_CELLS = 0x7ffffff;
const STATE_WORDS = 32;
const UNSOLVED = 27;
const MAX_DEPTH = 82;

/** ROW_BOXES[row bits] = which of the three boxes a 9-bit row touches (3 bits). */
const ROW_BOXES = new Uint8Array(512);
/** MATCHED[3×3 bit matrix] = the entries of the matrix that lie on some permutation. */
const MATCHED = new Uint16Array(512);
/** PERMUTATION[row×box matrix] = MATCHED spread to the 27-bit cell mask of its triads. */
const PERMUTATION = new Uint32Array(512);
/** CONFIGURATIONS[3×3 bit matrix] = the permutations (6 bits) inside it. */
const CONFIGURATIONS = new Uint8Array(512);
/** LONE_IN_GROUP[9 bits] = the bits alone in their group of three. */
const LONE_IN_GROUP = new Uint16Array(512);
/** ENTRY_CELLS[entries of a row×box matrix] = the 27-bit cell mask of those triads. */
const ENTRY_CELLS = new Uint32Array(512);
/** CONFIGURATION_CELLS[permutation] = the cells of its three triads (row r in box p[r]). */
const CONFIGURATION_CELLS = new Uint32Array(6);
/** PERMUTATIONS[p * 3 + r] = the box permutation p puts row r in; for a stack, the column inside it that p gives band r. */
const PERMUTATIONS = Uint8Array.of(0, 1, 2, 0, 2, 1, 1, 0, 2, 1, 2, 0, 2, 0, 1, 2, 1, 0);
/** Frame band values from this up are configuration branches on line (value - LINE_FRAME). */
const LINE_FRAME = 8;
/** The slots of band 0, one bit per slot; shift by the band. */
const BAND_SLOTS = 0x1249249;

(function buildTables() {
  /** The entries (row * 3 + box) of each permutation's 3×3 matrix. */
  const permutationEntries = [0, 1, 2, 3, 4, 5].map(
    (p) => (1 << PERMUTATIONS[p * 3]) | (1 << (3 + PERMUTATIONS[p * 3 + 1])) | (1 << (6 + PERMUTATIONS[p * 3 + 2])),
  );
  for (let matrix = 0; matrix < 512; matrix++) {
    let boxes = 0;
    let lone = 0;
    for (let group = 0; group < 3; group++) {
      const bits = (matrix >> (group * 3)) & 7;
      if (bits) boxes |= 1 << group;
      if (bits && (bits & (bits - 1)) === 0) lone |= bits << (group * 3);
    }
    ROW_BOXES[matrix] = boxes;
    LONE_IN_GROUP[matrix] = lone;
    let entryCells = 0;
    for (let entry = 0; entry < 9; entry++) if ((matrix >> entry) & 1) entryCells |= 7 << (((entry / 3) | 0) * 9 + (entry % 3) * 3);
    ENTRY_CELLS[matrix] = entryCells;
    let matched = 0;
    let configurations = 0;
    permutationEntries.forEach((entries, p) => {
      if ((matrix & entries) !== entries) return;
      matched |= entries;
      configurations |= 1 << p;
    });
    MATCHED[matrix] = matched;
    CONFIGURATIONS[matrix] = configurations;
    PERMUTATION[matrix] = ENTRY_CELLS[matched]; // matched is a subset of matrix, so no greater: its entry is made
  }
  permutationEntries.forEach((entries, p) => (CONFIGURATION_CELLS[p] = ENTRY_CELLS[entries]));
})();

/** The cells of column 0 in a band mask; shift by 1 per column. */
const COLUMN_CELLS = 0x40201;

/** The branch's line scores, as the kernel's: a digit adds 4 per configuration while it has several, 3 once fixed; digits first, 22 less those. */
const CONFIGURATION_WEIGHT = 4;
const FIXED_WEIGHT = 3;
const DIGITS_FIRST_WEIGHT = 22;
const ALL_FIXED_SCORE = 9 * FIXED_WEIGHT;

/** UNIT_PLACES[unit * 9 + k] = band << 5 | bit index of the unit's k-th cell (units in gridTables' order: rows, columns, boxes). */
const UNIT_PLACES = gridTables(3).unitCells.map((cell) => (((cell / 27) | 0) << 5) | (cell % 27));

/** The places of one digit in `unit` (rows, columns, boxes) from its band masks at `at` of `s`: bit k for the unit's k-th cell ({@link UNIT_PLACES}). */
function unitPlaces(s: Uint32Array, at: number, unit: number): number {
  const i = unit % 9;
  if (unit < 9) return (s[at + ((i / 3) | 0)] >>> ((i % 3) * 9)) & 0x1ff;
  if (unit >= 18) {
    const m = s[at + ((i / 3) | 0)] >>> ((i % 3) * 3);
    return (m & 7) | ((m >>> 6) & 0x38) | ((m >>> 12) & 0x1c0);
  }
  let bits = 0; // a column: three rows from each band
  for (let band = 0; band < 3; band++) {
    const m = s[at + band] >>> i;
    bits |= ((m & 1) | ((m >>> 8) & 2) | ((m >>> 16) & 4)) << (band * 3);
  }
  return bits;
}

/** The default kernel's DIGITS_ROOT_ABOVE: a search whose first branch has its lowest line score above this scores every line digits first. */
const DIGITS_ROOT_ABOVE = 85;

const spreadColumns = (columns: number): number => columns * COLUMN_CELLS;
const columnsOf = (cells: number): number => (cells | (cells >>> 9) | (cells >>> 18)) & 0x1ff;
/** Adds `bits` to the bit-sliced counter at `counts[at..at+3]` (bits seen 1, 2, 3, 4+ times). */
function countBits(counts: Uint32Array, at: number, bits: number): void {
  counts[at + 3] |= counts[at + 2] & bits;
  counts[at + 2] |= counts[at + 1] & bits;
  counts[at + 1] |= counts[at] & bits;
  counts[at] |= bits;
}

/** The band×column matrix of a digit in one stack (its columns from `shift`), from its three band masks at `at` of `s`. */
const stackMatrix = (s: Uint32Array, at: number, shift: number): number =>
  ((columnsOf(s[at]) >>> shift) & 7) | (((columnsOf(s[at + 1]) >>> shift) & 7) << 3) | (((columnsOf(s[at + 2]) >>> shift) & 7) << 6);

/** The row×box matrix of a band mask: bit row * 3 + box is set when the triad holds a candidate. */
const triadsOf = (cells: number): number => ROW_BOXES[cells & 0x1ff] | (ROW_BOXES[(cells >>> 9) & 0x1ff] << 3) | (ROW_BOXES[cells >>> 18] << 6);

export class BitmaskEngine implements SolverEngine {
  /** The search's states, depth by depth. */
  private readonly states = new Uint32Array(STATE_WORDS * MAX_DEPTH);
  private readonly frameBand = new Uint32Array(MAX_DEPTH);
  private readonly frameBit = new Uint32Array(MAX_DEPTH);
  private readonly frameDigits = new Uint32Array(MAX_DEPTH);
  /** chooseConfiguration's scratch: the configurations of each digit in each line (line * 9 + digit). */
  private readonly lineConfigurations = new Uint8Array(6 * 9);
  /** Slots revised since the last triad pass. */
  private changedSlots = 0;
  /** reviseTriads' scratch: four bit-sliced counters of four triad sets. */
  private readonly triadCounts = new Uint32Array(16);
  /** Per digit, the columns (band 0 | band 1 << 9 | band 2 << 18) rule 3 last left: its fixed point. */
  private readonly settledColumns = new Uint32Array(9).fill(0xffffffff);
  /** Slots to revisit, one bit per slot. */
  private dirty = 0;
  /** DIGITS_ROOT_ABOVE: whether the current search has chosen a branch yet, and whether it scores its lines digits first. */
  private branched = false;
  private digitsSearch = false;
  /** reviseHiddenPairs' scratch: per digit, its places in the unit (bit k: the unit's k-th cell). */
  private readonly unitPlaces = new Uint16Array(9);

  /** Narrows slot `slot` of the state at word `st` to `mask` and marks it dirty when it changed. */
  private narrow(st: number, slot: number, mask: number): void {
    const s = this.states;
    const old = s[st + slot];
    const next = (old & mask) >>> 0;
    if (next !== old) {
      s[st + slot] = next;
      this.dirty |= 1 << slot;
    }
  }

  /** Places `digit` on cell `bit` of `band`. False when the digit is not a candidate there. */
  private place(st: number, digit: number, band: number, bit: number): boolean {
    const s = this.states;
    const slot = digit * 3 + band;
    if (!(s[st + slot] & bit)) return false;
    const row = (ctz(bit) / 9) | 0;
    this.narrow(st, slot, ~(0x1ff << (row * 9)) | bit);
    for (let other = band; other < SLOTS; other += 3) {
      if (other !== slot) this.narrow(st, other, ~bit);
    }
    s[st + UNSOLVED + band] &= ~bit;
    return true;
  }

  /** Rules 1 and 2 for one slot. False on a contradiction. */
  private reviseSlot(st: number, slot: number): boolean {
    const s = this.states;
    const band = slot % 3;
    let cells = s[st + slot];
    cells &= PERMUTATION[triadsOf(cells)];
    if (cells === 0) return false;
    s[st + slot] = cells;
    const row0 = cells & 0x1ff;
    const row1 = cells & (0x1ff << 9);
    const row2 = cells & (0x1ff << 18);
    const singles = ((row0 & (row0 - 1)) === 0 ? row0 : 0) | ((row1 & (row1 - 1)) === 0 ? row1 : 0) | ((row2 & (row2 - 1)) === 0 ? row2 : 0);
    const open = s[st + UNSOLVED + band];
    const placed = singles & open;
    if (placed) {
      s[st + UNSOLVED + band] = open & ~placed;
      for (let other = band; other < SLOTS; other += 3) {
        if (other !== slot) this.narrow(st, other, ~placed);
      }
    }
    return true;
  }

  /** Rule 3, the column/box permutation of one digit over the three stacks. */
  private reviseDigit(st: number, digit: number): boolean {
    const s = this.states;
    const slot = digit * 3;
    const columns0 = columnsOf(s[st + slot]);
    const columns1 = columnsOf(s[st + slot + 1]);
    const columns2 = columnsOf(s[st + slot + 2]);
    // The rule reads only the columns, and its result is a fixed point of it: when they are
    // what it left last time for this digit (in any state), it has nothing to remove.
    const key = columns0 | (columns1 << 9) | (columns2 << 18);
    if (key === this.settledColumns[digit]) return true;
    let keep0 = 0;
    let keep1 = 0;
    let keep2 = 0;
    for (let shift = 0; shift < 9; shift += 3) {
      const matrix = ((columns0 >>> shift) & 7) | (((columns1 >>> shift) & 7) << 3) | (((columns2 >>> shift) & 7) << 6);
      const matched = MATCHED[matrix];
      if (!matched) return false;
      keep0 |= (matched & 7) << shift;
      keep1 |= ((matched >>> 3) & 7) << shift;
      keep2 |= ((matched >>> 6) & 7) << shift;
    }
    this.settledColumns[digit] = keep0 | (keep1 << 9) | (keep2 << 18);
    this.narrow(st, slot, spreadColumns(keep0));
    this.narrow(st, slot + 1, spreadColumns(keep1));
    this.narrow(st, slot + 2, spreadColumns(keep2));
    return true;
  }

  /**
   * Revises the dirty slots (rules 1–2) in rounds, and a digit (rule 3) as soon as its round has none of its slots left, until
   * nothing is left. A round is every dirty slot, or at the root the lowest digit's. (The kernel's root takes every dirty
   * slot a round: the same fixed point, so the same search.) False on a contradiction.
   */
  private reviseDirty(st: number, root: boolean): boolean {
    while (this.dirty) {
      let round = root ? this.dirty & (7 << (((ctz(this.dirty) / 3) | 0) * 3)) : this.dirty;
      this.dirty &= ~round;
      while (round) {
        const slot = ctz(round);
        round &= round - 1;
        if (!this.reviseSlot(st, slot)) return false;
        this.dirty &= ~round;
        this.changedSlots |= 1 << slot;
        const digit = (slot / 3) | 0;
        if (!(round & (7 << (digit * 3))) && !this.reviseDigit(st, digit)) return false;
      }
    }
    return true;
  }

  /** Rule 4, the triad rule, on the bands whose slots changed since its last pass. False on a contradiction. */
  private reviseTriads(st: number): boolean {
    const s = this.states;
    const changed = this.changedSlots;
    this.changedSlots = 0;
    for (let band = 0; band < 3; band++) {
      if (!(changed & (BAND_SLOTS << band))) continue;
      // per triad, bit-sliced: the triads 1, 2, 3, 4+ digits can go to (rows of triads at 0,
      // columns at 8) and must go to (at 4 and 12)
      const counts = this.triadCounts.fill(0);
      for (let slot = band; slot < SLOTS; slot += 3) {
        const triads = triadsOf(s[st + slot]);
        const columnSet = columnsOf(s[st + slot]);
        countBits(counts, 0, triads);
        countBits(counts, 4, LONE_IN_GROUP[triads]);
        countBits(counts, 8, columnSet);
        countBits(counts, 12, LONE_IN_GROUP[columnSet]);
      }
      if ((counts[2] ^ 0x1ff) | counts[7] | (counts[10] ^ 0x1ff) | counts[15]) return false;
      // three can go, not yet three must; three must, and a fourth still can (else nothing to clear)
      const rowsOnlyThree = counts[2] & ~counts[3] & ~counts[6];
      const rowsFull = counts[6] & counts[3];
      const columnsOnlyThree = counts[10] & ~counts[11] & ~counts[14];
      const columnsFull = counts[14] & counts[11];
      if (!(rowsOnlyThree | rowsFull | columnsOnlyThree | columnsFull)) continue;
      for (let slot = band; slot < SLOTS; slot += 3) {
        const triads = triadsOf(s[st + slot]);
        const required = LONE_IN_GROUP[triads];
        let keep = triads;
        let rest = triads & rowsOnlyThree & ~required;
        while (rest) {
          const entry = ctz(rest);
          rest &= rest - 1;
          keep &= ~((7 << (((entry / 3) | 0) * 3)) | (0x49 << (entry % 3))) | (1 << entry);
        }
        keep &= ~(triads & rowsFull & ~required);
        if (keep !== triads) this.narrow(st, slot, ENTRY_CELLS[keep]);
        const columnSet = columnsOf(s[st + slot]);
        const columnsRequired = LONE_IN_GROUP[columnSet];
        let restColumns = columnSet & columnsOnlyThree & ~columnsRequired;
        while (restColumns) {
          const column = ctz(restColumns);
          restColumns &= restColumns - 1;
          const bit = 1 << column;
          this.narrow(st, slot, ~spreadColumns(7 << (((column / 3) | 0) * 3)) | spreadColumns(bit));
          const first = slot - band;
          for (let other = first; other < first + 3; other++) if (other !== slot) this.narrow(st, other, ~spreadColumns(bit));
        }
        const excluded = columnSet & columnsFull & ~columnsRequired;
        if (excluded) this.narrow(st, slot, ~spreadColumns(excluded));
      }
    }
    return true;
  }

  /** Hidden pairs (the kernel's ROOT_PAIRS): two digits whose only places in a unit are the same two cells take them. Marks changed slots dirty. */
  private reviseHiddenPairs(st: number): void {
    const s = this.states;
    const places = this.unitPlaces;
    for (let unit = 0; unit < 27; unit++) {
      const at = unit * 9;
      for (let digit = 0; digit < 9; digit++) places[digit] = unitPlaces(s, st + digit * 3, unit);
      for (let first = 0; first < 9; first++) {
        const pair = places[first];
        if (popcnt(pair) !== 2) continue;
        for (let second = first + 1; second < 9; second++) {
          if (places[second] !== pair) continue;
          for (let other = 0; other < 9; other++) {
            if (other === first || other === second) continue;
            let rest = pair;
            while (rest) {
              const place = UNIT_PLACES[at + ctz(rest)];
              rest &= rest - 1;
              this.narrow(st, other * 3 + (place >> 5), ~(1 << (place & 31)));
            }
          }
        }
      }
    }
  }

  /** Propagates to a fixed point: slot and digit rules, naked singles, the triad rule, and at the `root` hidden pairs. False on a contradiction. */
  private propagate(st: number, root: boolean): boolean {
    const s = this.states;
    for (;;) {
      if (!this.reviseDirty(st, root)) return false;
      let placedAny = false;
      for (let band = 0; band < 3; band++) {
        const open = s[st + UNSOLVED + band];
        if (!open) continue;
        let once = 0;
        let twice = 0;
        for (let slot = band; slot < SLOTS; slot += 3) {
          const cells = s[st + slot];
          twice |= once & cells;
          once |= cells;
        }
        if (open & ~once) return false;
        let singles = open & ~twice;
        while (singles) {
          const bit = singles & -singles;
          singles ^= bit;
          let slot = band;
          while (slot < SLOTS && !(s[st + slot] & bit)) slot += 3;
          if (slot >= SLOTS) return false;
          this.place(st, (slot / 3) | 0, band, bit);
          placedAny = true;
        }
      }
      if (!placedAny) {
        if (!this.reviseTriads(st)) {
          this.dirty = 0;
          return false;
        }
        placedAny = this.dirty !== 0;
      }
      if (!placedAny && root) {
        this.reviseHiddenPairs(st);
        placedAny = this.dirty !== 0;
      }
      if (!placedAny) return true;
    }
  }

  /**
   * The kernel's branch (chooseConfiguration): the unfixed line with the lowest score, and in it the digit with the fewest
   * configurations (first on ties). Written as frame `depth`; false when every digit is fixed in every line.
   */
  private chooseConfiguration(st: number, depth: number): boolean {
    const s = this.states;
    const configurationsOf = this.lineConfigurations;
    let bestLine = -1;
    let bestScore = 1000;
    /** The same by the digits-first score, computed only when it may be used: at the search's first branch, or in a digits-first search. */
    let digitsLine = -1;
    let digitsScore = 1000;
    const scoreDigits = this.digitsSearch || !this.branched;
    for (let line = 0; line < 6; line++) {
      let score = 0;
      let digitsFirst = 0;
      for (let digit = 0; digit < 9; digit++) {
        const at = st + digit * 3;
        const configurations = CONFIGURATIONS[line < 3 ? triadsOf(s[at + line]) : stackMatrix(s, at, (line - 3) * 3)];
        configurationsOf[line * 9 + digit] = configurations;
        const count = popcnt(configurations);
        score += count > 1 ? count * CONFIGURATION_WEIGHT : FIXED_WEIGHT;
        if (scoreDigits) digitsFirst += count > 1 ? DIGITS_FIRST_WEIGHT - count : FIXED_WEIGHT;
      }
      if (score > ALL_FIXED_SCORE && score < bestScore) {
        bestScore = score;
        bestLine = line;
      }
      if (digitsFirst > ALL_FIXED_SCORE && digitsFirst < digitsScore) {
        digitsScore = digitsFirst;
        digitsLine = line;
      }
    }
    if (bestLine < 0) return false;
    if (!this.branched) {
      this.branched = true;
      this.digitsSearch = bestScore > DIGITS_ROOT_ABOVE;
    }
    if (this.digitsSearch) bestLine = digitsLine;
    let bestDigit = 0;
    let bestCount = 7;
    for (let digit = 0; digit < 9; digit++) {
      const count = popcnt(configurationsOf[bestLine * 9 + digit]);
      if (count >= 2 && count < bestCount) {
        bestCount = count;
        bestDigit = digit;
      }
    }
    this.frameBand[depth] = LINE_FRAME + bestLine;
    this.frameBit[depth] = bestDigit;
    this.frameDigits[depth] = configurationsOf[bestLine * 9 + bestDigit];
    return true;
  }

  /** The fallback branch: the first cell with the fewest candidates. Written as frame `depth`. */
  private chooseCell(st: number, depth: number): void {
    const s = this.states;
    let bestBand = 0;
    let bestBit = 0;
    let bestCount = 10;
    for (let band = 0; band < 3; band++) {
      let rest = s[st + UNSOLVED + band];
      while (rest) {
        const bit = rest & -rest;
        rest ^= bit;
        let count = 0;
        for (let slot = band; slot < SLOTS; slot += 3) if (s[st + slot] & bit) count++;
        if (count < bestCount) {
          bestCount = count;
          bestBand = band;
          bestBit = bit;
        }
      }
    }
    let digits = 0;
    for (let digit = 0; digit < 9; digit++) if (s[st + digit * 3 + bestBand] & bestBit) digits |= 1 << digit;
    this.frameBand[depth] = bestBand;
    this.frameBit[depth] = bestBit;
    this.frameDigits[depth] = digits;
  }

  /** Takes one alternative of a frame: a digit on a cell, or a configuration of a digit in a line. */
  private applyAlternative(st: number, band: number, bit: number, alternative: number): void {
    if (band < LINE_FRAME) {
      this.place(st, alternative, band, bit);
      return;
    }
    const line = band - LINE_FRAME;
    const slot = bit * 3;
    if (line < 3) {
      this.narrow(st, slot + line, CONFIGURATION_CELLS[alternative]);
    } else {
      const shift = (line - 3) * 3;
      const others = ~spreadColumns(7 << shift);
      for (let b = 0; b < 3; b++) this.narrow(st, slot + b, others | spreadColumns(1 << (shift + PERMUTATIONS[alternative * 3 + b])));
    }
  }

  private writeSolution(st: number, out: Grid): void {
    for (let slot = 0; slot < SLOTS; slot++) {
      const digit = ((slot / 3) | 0) + 1;
      const base = (slot % 3) * 27;
      let cells = this.states[st + slot];
      while (cells) {
        out[base + ctz(cells)] = digit;
        cells &= cells - 1;
      }
    }
  }

  /** Loads the clues into state 0: -1 for a byte over 9, 0 for clashing clues, 1 ok. */
  private loadPuzzle(puzzle: Grid): number {
    const s = this.states;
    s.fill(BAND_CELLS, 0, SLOTS + 3);
    this.dirty = 0;
    for (let cell = 0; cell < CELLS; cell++) if (puzzle[cell] > 9) return -1;
    for (let cell = 0; cell < CELLS; cell++) {
      const value = puzzle[cell];
      if (value === 0) continue;
      if (!this.place(0, value - 1, (cell / 27) | 0, 1 << (cell % 27))) return 0;
    }
    this.dirty = (1 << SLOTS) - 1;
    this.changedSlots = 0;
    return 1;
  }

  /** Counts solutions up to `limit`; past `budget` search nodes (states propagated) it stops before branching, with `timedOut`. */
  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget = Infinity): number {
    stats.guesses = 0;
    stats.timedOut = false;
    this.branched = false;
    this.digitsSearch = false;
    const loaded = this.loadPuzzle(puzzle);
    if (loaded <= 0) return loaded;
    const nodeCap = kernelBudget(budget) || Infinity;
    const s = this.states;
    let guesses = 0;
    let count = 0;
    let depth = 0;
    let st = 0;
    for (let nodes = 1; ; nodes++) {
      if (this.propagate(st, nodes === 1)) {
        if ((s[st + UNSOLVED] | s[st + UNSOLVED + 1] | s[st + UNSOLVED + 2]) === 0) {
          if (count === 0) this.writeSolution(st, solution);
          if (++count >= limit) break;
        } else {
          if (nodes >= nodeCap) {
            stats.timedOut = true;
            break;
          }
          if (!this.chooseConfiguration(st, depth)) this.chooseCell(st, depth);
          depth++; // the new frame's first alternative is taken below as any frame's next is (one alone: in place, no guess)
        }
      }
      if (depth === 0) break;
      const frame = depth - 1;
      const digits = this.frameDigits[frame];
      const rest = digits & (digits - 1);
      if (rest) {
        this.frameDigits[frame] = rest;
        s.copyWithin(depth * STATE_WORDS, frame * STATE_WORDS, depth * STATE_WORDS);
        guesses++;
      } else {
        depth--;
      }
      st = depth * STATE_WORDS;
      this.dirty = 0;
      this.changedSlots = 0;
      this.applyAlternative(st, this.frameBand[frame], this.frameBit[frame], ctz(digits));
    }
    stats.guesses = guesses;
    return count;
  }
}
