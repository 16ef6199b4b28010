// The 9×9 kernel: band bitboards per digit, constraint propagation, counting to a limit.
//
// Glossary
//   band   three rows of boxes: band 0 is rows 1–3, band 1 rows 4–6, band 2 rows 7–9.
//   slot   one (digit, band) pair; slot = digit * 3 + band, 27 slots.
//   triad  three cells of one row inside one box.
//   guess  a tentative placement made while another candidate of the cell remains.
//
// State: one 27-bit mask per slot holds the cells of the band where the digit may still go
// (the cell where it is placed stays set), plus one 27-bit mask per band of unsolved cells.
//
//   slot mask, bit = row * 9 + column inside the band:
//        box 0     box 1     box 2
//      ┌─────────┬─────────┬─────────┐
//   r0 │  0  1  2│  3  4  5│  6  7  8│
//   r1 │  9 10 11│ 12 13 14│ 15 16 17│
//   r2 │ 18 19 20│ 21 22 23│ 24 25 26│
//      └─────────┴─────────┴─────────┘
//
//   state (128 bytes):  candidates[27] u32 │ unsolved[3] u32 │ pad
//
// Propagation for a slot whose mask changed (the rules are exact, never heuristic):
//   1. row/box permutation: the digit takes one cell in each row and in each box of the band,
//      so only the triads that lie on some row→box permutation survive (table PERMUTATION).
//      This covers locked candidates (pointing and claiming) and hidden singles in boxes.
//   2. a row with a single candidate places the digit there: the cell leaves the other digits.
//   3. (per digit) the vertical twin of rule 1 over each stack of boxes: bands × columns.
//      With rule 1 it also clears the columns a band owns from the other bands.
// When no slot is left to revisit, cells with one candidate (naked singles) are placed; a cell
// with none is a contradiction. Then the search branches on a cell with the fewest candidates
// (two, when there is one; ties go to the cell that came first in the root's order: fewest
// candidates, then most places left for them in its units) on an explicit stack of states:
// no recursion, no allocation.
//
// Variants, chosen at compile time (asc --use NAME=value; see the asbuild:variants script), so
// the hot loop carries no flag checks:
//   PROPAGATION  3 rules 1–3 + naked singles (default) │ 2 naked + hidden singles, peers
//                eliminated on placement │ 1 naked singles only │ 0 none (forward checking)
//   CELL_ORDER   0 ranked: a two-candidate cell, the first in the root's order (default) │
//                1 static: the root's order (cells by candidate count, then places left,
//                after the root's propagation, computed once per puzzle) │ 2 first: a
//                two-candidate cell, the first in band order
//
// Batch layout in linear memory (see src/wasm.ts), n puzzles from `base`:
//   puzzles n×81 u8 │ solutions n×81 u8 │ (align 4) counts n×i32 │ guesses n×i32 │ nodes n×i32
//   counts is -1 for a byte over 9 and -2 for a clue repeated in a unit.
//   nodes counts the states propagated; it is negative when the search hit the node budget.

const CELLS: i32 = 81;
const SLOTS: i32 = 27;
const BAND_CELLS: u32 = 0x7ffffff;
const STATE_BYTES: usize = 128;
const UNSOLVED_OFFSET: usize = 108;
const MAX_DEPTH: i32 = 82;

/** Propagation level of this build (see the header). */
const LEVEL: i32 = isDefined(PROPAGATION) ? PROPAGATION : 3;
/** Cell order of this build: 0 ranked (default), 1 static, 2 first in band order. */
const ORDER: i32 = isDefined(CELL_ORDER) ? CELL_ORDER : 0;
/** The cells of box 0 in a band mask; shift by 3 per box. */
const BOX_CELLS: u32 = 0x1c0e07;
/** The cells of column 0 in a band mask; shift by 1 per column. */
const COLUMN_CELLS: u32 = 0x40201;

// ── tables ──────────────────────────────────────────────────────────────────────────────────

/** ROW_BOXES[row bits] = which of the three boxes a 9-bit row touches (3 bits). */
const ROW_BOXES: usize = memory.data(512);
/** MATCHED[3×3 bit matrix] = the entries of the matrix that lie on some permutation (9 bits). */
const MATCHED: usize = memory.data(512 * 2, 2);
/** PERMUTATION[row×box matrix] = MATCHED spread to the 27-bit cell mask of its triads. */
const PERMUTATION: usize = memory.data(512 * 4, 4);
/** States of the search stack: slot `depth` is the working state. */
const STATES: usize = memory.data(<i32>STATE_BYTES * MAX_DEPTH, 16);
/** Per digit, the columns (band 0 | band 1 << 9 | band 2 << 18) rule 3 last left: its fixed point. */
const SETTLED_COLUMNS: usize = memory.data(9 * 4, 4);
/** Per search level: band, cell bit and untried digits of the branch cell. */
const FRAME_BAND: usize = memory.data(MAX_DEPTH * 4, 4);
const FRAME_BIT: usize = memory.data(MAX_DEPTH * 4, 4);
const FRAME_DIGITS: usize = memory.data(MAX_DEPTH * 4, 4);
/** The root's cell order of the current puzzle: band << 5 | bit index, and its length. */
const CELL_ORDER_STACK: usize = memory.data(CELLS * 4, 4);
/** The sort key of each entry of the cell order (see computeCellOrder). */
const CELL_ORDER_SCORE: usize = memory.data(CELLS * 4, 4);
let cellOrderLength: i32 = 0;

function buildTables(): void {
  for (let row: u32 = 0; row < 512; row++) {
    let boxes: u32 = 0;
    for (let box: u32 = 0; box < 3; box++) if ((row >> (box * 3)) & 7) boxes |= <u32>1 << box;
    store<u8>(ROW_BOXES + row, <u8>boxes);
  }
  // The six permutations of three rows onto three boxes, as box of row 0, 1, 2.
  const perms: StaticArray<u32> = [0, 1, 2, 0, 2, 1, 1, 0, 2, 1, 2, 0, 2, 0, 1, 2, 1, 0];
  for (let matrix: u32 = 0; matrix < 512; matrix++) {
    let matched: u32 = 0;
    for (let p = 0; p < 6; p++) {
      let entries: u32 = 0;
      for (let row: u32 = 0; row < 3; row++) entries |= <u32>1 << (row * 3 + perms[p * 3 + row]);
      if ((matrix & entries) == entries) matched |= entries;
    }
    let cells: u32 = 0;
    for (let entry: u32 = 0; entry < 9; entry++) {
      if ((matched >> entry) & 1) cells |= <u32>7 << ((entry / 3) * 9 + (entry % 3) * 3);
    }
    store<u16>(MATCHED + (matrix << 1), <u16>matched);
    store<u32>(PERMUTATION + (matrix << 2), cells);
  }
}
buildTables();
memory.fill(SETTLED_COLUMNS, 0xff, 9 * 4); // no column set is settled yet

// ── state access ────────────────────────────────────────────────────────────────────────────

/** Slots to revisit, one bit per slot. */
let dirty: u32 = 0;
/** Guesses taken by the current search. */
let guesses: i32 = 0;
/** States propagated by the current search. */
let nodes: i32 = 0;

/** The candidate mask of `slot` in state `st`. */
@inline function candidates(st: usize, slot: u32): u32 {
  return load<u32>(st + (<usize>slot << 2));
}

/** Narrows the mask of `slot` to `mask` bits and marks the slot dirty when it changed. */
@inline function narrow(st: usize, slot: u32, mask: u32): void {
  const at = st + (<usize>slot << 2);
  const old = load<u32>(at);
  const next = old & mask;
  if (next != old) {
    store<u32>(at, next);
    dirty |= <u32>1 << slot;
  }
}

@inline function unsolved(st: usize, band: u32): u32 {
  return load<u32>(st + UNSOLVED_OFFSET + (<usize>band << 2));
}

@inline function setUnsolved(st: usize, band: u32, cells: u32): void {
  store<u32>(st + UNSOLVED_OFFSET + (<usize>band << 2), cells);
}

/** The three rows of a band spread a 9-bit column set to all three rows. */
@inline function spreadColumns(columns: u32): u32 {
  return columns * 0x40201;
}

/**
 * Places `digit` on the cell `bit` of `band`: the digit leaves the rest of the row, the other
 * digits leave the cell. False when the digit was no longer a candidate there.
 */
@inline function place(st: usize, digit: u32, band: u32, bit: u32): bool {
  const slot = digit * 3 + band;
  if (!(candidates(st, slot) & bit)) return false;
  const index = ctz(bit);
  const row = index / 9;
  if (LEVEL == 3) {
    narrow(st, slot, ~(<u32>0x1ff << (row * 9)) | bit); // rules 1–3 clear the box and column
  } else {
    const column = index % 9;
    narrow(st, slot, ~((<u32>0x1ff << (row * 9)) | (BOX_CELLS << (column / 3 * 3))) | bit);
    const columnCells = ~(COLUMN_CELLS << column);
    const digitBase = slot - band;
    for (let other: u32 = 0; other < 3; other++) if (other != band) narrow(st, digitBase + other, columnCells);
  }
  for (let other: u32 = band; other < <u32>SLOTS; other += 3) {
    if (other != slot) narrow(st, other, ~bit);
  }
  setUnsolved(st, band, unsolved(st, band) & ~bit);
  return true;
}

// ── propagation ─────────────────────────────────────────────────────────────────────────────

/** Applies rules 1 and 2 to one slot. False on a contradiction. */
function reviseSlot(st: usize, slot: u32): bool {
  const band = slot % 3;
  let cells = candidates(st, slot);
  // 1. row/box permutation
  const matrix =
    <u32>load<u8>(ROW_BOXES + (cells & 0x1ff)) |
    (<u32>load<u8>(ROW_BOXES + ((cells >> 9) & 0x1ff)) << 3) |
    (<u32>load<u8>(ROW_BOXES + (cells >> 18)) << 6);
  cells &= load<u32>(PERMUTATION + (matrix << 2));
  if (cells == 0) return false;
  store<u32>(st + (<usize>slot << 2), cells);
  // 2. rows with a single candidate are placed
  const row0 = cells & 0x1ff;
  const row1 = cells & (0x1ff << 9);
  const row2 = cells & (0x1ff << 18);
  const singles = ((row0 & (row0 - 1)) == 0 ? row0 : 0) | ((row1 & (row1 - 1)) == 0 ? row1 : 0) | ((row2 & (row2 - 1)) == 0 ? row2 : 0);
  const open = unsolved(st, band);
  const placed = singles & open;
  if (placed) {
    setUnsolved(st, band, open & ~placed);
    for (let other: u32 = band; other < <u32>SLOTS; other += 3) {
      if (other != slot) narrow(st, other, ~placed);
    }
  }
  return true;
}

/** The columns (9 bits) where a band mask has a candidate. */
@inline function columnsOf(cells: u32): u32 {
  return (cells | (cells >> 9) | (cells >> 18)) & 0x1ff;
}

/**
 * 3. column/box permutation, the vertical twin of rule 1: in each stack of boxes the digit
 * takes one cell in each column and in each box, so for every stack only the (band, column)
 * pairs on some band→column permutation survive. This covers locked candidates along
 * columns and hidden singles in columns. False on a contradiction.
 */
@inline function reviseDigit(st: usize, digit: u32): bool {
  const slot = digit * 3;
  const columns0 = columnsOf(candidates(st, slot));
  const columns1 = columnsOf(candidates(st, slot + 1));
  const columns2 = columnsOf(candidates(st, slot + 2));
  // The rule reads only the columns, and its result is a fixed point of it: when they are
  // what it left last time for this digit (in any state), it has nothing to remove.
  const settledAt = SETTLED_COLUMNS + (<usize>digit << 2);
  if ((columns0 | (columns1 << 9) | (columns2 << 18)) == load<u32>(settledAt)) return true;
  let keep0: u32 = 0;
  let keep1: u32 = 0;
  let keep2: u32 = 0;
  for (let shift: u32 = 0; shift < 9; shift += 3) {
    const matrix = ((columns0 >> shift) & 7) | (((columns1 >> shift) & 7) << 3) | (((columns2 >> shift) & 7) << 6);
    const matched = <u32>load<u16>(MATCHED + (matrix << 1));
    if (!matched) return false;
    keep0 |= (matched & 7) << shift;
    keep1 |= ((matched >> 3) & 7) << shift;
    keep2 |= ((matched >> 6) & 7) << shift;
  }
  store<u32>(settledAt, keep0 | (keep1 << 9) | (keep2 << 18));
  narrow(st, slot, spreadColumns(keep0));
  narrow(st, slot + 1, spreadColumns(keep1));
  narrow(st, slot + 2, spreadColumns(keep2));
  return true;
}

/** Digits whose slots changed since their last column/box revision, one bit per digit. */
let dirtyDigits: u32 = 0;

/** Revisits dirty slots and digits until none is left. False on a contradiction. */
@inline function reviseDirty(st: usize): bool {
  while (dirty) {
    while (dirty) {
      const slot = ctz(dirty);
      dirty &= dirty - 1;
      if (!reviseSlot(st, slot)) return false;
      dirtyDigits |= <u32>1 << (slot / 3);
    }
    while (dirtyDigits) {
      const digit = ctz(dirtyDigits);
      dirtyDigits &= dirtyDigits - 1;
      if (!reviseDigit(st, digit)) return false;
    }
  }
  return true;
}

/**
 * Places hidden singles (a digit with one place left in a row, box or column) for every digit.
 * Returns -1 on a contradiction (a unit where a digit has no place), else how many it placed.
 */
function placeHiddenSingles(st: usize): i32 {
  let placedCount = 0;
  for (let digit: u32 = 0; digit < 9; digit++) {
    const slot = digit * 3;
    for (let band: u32 = 0; band < 3; band++) {
      for (let unit: u32 = 0; unit < 6; unit++) {
        const cells = candidates(st, slot + band) & (unit < 3 ? <u32>0x1ff << (unit * 9) : BOX_CELLS << ((unit - 3) * 3));
        if (!cells) return -1;
        if ((cells & (cells - 1)) == 0 && (cells & unsolved(st, band))) {
          place(st, digit, band, cells);
          placedCount++;
        }
      }
    }
    for (let column: u32 = 0; column < 9; column++) {
      const mask = COLUMN_CELLS << column;
      const in0 = candidates(st, slot) & mask;
      const in1 = candidates(st, slot + 1) & mask;
      const in2 = candidates(st, slot + 2) & mask;
      const places = popcnt(in0) + popcnt(in1) + popcnt(in2);
      if (places == 0) return -1;
      if (places == 1) {
        const band: u32 = in0 ? 0 : in1 ? 1 : 2;
        const bit = in0 | in1 | in2;
        if (bit & unsolved(st, band)) {
          place(st, digit, band, bit);
          placedCount++;
        }
      }
    }
  }
  return placedCount;
}

/**
 * Propagates to a fixed point: the slot rules, then naked singles (then hidden singles at
 * level 2), until nothing changes. False on a contradiction.
 */
function propagate(st: usize): bool {
  nodes++;
  while (true) {
    if (LEVEL == 3) {
      if (!reviseDirty(st)) {
        dirtyDigits = 0;
        return false;
      }
    } else {
      dirty = 0;
    }
    let placedAny = false;
    for (let band: u32 = 0; band < 3; band++) {
      const open = unsolved(st, band);
      if (!open) continue;
      let once: u32 = 0;
      let twice: u32 = 0;
      for (let slot = band; slot < <u32>SLOTS; slot += 3) {
        const cells = candidates(st, slot);
        twice |= once & cells;
        once |= cells;
      }
      if (open & ~once) return false;
      if (LEVEL == 0) continue;
      let singles = open & ~twice;
      while (singles) {
        const bit = singles & (0 - singles);
        singles ^= bit;
        let slot = band;
        while (slot < <u32>SLOTS && !(candidates(st, slot) & bit)) slot += 3;
        if (slot >= <u32>SLOTS) return false; // an earlier single took its last candidate
        place(st, slot / 3, band, bit);
        placedAny = true;
      }
    }
    if (LEVEL == 2 && !placedAny) {
      const hidden = placeHiddenSingles(st);
      if (hidden < 0) return false;
      placedAny = hidden > 0;
    }
    if (!placedAny) return true;
  }
}

// ── search ──────────────────────────────────────────────────────────────────────────────────

/**
 * The cells of `band` with two candidates (with one, at level 0, where no propagation places
 * them: those come first).
 */
function branchCells(st: usize, band: u32): u32 {
  const open = unsolved(st, band);
  if (!open) return 0;
  let once: u32 = 0;
  let twice: u32 = 0;
  let thrice: u32 = 0;
  for (let slot = band; slot < <u32>SLOTS; slot += 3) {
    const cells = candidates(st, slot);
    thrice |= twice & cells;
    twice |= once & cells;
    once |= cells;
  }
  const forced = LEVEL == 0 ? open & ~twice : 0;
  return forced ? forced : open & twice & ~thrice;
}

/**
 * Picks the branch cell of a propagated state and writes it as the frame at `depth`.
 * Ranked (default): of the cells with two candidates, the first in the root's order (fewest
 * candidates at the root first); first: the first such cell in band order; both fall back to
 * the first cell with the fewest candidates. Static: the first unsolved cell of the root's order.
 */
function chooseBranch(st: usize, depth: i32): void {
  let bestBand: u32 = 0;
  let bestBit: u32 = 0;
  if (ORDER == 1) {
    for (let i = 0; i < cellOrderLength; i++) {
      const entry = load<u32>(CELL_ORDER_STACK + (<usize>i << 2));
      const bit = <u32>1 << (entry & 31);
      if (unsolved(st, entry >> 5) & bit) {
        bestBand = entry >> 5;
        bestBit = bit;
        break;
      }
    }
  } else {
    const pairs0 = branchCells(st, 0);
    const pairs1 = branchCells(st, 1);
    const pairs2 = branchCells(st, 2);
    if (ORDER == 0) {
      for (let i = 0; i < cellOrderLength; i++) {
        const entry = load<u32>(CELL_ORDER_STACK + (<usize>i << 2));
        const band = entry >> 5;
        const bit = <u32>1 << (entry & 31);
        if ((band == 0 ? pairs0 : band == 1 ? pairs1 : pairs2) & bit) {
          bestBand = band;
          bestBit = bit;
          break;
        }
      }
    } else if (pairs0 | pairs1 | pairs2) {
      bestBand = pairs0 ? 0 : pairs1 ? 1 : 2;
      const pairs = pairs0 ? pairs0 : pairs1 ? pairs1 : pairs2;
      bestBit = pairs & (0 - pairs);
    }
  }
  if (bestBit == 0) {
    let bestCount: u32 = 10;
    for (let band: u32 = 0; band < 3; band++) {
      let rest = unsolved(st, band);
      while (rest) {
        const bit = rest & (0 - rest);
        rest ^= bit;
        let count: u32 = 0;
        for (let slot = band; slot < <u32>SLOTS; slot += 3) count += (candidates(st, slot) & bit) != 0 ? 1 : 0;
        if (count < bestCount) {
          bestCount = count;
          bestBand = band;
          bestBit = bit;
        }
      }
    }
  }
  let digits: u32 = 0;
  for (let digit: u32 = 0; digit < 9; digit++) {
    if (candidates(st, digit * 3 + bestBand) & bestBit) digits |= <u32>1 << digit;
  }
  const at = <usize>depth << 2;
  store<u32>(FRAME_BAND + at, bestBand);
  store<u32>(FRAME_BIT + at, bestBit);
  store<u32>(FRAME_DIGITS + at, digits);
}

/**
 * Records the root's order: its unsolved cells by candidate count, then by the places their
 * candidates have left in the cell's row, column and box, most first (measured: 9% fewer
 * guesses on forum_hardest_1905 than by count alone), then by index. Insertion-sorted on a
 * packed score: count << 16 | (255 - places) << 8 | cell (places ≤ 9 × 27).
 */
function computeCellOrder(st: usize): void {
  cellOrderLength = 0;
  for (let band: u32 = 0; band < 3; band++) {
    let rest = unsolved(st, band);
    while (rest) {
      const bit = rest & (0 - rest);
      rest ^= bit;
      const index = ctz(bit);
      const rowCells = <u32>0x1ff << (index / 9 * 9);
      const boxCells = BOX_CELLS << (index % 9 / 3 * 3);
      const columnCells = COLUMN_CELLS << (index % 9);
      let count: u32 = 0;
      let places: u32 = 0;
      for (let slot = band; slot < <u32>SLOTS; slot += 3) {
        const cells = candidates(st, slot);
        if (!(cells & bit)) continue;
        const first = slot - band;
        count++;
        places += popcnt(cells & rowCells) + popcnt(cells & boxCells);
        places += popcnt(candidates(st, first) & columnCells) + popcnt(candidates(st, first + 1) & columnCells);
        places += popcnt(candidates(st, first + 2) & columnCells);
      }
      const score = (count << 16) | ((255 - places) << 8) | (band * 27 + index);
      let at = cellOrderLength;
      while (at > 0 && load<u32>(CELL_ORDER_SCORE + (<usize>(at - 1) << 2)) > score) {
        store<u32>(CELL_ORDER_SCORE + (<usize>at << 2), load<u32>(CELL_ORDER_SCORE + (<usize>(at - 1) << 2)));
        store<u32>(CELL_ORDER_STACK + (<usize>at << 2), load<u32>(CELL_ORDER_STACK + (<usize>(at - 1) << 2)));
        at--;
      }
      store<u32>(CELL_ORDER_SCORE + (<usize>at << 2), score);
      store<u32>(CELL_ORDER_STACK + (<usize>at << 2), (band << 5) | index);
      cellOrderLength++;
    }
  }
}

@inline function stateAt(depth: i32): usize {
  return STATES + <usize>depth * STATE_BYTES;
}

/** Writes the placed digits of a solved state as 81 bytes 1–9. */
function writeSolution(st: usize, out: usize): void {
  for (let slot: u32 = 0; slot < <u32>SLOTS; slot++) {
    const digit = <u8>(slot / 3 + 1);
    const base = out + <usize>(slot % 3) * 27;
    let cells = candidates(st, slot);
    while (cells) {
      store<u8>(base + ctz(cells), digit);
      cells &= cells - 1;
    }
  }
}

/** Digits seen in each row, column and box while loading clues (27 × u16). */
const SEEN_IN_UNIT: usize = memory.data(27 * 2, 2);

/** Loads 81 puzzle bytes into the root state: 1, or -1 for a byte over 9, -2 for a repeated clue. */
function loadPuzzle(puzzle: usize): i32 {
  const st = stateAt(0);
  for (let slot: u32 = 0; slot < <u32>SLOTS; slot++) store<u32>(st + (<usize>slot << 2), BAND_CELLS);
  for (let band: u32 = 0; band < 3; band++) setUnsolved(st, band, BAND_CELLS);
  memory.fill(SEEN_IN_UNIT, 0, 27 * 2);
  dirty = 0;
  for (let cell: u32 = 0; cell < <u32>CELLS; cell++) {
    const value = <u32>load<u8>(puzzle + cell);
    if (value > 9) return -1;
    if (value == 0) continue;
    const bit = <u16>(<u32>1 << value);
    const row = cell / 9;
    const column = cell % 9;
    const rowAt = SEEN_IN_UNIT + (<usize>row << 1);
    const columnAt = SEEN_IN_UNIT + (<usize>(9 + column) << 1);
    const boxAt = SEEN_IN_UNIT + (<usize>(18 + row / 3 * 3 + column / 3) << 1);
    if ((load<u16>(rowAt) | load<u16>(columnAt) | load<u16>(boxAt)) & bit) return -2;
    store<u16>(rowAt, load<u16>(rowAt) | bit);
    store<u16>(columnAt, load<u16>(columnAt) | bit);
    store<u16>(boxAt, load<u16>(boxAt) | bit);
  }
  for (let cell = 0; cell < CELLS; cell++) {
    const value = <u32>load<u8>(puzzle + cell);
    if (value != 0) place(st, value - 1, <u32>cell / 27, <u32>1 << (<u32>cell % 27));
  }
  dirty = (<u32>1 << SLOTS) - 1;
  return 1;
}

/**
 * Counts the solutions of the 81-byte puzzle at `puzzle` up to `limit`, writing the first into
 * the 81 bytes at `solution`. Returns the count, or -1 when a byte is over 9, -2 when a clue is
 * repeated in a row, column or box. Sets `guesses`
 * and `nodes`; stops early, with `nodes` negated, once more than `budget` nodes (0: no cap).
 */
function countSolutions(puzzle: usize, solution: usize, limit: i32, budget: i32): i32 {
  guesses = 0;
  nodes = 0;
  const loaded = loadPuzzle(puzzle);
  if (loaded < 0) return loaded;
  let count = 0;
  let depth = 0;
  let st = stateAt(0);
  while (true) {
    let alive = propagate(st);
    if (ORDER != 2 && nodes == 1 && alive) computeCellOrder(st);
    if (alive) {
      if ((unsolved(st, 0) | unsolved(st, 1) | unsolved(st, 2)) == 0) {
        if (count == 0) writeSolution(st, solution);
        if (++count >= limit) return count;
        alive = false;
      } else if (budget > 0 && nodes >= budget) {
        nodes = -nodes;
        return count;
      } else {
        chooseBranch(st, depth);
        const at = <usize>depth << 2;
        const digits = load<u32>(FRAME_DIGITS + at);
        const digit = ctz(digits);
        const band = load<u32>(FRAME_BAND + at);
        const bit = load<u32>(FRAME_BIT + at);
        dirty = 0;
        if ((digits & (digits - 1)) == 0) {
          place(st, digit, band, bit); // a forced cell: no guess, no new level
          continue;
        }
        store<u32>(FRAME_DIGITS + at, digits & (digits - 1));
        memory.copy(stateAt(depth + 1), st, STATE_BYTES);
        depth++;
        st = stateAt(depth);
        guesses++;
        place(st, digit, band, bit);
        continue;
      }
    }
    // Backtrack to the deepest branch with an untried digit.
    if (depth == 0) return count;
    const at = <usize>(depth - 1) << 2;
    const digits = load<u32>(FRAME_DIGITS + at);
    const digit = ctz(digits);
    const rest = digits & (digits - 1);
    if (rest) {
      store<u32>(FRAME_DIGITS + at, rest);
      memory.copy(stateAt(depth), stateAt(depth - 1), STATE_BYTES);
      guesses++;
    } else {
      depth--; // the last digit of this branch is no guess: work in the parent state
    }
    st = stateAt(depth);
    dirty = 0;
    place(st, digit, load<u32>(FRAME_BAND + at), load<u32>(FRAME_BIT + at));
  }
  return count;
}

// ── exports ─────────────────────────────────────────────────────────────────────────────────

let batchBase: usize = 0;
let batchCapacity: i32 = 0;

/** Byte offsets of a batch of `count` puzzles: solutions, then 4-byte aligned counts and guesses. */
@inline function solutionsAt(base: usize, count: i32): usize {
  return base + <usize>count * CELLS;
}
@inline function countsAt(base: usize, count: i32): usize {
  return (solutionsAt(base, count) + <usize>count * CELLS + 3) & ~(<usize>3);
}

/** The largest batch in bytes: one heap block of the stub runtime (2^30 minus its header). */
const MAX_BATCH_BYTES: u64 = (1 << 30) - 64;

/**
 * Room for a batch of `count` puzzles; returns its base, or 0 when `count` is negative or the
 * batch would be over {@link MAX_BATCH_BYTES} (sizes are computed in 64 bits, so nothing wraps).
 * A larger batch replaces the block of the last one (the last block on the heap, so freeing it
 * gives its memory back): memory is bounded by the largest batch, not by the sum of batches.
 * May grow memory.
 */
export function reserve(count: i32): usize {
  if (count < 0) return 0;
  const bytes = ((<u64>count * (2 * CELLS) + 3) & ~(<u64>3)) + <u64>count * 12; // the layout above, in 64 bits
  if (bytes > MAX_BATCH_BYTES) return 0;
  if (count > batchCapacity) {
    if (batchBase != 0) heap.free(batchBase);
    batchBase = heap.alloc(<usize>bytes);
    batchCapacity = count;
  }
  return batchBase;
}

/**
 * Solves the `count` puzzles of the batch at `base` (layout above), counting up to `limit`;
 * `budget` caps the nodes of each search (0: no cap).
 */
export function solveBatch(base: usize, count: i32, limit: i32, budget: i32): i32 {
  if (base != batchBase || count < 0 || count > batchCapacity) return -1; // only the reserved batch, never past it
  const solutions = solutionsAt(base, count);
  const counts = countsAt(base, count);
  const guessCounts = counts + <usize>count * 4;
  const nodeCounts = guessCounts + <usize>count * 4;
  for (let i = 0; i < count; i++) {
    const offset = <usize>i * CELLS;
    const found = countSolutions(base + offset, solutions + offset, limit, budget);
    store<i32>(counts + (<usize>i << 2), found);
    store<i32>(guessCounts + (<usize>i << 2), guesses);
    store<i32>(nodeCounts + (<usize>i << 2), nodes);
  }
  return count;
}
