// The 9×9 kernel: band bitboards per digit, constraint propagation, counting to a limit.
//
// Glossary
//   band   three rows of boxes: band 0 is rows 1–3, band 1 rows 4–6, band 2 rows 7–9.
//   slot   one (digit, band) pair, 27 slots: slot = band * 9 + digit (band-major: a band's
//          nine masks side by side, four to a v128).
//   stack  three columns of boxes (the vertical twin of a band); a line is a band or a stack.
//   triad  three cells of one row (or of one column) inside one box.
//   configuration  which triad of each row (or column) of a line a digit takes: one of the
//          six row→box (band→column) permutations.
//   guess  an alternative taken while another remains (a cell's digit, a digit's configuration).
//
// State: one 27-bit mask per slot holds the cells of the band where the digit may still go
// (the cell where it is placed stays set), plus one 27-bit mask per band of unsolved cells.
// Where a band's nine masks are read or narrowed together (othersLeave, the naked-singles pass,
// the triad rule's counts), four go to a v128; rule 3 takes digits 0–7's columns eight to a v128,
// and the branch choice their configuration counts in each line.
//
//   slot mask, bit = row * 9 + column inside the band:
//        box 0     box 1     box 2
//      ┌─────────┬─────────┬─────────┐
//   r0 │  0  1  2│  3  4  5│  6  7  8│
//   r1 │  9 10 11│ 12 13 14│ 15 16 17│
//   r2 │ 18 19 20│ 21 22 23│ 24 25 26│
//      └─────────┴─────────┴─────────┘
//
//   state (192 bytes):  candidates[27] u32 │ unsolved[3] u32 │ pad │ triads[27] u16 │ pad
//   (triads: each slot's row×box matrix as rule 1 last left it, read by the triad rule and the
//   branch choice instead of recomputing it)
//
// Propagation for a slot whose mask changed (the rules are exact, never heuristic):
//   1. row/box permutation: the digit takes one cell in each row and in each box of the band,
//      so only the triads that lie on some row→box permutation survive (table PERMUTATION).
//      This covers locked candidates (pointing and claiming) and hidden singles in boxes.
//   2. a row with a single candidate places the digit there: the cell leaves the other digits.
//   3. (per digit) the vertical twin of rule 1 over each stack of boxes: bands × columns.
//      With rule 1 it also clears the columns a band owns from the other bands.
//   4. (per band) a triad holds exactly three digits, along rows and along columns: where only
//      three digits can go, each must; where three must, no other can (reviseTriads).
// When no slot is left to revisit, cells with one candidate (naked singles) are placed; a cell
// with none is a contradiction; then rule 4 runs on the bands that changed. In the root state
// alone (the puzzle's first propagation, before any branch), hidden pairs come last: two digits
// whose only places in a row, column or box are the same two cells take them, and the other
// digits leave both (reviseHiddenPairs); what they clear goes back to rules 1–4. Then the search
// branches on an explicit stack of states (no recursion, no allocation), on a configuration:
// a digit's configuration in a band is which of the six row→box permutations its three triads
// follow (in a stack, band→column). Of the six lines (bands, then stacks) with a digit not yet
// fixed, the one with the fewest configurations over its digits, a fixed digit counting ¾ of
// one (lineScore); in it the digit with the fewest (two when it can); each configuration is one
// alternative. A guess is every alternative but the last. (Close to tdoku's DPLL triad solver,
// which counts a fixed digit as one.) The search decides once,
// at its first branch, how it scores lines: when the lowest score there is above 85 (about two
// and a half configurations per digit), that branch and every later one take instead the line
// with the fewest digits not yet fixed, the most configurations on ties (the digits-first score,
// LINE_SCORE_DIGITS).
//
// Variants, chosen at compile time (asc --use NAME=value; see the asbuild:variants script), so
// the hot loop carries no flag checks:
//   PROPAGATION  3 rules 1–3 + naked singles (default) │ 2 naked + hidden singles, peers
//                eliminated on placement │ 1 naked singles only │ 0 none (forward checking)
//   TRIADS       3 rule 4 on row and column triads (default) │ 1 rows only │ 2 columns only │ 0 none
//   BRANCHING    0 configurations (default with rule 4) │ 1 cells: a cell with the fewest
//                candidates (two, when there is one), chosen by CELL_ORDER │ 2 configurations,
//                but a two-candidate cell (by CELL_ORDER) when the digit chosen has three or more
//   CELL_ORDER   0 ranked: a two-candidate cell, the first in the root's order (fewest
//                candidates at the root, then most places left for them in its units) │
//                1 static: the root's order (computed once per puzzle) │ 2 first: a
//                two-candidate cell, the first in band order │ 3 peers: the two-candidate cell
//                with the most unsolved peers (row, column, box), the first in band order on ties
//   CONFIGURATION_CHOICE  0 the line with the lowest score, its digit with the fewest (default) │
//                1 a digit with two configurations in the lowest-scored line that has one, first
//   CONFIGURATION_SCORE   0 4 per configuration of a digit not yet fixed (default) │ 1 8, 12, 14,
//                16, 17 for two to six configurations (less than linear from three) │ 2 the line
//                with the fewest digits not yet fixed, the most configurations on ties │ 3 the
//                same, the fewest configurations on ties
//   FIXED_DIGIT_WEIGHT    3 a fixed digit weighs ¾ of a configuration in a line's score (default)
//                │ 0 fixed digits not counted
//   FISH         0 none (default) │ 1 X-wings along rows and columns at the fixed point of rules 1–4
//   PROBING      0 none (default) │ 1 before branching, each digit with two configurations in the
//                chosen line has both propagated (failed-literal probing): one that fails fixes the
//                other, no guess; the probes count as nodes │ 2 the same in every line
//   DIGITS_ABOVE 0 none (default) │ n: where the lowest line score is above n, the line the
//                digits-first score (CONFIGURATION_SCORE 2) picks instead
//   DIGITS_ROOT_ABOVE  85 (default) │ n: a search whose first branch has its lowest line score
//                above n picks every line by the digits-first score │ 0 never
//   HIDDEN_PAIRS 0 none (default) │ n hidden pairs in rows, columns and boxes at the fixed point
//                of rules 1–4, in the search stack's first n levels (1: the root's)
//   ROOT_PAIRS   1 the same hidden pairs in the search's root state only, its first propagation
//                before any branch (default) │ 0 none
//   AHEAD_BRANCHES  0 none (default) │ k: at the first k branches of a search, the default's
//                branch and the digits-first one both propagated one step ahead, the one with
//                fewer configurations alive taken; its propagated configurations are kept
//   PROBE_KEEP   0 (default) │ 1 with PROBING, the probes' states kept, not propagated again: the
//                branch's digit's two probes are the states the search takes (guesses counted as
//                the default counts them)
//   PROBE_ONCE_PER_PATH  0 (default) │ 1 with PROBE_KEEP, a digit's pair of configurations in a
//                line probed once on a path of the search (not again below a state where both lived)
//   CONFIG_MATCHING  0 none (default) │ 1 per line, the nine digits' configurations together: each
//                even permutation taken by 3 - t digits, each odd one by t (rule 4 on all nine
//                triads at once), at the fixed point of rules 1–4
//   WEIGHTED_LINES  0 none (default) │ k: a line's score divided by k plus the contradictions
//                found in it so far in the puzzle's search (weighted degree)
//   NAKED_PAIRS  0 none (default) │ 1 naked pairs (two cells of a row, column or box with the same
//                two candidates take them) at the fixed point of rules 1–4 in the root state │ 2 in every state
//   DIGIT_TIES   0 the lowest digit (default) │ 1 the fewest candidate cells │ 2 the fewest clues:
//                the branch's digit among the chosen line's digits with the fewest configurations
// Each variant changes what the search does (its rules, or its branch: its guesses and nodes);
// a choice that changes only the speed is no variant: the faster side is the code.
//
// The module exports reserve (batch.ts: the batch's layout and block), solveBatch (below) and
// the text in and out of the CLI's byte path (text.ts).

import { CELLS, capped, carryCounts, countsAt, nodeLimit, outsideReservedBatch, solutionsAt, startCounts, storeCounts } from "./batch";

const SLOTS: i32 = 27;
const BAND_CELLS: u32 = 0x7ffffff;
const STATE_BYTES: usize = 192;
const UNSOLVED_OFFSET: usize = 108;
/** Per slot (u16): its row×box triad matrix as rule 1 last left it (see reviseSlot). */
const TRIADS_OFFSET: usize = 128;
const MAX_DEPTH: i32 = 82;

/** Propagation level of this build (see the header). */
const LEVEL: i32 = isDefined(PROPAGATION) ? PROPAGATION : 3;
/** Cell order of this build: 0 ranked (default), 1 static, 2 first in band order. */
const ORDER: i32 = isDefined(CELL_ORDER) ? CELL_ORDER : 0;
/** The triad rule of this build (level 3 only): 3 both orientations (default), 1 rows only, 2 columns only, 0 none. */
const TRIAD: i32 = LEVEL == 3 ? (isDefined(TRIADS) ? TRIADS : 3) : 0;
/**
 * What this build branches on: 0 a digit's configurations in a band or stack (the default with
 * rule 4), 1 cells (the default without it: configurations chosen digit by digit can crowd four
 * digits into one triad, which rules 1–3 do not see, and the search stalls on near-empty grids).
 */
const BRANCH: i32 = isDefined(BRANCHING) ? BRANCHING : TRIAD != 0 ? 0 : 1;
/** The slot of `digit` in `band` (band-major: a band's nine masks side by side). */
@inline function slotOf(digit: u32, band: u32): u32 {
  return band * 9 + digit;
}
/** SLOT_BAND[slot], SLOT_DIGIT[slot]: a slot's band and digit (one load; V8 divides by 9 with a multiply and four more instructions). */
const SLOT_BAND: usize = memory.data(32);
const SLOT_DIGIT: usize = memory.data(32);
for (let slot: u32 = 0; slot < 27; slot++) {
  store<u8>(slot, <u8>(slot / 9), SLOT_BAND);
  store<u8>(slot, <u8>(slot % 9), SLOT_DIGIT);
}
/** The band of a slot. */
@inline function bandOf(slot: u32): u32 {
  return <u32>load<u8>(slot, SLOT_BAND);
}
/** The digit of a slot. */
@inline function digitOf(slot: u32): u32 {
  return <u32>load<u8>(slot, SLOT_DIGIT);
}
/** The lowest digit with a slot in the set `slots` (not empty). */
@inline function lowestDigit(slots: u32): u32 {
  return ctz((slots | (slots >> 9) | (slots >> 18)) & 0x1ff);
}
/** The three slots of digit 0, one bit per slot; shift by the digit (digitSlots). */
const DIGIT_SLOTS: u32 = 0x40201;
/** The slots of one digit, one bit per slot. */
@inline function digitSlots(digit: u32): u32 {
  return DIGIT_SLOTS << digit;
}
/** The nine slots of band 0, one bit per slot; shift by the band (bandSlots). */
const BAND_SLOTS: u32 = 0x1ff;
/** The slots of one band, one bit per slot. */
@inline function bandSlots(band: u32): u32 {
  return BAND_SLOTS << (band * 9);
}

/** The cells of box 0 in a band mask; shift by 3 per box. */
const BOX_CELLS: u32 = 0x1c0e07;
/** The cells of column 0 in a band mask; shift by 1 per column. */
const COLUMN_CELLS: u32 = 0x40201;

// ── tables ──────────────────────────────────────────────────────────────────────────────────
//
// A table (and a state's fixed offset) is read as load<T>(index, TABLE): the table's address is
// the load's constant offset, which V8 folds into the instruction; TABLE + index costs an add.

/** ROW_BOXES[row bits] = which of the three boxes a 9-bit row touches (3 bits). */
const ROW_BOXES: usize = memory.data(512);
/** MATCHED[3×3 bit matrix] = the entries of the matrix that lie on some permutation (9 bits). */
const MATCHED: usize = memory.data(512 * 2, 2);
/** PERMUTATION[row×box matrix] = MATCHED spread to the 27-bit cell mask of its triads. */
const PERMUTATION: usize = memory.data(512 * 4, 4);
/** PERMUTATION_MATCHED[row×box matrix] = PERMUTATION | MATCHED << 32: both in one load (the search's rule 1). */
const PERMUTATION_MATCHED: usize = memory.data(512 * 8, 8);
/** CONFIGURATIONS[3×3 bit matrix] = the permutations (6 bits, numbered as in buildTables) inside it. */
const CONFIGURATIONS: usize = memory.data(512);
/** LONE_IN_GROUP[9 bits] = the bits alone in their group of three (bits 0–2, 3–5, 6–8). */
const LONE_IN_GROUP: usize = memory.data(512 * 2, 2);
/** ENTRY_CELLS[9 entries of a row×box matrix] = the 27-bit cell mask of those triads. */
const ENTRY_CELLS: usize = memory.data(512 * 4, 4);
/** CONFIGURATION_CELLS[permutation] = the 27-bit cell mask of its three triads (row r in box p[r]). */
const CONFIGURATION_CELLS: usize = memory.data(6 * 4, 4);
/** CONFIGURATION_COLUMN[permutation * 3 + band] = the column (0–2) inside a stack it gives the band. */
const CONFIGURATION_COLUMN: usize = memory.data(18);
/** States of the search stack: slot `depth` is the working state. */
const STATES: usize = memory.data(<i32>STATE_BYTES * MAX_DEPTH, 16);
/** Per digit, the columns (band 0 | band 1 << 9 | band 2 << 18) rule 3 last left at a root: its fixed point. */
const SETTLED_COLUMNS: usize = memory.data(9 * 4, 4);
/**
 * Per search level (one u32 each), what it branches on and the alternatives left to try:
 *   FRAME_BAND_OR_LINE    a cell's band (0–2), or LINE_FRAME + a line (0–2 the bands, 3–5 the stacks)
 *   FRAME_CELL_OR_DIGIT   the cell's bit in its band, or the digit whose configurations are tried
 *   FRAME_ALTERNATIVES    the untried alternatives: the cell's digits (9 bits) or the digit's
 *                         configurations in the line (6 bits)
 */
const FRAME_BAND_OR_LINE: usize = memory.data(MAX_DEPTH * 4, 4);
const FRAME_CELL_OR_DIGIT: usize = memory.data(MAX_DEPTH * 4, 4);
const FRAME_ALTERNATIVES: usize = memory.data(MAX_DEPTH * 4, 4);
const LINE_FRAME: u32 = 8;
/** The entries of the root's cell order of the current puzzle, first to last: band << 5 | bit index (cellOrderLength of them). */
const CELL_ORDER_ENTRIES: usize = memory.data(CELLS * 4, 4);
/** The sort key of each entry of the cell order (see computeCellOrder). */
const CELL_ORDER_SCORE: usize = memory.data(CELLS * 4, 4);
let cellOrderLength: i32 = 0;

function buildTables(): void {
  for (let row: u32 = 0; row < 512; row++) {
    let boxes: u32 = 0;
    for (let box: u32 = 0; box < 3; box++) if ((row >> (box * 3)) & 7) boxes |= <u32>1 << box;
    store<u8>(row, <u8>boxes, ROW_BOXES);
  }
  // The six permutations of three rows onto three boxes, as box of row 0, 1, 2.
  const perms: StaticArray<u32> = [0, 1, 2, 0, 2, 1, 1, 0, 2, 1, 2, 0, 2, 0, 1, 2, 1, 0];
  for (let matrix: u32 = 0; matrix < 512; matrix++) {
    let matched: u32 = 0;
    let configurations: u32 = 0;
    for (let p = 0; p < 6; p++) {
      let entries: u32 = 0;
      for (let row: u32 = 0; row < 3; row++) entries |= <u32>1 << (row * 3 + perms[p * 3 + row]);
      if ((matrix & entries) == entries) {
        matched |= entries;
        configurations |= <u32>1 << p;
      }
    }
    let lone: u32 = 0;
    for (let group: u32 = 0; group < 9; group += 3) {
      const bits = (matrix >> group) & 7;
      if (bits && (bits & (bits - 1)) == 0) lone |= bits << group;
    }
    store<u16>(matrix << 1, <u16>lone, LONE_IN_GROUP);
    store<u8>(matrix, <u8>configurations, CONFIGURATIONS);
    let cells: u32 = 0;
    let entryCells: u32 = 0;
    for (let entry: u32 = 0; entry < 9; entry++) {
      if ((matched >> entry) & 1) cells |= <u32>7 << ((entry / 3) * 9 + (entry % 3) * 3);
      if ((matrix >> entry) & 1) entryCells |= <u32>7 << ((entry / 3) * 9 + (entry % 3) * 3);
    }
    store<u32>(matrix << 2, entryCells, ENTRY_CELLS);
    store<u16>(matrix << 1, <u16>matched, MATCHED);
    store<u32>(matrix << 2, cells, PERMUTATION);
    store<u64>(matrix << 3, <u64>cells | (<u64>matched << 32), PERMUTATION_MATCHED);
  }
  for (let p = 0; p < 6; p++) {
    let cells: u32 = 0;
    for (let row: u32 = 0; row < 3; row++) {
      cells |= <u32>7 << (row * 9 + perms[p * 3 + row] * 3);
      store<u8>(p * 3 + row, <u8>perms[p * 3 + row], CONFIGURATION_COLUMN);
    }
    store<u32>(<usize>p << 2, cells, CONFIGURATION_CELLS);
  }
}
buildTables();
memory.fill(SETTLED_COLUMNS, 0xff, 9 * 4); // no column set is settled yet

// ── state access ────────────────────────────────────────────────────────────────────────────

/** Guesses taken by the current search. */
let guesses: i32 = 0;
/** States propagated by the current search. */
let nodes: i32 = 0;

/**
 * At a search's node limit (nodeLimit): true when that is its budget (the search stops); without
 * one (or past two billion states, see capped), false, once the counts have moved to their i64
 * totals (the search goes on; `nodes` stays above 1, where the root's checks look).
 */
function spent(budget: i32): bool {
  if (capped(budget)) return true;
  carryCounts(guesses, nodes);
  nodes = 2;
  guesses = 0;
  return false;
}

/** The candidate mask of `slot` in state `st`. */
@inline function candidates(st: usize, slot: u32): u32 {
  return load<u32>(st + (<usize>slot << 2));
}

/**
 * Narrows the mask of `slot` to `mask` bits; returns the slot's bit when it changed (the slot is
 * then dirty: to revisit), else 0. Dirty sets are passed around in locals, never kept in a global:
 * a wasm global costs a memory access on every use.
 */
@inline function narrow(st: usize, slot: u32, mask: u32): u32 {
  const at = st + (<usize>slot << 2);
  const old = load<u32>(at);
  const next = old & mask;
  store<u32>(at, next);
  return next != old ? <u32>1 << slot : 0;
}

/** narrow, for a slot whose mask the caller has just read (`old`). */
@inline function narrowFrom(st: usize, slot: u32, old: u32, mask: u32): u32 {
  const next = old & mask;
  store<u32>(st + (<usize>slot << 2), next);
  return next != old ? <u32>1 << slot : 0;
}

@inline function unsolved(st: usize, band: u32): u32 {
  return load<u32>(st + (<usize>band << 2), UNSOLVED_OFFSET);
}

@inline function setUnsolved(st: usize, band: u32, cells: u32): void {
  store<u32>(st + (<usize>band << 2), cells, UNSOLVED_OFFSET);
}

/**
 * DIGIT_LANES[digit] = two v128s, a band's digits 0–3 and 4–7 (othersLeave), all ones in the
 * digit's lane and zero in the others (digit 8: zero in both).
 */
const DIGIT_LANES: usize = memory.data(9 * 32, 16);
for (let digit: u32 = 0; digit < 9; digit++) {
  for (let lane: u32 = 0; lane < 8; lane++) store<u32>((<usize>digit << 5) + (<usize>lane << 2), lane == digit ? 0xffffffff : 0, DIGIT_LANES);
}

/**
 * The `cells` of `band` leave every digit's mask but that of `digit`, which becomes `own`. Returns
 * the slots changed, but the digit's. The nine masks without a loop (V8 checks the stack at each
 * loop head): digits 0–3 and 4–7 in a v128 each, then digit 8. The digit's mask is written in its
 * lane, not stored alone before or after: a v128 load over a u32 store still in flight waits for
 * it (the store cannot be forwarded), and the next slot's pass loads the band again at once. The
 * digit's lane is picked by a mask loaded from a table, and the masks that changed are those not
 * equal (x64 has no compare for "not equal": V8 makes it an equal and two more instructions).
 */
@inline function othersLeave(st: usize, band: u32, digit: u32, own: u32, cells: u32): u32 {
  const base = st + (<usize>slotOf(0, band) << 2);
  const lanes = <usize>digit << 5;
  const keep = ~cells;
  const keepAll = i32x4.splat(keep);
  const ownAll = i32x4.splat(own);
  const low = v128.load(base);
  const high = v128.load(base, 16);
  const last = load<u32>(base, 32);
  const lowNext = v128.bitselect(ownAll, v128.and(low, keepAll), v128.load(lanes, DIGIT_LANES));
  const highNext = v128.bitselect(ownAll, v128.and(high, keepAll), v128.load(lanes, DIGIT_LANES + 16));
  const lastNext = digit == 8 ? own : last & keep;
  v128.store(base, lowNext);
  v128.store(base, highNext, 16);
  store<u32>(base, lastNext, 32);
  const sameBand = <u32>i32x4.bitmask(i32x4.eq(low, lowNext)) | (<u32>i32x4.bitmask(i32x4.eq(high, highNext)) << 4) | (<u32>(last == lastNext) << 8);
  return ((sameBand | (<u32>1 << digit)) ^ BAND_SLOTS) << (band * 9);
}

/** The three rows of a band spread a 9-bit column set to all three rows. */
@inline function spreadColumns(columns: u32): u32 {
  return columns * 0x40201;
}

/**
 * Places `digit` on the cell `bit` of `band`, where it is a candidate: the digit leaves the rest
 * of the row, the other digits leave the cell. Returns the slots it changed.
 */
@inline function place(st: usize, digit: u32, band: u32, bit: u32): u32 {
  const slot = slotOf(digit, band);
  const index = ctz(bit);
  const row = index / 9;
  let changed: u32 = 0;
  const old = candidates(st, slot);
  let own: u32 = 0;
  if (LEVEL == 3) {
    own = old & (~(<u32>0x1ff << (row * 9)) | bit); // rules 1–3 clear the box and column
  } else {
    const column = index % 9;
    own = old & (~((<u32>0x1ff << (row * 9)) | (BOX_CELLS << (column / 3 * 3))) | bit);
    const columnCells = ~(COLUMN_CELLS << column);
    for (let other: u32 = 0; other < 3; other++) if (other != band) changed |= narrow(st, slotOf(digit, other), columnCells);
  }
  if (own != old) changed |= <u32>1 << slot;
  changed |= othersLeave(st, band, digit, own, bit);
  setUnsolved(st, band, unsolved(st, band) & ~bit);
  return changed;
}

// ── propagation ─────────────────────────────────────────────────────────────────────────────

/** What reviseSlot and reviseDigit return on a contradiction (slots use bits 0–26). */
const CONTRADICTION: u32 = 0x80000000;

/**
 * WEIGHTED_LINES (see the header): per line (band 0–2, stack 3–5), the contradictions found in it
 * in this puzzle's search. Rules 1, 2 and 4 and the naked singles blame their band, rule 3 its stack.
 */
const WEIGHTED: bool = isDefined(WEIGHTED_LINES) ? WEIGHTED_LINES != 0 : false;
const LINE_WEIGHTS: usize = WEIGHTED ? memory.data(6 * 4, 16) : 0;
@inline function blame(line: u32): void {
  if (WEIGHTED) store<u32>(<usize>line << 2, load<u32>(<usize>line << 2, LINE_WEIGHTS) + 1, LINE_WEIGHTS);
}
/** A line's score divided by WEIGHTED_LINES plus its contradictions, in 1/4096ths (the score itself when not weighted). */
@inline function weighed(score: u32, line: u32): u32 {
  return WEIGHTED ? (score << 12) / (<u32>WEIGHTED_LINES + load<u32>(<usize>line << 2, LINE_WEIGHTS)) : score;
}

/**
 * Applies rules 1 and 2 to one slot (of `digit`, passed in: the caller has it); returns the slots
 * it changed, or CONTRADICTION. `atRoot` as in propagateAt.
 */
@inline function reviseSlot(st: usize, slot: u32, digit: u32, atRoot: bool): u32 {
  const band = bandOf(slot);
  let cells = candidates(st, slot);
  // 1. row/box permutation
  const matrix =
    <u32>load<u8>(cells & 0x1ff, ROW_BOXES) |
    (<u32>load<u8>((cells >> 9) & 0x1ff, ROW_BOXES) << 3) |
    (<u32>load<u8>(cells >> 18, ROW_BOXES) << 6);
  // The search reads the surviving cells and the triads from one table of both, the root from
  // two: each is the faster where it runs (one load on the hard sets, two on the easy ones).
  if (atRoot) {
    cells &= load<u32>(matrix << 2, PERMUTATION);
    if (cells == 0) {
      if (WEIGHTED) blame(band);
      return CONTRADICTION;
    }
    store<u16>(st + (<usize>slot << 1), load<u16>(matrix << 1, MATCHED), TRIADS_OFFSET);
  } else {
    const both = load<u64>(matrix << 3, PERMUTATION_MATCHED);
    cells &= <u32>both;
    if (cells == 0) {
      if (WEIGHTED) blame(band);
      return CONTRADICTION;
    }
    store<u16>(st + (<usize>slot << 1), <u16>(both >> 32), TRIADS_OFFSET);
  }
  // 2. rows with a single candidate are placed
  const row0 = cells & 0x1ff;
  const row1 = cells & (0x1ff << 9);
  const row2 = cells & (0x1ff << 18);
  const singles = ((row0 & (row0 - 1)) == 0 ? row0 : 0) | ((row1 & (row1 - 1)) == 0 ? row1 : 0) | ((row2 & (row2 - 1)) == 0 ? row2 : 0);
  // Not asked first whether it placed any: that branch goes either way about as often, and
  // mispredicted it costs more than the v128 pass. A single already placed is no different:
  // no other digit holds its cell any more, so the other digits need not wait for the
  // unsolved cells to be read.
  setUnsolved(st, band, unsolved(st, band) & ~singles);
  return othersLeave(st, band, digit, cells, singles); // nothing leaves when nothing is placed
}

/** The columns (9 bits) where a band mask has a candidate. */
@inline function columnsOf(cells: u32): u32 {
  return (cells | (cells >> 9) | (cells >> 18)) & 0x1ff;
}

/** Per group of three bits (18 groups: a u64), its lowest bit; its two lower; its highest; its two higher. */
const GROUPS_LOW1: u64 = 0x9249249249249;
const GROUPS_LOW2: u64 = GROUPS_LOW1 * 3;
const GROUPS_HIGH1: u64 = GROUPS_LOW1 << 2;
const GROUPS_HIGH2: u64 = GROUPS_LOW1 * 6;

/**
 * 3. column/box permutation, the vertical twin of rule 1: in each stack of boxes the digit
 * takes one cell in each column and in each box, so for every stack only the (band, column)
 * pairs on some band→column permutation survive. This covers locked candidates along
 * columns and hidden singles in columns. Returns the slots it changed, or CONTRADICTION.
 * A (band, column) pair is on a permutation when the other two bands can take the stack's other
 * two columns, one each: the nine stacks' pairs at once, without a table, over the digit's columns
 * (band b at bits 9b) written twice in a u64, so that shifting by 9 or 18 reads the next bands
 * and turning each group of three bits reads the next columns of a stack.
 */
@inline function reviseDigit(st: usize, digit: u32, atRoot: bool): u32 {
  // the three masks are read once: the narrowing below starts from them
  const cells0 = candidates(st, slotOf(digit, 0));
  const cells1 = candidates(st, slotOf(digit, 1));
  const cells2 = candidates(st, slotOf(digit, 2));
  const columns = columnsOf(cells0) | (columnsOf(cells1) << 9) | (columnsOf(cells2) << 18);
  // The rule reads only the columns, and its result is a fixed point of it: when they are
  // what it left last time for this digit (at any root), it has nothing to remove. Only the
  // root asks: there the answer is often yes; in the search the branch goes either way about
  // as often, and the rule costs less than the branch mispredicted.
  const settledAt = SETTLED_COLUMNS + (<usize>digit << 2);
  if (atRoot && columns == load<u32>(settledAt)) return 0;
  const twice = <u64>columns | (<u64>columns << 27);
  // each column's bit holds the next column of its stack, and the one after
  const next1 = ((twice >> 1) & GROUPS_LOW2) | ((twice << 2) & GROUPS_HIGH1);
  const next2 = ((twice >> 2) & GROUPS_LOW1) | ((twice << 1) & GROUPS_HIGH2);
  const keep = columns & <u32>(((next1 >> 9) & (next2 >> 18)) | ((next2 >> 9) & (next1 >> 18)));
  // a stack with a permutation keeps a column of band 0 (every permutation crosses it)
  const stacks = (keep | (keep >> 1) | (keep >> 2)) & 0x49;
  if (stacks != 0x49) {
    if (WEIGHTED) blame(3 + ctz(~stacks & 0x49) / 3);
    return CONTRADICTION;
  }
  if (atRoot) store<u32>(settledAt, keep);
  return narrowFrom(st, slotOf(digit, 0), cells0, spreadColumns(keep & 0x1ff)) | narrowFrom(st, slotOf(digit, 1), cells1, spreadColumns((keep >> 9) & 0x1ff)) |
    narrowFrom(st, slotOf(digit, 2), cells2, spreadColumns(keep >> 18));
}

/**
 * The v128 constants of rule 3 and the triad rule, 16 bytes each (offsets below), read with one
 * load where V8 would build each, at every use, in three instructions. As u16 lanes, the bits of
 * three groups of three: the two lower of each, the highest, the lowest, the two higher; as u32
 * lanes the same for two 9-bit halves (loneInGroups4's GROUP_LOW | GROUP_LOW << 1, GROUP_LOW << 2,
 * GROUP_LOW and GROUP_HIGH). Then u32 lanes of a 9-bit row, and of spreadColumns' multiplier.
 */
const V128_CONSTANTS: usize = memory.data<u32>(
  [
    0xdb00db, 0xdb00db, 0xdb00db, 0xdb00db,
    0x1240124, 0x1240124, 0x1240124, 0x1240124,
    0x490049, 0x490049, 0x490049, 0x490049,
    0x1b601b6, 0x1b601b6, 0x1b601b6, 0x1b601b6,
    0x1ff, 0x1ff, 0x1ff, 0x1ff,
    0x40201, 0x40201, 0x40201, 0x40201,
  ],
  16,
);
const NEXT_LOW: u32 = 0;
const NEXT_HIGH: u32 = 16;
const GROUPS_LOW: u32 = 32;
const GROUPS_HIGH: u32 = 48;
const ROW_BITS: u32 = 64;
const SPREAD: u32 = 80;
/** The constant at `offset` of V128_CONSTANTS. */
@inline function constant(offset: u32): v128 {
  return v128.load(V128_CONSTANTS + <usize>offset);
}
/** Rule 3's next column of a stack (see reviseDigit), for eight digits' columns (9 bits a lane). */
@inline function nextColumn8(columns: v128): v128 {
  return v128.or(v128.and(i16x8.shr_u(columns, 1), constant(NEXT_LOW)), v128.and(i16x8.shl(columns, 2), constant(NEXT_HIGH)));
}
/** Rule 3's column after next of a stack, for eight digits' columns. */
@inline function afterNextColumn8(columns: v128): v128 {
  return v128.or(v128.and(i16x8.shr_u(columns, 2), constant(GROUPS_LOW)), v128.and(i16x8.shl(columns, 1), constant(GROUPS_HIGH)));
}
/** Of a band's columns `own` (eight digits), those the two other bands' columns leave on a permutation of their stack. */
@inline function keptColumns8(own: v128, other1: v128, other2: v128): v128 {
  return v128.and(own, v128.or(v128.and(nextColumn8(other1), afterNextColumn8(other2)), v128.and(afterNextColumn8(other1), nextColumn8(other2))));
}
/** Narrows four digits' masks of a band (`cells`) to the columns `kept` (the low or high half of eight). */
@inline function narrowColumns4(cells: v128, kept: v128): v128 {
  return v128.and(cells, i32x4.mul(kept, constant(SPREAD))); // (spreadColumns)
}
/** The slots of digits 0–7 (band-major) whose masks `before` and `after` the same; `low0`… the bands' digits 0–3 and 4–7. */
@inline function sameMasks8(low0: v128, low0Next: v128, high0: v128, high0Next: v128, low1: v128, low1Next: v128, high1: v128, high1Next: v128, low2: v128, low2Next: v128, high2: v128, high2Next: v128): u32 {
  const band0 = <u32>i32x4.bitmask(i32x4.eq(low0, low0Next)) | (<u32>i32x4.bitmask(i32x4.eq(high0, high0Next)) << 4);
  const band1 = <u32>i32x4.bitmask(i32x4.eq(low1, low1Next)) | (<u32>i32x4.bitmask(i32x4.eq(high1, high1Next)) << 4);
  const band2 = <u32>i32x4.bitmask(i32x4.eq(low2, low2Next)) | (<u32>i32x4.bitmask(i32x4.eq(high2, high2Next)) << 4);
  return band0 | (band1 << 9) | (band2 << 18);
}
/** The slots of digits 0–7, one bit each (band-major). */
const EIGHT_DIGITS_SLOTS: u32 = 0xff | (0xff << 9) | (0xff << 18);

/**
 * Rule 3 (reviseDigit) for digits 0–7 at once, their columns eight to a v128 (16 bits a digit):
 * a round of the search, or of a root not taken digit by digit, runs it once whichever of digits
 * 0–7 the round changed, rather than reviseDigit digit by digit (and without the root's settled
 * check). The rule is exact, so revising a digit more often changes no fixed point (nor the
 * search: the same guesses and nodes). Returns the slots it changed, or CONTRADICTION.
 */
@inline function reviseDigits8(st: usize): u32 {
  const low0 = v128.load(st);
  const high0 = v128.load(st, 16);
  const low1 = v128.load(st, 36);
  const high1 = v128.load(st, 52);
  const low2 = v128.load(st, 72);
  const high2 = v128.load(st, 88);
  const columns0 = i16x8.narrow_i32x4_u(columnsOf4(low0), columnsOf4(high0));
  const columns1 = i16x8.narrow_i32x4_u(columnsOf4(low1), columnsOf4(high1));
  const columns2 = i16x8.narrow_i32x4_u(columnsOf4(low2), columnsOf4(high2));
  const kept0 = keptColumns8(columns0, columns1, columns2);
  const kept1 = keptColumns8(columns1, columns2, columns0);
  const kept2 = keptColumns8(columns2, columns0, columns1);
  // a stack with a permutation keeps a column of band 0 (every permutation crosses it)
  const firsts = constant(GROUPS_LOW);
  const stacks = v128.and(v128.or(v128.or(kept0, i16x8.shr_u(kept0, 1)), i16x8.shr_u(kept0, 2)), firsts);
  if (!i16x8.all_true(i16x8.eq(stacks, firsts))) return CONTRADICTION;
  const low0Next = narrowColumns4(low0, i32x4.extend_low_i16x8_u(kept0));
  const high0Next = narrowColumns4(high0, i32x4.extend_high_i16x8_u(kept0));
  const low1Next = narrowColumns4(low1, i32x4.extend_low_i16x8_u(kept1));
  const high1Next = narrowColumns4(high1, i32x4.extend_high_i16x8_u(kept1));
  const low2Next = narrowColumns4(low2, i32x4.extend_low_i16x8_u(kept2));
  const high2Next = narrowColumns4(high2, i32x4.extend_high_i16x8_u(kept2));
  v128.store(st, low0Next);
  v128.store(st, high0Next, 16);
  v128.store(st, low1Next, 36);
  v128.store(st, high1Next, 52);
  v128.store(st, low2Next, 72);
  v128.store(st, high2Next, 88);
  const same = sameMasks8(low0, low0Next, high0, high0Next, low1, low1Next, high1, high1Next, low2, low2Next, high2, high2Next);
  return ~same & EIGHT_DIGITS_SLOTS;
}

/**
 * The row×box matrix of `slot`, read from the state where rule 1 left it: valid when the slot was
 * revised after it last changed (always at a fixed point of rules 1–3; in the triad rule, for
 * every slot not in `narrowed`).
 */
@inline function triadsAt(st: usize, slot: u32, narrowed: u32): u32 {
  return narrowed & (<u32>1 << slot) ? triadsOf(candidates(st, slot)) : <u32>load<u16>(st + (<usize>slot << 1), TRIADS_OFFSET);
}

/** The row×box matrix of a band mask: bit row * 3 + box is set when the triad holds a candidate. */
@inline function triadsOf(cells: u32): u32 {
  return (
    <u32>load<u8>(cells & 0x1ff, ROW_BOXES) |
    (<u32>load<u8>((cells >> 9) & 0x1ff, ROW_BOXES) << 3) |
    (<u32>load<u8>(cells >> 18, ROW_BOXES) << 6)
  );
}


/** columnsOf for four band masks at once. */
@inline function columnsOf4(cells: v128): v128 {
  return v128.and(v128.or(v128.or(cells, i32x4.shr_u(cells, 9)), i32x4.shr_u(cells, 18)), constant(ROW_BITS));
}

/** Groups of three bits at 0–8 and 16–24: the lowest, and the two upper bits of each group. */
const GROUP_LOW: u32 = 0x490049;
const GROUP_HIGH: u32 = 0x1b601b6;
/** The bits of `bits` (groups of three at 0–8 and 16–24) alone in their group (LONE_IN_GROUP of each half). */
@inline function loneInGroups(bits: u32): u32 {
  // each bit against the other two of its group: the group turned by one and by two places
  const turned1 = ((bits >> 1) & (GROUP_LOW | (GROUP_LOW << 1))) | ((bits << 2) & (GROUP_LOW << 2));
  const turned2 = ((bits >> 2) & GROUP_LOW) | ((bits << 1) & GROUP_HIGH);
  return bits & ~turned1 & ~turned2;
}
/** loneInGroups for four words at once. */
@inline function loneInGroups4(bits: v128): v128 {
  // (the constants as loaded: GROUP_LOW | GROUP_LOW << 1, GROUP_LOW << 2, GROUP_LOW, GROUP_HIGH)
  const turned1 = v128.or(v128.and(i32x4.shr_u(bits, 1), constant(NEXT_LOW)), v128.and(i32x4.shl(bits, 2), constant(NEXT_HIGH)));
  const turned2 = v128.or(v128.and(i32x4.shr_u(bits, 2), constant(GROUPS_LOW)), v128.and(i32x4.shl(bits, 1), constant(GROUPS_HIGH)));
  return v128.andnot(bits, v128.or(turned1, turned2));
}

/**
 * Of nine words (digits 0–3 in `low`'s lanes, 4–7 in `high`'s, 8 in `last`), the bits set in at
 * least three (low half of the result) and in at least four (high half): counts kept as
 * thresholds (at least 1, 2, 3, 4), lanes folded 2+3 onto 0+1, then 1 onto 0.
 */
@inline function atLeastThreeAndFour(low: v128, high: v128, last: u32): u64 {
  // per lane, two words: at least one, at least two
  const one = v128.or(low, high);
  const two = v128.and(low, high);
  // lanes 2+3 onto 0+1: four words per lane
  const oneTurned = i32x4.shuffle(one, one, 2, 3, 0, 1);
  const twoTurned = i32x4.shuffle(two, two, 2, 3, 0, 1);
  const one4 = v128.or(one, oneTurned);
  const two4 = v128.or(v128.or(two, twoTurned), v128.and(one, oneTurned));
  const three4 = v128.or(v128.and(two, oneTurned), v128.and(one, twoTurned));
  const four4 = v128.and(two, twoTurned);
  // lane 1 onto 0: eight words
  const one4Turned = i32x4.shuffle(one4, one4, 1, 0, 3, 2);
  const two4Turned = i32x4.shuffle(two4, two4, 1, 0, 3, 2);
  const three4Turned = i32x4.shuffle(three4, three4, 1, 0, 3, 2);
  const four4Turned = i32x4.shuffle(four4, four4, 1, 0, 3, 2);
  const two8 = v128.or(v128.or(two4, two4Turned), v128.and(one4, one4Turned));
  const three8 = v128.or(v128.or(three4, three4Turned), v128.or(v128.and(two4, one4Turned), v128.and(one4, two4Turned)));
  const four8 = v128.or(v128.or(four4, four4Turned), v128.or(v128.or(v128.and(three4, one4Turned), v128.and(two4, two4Turned)), v128.and(one4, three4Turned)));
  const atLeast2 = <u32>i32x4.extract_lane(two8, 0);
  const atLeast3 = <u32>i32x4.extract_lane(three8, 0);
  const atLeast4 = <u32>i32x4.extract_lane(four8, 0);
  // and digit 8
  return <u64>(atLeast3 | (atLeast2 & last)) | (<u64>(atLeast4 | (atLeast3 & last)) << 32);
}

/** Where reviseTriads, leaving early, says how many bands it finished (1–2; 0: all three). */
const TRIAD_BANDS_SHIFT: u32 = 27;

/**
 * 4. the triad rule: a triad (three cells of a row, or of a column, inside one box) holds exactly
 * three digits. Where only three digits can go, each of them must (it leaves the rest of the
 * triad's row or column and box); where three digits must go, no other can. Runs when rules 1–3
 * are at their fixed point; there a digit must go to a triad exactly when it is the digit's only
 * one in its row (or column) of triads (LONE_IN_GROUP), so a band's triads depend on that band's
 * slots alone and a band whose slots did not change is skipped. Returns the slots it changed,
 * or CONTRADICTION.
 */
function reviseTriads(st: usize, changed: u32): u32 {
  let dirty: u32 = 0;
  for (let band: u32 = 0; band < 3; band++) {
    if (!(changed & bandSlots(band))) continue;
    // counts per triad, bit-sliced, rows and columns of triads side by side in one word: the row
    // triads at bits 0–8 (bit row * 3 + box), the column triads at bits 16–24 (16 + column)
    let thrice: u32 = 0, more: u32 = 0, mustThrice: u32 = 0, mustMore: u32 = 0;
    // per digit, the triads it may take but need not (four digits to a v128, then digit 8): those
    // the rule can clear, so the loop below visits only the digits it changes (every digit after
    // the count one at a time, which leaves them all set)
    let freeLow = i32x4.splat(-1), freeHigh = i32x4.splat(-1);
    let freeLast: u32 = 0xffffffff;
    if (TRIAD == 3 && !(dirty & bandSlots(band))) {
      // the same counts four digits to a v128 (digits 0–3 and 4–7 lane by lane, then the lanes
      // folded, then digit 8), the row triads from rule 1's cache, the lone ones computed
      const base = st + (<usize>slotOf(0, band) << 2);
      const cached = st + TRIADS_OFFSET + (<usize>slotOf(0, band) << 1);
      const rowsAll = v128.load(cached);
      const low = v128.or(i32x4.extend_low_i16x8_u(rowsAll), i32x4.shl(columnsOf4(v128.load(base)), 16));
      const high = v128.or(i32x4.extend_high_i16x8_u(rowsAll), i32x4.shl(columnsOf4(v128.load(base, 16)), 16));
      const last = <u32>load<u16>(cached, 16) | (columnsOf(load<u32>(base, 32)) << 16);
      const counts = atLeastThreeAndFour(low, high, last);
      thrice = <u32>counts;
      more = <u32>(counts >> 32);
      const loneLow = loneInGroups4(low);
      const loneHigh = loneInGroups4(high);
      const loneLast = loneInGroups(last);
      const mustCounts = atLeastThreeAndFour(loneLow, loneHigh, loneLast);
      mustThrice = <u32>mustCounts;
      mustMore = <u32>(mustCounts >> 32);
      freeLow = v128.andnot(low, loneLow);
      freeHigh = v128.andnot(high, loneHigh);
      freeLast = last & ~loneLast;
    } else {
      let once: u32 = 0, twice: u32 = 0;
      let must: u32 = 0, mustTwice: u32 = 0;
      for (let digit: u32 = 0; digit < 9; digit++) {
        const slot = slotOf(digit, band);
        const rows = TRIAD & 1 ? triadsAt(st, slot, dirty) : 0;
        const columns = TRIAD & 2 ? columnsOf(candidates(st, slot)) : 0;
        const triads = rows | (columns << 16);
        const required = <u32>load<u16>(rows << 1, LONE_IN_GROUP) | (<u32>load<u16>(columns << 1, LONE_IN_GROUP) << 16);
        more |= thrice & triads;
        thrice |= twice & triads;
        twice |= once & triads;
        once |= triads;
        mustMore |= mustThrice & required;
        mustThrice |= mustTwice & required;
        mustTwice |= must & required;
        must |= required;
      }
    }
    // every triad takes three digits: some can go to each, no four must
    const all = (TRIAD & 1 ? <u32>0x1ff : 0) | (TRIAD & 2 ? <u32>0x1ff << 16 : 0);
    if (((thrice & all) ^ all) | mustMore) {
      if (WEIGHTED) blame(band);
      return CONTRADICTION;
    }
    // three can go, not yet three must; three must, and a fourth still can (else nothing to clear)
    const onlyThree = thrice & ~more & ~mustThrice;
    const full = mustThrice & ~mustMore & more;
    const rowsOnlyThree = onlyThree & 0x1ff;
    const rowsFull = full & 0x1ff;
    const columnsOnlyThree = onlyThree >> 16;
    const columnsFull = full >> 16;
    if (!(rowsOnlyThree | rowsFull | columnsOnlyThree | columnsFull)) continue;
    const clear = onlyThree | full;
    const clearAll = i32x4.splat(clear);
    const zero = i32x4.splat(0);
    let digits = <u32>i32x4.bitmask(i32x4.ne(v128.and(freeLow, clearAll), zero)) | (<u32>i32x4.bitmask(i32x4.ne(v128.and(freeHigh, clearAll), zero)) << 4) |
      (freeLast & clear ? <u32>0x100 : 0);
    while (digits) {
      const digit = ctz(digits);
      digits &= digits - 1;
      const slot = slotOf(digit, band);
      const cells = candidates(st, slot);
      if (TRIAD & 1) {
        const rows = triadsAt(st, slot, dirty);
        const required = <u32>load<u16>(rows << 1, LONE_IN_GROUP);
        // a triad the digit must take (row r, box x) clears the rest of row r and of box x
        let keep = rows;
        let rest = rows & rowsOnlyThree & ~required;
        while (rest) {
          const entry = ctz(rest);
          rest &= rest - 1;
          keep &= ~((<u32>7 << (entry / 3 * 3)) | (<u32>0x49 << (entry % 3))) | (<u32>1 << entry);
        }
        keep &= ~(rows & rowsFull & ~required);
        if (keep != rows) dirty |= narrow(st, slot, load<u32>(<usize>keep << 2, ENTRY_CELLS));
      }
      if (TRIAD & 2) {
        const columns = columnsOf(cells);
        const required = <u32>load<u16>(columns << 1, LONE_IN_GROUP);
        let rest = columns & columnsOnlyThree & ~required;
        while (rest) {
          // a triad the digit must take (band b, column c) clears the rest of column c and of the box
          const column = ctz(rest);
          rest &= rest - 1;
          const bit = <u32>1 << column;
          dirty |= narrow(st, slot, ~spreadColumns(<u32>7 << (column / 3 * 3)) | spreadColumns(bit));
          for (let other: u32 = 0; other < 3; other++) if (other != band) dirty |= narrow(st, slotOf(digit, other), ~spreadColumns(bit));
        }
        const excluded = columns & columnsFull & ~required;
        if (excluded) dirty |= narrow(st, slot, ~spreadColumns(excluded));
      }
    }
    if (dirty) return dirty | ((band + 1) << TRIAD_BANDS_SHIFT); // back to rules 1–3; the later bands wait
  }
  return dirty;
}

/**
 * Places hidden singles (a digit with one place left in a row, box or column) for every digit.
 * Returns -1 on a contradiction (a unit where a digit has no place), else how many it placed.
 */
function placeHiddenSingles(st: usize): i32 {
  let placedCount = 0;
  for (let digit: u32 = 0; digit < 9; digit++) {
    for (let band: u32 = 0; band < 3; band++) {
      for (let unit: u32 = 0; unit < 6; unit++) {
        const cells = candidates(st, slotOf(digit, band)) & (unit < 3 ? <u32>0x1ff << (unit * 9) : BOX_CELLS << ((unit - 3) * 3));
        if (!cells) return -1;
        if ((cells & (cells - 1)) == 0 && (cells & unsolved(st, band))) {
          place(st, digit, band, cells);
          placedCount++;
        }
      }
    }
    for (let column: u32 = 0; column < 9; column++) {
      const mask = COLUMN_CELLS << column;
      const in0 = candidates(st, slotOf(digit, 0)) & mask;
      const in1 = candidates(st, slotOf(digit, 1)) & mask;
      const in2 = candidates(st, slotOf(digit, 2)) & mask;
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

/** FISH (0 none, default): 1 X-wings along rows and columns, run when rules 1–4 are at their fixed point. */
const FISH_RULE: i32 = isDefined(FISH) ? FISH : 0;
/** Per row of the grid, a digit's columns there (then per column, its rows): scratch for reviseFish. */
const FISH_LINES: usize = FISH_RULE != 0 ? memory.data(9 * 4, 4) : 0;

/**
 * X-wing: two rows where a digit has the same two columns (and nowhere else in those rows) take
 * both columns: the other rows lose them; likewise two columns with the same two rows. Returns the
 * slots it changed.
 */
function reviseFish(st: usize): u32 {
  let changed: u32 = 0;
  for (let digit: u32 = 0; digit < 9; digit++) {
    const c0 = candidates(st, slotOf(digit, 0));
    const c1 = candidates(st, slotOf(digit, 1));
    const c2 = candidates(st, slotOf(digit, 2));
    // rows: row k's columns
    let pairs: u32 = 0; // rows with two columns
    for (let k: u32 = 0; k < 9; k++) {
      const cells = k < 3 ? c0 : k < 6 ? c1 : c2;
      const columns = (cells >> ((k % 3) * 9)) & 0x1ff;
      store<u32>(<usize>k << 2, columns, FISH_LINES);
      if (popcnt(columns) == 2) pairs |= <u32>1 << k;
    }
    let remove0: u32 = 0, remove1: u32 = 0, remove2: u32 = 0;
    let rest = pairs;
    while (rest) {
      const i = ctz(rest);
      rest &= rest - 1;
      const columns = load<u32>(<usize>i << 2, FISH_LINES);
      let others = rest;
      while (others) {
        const j = ctz(others);
        others &= others - 1;
        if (load<u32>(<usize>j << 2, FISH_LINES) != columns) continue;
        for (let k: u32 = 0; k < 9; k++) {
          if (k == i || k == j) continue;
          const bits = columns << ((k % 3) * 9);
          if (k < 3) remove0 |= bits;
          else if (k < 6) remove1 |= bits;
          else remove2 |= bits;
        }
      }
    }
    // columns: column c's rows
    pairs = 0;
    for (let c: u32 = 0; c < 9; c++) {
      const rows = ((c0 >> c) & 1) | ((c0 >> (c + 8)) & 2) | ((c0 >> (c + 16)) & 4) |
        (((c1 >> c) & 1) << 3) | (((c1 >> (c + 8)) & 2) << 3) | (((c1 >> (c + 16)) & 4) << 3) |
        (((c2 >> c) & 1) << 6) | (((c2 >> (c + 8)) & 2) << 6) | (((c2 >> (c + 16)) & 4) << 6);
      store<u32>(<usize>c << 2, rows, FISH_LINES);
      if (popcnt(rows) == 2) pairs |= <u32>1 << c;
    }
    rest = pairs;
    while (rest) {
      const i = ctz(rest);
      rest &= rest - 1;
      const rows = load<u32>(<usize>i << 2, FISH_LINES);
      let others = rest;
      while (others) {
        const j = ctz(others);
        others &= others - 1;
        if (load<u32>(<usize>j << 2, FISH_LINES) != rows) continue;
        const columns = (<u32>0x1ff & ~((<u32>1 << i) | (<u32>1 << j)));
        // rows r of the pair lose the other columns
        let r = rows;
        while (r) {
          const row = ctz(r);
          r &= r - 1;
          const bits = columns << ((row % 3) * 9);
          if (row < 3) remove0 |= bits;
          else if (row < 6) remove1 |= bits;
          else remove2 |= bits;
        }
      }
    }
    if (remove0) changed |= narrow(st, slotOf(digit, 0), ~remove0);
    if (remove1) changed |= narrow(st, slotOf(digit, 1), ~remove1);
    if (remove2) changed |= narrow(st, slotOf(digit, 2), ~remove2);
  }
  return changed;
}

/**
 * CONFIG_MATCHING (0 none, default): 1 in each line (band or stack), the nine digits' configurations
 * taken together: the line's triads hold three digits each exactly when the three even permutations
 * are each taken by 3 - t digits and the three odd ones by t (t 0–3), so a configuration of a digit
 * on no such assignment of all nine is dropped (as the triads that only it used), and a line with
 * none is a contradiction. Exact (lineSupport); run when rules 1–4 are at their fixed point. Rule 4
 * is this rule for each triad alone: the sets of configurations below (K) that are one triad's two
 * permutations or the other four.
 */
const MATCHING_RULE: i32 = isDefined(CONFIG_MATCHING) ? CONFIG_MATCHING : 0;
const EVEN_CONFIGURATIONS: u32 = 0x19;
/** Per digit of the line being revised: its configurations, then those on some assignment (u32 each). */
const MATCH_SETS: usize = MATCHING_RULE != 0 ? memory.data(9 * 4, 4) : 0;
const MATCH_SUPPORT: usize = MATCHING_RULE != 0 ? memory.data(9 * 4, 4) : 0;
/** CONFIGURATION_ENTRIES[p] = the entries (row * 3 + box) of permutation p in a 3×3 matrix. */
const CONFIGURATION_ENTRIES: usize = MATCHING_RULE != 0 ? memory.data(6 * 4, 4) : 0;
if (MATCHING_RULE != 0) {
  for (let q: u32 = 0; q < 6; q++) {
    let entries: u32 = 0;
    for (let row: u32 = 0; row < 3; row++) entries |= <u32>1 << (row * 3 + <u32>load<u8>(q * 3 + row, CONFIGURATION_COLUMN));
    store<u32>(<usize>q << 2, entries, CONFIGURATION_ENTRIES);
  }
}

/** Per set K of configurations (64, u8 each): the digits of the line whose configurations lie inside K. */
const MATCH_INSIDE: usize = MATCHING_RULE != 0 ? memory.data(64, 16) : 0;
/** MATCH_CAPACITY[t * 64 + K] = the digits K takes when each even permutation takes 3 - t and each odd t. */
const MATCH_CAPACITY: usize = MATCHING_RULE != 0 ? memory.data(4 * 64, 16) : 0;
if (MATCHING_RULE != 0) {
  for (let t: u32 = 0; t < 4; t++) {
    for (let k: u32 = 0; k < 64; k++) store<u8>(t * 64 + k, <u8>((3 - t) * popcnt(k & EVEN_CONFIGURATIONS) + t * popcnt(k & ~EVEN_CONFIGURATIONS & 0x3f)), MATCH_CAPACITY);
  }
}

/**
 * Fills MATCH_SUPPORT from MATCH_SETS (see MATCHING_RULE); false when no assignment exists. By
 * Hall's theorem: for a t, the nine digits can be assigned iff no set K of configurations holds more
 * digits (those whose configurations all lie in K) than it takes; and a digit's configuration p is
 * on some assignment iff no set K that holds exactly as many as it takes (tight) has p in it without
 * holding the digit.
 */
function lineSupport(): bool {
  memory.fill(MATCH_INSIDE, 0, 64);
  for (let d: u32 = 0; d < 9; d++) {
    const at = MATCH_INSIDE + <usize>load<u32>(<usize>d << 2, MATCH_SETS);
    store<u8>(at, load<u8>(at) + 1);
  }
  for (let bit: u32 = 1; bit < 64; bit <<= 1) {
    for (let k: u32 = 0; k < 64; k++) if (k & bit) store<u8>(k, load<u8>(k, MATCH_INSIDE) + load<u8>(k ^ bit, MATCH_INSIDE), MATCH_INSIDE);
  }
  const inside0 = v128.load(MATCH_INSIDE);
  const inside1 = v128.load(MATCH_INSIDE, 16);
  const inside2 = v128.load(MATCH_INSIDE, 32);
  const inside3 = v128.load(MATCH_INSIDE, 48);
  let any = false;
  for (let d: u32 = 0; d < 9; d++) store<u32>(<usize>d << 2, 0, MATCH_SUPPORT);
  for (let t: u32 = 0; t < 4; t++) {
    const caps = MATCH_CAPACITY + t * 64;
    const over = v128.or(
      v128.or(i8x16.gt_u(inside0, v128.load(caps)), i8x16.gt_u(inside1, v128.load(caps, 16))),
      v128.or(i8x16.gt_u(inside2, v128.load(caps, 32)), i8x16.gt_u(inside3, v128.load(caps, 48))),
    );
    if (v128.any_true(over)) continue;
    any = true;
    let tight: u64 =
      <u64>i8x16.bitmask(i8x16.eq(inside0, v128.load(caps))) |
      (<u64>i8x16.bitmask(i8x16.eq(inside1, v128.load(caps, 16))) << 16) |
      (<u64>i8x16.bitmask(i8x16.eq(inside2, v128.load(caps, 32))) << 32) |
      (<u64>i8x16.bitmask(i8x16.eq(inside3, v128.load(caps, 48))) << 48);
    tight &= ~((<u64>1 << 63) | 1); // the full set and the empty one rule nothing out
    // per digit, the configurations a tight set not holding it takes away
    let lost0: u32 = 0, lost1: u32 = 0, lost2: u32 = 0, lost3: u32 = 0, lost4: u32 = 0, lost5: u32 = 0, lost6: u32 = 0, lost7: u32 = 0, lost8: u32 = 0;
    const s0 = load<u32>(MATCH_SETS), s1 = load<u32>(MATCH_SETS, 4), s2 = load<u32>(MATCH_SETS, 8);
    const s3 = load<u32>(MATCH_SETS, 12), s4 = load<u32>(MATCH_SETS, 16), s5 = load<u32>(MATCH_SETS, 20);
    const s6 = load<u32>(MATCH_SETS, 24), s7 = load<u32>(MATCH_SETS, 28), s8 = load<u32>(MATCH_SETS, 32);
    while (tight) {
      const k = <u32>ctz(tight);
      tight &= tight - 1;
      if (s0 & ~k) lost0 |= k;
      if (s1 & ~k) lost1 |= k;
      if (s2 & ~k) lost2 |= k;
      if (s3 & ~k) lost3 |= k;
      if (s4 & ~k) lost4 |= k;
      if (s5 & ~k) lost5 |= k;
      if (s6 & ~k) lost6 |= k;
      if (s7 & ~k) lost7 |= k;
      if (s8 & ~k) lost8 |= k;
    }
    store<u32>(MATCH_SUPPORT, load<u32>(MATCH_SUPPORT) | (s0 & ~lost0));
    store<u32>(MATCH_SUPPORT, load<u32>(MATCH_SUPPORT, 4) | (s1 & ~lost1), 4);
    store<u32>(MATCH_SUPPORT, load<u32>(MATCH_SUPPORT, 8) | (s2 & ~lost2), 8);
    store<u32>(MATCH_SUPPORT, load<u32>(MATCH_SUPPORT, 12) | (s3 & ~lost3), 12);
    store<u32>(MATCH_SUPPORT, load<u32>(MATCH_SUPPORT, 16) | (s4 & ~lost4), 16);
    store<u32>(MATCH_SUPPORT, load<u32>(MATCH_SUPPORT, 20) | (s5 & ~lost5), 20);
    store<u32>(MATCH_SUPPORT, load<u32>(MATCH_SUPPORT, 24) | (s6 & ~lost6), 24);
    store<u32>(MATCH_SUPPORT, load<u32>(MATCH_SUPPORT, 28) | (s7 & ~lost7), 28);
    store<u32>(MATCH_SUPPORT, load<u32>(MATCH_SUPPORT, 32) | (s8 & ~lost8), 32);
  }
  return any;
}

/** The entries of a 3×3 matrix that the configurations `set` use. */
@inline function configurationEntries(set: u32): u32 {
  let entries: u32 = 0;
  while (set) {
    entries |= load<u32>(<usize>ctz(set) << 2, CONFIGURATION_ENTRIES);
    set &= set - 1;
  }
  return entries;
}

/** MATCHING_RULE over the six lines; returns the slots changed, or CONTRADICTION. */
function reviseMatching(st: usize): u32 {
  let changed: u32 = 0;
  for (let line: u32 = 0; line < 6; line++) {
    let open = false;
    for (let d: u32 = 0; d < 9; d++) {
      const set = <u32>load<u8>(lineMatrix(st, line, d), CONFIGURATIONS);
      if (set & (set - 1)) open = true;
      store<u32>(<usize>d << 2, set, MATCH_SETS);
    }
    if (!open) continue;
    if (!lineSupport()) return CONTRADICTION;
    for (let d: u32 = 0; d < 9; d++) {
      const set = load<u32>(<usize>d << 2, MATCH_SETS);
      const support = load<u32>(<usize>d << 2, MATCH_SUPPORT);
      if (support == set) continue;
      const entries = configurationEntries(support);
      if (line < 3) {
        changed |= narrow(st, slotOf(d, line), load<u32>(<usize>entries << 2, ENTRY_CELLS));
      } else {
        const shift = (line - 3) * 3;
        for (let band: u32 = 0; band < 3; band++) {
          const keep = (entries >> (band * 3)) & 7;
          changed |= narrow(st, slotOf(d, band), ~spreadColumns((~keep & 7) << shift));
        }
      }
    }
    if (changed) return changed;
  }
  return changed;
}

/**
 * HIDDEN_PAIRS (see the header): in the search stack's slots 0 to n - 1 (1: the root and the
 * states that take the last alternative of a branch of it, and so on).
 */
const PAIRS: i32 = isDefined(HIDDEN_PAIRS) ? HIDDEN_PAIRS : 0;
/** The first state of the search stack where hidden pairs no longer run. */
const PAIRS_END: usize = STATES + <usize>(PAIRS < MAX_DEPTH ? PAIRS : MAX_DEPTH) * STATE_BYTES;
/** ROOT_PAIRS (see the header): not in the states that later take slot 0 (a level-0 branch's last alternative). */
const PAIRS_AT_ROOT: bool = isDefined(ROOT_PAIRS) ? ROOT_PAIRS != 0 : true;
/** Per digit, its cells in the unit reviseHiddenPairs is looking at (9 bits): scratch. */
const UNIT_CELLS: usize = PAIRS != 0 || PAIRS_AT_ROOT ? memory.data(9 * 4, 4) : 0;
/**
 * The 27 masks as reviseHiddenPairs last saw them (at the start of its pass), and at PAIRS_CLEAN
 * the bands (one bit each) whose rows and boxes that pass scanned and found nothing to change:
 * such a band, its masks unchanged since, has nothing to change in the next pass either (in any
 * state: what a pass finds depends on the masks alone).
 */
const PAIRS_SEEN: usize = PAIRS != 0 || PAIRS_AT_ROOT ? memory.data(116, 16) : 0;
const PAIRS_CLEAN: usize = PAIRS_SEEN + 112;

/**
 * NAKED_PAIRS (0 none, default) | 1 in the root state only (its first propagation) | 2 in every
 * state: naked pairs in rows, columns and boxes at the fixed point of rules 1–4 (after hidden
 * pairs, where they run). Two cells of a unit with the same two candidates take those two digits,
 * which leave the unit's other cells. Rules 1–4 and hidden pairs do not see them: in a unit of k
 * open cells a naked pair is a hidden set of k - 2 digits.
 */
const NAKED: i32 = isDefined(NAKED_PAIRS) ? NAKED_PAIRS : 0;
/** Per cell (band * 27 + bit, u16): its two candidates (9 bits), written for the cells with two; scratch. */
const NAKED_KEYS: usize = NAKED != 0 ? memory.data(81 * 2, 4) : 0;

/** The digits of `key` leave `cells` of `band`; returns the slots changed. */
function nakedLeave(st: usize, band: u32, cells: u32, key: u32): u32 {
  let changed: u32 = 0;
  while (key) {
    const digit = ctz(key);
    key &= key - 1;
    changed |= narrow(st, slotOf(digit, band), ~cells);
  }
  return changed;
}

/** The two candidates of the cell `bit` of `band` (from NAKED_KEYS). */
@inline function nakedKey(band: u32, bit: u32): u32 {
  return <u32>load<u16>((<usize>band * 27 + bit) << 1, NAKED_KEYS);
}

/**
 * The naked pairs among the two-candidate cells `pairs` of one unit of `band` (`unit` its cells):
 * the two digits of each two cells alike leave the unit's other cells. Returns the slots changed.
 */
function unitNakedPairs(st: usize, band: u32, pairs: u32, unit: u32): u32 {
  let changed: u32 = 0;
  while (pairs) {
    const first = ctz(pairs);
    pairs &= pairs - 1;
    const key = nakedKey(band, first);
    let rest = pairs;
    while (rest) {
      const second = ctz(rest);
      rest &= rest - 1;
      if (nakedKey(band, second) == key) changed |= nakedLeave(st, band, unit & ~((<u32>1 << first) | (<u32>1 << second)), key);
    }
  }
  return changed;
}

/** The digits (9 bits) whose masks hold the cell `bit`, of a band's masks of digits 0–3 (`low`), 4–7 (`high`) and 8 (`eight`). */
@inline function cellDigits(low: v128, high: v128, eight: u32, bit: u32): u32 {
  const bits = i32x4.splat(bit);
  const zero = i32x4.splat(0);
  return <u32>i32x4.bitmask(i32x4.ne(v128.and(low, bits), zero)) | (<u32>i32x4.bitmask(i32x4.ne(v128.and(high, bits), zero)) << 4) |
    (eight & bit ? <u32>0x100 : 0);
}

/** The rows of a band's cells in column 0 (bits 0, 9, 18) as three bits. */
@inline function columnRows(cells: u32): u32 {
  return (cells & 1) | ((cells >> 8) & 2) | ((cells >> 16) & 4);
}

/** Naked pairs (see NAKED_PAIRS); returns the slots changed. */
function reviseNakedPairs(st: usize): u32 {
  let changed: u32 = 0;
  let twos0: u32 = 0, twos1: u32 = 0, twos2: u32 = 0;
  for (let band: u32 = 0; band < 3; band++) {
    // the band's nine masks: digits 0–3, 4–7, and 8 (the other three lanes zero)
    const base = st + (<usize>slotOf(0, band) << 2);
    const low = v128.load(base);
    const high = v128.load(base, 16);
    const last = v128.load32_zero(base, 32);
    const pairs = atLeastTwo(low, high, last) & ~atLeastThree(low, high, last);
    if (band == 0) twos0 = pairs;
    else if (band == 1) twos1 = pairs;
    else twos2 = pairs;
    if (!pairs) continue;
    // each cell's two digits
    const eight = <u32>i32x4.extract_lane(last, 0);
    let cells = pairs;
    while (cells) {
      const bit = cells & (0 - cells);
      cells ^= bit;
      store<u16>((<usize>band * 27 + ctz(bit)) << 1, <u16>cellDigits(low, high, eight, bit), NAKED_KEYS);
    }
    for (let row: u32 = 0; row < 3; row++) {
      const unit = <u32>0x1ff << (row * 9);
      const held = pairs & unit;
      if (held & (held - 1)) changed |= unitNakedPairs(st, band, held, unit);
    }
    for (let box: u32 = 0; box < 3; box++) {
      const unit = BOX_CELLS << (box * 3);
      const held = pairs & unit;
      if (held & (held - 1)) changed |= unitNakedPairs(st, band, held, unit);
    }
  }
  if (changed) return changed;
  // columns: the column's two-candidate cells over the three bands
  for (let column: u32 = 0; column < 9; column++) {
    const unit = COLUMN_CELLS << column;
    const held0 = twos0 & unit, held1 = twos1 & unit, held2 = twos2 & unit;
    if (popcnt(held0) + popcnt(held1) + popcnt(held2) < 2) continue;
    // the column as 9 bits, band * 3 + row
    let all = columnRows(held0 >> column) | (columnRows(held1 >> column) << 3) | (columnRows(held2 >> column) << 6);
    while (all) {
      const first = ctz(all);
      all &= all - 1;
      const key = nakedKey(first / 3, (first % 3) * 9 + column);
      let rest = all;
      while (rest) {
        const second = ctz(rest);
        rest &= rest - 1;
        if (nakedKey(second / 3, (second % 3) * 9 + column) != key) continue;
        for (let band: u32 = 0; band < 3; band++) {
          let cells = unit;
          if (first / 3 == band) cells &= ~(<u32>1 << ((first % 3) * 9 + column));
          if (second / 3 == band) cells &= ~(<u32>1 << ((second % 3) * 9 + column));
          changed |= nakedLeave(st, band, cells, key);
        }
      }
    }
  }
  return changed;
}

/** The digits but `first` and `second` leave `cells` of `band`; returns the slots changed. */
function pairKeeps(st: usize, band: u32, cells: u32, first: u32, second: u32): u32 {
  let changed: u32 = 0;
  for (let digit: u32 = 0; digit < 9; digit++) {
    if (digit != first && digit != second) changed |= narrow(st, slotOf(digit, band), ~cells);
  }
  return changed;
}

/**
 * Each two digits of `twos` (those with two cells in the unit, UNIT_CELLS) with the same two cells
 * keep them: the other digits leave both. The unit is a row or box of `band` when `column` is
 * negative (UNIT_CELLS then holds band bits), else that column (bits band * 3 + row). Returns the
 * slots changed.
 */
function unitPairs(st: usize, twos: u32, band: u32, column: i32): u32 {
  let changed: u32 = 0;
  while (twos) {
    const first = ctz(twos);
    twos &= twos - 1;
    const cells = load<u32>(<usize>first << 2, UNIT_CELLS);
    let rest = twos;
    while (rest) {
      const second = ctz(rest);
      rest &= rest - 1;
      if (load<u32>(<usize>second << 2, UNIT_CELLS) != cells) continue;
      if (column < 0) {
        changed |= pairKeeps(st, band, cells, first, second);
        continue;
      }
      for (let other: u32 = 0; other < 3; other++) {
        const rows = (cells >> (other * 3)) & 7;
        if (rows) changed |= pairKeeps(st, other, ((rows & 1) | ((rows & 2) << 8) | ((rows & 4) << 16)) << <u32>column, first, second);
      }
    }
  }
  return changed;
}

/** Hidden pairs in the row or box `unitCells` of `band` (see unitPairs); returns the slots changed. */
function rowOrBoxPairs(st: usize, band: u32, unitCells: u32): u32 {
  let twos: u32 = 0;
  for (let digit: u32 = 0; digit < 9; digit++) {
    const cells = candidates(st, slotOf(digit, band)) & unitCells;
    store<u32>(<usize>digit << 2, cells, UNIT_CELLS);
    if (popcnt(cells) == 2) twos |= <u32>1 << digit;
  }
  return popcnt(twos) < 2 ? 0 : unitPairs(st, twos, band, -1);
}

/** Hidden pairs in `column` (a digit's cells there as bits band * 3 + row); returns the slots changed. */
function columnPairs(st: usize, column: u32): u32 {
  let twos: u32 = 0;
  for (let digit: u32 = 0; digit < 9; digit++) {
    let rows: u32 = 0;
    for (let band: u32 = 0; band < 3; band++) {
      const cells = candidates(st, slotOf(digit, band)) >> column;
      rows |= columnRows(cells) << (band * 3);
    }
    store<u32>(<usize>digit << 2, rows, UNIT_CELLS);
    if (popcnt(rows) == 2) twos |= <u32>1 << digit;
  }
  return popcnt(twos) < 2 ? 0 : unitPairs(st, twos, 0, <i32>column);
}

/**
 * The cells in at least two of the twelve lanes of `a`, `b`, `c` (one digit a lane; at least one
 * and at least two merge lane with lane, then across lanes, as in the naked-singles pass).
 */
@inline function atLeastTwo(a: v128, b: v128, c: v128): u32 {
  let ones = v128.or(v128.or(a, b), c);
  let twos = v128.or(v128.or(v128.and(a, b), v128.and(a, c)), v128.and(b, c));
  let turned = i32x4.shuffle(ones, ones, 2, 3, 0, 1);
  twos = v128.or(v128.or(twos, i32x4.shuffle(twos, twos, 2, 3, 0, 1)), v128.and(ones, turned));
  ones = v128.or(ones, turned);
  turned = i32x4.shuffle(ones, ones, 1, 0, 3, 2);
  twos = v128.or(v128.or(twos, i32x4.shuffle(twos, twos, 1, 0, 3, 2)), v128.and(ones, turned));
  return <u32>i32x4.extract_lane(twos, 0);
}

/** The cells in at least three of the twelve lanes of `a`, `b`, `c` (as atLeastTwo, one counter more). */
@inline function atLeastThree(a: v128, b: v128, c: v128): u32 {
  let ones = v128.or(v128.or(a, b), c);
  let twos = v128.or(v128.or(v128.and(a, b), v128.and(a, c)), v128.and(b, c));
  let threes = v128.and(v128.and(a, b), c);
  let turnedOnes = i32x4.shuffle(ones, ones, 2, 3, 0, 1);
  let turnedTwos = i32x4.shuffle(twos, twos, 2, 3, 0, 1);
  threes = v128.or(v128.or(threes, i32x4.shuffle(threes, threes, 2, 3, 0, 1)), v128.or(v128.and(twos, turnedOnes), v128.and(ones, turnedTwos)));
  twos = v128.or(v128.or(twos, turnedTwos), v128.and(ones, turnedOnes));
  ones = v128.or(ones, turnedOnes);
  turnedOnes = i32x4.shuffle(ones, ones, 1, 0, 3, 2);
  turnedTwos = i32x4.shuffle(twos, twos, 1, 0, 3, 2);
  threes = v128.or(v128.or(threes, i32x4.shuffle(threes, threes, 1, 0, 3, 2)), v128.or(v128.and(twos, turnedOnes), v128.and(ones, turnedTwos)));
  return <u32>i32x4.extract_lane(threes, 0);
}

/** Of `cells` (one digit a lane), those in `unit` where the lane has exactly two there. */
@inline function exactlyTwoIn(cells: v128, unit: u32): v128 {
  const inUnit = v128.and(cells, i32x4.splat(unit));
  const one = i32x4.splat(1);
  const zero = i32x4.splat(0);
  const rest = v128.and(inUnit, i32x4.sub(inUnit, one)); // all but the lowest
  const beyond = v128.and(rest, i32x4.sub(rest, one)); // all but the lowest two
  // (not `ne`: V8 has no instruction for it, and builds it from `eq` and two more)
  return v128.andnot(v128.and(inUnit, i32x4.eq(beyond, zero)), i32x4.eq(rest, zero));
}

/**
 * A band mask with a zero bit after each row (rows at bits 0–8, 10–18, 20–28; ROW_GUARDS the
 * bits after them): each row's bit arithmetic then stays in its row and the bit after it.
 */
const ROW_GUARDS: u32 = (1 << 9) | (1 << 19) | (1 << 29);
/** The lowest bit of each row, and each row full (9 bits), spaced as ROW_GUARDS. */
const ROW_BASES: u32 = 1 | (1 << 10) | (1 << 20);
const ROW_FULL: u32 = 0x1ff | (0x1ff << 10) | (0x1ff << 20);
/** A mask spaced as ROW_GUARDS says, back to the band's layout. */
@inline function rowsBack(spaced: u32): u32 {
  return (spaced & 0x1ff) | ((spaced >> 1) & (0x1ff << 9)) | ((spaced >> 2) & (0x1ff << 18));
}

/**
 * Of `cells` (one digit a lane), those in a row of the band where the lane has exactly two,
 * spaced as ROW_GUARDS says: the three rows at once, the lowest bit of each removed twice
 * (setting the bit after a row first, so that an empty row borrows from it, not from the next).
 */
@inline function rowTwos(cells: v128): v128 {
  const spaced = v128.or(v128.or(v128.and(cells, i32x4.splat(0x1ff)), v128.and(i32x4.shl(cells, 1), i32x4.splat(0x1ff << 10))), v128.and(i32x4.shl(cells, 2), i32x4.splat(0x1ff << 20)));
  const guards = i32x4.splat(ROW_GUARDS);
  const bases = i32x4.splat(ROW_BASES);
  const full = i32x4.splat(ROW_FULL);
  const rest = v128.and(spaced, i32x4.sub(v128.or(spaced, guards), bases)); // all but each row's lowest
  const beyond = v128.and(rest, i32x4.sub(v128.or(rest, guards), bases)); // all but the lowest two
  // a row not empty carries into the bit after it when added to a full row
  const two = v128.and(v128.andnot(i32x4.add(rest, full), i32x4.add(beyond, full)), guards);
  return v128.and(spaced, i32x4.sub(two, i32x4.shr_u(two, 9)));
}

/** Of `cells` (one digit a lane), those in a box of the band where the lane has exactly two. */
@inline function boxTwos(cells: v128): v128 {
  return v128.or(v128.or(exactlyTwoIn(cells, BOX_CELLS), exactlyTwoIn(cells, BOX_CELLS << 3)), exactlyTwoIn(cells, BOX_CELLS << 6));
}

/**
 * Per lane (one digit a lane, its masks in the three bands `band0`–`band2`), the columns (9 bits)
 * where it has exactly two cells: the nine rows' column sets added with counters that saturate.
 */
@inline function columnTwos(band0: v128, band1: v128, band2: v128): v128 {
  const row = i32x4.splat(0x1ff);
  let ones = v128.and(band0, row);
  let twos = i32x4.splat(0);
  let more = twos;
  let word = v128.and(i32x4.shr_u(band0, 9), row);
  more = v128.or(more, v128.and(twos, word));
  twos = v128.or(twos, v128.and(ones, word));
  ones = v128.or(ones, word);
  word = i32x4.shr_u(band0, 18);
  more = v128.or(more, v128.and(twos, word));
  twos = v128.or(twos, v128.and(ones, word));
  ones = v128.or(ones, word);
  word = v128.and(band1, row);
  more = v128.or(more, v128.and(twos, word));
  twos = v128.or(twos, v128.and(ones, word));
  ones = v128.or(ones, word);
  word = v128.and(i32x4.shr_u(band1, 9), row);
  more = v128.or(more, v128.and(twos, word));
  twos = v128.or(twos, v128.and(ones, word));
  ones = v128.or(ones, word);
  word = i32x4.shr_u(band1, 18);
  more = v128.or(more, v128.and(twos, word));
  twos = v128.or(twos, v128.and(ones, word));
  ones = v128.or(ones, word);
  word = v128.and(band2, row);
  more = v128.or(more, v128.and(twos, word));
  twos = v128.or(twos, v128.and(ones, word));
  ones = v128.or(ones, word);
  word = v128.and(i32x4.shr_u(band2, 9), row);
  more = v128.or(more, v128.and(twos, word));
  twos = v128.or(twos, v128.and(ones, word));
  ones = v128.or(ones, word);
  word = i32x4.shr_u(band2, 18);
  more = v128.or(more, v128.and(twos, word));
  twos = v128.or(twos, v128.and(ones, word));
  ones = v128.or(ones, word);
  return v128.andnot(twos, more);
}

/** Of `band` (one digit a lane), the cells in the columns `columns` (9 bits a lane). */
@inline function inColumns(band: v128, columns: v128): v128 {
  return v128.and(band, i32x4.mul(columns, i32x4.splat(0x40201)));
}

/** Whether the unit `cells` (of a band) has two cells held by two or more digits with two places there, one with a third candidate. */
@inline function mayPair(twice: u32, fat: u32, cells: u32): bool {
  const held = twice & cells;
  return (held & (held - 1)) != 0 && (held & fat) != 0;
}

/**
 * Hidden pairs in the rows, then the boxes, of `band` (its masks of digits 0–3 `low` and 4–7
 * `high`; digit 8's cells in a row, and in a box, where it has exactly two, in lane 0 of `lastRows`
 * and `lastBoxes`; `fat` its cells with three candidates or more); returns the slots changed in
 * the first unit that changes.
 */
@inline function bandPairs(st: usize, band: u32, low: v128, high: v128, lastRows: v128, lastBoxes: v128, fat: u32): u32 {
  if (!fat) return 0;
  const rows = rowsBack(atLeastTwo(rowTwos(low), rowTwos(high), lastRows));
  for (let row: u32 = 0; row < 3; row++) {
    const unitCells = <u32>0x1ff << (row * 9);
    if (!mayPair(rows, fat, unitCells)) continue;
    const changed = rowOrBoxPairs(st, band, unitCells);
    if (changed) return changed;
  }
  const boxes = atLeastTwo(boxTwos(low), boxTwos(high), lastBoxes);
  for (let box: u32 = 0; box < 3; box++) {
    const unitCells = BOX_CELLS << (box * 3);
    if (!mayPair(boxes, fat, unitCells)) continue;
    const changed = rowOrBoxPairs(st, band, unitCells);
    if (changed) return changed;
  }
  return 0;
}

/**
 * Hidden pairs: two digits whose only two places in a row, column or box are the same two cells
 * take them: the other digits leave both. Returns the slots changed in the first unit where it
 * changes something (the rules run again before the next), else 0. A unit is scanned only when it
 * can change: two of its cells are each among the two places of two digits there (counted for all
 * nine digits at once, four to a v128, per band and kind of unit), and one of them has a third
 * candidate to lose.
 */
function reviseHiddenPairs(st: usize): u32 {
  // each band's nine masks: digits 0–3, 4–7, and 8 (the other three lanes zero)
  const low0 = v128.load(st);
  const high0 = v128.load(st, 16);
  const last0 = v128.load32_zero(st, 32);
  const low1 = v128.load(st, 36);
  const high1 = v128.load(st, 52);
  const last1 = v128.load32_zero(st, 68);
  const low2 = v128.load(st, 72);
  const high2 = v128.load(st, 88);
  const last2 = v128.load32_zero(st, 104);
  const fat0 = atLeastThree(low0, high0, last0);
  const fat1 = atLeastThree(low1, high1, last1);
  const fat2 = atLeastThree(low2, high2, last2);
  if (!(fat0 | fat1 | fat2)) return 0;
  // rows and boxes: one band at a time, but not a band the last pass found clean and that has
  // not changed since
  const clean = load<u32>(PAIRS_CLEAN);
  // the masks as stored, seven v128s (bytes 0–35 band 0, 36–71 band 1, 72–107 band 2; the last
  // four bytes are band 0's unsolved cells, not compared); the first two are low0 and high0
  const now0 = low0;
  const now1 = high0;
  const now2 = v128.load(st, 32);
  const now3 = v128.load(st, 48);
  const now4 = v128.load(st, 64);
  const now5 = v128.load(st, 80);
  const now6 = v128.load(st, 96);
  let skip: u32 = 0;
  if (clean) {
    const differ = <u32>i32x4.bitmask(i32x4.ne(v128.load(PAIRS_SEEN), now0)) | (<u32>i32x4.bitmask(i32x4.ne(v128.load(PAIRS_SEEN, 16), now1)) << 4) |
      (<u32>i32x4.bitmask(i32x4.ne(v128.load(PAIRS_SEEN, 32), now2)) << 8) | (<u32>i32x4.bitmask(i32x4.ne(v128.load(PAIRS_SEEN, 48), now3)) << 12) |
      (<u32>i32x4.bitmask(i32x4.ne(v128.load(PAIRS_SEEN, 64), now4)) << 16) | (<u32>i32x4.bitmask(i32x4.ne(v128.load(PAIRS_SEEN, 80), now5)) << 20) |
      ((<u32>i32x4.bitmask(i32x4.ne(v128.load(PAIRS_SEEN, 96), now6)) & 7) << 24);
    // words 0–8 band 0, 9–17 band 1, 18–26 band 2
    skip = clean & ~((differ & 0x1ff ? 1 : 0) | (differ & (0x1ff << 9) ? 2 : 0) | (differ & (0x1ff << 18) ? 4 : 0));
  }
  v128.store(PAIRS_SEEN, now0);
  v128.store(PAIRS_SEEN, now1, 16);
  v128.store(PAIRS_SEEN, now2, 32);
  v128.store(PAIRS_SEEN, now3, 48);
  v128.store(PAIRS_SEEN, now4, 64);
  v128.store(PAIRS_SEEN, now5, 80);
  v128.store(PAIRS_SEEN, now6, 96);
  store<u32>(PAIRS_CLEAN, 0);
  // digit 8 of the three bands in one v128, lane by band; each band's in lane 0 of its own
  const zero = i32x4.splat(0);
  const lasts = i32x4.shuffle(i32x4.shuffle(last0, last1, 0, 4, 1, 1), last2, 0, 1, 4, 5);
  const lastRows = rowTwos(lasts);
  const lastBoxes = boxTwos(lasts);
  let changed: u32 = 0;
  if (!(skip & 1)) {
    changed = bandPairs(st, 0, low0, high0, i32x4.shuffle(lastRows, zero, 0, 4, 4, 4), i32x4.shuffle(lastBoxes, zero, 0, 4, 4, 4), fat0);
    if (changed) return changed;
  }
  if (!(skip & 2)) {
    changed = bandPairs(st, 1, low1, high1, i32x4.shuffle(lastRows, zero, 1, 4, 4, 4), i32x4.shuffle(lastBoxes, zero, 1, 4, 4, 4), fat1);
    if (changed) {
      store<u32>(PAIRS_CLEAN, 1);
      return changed;
    }
  }
  if (!(skip & 4)) {
    changed = bandPairs(st, 2, low2, high2, i32x4.shuffle(lastRows, zero, 2, 4, 4, 4), i32x4.shuffle(lastBoxes, zero, 2, 4, 4, 4), fat2);
    if (changed) {
      store<u32>(PAIRS_CLEAN, 3);
      return changed;
    }
  }
  store<u32>(PAIRS_CLEAN, 7);
  // columns: a column's cells held twice, band by band
  const lowColumns = columnTwos(low0, low1, low2);
  const highColumns = columnTwos(high0, high1, high2);
  const lastColumns = columnTwos(last0, last1, last2);
  const twice0 = atLeastTwo(inColumns(low0, lowColumns), inColumns(high0, highColumns), inColumns(last0, lastColumns));
  const twice1 = atLeastTwo(inColumns(low1, lowColumns), inColumns(high1, highColumns), inColumns(last1, lastColumns));
  const twice2 = atLeastTwo(inColumns(low2, lowColumns), inColumns(high2, highColumns), inColumns(last2, lastColumns));
  let columns = columnsOf(twice0 | twice1 | twice2);
  while (columns) {
    const column = ctz(columns);
    columns &= columns - 1;
    const cells = COLUMN_CELLS << column;
    const held = popcnt(twice0 & cells) + popcnt(twice1 & cells) + popcnt(twice2 & cells);
    if (held < 2 || !((twice0 & fat0 | twice1 & fat1 | twice2 & fat2) & cells)) continue;
    changed = columnPairs(st, column);
    if (changed) return changed;
  }
  return 0;
}

/**
 * Propagates to a fixed point from the `dirty` slots: the slot rules, then naked singles (then
 * hidden singles at level 2, the triad rule at level 3), until nothing changes. False on a
 * contradiction. Counts the state in `nodes`. The search's first state (its root) and the others
 * each have a function of their own (propagateAt with `atRoot` and `byDigit` constants), so that
 * neither carries the other's choices nor its registers.
 */
function propagate(st: usize, dirty: u32): bool {
  if (++nodes != 1) return propagateSearch(st, dirty);
  return WEIGHTED ? propagateRootByDigit(st, dirty) : propagateRoot(st, dirty);
}

/** propagateAt for the root of a search. */
function propagateRoot(st: usize, dirty: u32): bool {
  return propagateAt(st, dirty, true, false);
}

/** propagateAt for the root of a search with WEIGHTED_LINES: one digit's slots a round (see propagateAt). */
function propagateRootByDigit(st: usize, dirty: u32): bool {
  return propagateAt(st, dirty, true, true);
}

/** propagateAt for a state of the search below its root. */
function propagateSearch(st: usize, dirty: u32): bool {
  return propagateAt(st, dirty, false, false);
}

/**
 * propagate's body; `atRoot` (a constant in each caller) says whether the state is the root,
 * `byDigit` (a constant too) whether its rounds take one digit at a time (WEIGHTED_LINES's root).
 */
@inline function propagateAt(st: usize, dirty: u32, atRoot: bool, byDigit: bool): bool {
  let revised: u32 = 0; // slots revised since the last triad pass: the rule runs on their bands
  while (true) {
    if (LEVEL == 3) {
      // rules 1–3: each dirty slot (rules 1–2), and each digit (rule 3), until nothing is left.
      // The order never changes the fixed point, only the work and how much of it the CPU
      // overlaps. The slots are taken in rounds: a round revises a set of slots fixed at its
      // start (a slot changed again before its turn is revised once, with its latest mask; one
      // changed after its turn waits for the next round), so which slot comes next never waits
      // for what the last one changed. In the search a round takes every dirty slot, band by
      // band, then rule 3 revises digits 0–7 at once (reviseDigits8, when the round has a slot of
      // one of them) and digit 8 when it has one of its slots: their masks were stored long
      // before it reads them, and no slot waits on it (rule 3 as soon as the round has none of a
      // digit's slots left reads a mask just stored, and the next slot waits for its branch).
      // The root does the same, two slots of different bands at a time. WEIGHTED_LINES's root
      // (`byDigit`), where all 27 start dirty, keeps the order its weights were measured in: a
      // round takes the slots of the lowest digit with one dirty, then rule 3 for that digit.
      if (byDigit) {
        while (dirty) {
          let round = dirty & digitSlots(lowestDigit(dirty));
          dirty &= ~round;
          revised |= round; // every slot of the round is revised in it (or the state fails)
          const digit = lowestDigit(round);
          while (round) {
            // the lowest slot: band by band
            const slot = ctz(round);
            round &= ~(<u32>1 << slot);
            const changed = reviseSlot(st, slot, digit, atRoot);
            if (changed == CONTRADICTION) return false;
            dirty |= changed & ~round;
          }
          const more = reviseDigit(st, digit, atRoot);
          if (more == CONTRADICTION) return false;
          dirty |= more;
        }
      } else {
        while (dirty) {
          let round = dirty;
          dirty = 0;
          revised |= round; // every slot of the round is revised in it (or the state fails)
          let digits = (round | (round >> 9) | (round >> 18)) & 0x1ff;
          while (round) {
            // the lowest slot: band by band
            const slot = ctz(round);
            round &= round - 1;
            if (atRoot && !WEIGHTED) {
              // at the root, the lowest slot of a later band beside it: the two share no mask, so
              // the CPU overlaps their revisions (in the search this measured slower; with
              // WEIGHTED_LINES, one at a time: a contradiction blames its band)
              const later = round & (<u32>0xffffffff << ((bandOf(slot) + 1) * 9));
              if (later) {
                const other = ctz(later);
                round &= ~(<u32>1 << other);
                const changed = reviseSlot(st, slot, digitOf(slot), atRoot) | reviseSlot(st, other, digitOf(other), atRoot);
                if (changed & CONTRADICTION) return false;
                dirty |= changed & ~round;
                continue;
              }
            }
            const digit = digitOf(slot);
            const changed = reviseSlot(st, slot, digit, atRoot);
            if (changed == CONTRADICTION) return false;
            dirty |= changed & ~round;
            if (WEIGHTED && !(round & digitSlots(digit))) {
              // WEIGHTED_LINES keeps the order its weights were measured in (a contradiction blames
              // its line: the order picks which): rule 3 as soon as the round has none of the
              // digit's slots left, and at every root one digit's rounds
              const more = reviseDigit(st, digit, atRoot);
              if (more == CONTRADICTION) return false;
              dirty |= more;
            }
          }
          if (!WEIGHTED) {
            // digits 0–7 at once, then digit 8 (WEIGHTED_LINES keeps its order, above)
            if (digits & 0xff) {
              const more = reviseDigits8(st);
              if (more == CONTRADICTION) return false;
              dirty |= more;
            }
            digits &= 0x100;
          }
          while (!WEIGHTED && digits) {
            const digit = ctz(digits);
            digits &= digits - 1;
            const more = reviseDigit(st, digit, atRoot);
            if (more == CONTRADICTION) return false;
            dirty |= more;
          }
        }
      }
    } else {
      dirty = 0;
    }
    let placedAny = false;
    for (let band: u32 = 0; band < 3; band++) {
      const open = unsolved(st, band);
      if (!open) continue;
      // the cells with a candidate, and with two: digits 0–3 and 4–7 lane by lane, folded across
      // lanes (2+3 onto 0+1, then 1 onto 0), then digit 8
      const base = st + (<usize>slotOf(0, band) << 2);
      let once: u32 = 0;
      let twice: u32 = 0;
      const low = v128.load(base);
      const high = v128.load(base, 16);
      let ones = v128.or(low, high);
      let twos = v128.and(low, high);
      let turned = i32x4.shuffle(ones, ones, 2, 3, 0, 1);
      twos = v128.or(v128.or(twos, i32x4.shuffle(twos, twos, 2, 3, 0, 1)), v128.and(ones, turned));
      ones = v128.or(ones, turned);
      turned = i32x4.shuffle(ones, ones, 1, 0, 3, 2);
      twos = v128.or(v128.or(twos, i32x4.shuffle(twos, twos, 1, 0, 3, 2)), v128.and(ones, turned));
      ones = v128.or(ones, turned);
      const last = load<u32>(base, 32);
      once = <u32>i32x4.extract_lane(ones, 0);
      twice = <u32>i32x4.extract_lane(twos, 0) | (once & last);
      once |= last;
      if (open & ~once) {
        if (WEIGHTED) blame(band);
        return false;
      }
      if (LEVEL == 0) continue;
      let singles = open & ~twice;
      while (singles) {
        const bit = singles & (0 - singles);
        singles ^= bit;
        const bits = i32x4.splat(bit);
        const zero = i32x4.splat(0);
        const holders = <u32>i32x4.bitmask(i32x4.ne(v128.and(v128.load(base), bits), zero)) |
          (<u32>i32x4.bitmask(i32x4.ne(v128.and(v128.load(base, 16), bits), zero)) << 4) | ((load<u32>(base, 32) & bit) ? <u32>0x100 : 0);
        const digit = ctz(holders); // 32 when none
        if (digit >= 9) {
          if (WEIGHTED) blame(band);
          return false; // an earlier single took its last candidate
        }
        dirty |= place(st, digit, band, bit);
        placedAny = true;
      }
    }
    if (LEVEL == 2 && !placedAny) {
      const hidden = placeHiddenSingles(st);
      if (hidden < 0) return false;
      placedAny = hidden > 0;
    }
    if (TRIAD != 0 && !placedAny && (unsolved(st, 0) | unsolved(st, 1) | unsolved(st, 2))) {
      const changed = reviseTriads(st, revised);
      if (changed == CONTRADICTION) return false;
      const finished = changed >> TRIAD_BANDS_SHIFT; // bands 0 .. finished - 1 done; 0: all
      revised = finished ? revised & ~(bandSlots(0) | (finished > 1 ? bandSlots(1) : 0)) : 0;
      dirty = changed & ((<u32>1 << SLOTS) - 1);
      placedAny = dirty != 0;
    }
    if (FISH_RULE != 0 && !placedAny && (unsolved(st, 0) | unsolved(st, 1) | unsolved(st, 2))) {
      dirty = reviseFish(st);
      placedAny = dirty != 0;
    }
    if (MATCHING_RULE != 0 && !placedAny && (unsolved(st, 0) | unsolved(st, 1) | unsolved(st, 2))) {
      const more = reviseMatching(st);
      if (more == CONTRADICTION) return false;
      dirty = more;
      placedAny = dirty != 0;
    }
    const pairsHere = (PAIRS != 0 && st < PAIRS_END) || (PAIRS_AT_ROOT && atRoot);
    if (pairsHere && !placedAny && (unsolved(st, 0) | unsolved(st, 1) | unsolved(st, 2))) {
      dirty = reviseHiddenPairs(st);
      placedAny = dirty != 0;
    }
    const nakedHere = NAKED == 2 || (NAKED == 1 && atRoot);
    if (nakedHere && !placedAny && (unsolved(st, 0) | unsolved(st, 1) | unsolved(st, 2))) {
      dirty = reviseNakedPairs(st);
      placedAny = dirty != 0;
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
  for (let digit: u32 = 0; digit < 9; digit++) {
    const cells = candidates(st, slotOf(digit, band));
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
function chooseCell(st: usize, depth: i32): void {
  let bestBand: u32 = 0;
  let bestBit: u32 = 0;
  if (ORDER == 1) {
    for (let i = 0; i < cellOrderLength; i++) {
      const entry = load<u32>(<usize>i << 2, CELL_ORDER_ENTRIES);
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
        const entry = load<u32>(<usize>i << 2, CELL_ORDER_ENTRIES);
        const band = entry >> 5;
        const bit = <u32>1 << (entry & 31);
        if ((band == 0 ? pairs0 : band == 1 ? pairs1 : pairs2) & bit) {
          bestBand = band;
          bestBit = bit;
          break;
        }
      }
    } else if (ORDER == 3) {
      // the two-candidate cell with the most unsolved peers (row, column, box), the first in band order on ties
      const open0 = unsolved(st, 0), open1 = unsolved(st, 1), open2 = unsolved(st, 2);
      let bestPeers: i32 = -1;
      for (let band: u32 = 0; band < 3; band++) {
        let rest = band == 0 ? pairs0 : band == 1 ? pairs1 : pairs2;
        const own = band == 0 ? open0 : band == 1 ? open1 : open2;
        while (rest) {
          const bit = rest & (0 - rest);
          rest ^= bit;
          const index = ctz(bit);
          const column = COLUMN_CELLS << (index % 9);
          const near = (<u32>0x1ff << (index / 9 * 9)) | (BOX_CELLS << (index % 9 / 3 * 3));
          const peers = <i32>(popcnt(own & near & ~column) + popcnt(open0 & column) + popcnt(open1 & column) + popcnt(open2 & column));
          if (peers > bestPeers) {
            bestPeers = peers;
            bestBand = band;
            bestBit = bit;
          }
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
        for (let digit: u32 = 0; digit < 9; digit++) count += (candidates(st, slotOf(digit, band)) & bit) != 0 ? 1 : 0;
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
    if (candidates(st, slotOf(digit, bestBand)) & bestBit) digits |= <u32>1 << digit;
  }
  const at = <usize>depth << 2;
  store<u32>(at, bestBand, FRAME_BAND_OR_LINE);
  store<u32>(at, bestBit, FRAME_CELL_OR_DIGIT);
  store<u32>(at, digits, FRAME_ALTERNATIVES);
}

/** The matrix bands × columns of stack `shift / 3` from a digit's columns in the three bands side by side (band b at bit 9b). */
@inline function stackMatrix(columns: u32, shift: u32): u32 {
  return ((columns >> shift) & 7) | ((columns >> (shift + 6)) & 0x38) | ((columns >> (shift + 12)) & 0x1c0);
}
@inline function stackMatrix4(columns: v128, shift: u32): v128 {
  return v128.or(v128.or(v128.and(i32x4.shr_u(columns, shift), i32x4.splat(7)), v128.and(i32x4.shr_u(columns, shift + 6), i32x4.splat(0x38))), v128.and(i32x4.shr_u(columns, shift + 12), i32x4.splat(0x1c0)));
}
/**
 * Per stack (48 bytes each), the bands × columns matrix of each digit (u32, digits 0–8, then three
 * unused): written by stackScores and stackScores4 as the branch choice scores the stacks, read by
 * fewestDigit for the state just scored rather than computed again.
 */
const STACK_MATRICES: usize = memory.data(3 * 48, 16);
/** The stack scores (from `table`, LINE_SCORE's layout) of the digit at byte `offset` of band 0 (band-major): stack 0 | stack 1 << 10 | stack 2 << 20. */
@inline function stackScores(st: usize, offset: usize, table: usize): u32 {
  const columns = columnsOf(load<u32>(st + offset)) | (columnsOf(load<u32>(st + offset, 36)) << 9) | (columnsOf(load<u32>(st + offset, 72)) << 18);
  const stack0 = stackMatrix(columns, 0);
  const stack1 = stackMatrix(columns, 3);
  const stack2 = stackMatrix(columns, 6);
  store<u32>(offset, stack0, STACK_MATRICES);
  store<u32>(offset, stack1, STACK_MATRICES + 48);
  store<u32>(offset, stack2, STACK_MATRICES + 96);
  return <u32>load<u8>(table + stack0) | (<u32>load<u8>(table + stack1) << 10) | (<u32>load<u8>(table + stack2) << 20);
}
/** stackScores summed over the four digits from byte `offset` of band 0, their columns computed four at a time. */
@inline function stackScores4(st: usize, offset: usize, table: usize): u32 {
  const columns = v128.or(v128.or(columnsOf4(v128.load(st + offset)), i32x4.shl(columnsOf4(v128.load(st + offset, 36)), 9)), i32x4.shl(columnsOf4(v128.load(st + offset, 72)), 18));
  const stack0 = stackMatrix4(columns, 0);
  const stack1 = stackMatrix4(columns, 3);
  const stack2 = stackMatrix4(columns, 6);
  v128.store(offset, stack0, STACK_MATRICES);
  v128.store(offset, stack1, STACK_MATRICES + 48);
  v128.store(offset, stack2, STACK_MATRICES + 96);
  const score0 = <u32>load<u8>(table + <u32>i32x4.extract_lane(stack0, 0)) + <u32>load<u8>(table + <u32>i32x4.extract_lane(stack0, 1)) +
    <u32>load<u8>(table + <u32>i32x4.extract_lane(stack0, 2)) + <u32>load<u8>(table + <u32>i32x4.extract_lane(stack0, 3));
  const score1 = <u32>load<u8>(table + <u32>i32x4.extract_lane(stack1, 0)) + <u32>load<u8>(table + <u32>i32x4.extract_lane(stack1, 1)) +
    <u32>load<u8>(table + <u32>i32x4.extract_lane(stack1, 2)) + <u32>load<u8>(table + <u32>i32x4.extract_lane(stack1, 3));
  const score2 = <u32>load<u8>(table + <u32>i32x4.extract_lane(stack2, 0)) + <u32>load<u8>(table + <u32>i32x4.extract_lane(stack2, 1)) +
    <u32>load<u8>(table + <u32>i32x4.extract_lane(stack2, 2)) + <u32>load<u8>(table + <u32>i32x4.extract_lane(stack2, 3));
  return score0 | (score1 << 10) | (score2 << 20);
}

/**
 * A line's score counts its digits' configurations, a fixed digit (one configuration left) as ¾ of
 * one: 4 per configuration of a digit not yet fixed, 3 per fixed digit. In guesses it lies between
 * not counting fixed digits (fewer on the hardest sets) and tdoku's count of one (fewer on the
 * easier ones); any weight from 0.7 to 0.86 does about as well.
 */
const CONFIGURATION_WEIGHT: u32 = 4;
/** 3 by default; the `unweighted` variant sets 0: fixed digits not counted. */
const FIXED_WEIGHT: u32 = isDefined(FIXED_DIGIT_WEIGHT) ? FIXED_DIGIT_WEIGHT : 3;
/**
 * CONFIGURATION_SCORE 1: a digit not yet fixed scores 8, 12, 14, 16, 17 for two to six
 * configurations (from three on, less than the default's 4 per configuration).
 */
const LOG_SCORE: bool = isDefined(CONFIGURATION_SCORE) ? CONFIGURATION_SCORE == 1 : false;
/**
 * CONFIGURATION_SCORE 2 and 3: a line's score counts first its digits not yet fixed (each scores
 * 16 to 20, a fixed digit 3), then their configurations: 2 the most (a digit scores 22 less its
 * configurations), 3 the fewest (14 plus them).
 */
const DIGITS_SCORE: i32 = isDefined(CONFIGURATION_SCORE) ? (CONFIGURATION_SCORE == 2 || CONFIGURATION_SCORE == 3 ? CONFIGURATION_SCORE : 0) : 0;
/** A digit's part of a line's digits-first score is this less its configurations (CONFIGURATION_SCORE 2, and the default's digits-first lines; the twin's DIGITS_FIRST_WEIGHT). */
const DIGITS_FIRST_WEIGHT: u32 = 22;
/** LINE_SCORE[3×3 bit matrix] = a digit's part of its line's score, from the configurations inside it (lineScore). */
const LINE_SCORE: usize = memory.data(512);
for (let matrix: u32 = 0; matrix < 512; matrix++) store<u8>(matrix, <u8>lineScore(<u32>load<u8>(matrix, CONFIGURATIONS)), LINE_SCORE);
/** The score of a line whose nine digits are all fixed: nothing to branch on there. */
const ALL_FIXED_SCORE: u32 = 9 * FIXED_WEIGHT;

/**
 * CONFIGURATION_CHOICE 1: branch on a digit with two configurations in the line of lowest score
 * that has one (lowest digit first), before the plain choice (a line with none, the lowest score).
 */
const PAIR_FIRST: bool = isDefined(CONFIGURATION_CHOICE) ? CONFIGURATION_CHOICE == 1 : false;

/** A digit's part of its line's score, from its configurations (6 bits). */
@inline function lineScore(configurations: u32): u32 {
  const count = popcnt(configurations);
  if (DIGITS_SCORE != 0 && count > 1) return DIGITS_SCORE == 2 ? DIGITS_FIRST_WEIGHT - count : 14 + count;
  if (LOG_SCORE) return count == 1 ? FIXED_WEIGHT : count == 2 ? 8 : count == 3 ? 12 : count == 4 ? 14 : count == 5 ? 16 : 17;
  return count > 1 ? count * CONFIGURATION_WEIGHT : FIXED_WEIGHT;
}

/** DIGITS_ABOVE (see the header); the digit is as ever the one with the fewest configurations. */
const DIGITS_OVER: u32 = isDefined(DIGITS_ABOVE) ? <u32>DIGITS_ABOVE : 0;
/** DIGITS_ROOT_ABOVE (see the header). */
const DIGITS_ROOT: u32 = isDefined(DIGITS_ROOT_ABOVE) ? <u32>DIGITS_ROOT_ABOVE : 85;
/** DIGITS_ROOT_ABOVE: whether the current search chooses its lines by the digits-first score. */
let digitsSearch = false;

/**
 * The six lines' scores from `table` (LINE_SCORE's layout), 10 bits apart: bands 0–2, then
 * stacks 0–2 (the bands from the triad matrices rule 1 left: a fixed point, every slot revised).
 */
@inline function lineScores(st: usize, table: usize): u64 {
  // the stacks of digits 0–3 and 4–7 four at a time, digit 8 alone; the three scores 10 bits apart
  const stacks = stackScores4(st, 0, table) + stackScores4(st, 16, table) + stackScores(st, 32, table);
  let score0: u32 = 0, score1: u32 = 0, score2: u32 = 0;
  for (let digit: u32 = 0; digit < 9; digit++) {
    score0 += <u32>load<u8>(table + triadsAt(st, slotOf(digit, 0), 0));
    score1 += <u32>load<u8>(table + triadsAt(st, slotOf(digit, 1), 0));
    score2 += <u32>load<u8>(table + triadsAt(st, slotOf(digit, 2), 0));
  }
  return <u64>(score0 | (score1 << 10) | (score2 << 20)) | (<u64>stacks << 30);
}

/**
 * Per line (16 bytes each, bands 0–2 then stacks 0–2), its digits 0–7's configuration counts
 * (u16 each); then at 96, digit 8's in each line: written by lineCounts, read by linesKey and
 * fewestCounted.
 */
const LINE_COUNTS: usize = memory.data(7 * 16, 16);
/** Per stack (16 bytes each), digits 0–7's bands × columns matrices (u16); then at 48, digit 8's matrix in each line. */
const LINE_MATRICES: usize = memory.data(4 * 16, 16);
/**
 * The branch choice's v128 constants, eight u16 lanes each (16 bytes, numbered below): read with
 * one load where V8 would build each, at every use, in three instructions (see V128_CONSTANTS).
 */
const CHOICE_CONSTANTS: usize = memory.data<u16>(
  [
    // the entries (row * 3 + box) of permutations 0–5, as in buildTables
    0x111, 0x111, 0x111, 0x111, 0x111, 0x111, 0x111, 0x111,
    0xa1, 0xa1, 0xa1, 0xa1, 0xa1, 0xa1, 0xa1, 0xa1,
    0x10a, 0x10a, 0x10a, 0x10a, 0x10a, 0x10a, 0x10a, 0x10a,
    0x62, 0x62, 0x62, 0x62, 0x62, 0x62, 0x62, 0x62,
    0x8c, 0x8c, 0x8c, 0x8c, 0x8c, 0x8c, 0x8c, 0x8c,
    0x54, 0x54, 0x54, 0x54, 0x54, 0x54, 0x54, 0x54,
    7, 7, 7, 7, 7, 7, 7, 7,
    1, 1, 1, 1, 1, 1, 1, 1,
    <u16>CONFIGURATION_WEIGHT, <u16>CONFIGURATION_WEIGHT, <u16>CONFIGURATION_WEIGHT, <u16>CONFIGURATION_WEIGHT, <u16>CONFIGURATION_WEIGHT, <u16>CONFIGURATION_WEIGHT, <u16>CONFIGURATION_WEIGHT, <u16>CONFIGURATION_WEIGHT,
    <u16>FIXED_WEIGHT, <u16>FIXED_WEIGHT, <u16>FIXED_WEIGHT, <u16>FIXED_WEIGHT, <u16>FIXED_WEIGHT, <u16>FIXED_WEIGHT, <u16>FIXED_WEIGHT, <u16>FIXED_WEIGHT,
    <u16>DIGITS_FIRST_WEIGHT, <u16>DIGITS_FIRST_WEIGHT, <u16>DIGITS_FIRST_WEIGHT, <u16>DIGITS_FIRST_WEIGHT, <u16>DIGITS_FIRST_WEIGHT, <u16>DIGITS_FIRST_WEIGHT, <u16>DIGITS_FIRST_WEIGHT, <u16>DIGITS_FIRST_WEIGHT,
    <u16>ALL_FIXED_SCORE, <u16>ALL_FIXED_SCORE, <u16>ALL_FIXED_SCORE, <u16>ALL_FIXED_SCORE, <u16>ALL_FIXED_SCORE, <u16>ALL_FIXED_SCORE, <u16>ALL_FIXED_SCORE, <u16>ALL_FIXED_SCORE,
    0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0, 0,
    0, 1, 2, 3, 4, 5, 6, 7,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  ],
  16,
);
/** CHOICE_CONSTANTS: 0–5 the permutations' entries, then these (lanes of 7, 1, CONFIGURATION_WEIGHT, FIXED_WEIGHT, DIGITS_FIRST_WEIGHT, ALL_FIXED_SCORE, ones in lanes 0–5, each lane's number, NO_DIGIT). */
const SEVENS: u32 = 6;
const ONES: u32 = 7;
const WEIGHTS: u32 = 8;
const FIXED_WEIGHTS: u32 = 9;
const DIGITS_FIRST_WEIGHTS: u32 = 10;
const ALL_FIXED_SCORES: u32 = 11;
const SIX_LINES: u32 = 12;
const LANE_NUMBERS: u32 = 13;
const NO_DIGITS: u32 = 14;
/** The constant `index` of CHOICE_CONSTANTS. */
@inline function choiceConstant(index: u32): v128 {
  return v128.load(CHOICE_CONSTANTS + (<usize>index << 4));
}
/** The lanes where the matrices `m` (u16 each) hold every entry of `permutation` (0–5): all ones there. */
@inline function holdsAll(m: v128, permutation: u32): v128 {
  const all = choiceConstant(permutation);
  return i16x8.eq(v128.and(m, all), all);
}
/** Per lane, the configurations inside a 3×3 matrix (u16 each): how many of the six permutations it holds. */
@inline function configurationCounts8(m: v128): v128 {
  // each permutation held counts -1
  const held = i16x8.add(
    i16x8.add(i16x8.add(holdsAll(m, 0), holdsAll(m, 1)), i16x8.add(holdsAll(m, 2), holdsAll(m, 3))),
    i16x8.add(holdsAll(m, 4), holdsAll(m, 5)),
  );
  return i16x8.sub(i16x8.splat(0), held);
}
/** The bands × columns matrices of a stack (`shift` 0, 3, 6) from eight digits' columns in each band (9 bits a lane). */
@inline function stackMatrix8(columns0: v128, columns1: v128, columns2: v128, shift: u32): v128 {
  const seven = choiceConstant(SEVENS);
  return v128.or(
    v128.or(v128.and(i16x8.shr_u(columns0, shift), seven), i16x8.shl(v128.and(i16x8.shr_u(columns1, shift), seven), 3)),
    i16x8.shl(v128.and(i16x8.shr_u(columns2, shift), seven), 6),
  );
}
/** Writes LINE_COUNTS and LINE_MATRICES for a propagated state (the bands' matrices from rule 1's cache). */
@inline function lineCounts(st: usize): void {
  const triads = st + TRIADS_OFFSET;
  v128.store(LINE_COUNTS, configurationCounts8(v128.load(triads)));
  v128.store(LINE_COUNTS, configurationCounts8(v128.load(triads, 18)), 16);
  v128.store(LINE_COUNTS, configurationCounts8(v128.load(triads, 36)), 32);
  const columns0 = i16x8.narrow_i32x4_u(columnsOf4(v128.load(st)), columnsOf4(v128.load(st, 16)));
  const columns1 = i16x8.narrow_i32x4_u(columnsOf4(v128.load(st, 36)), columnsOf4(v128.load(st, 52)));
  const columns2 = i16x8.narrow_i32x4_u(columnsOf4(v128.load(st, 72)), columnsOf4(v128.load(st, 88)));
  const stack0 = stackMatrix8(columns0, columns1, columns2, 0);
  const stack1 = stackMatrix8(columns0, columns1, columns2, 3);
  const stack2 = stackMatrix8(columns0, columns1, columns2, 6);
  v128.store(LINE_MATRICES, stack0);
  v128.store(LINE_MATRICES, stack1, 16);
  v128.store(LINE_MATRICES, stack2, 32);
  v128.store(LINE_COUNTS, configurationCounts8(stack0), 48);
  v128.store(LINE_COUNTS, configurationCounts8(stack1), 64);
  v128.store(LINE_COUNTS, configurationCounts8(stack2), 80);
  // digit 8: its six lines' matrices in one v128, lane by line
  const columns = columnsOf(load<u32>(st, 32)) | (columnsOf(load<u32>(st, 68)) << 9) | (columnsOf(load<u32>(st, 104)) << 18);
  let eight = i16x8.splat(0);
  eight = i16x8.replace_lane(eight, 0, load<u16>(triads, 16));
  eight = i16x8.replace_lane(eight, 1, load<u16>(triads, 34));
  eight = i16x8.replace_lane(eight, 2, load<u16>(triads, 52));
  eight = i16x8.replace_lane(eight, 3, <u16>stackMatrix(columns, 0));
  eight = i16x8.replace_lane(eight, 4, <u16>stackMatrix(columns, 3));
  eight = i16x8.replace_lane(eight, 5, <u16>stackMatrix(columns, 6));
  v128.store(LINE_MATRICES, eight, 48);
  v128.store(LINE_COUNTS, configurationCounts8(eight), 96);
}
/** Per lane, a digit's part of its line's score from its configuration count: lineScore, or the digits-first score (LINE_SCORE_DIGITS). */
@inline function countScores8(counts: v128, digitsFirst: bool): v128 {
  const open = i16x8.gt_s(counts, choiceConstant(ONES));
  const score = digitsFirst ? i16x8.sub(choiceConstant(DIGITS_FIRST_WEIGHTS), counts) : i16x8.mul(counts, choiceConstant(WEIGHTS));
  return v128.bitselect(score, choiceConstant(FIXED_WEIGHTS), open);
}
/** Of two v128s of eight u16s, lane by lane: a's lanes 0+1, 2+3, 4+5, 6+7, then b's. */
@inline function pairSums(a: v128, b: v128): v128 {
  return i16x8.add(
    i8x16.shuffle(a, b, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29),
    i8x16.shuffle(a, b, 2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31),
  );
}
/** The lowest of eight u16 lanes, in every lane. */
@inline function lowestLane(v: v128): v128 {
  let low = i16x8.min_u(v, i8x16.shuffle(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  low = i16x8.min_u(low, i8x16.shuffle(low, low, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11));
  return i16x8.min_u(low, i8x16.shuffle(low, low, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
}
/** What linesKey returns when every digit is fixed in every line. */
const NO_LINE_KEY: u32 = 0xffff;
/** lowestKey of the scores from LINE_COUNTS (the default's, or the digits-first one): score << 3 | line, or NO_LINE_KEY. */
@inline function linesKey(digitsFirst: bool): u32 {
  const band01 = pairSums(countScores8(v128.load(LINE_COUNTS), digitsFirst), countScores8(v128.load(LINE_COUNTS, 16), digitsFirst));
  const band2Stack0 = pairSums(countScores8(v128.load(LINE_COUNTS, 32), digitsFirst), countScores8(v128.load(LINE_COUNTS, 48), digitsFirst));
  const stacks12 = pairSums(countScores8(v128.load(LINE_COUNTS, 64), digitsFirst), countScores8(v128.load(LINE_COUNTS, 80), digitsFirst));
  const lines0123 = pairSums(band01, band2Stack0);
  const lines45 = pairSums(stacks12, stacks12);
  // lanes 0–5 the six lines' scores (6 and 7 repeat 4 and 5), digit 8's added
  const scores = i16x8.add(pairSums(lines0123, lines45), countScores8(v128.load(LINE_COUNTS, 96), digitsFirst));
  const open = v128.and(i16x8.gt_s(scores, choiceConstant(ALL_FIXED_SCORES)), choiceConstant(SIX_LINES));
  const keys = v128.bitselect(v128.or(i16x8.shl(scores, 3), choiceConstant(LANE_NUMBERS)), i16x8.splat(-1), open);
  return <u32>i16x8.extract_lane_u(lowestLane(keys), 0);
}
/** fewestDigit from LINE_COUNTS and LINE_MATRICES (lineCounts of `st`): digit | its configurations << 8. */
@inline function fewestCounted(st: usize, line: u32): u32 {
  const counts = v128.load(LINE_COUNTS + (<usize>line << 4));
  const keys = v128.bitselect(v128.or(i16x8.shl(counts, 4), choiceConstant(LANE_NUMBERS)), choiceConstant(NO_DIGITS), i16x8.gt_s(counts, choiceConstant(ONES)));
  const count8 = <u32>load<u16>(LINE_COUNTS + (<usize>line << 1), 96);
  const best = min<u32>(<u32>i16x8.extract_lane_u(lowestLane(keys), 0), count8 >= 2 ? (count8 << 4) | 8 : NO_DIGIT);
  if (best == NO_DIGIT) return 0;
  const digit = best & 0xf;
  const matrix =
    digit == 8
      ? <u32>load<u16>(LINE_MATRICES + (<usize>line << 1), 48)
      : line < 3
        ? <u32>load<u16>(st + (<usize>slotOf(digit, line) << 1), TRIADS_OFFSET)
        : <u32>load<u16>(LINE_MATRICES + (<usize>(line - 3) << 4) + (<usize>digit << 1));
  return digit | (<u32>load<u8>(matrix & 0x1ff, CONFIGURATIONS) << 8);
}
/** chooseConfiguration on SIMD_CHOICE's path. */
function chooseCounted(st: usize, depth: i32): bool {
  lineCounts(st);
  let key = linesKey(DIGITS_ROOT != 0 && digitsSearch);
  if (key == NO_LINE_KEY) return false;
  if (DIGITS_ROOT != 0 && branches == 0) {
    // the search's first branch: the rest of the search scores its lines digits first when this is above DIGITS_ROOT
    branches = 1;
    if (key >> 3 > DIGITS_ROOT) {
      digitsSearch = true;
      key = linesKey(true);
    }
  }
  const line = key & 7;
  const choice = fewestCounted(st, line);
  const at = <usize>depth << 2;
  store<u32>(at, LINE_FRAME + line, FRAME_BAND_OR_LINE);
  store<u32>(at, choice & 0xff, FRAME_CELL_OR_DIGIT);
  store<u32>(at, choice >> 8, FRAME_ALTERNATIVES);
  return true;
}

/** What lowestKey returns when every digit is fixed in every line. */
const NO_LINE: u32 = 0xffffffff;

/** A line's key in lowestKey: its (weighed) score, then the line; NO_LINE when its digits are all fixed. */
@inline function lineKey(scores: u64, line: u32): u32 {
  const score = <u32>(scores >> (line * 10)) & 0x3ff;
  return score > ALL_FIXED_SCORE ? (weighed(score, line) << 3) | line : NO_LINE;
}

/**
 * Of six line scores (lineScores), the lowest key of a line with a digit not yet fixed: its
 * (weighed) score << 3 | the line (bands first, then stacks, on ties); NO_LINE when there is none.
 * Six keys and no branch: which line wins is a coin toss to the CPU.
 */
@inline function lowestKey(scores: u64): u32 {
  const low012 = min<u32>(min<u32>(lineKey(scores, 0), lineKey(scores, 1)), lineKey(scores, 2));
  const low345 = min<u32>(min<u32>(lineKey(scores, 3), lineKey(scores, 4)), lineKey(scores, 5));
  return min<u32>(low012, low345);
}

/**
 * The line (0–5) with the lowest score from `table` (LINE_SCORE's layout) that has a digit not
 * yet fixed (bands first, then stacks, on ties); -1 when there is none.
 */
function lowestLine(st: usize, table: usize): i32 {
  const key = lowestKey(lineScores(st, table));
  return key == NO_LINE ? -1 : <i32>(key & 7);
}

/**
 * The configurations of a digit in a line (a band, or a stack read as bands × columns): the
 * permutations (of 6) of its three triads that the candidates still allow. The branch: of the
 * lines with a digit not yet fixed to one configuration, the one with the lowest score (above:
 * its configurations, fixed digits weighed less; bands first, then stacks, on ties), and in it
 * the digit with the fewest configurations (two when it can, the lowest digit on ties); each of
 * its configurations is one alternative. A search whose first branch finds that lowest score
 * above DIGITS_ROOT_ABOVE takes every line by the digits-first score instead (LINE_SCORE_DIGITS).
 * Writes the frame at `depth`; false when every digit is fixed in every line.
 */
function chooseConfiguration(st: usize, depth: i32): bool {
  if (AHEAD != 0 && branches < AHEAD) {
    branches++;
    return chooseAhead(st, depth);
  }
  if (SIMD_CHOICE) return chooseCounted(st, depth);
  if (DIGITS_ROOT != 0 && digitsSearch) {
    const line = lowestLine(st, LINE_SCORE_DIGITS);
    return line < 0 ? false : chooseDigit(st, depth, <u32>line);
  }
  const scores = lineScores(st, LINE_SCORE);
  const key = lowestKey(scores);
  if (key == NO_LINE) return false;
  let bestLine = <i32>(key & 7);
  const bestScore = <u32>(scores >> (<u32>bestLine * 10)) & 0x3ff;
  if (DIGITS_OVER != 0 && bestScore > DIGITS_OVER) bestLine = lowestLine(st, LINE_SCORE_DIGITS);
  if (DIGITS_ROOT != 0 && branches == 0) {
    // the search's first branch: the rest of the search scores its lines digits first when this is above DIGITS_ROOT
    branches = 1;
    if (bestScore > DIGITS_ROOT) {
      digitsSearch = true;
      bestLine = lowestLine(st, LINE_SCORE_DIGITS);
    }
  }
  if (PAIR_FIRST) {
    // the line with the lowest score that holds a digit with two configurations, if any
    let tried: u32 = 0;
    while (true) {
      let line: i32 = -1;
      let low: u32 = 1000;
      for (let l: u32 = 0; l < 6; l++) {
        const score = <u32>(scores >> (l * 10)) & 0x3ff;
        if (!((tried >> l) & 1) && score > ALL_FIXED_SCORE && score < low) {
          low = score;
          line = <i32>l;
        }
      }
      if (line < 0) break;
      tried |= <u32>1 << line;
      for (let digit: u32 = 0; digit < 9; digit++) {
        const configurations = <u32>load<u8>(lineMatrix(st, <u32>line, digit), CONFIGURATIONS);
        if (popcnt(configurations) == 2) {
          const at = <usize>depth << 2;
          store<u32>(at, LINE_FRAME + line, FRAME_BAND_OR_LINE);
          store<u32>(at, digit, FRAME_CELL_OR_DIGIT);
          store<u32>(at, configurations, FRAME_ALTERNATIVES);
          return true;
        }
      }
    }
  }
  return chooseDigit(st, depth, <u32>bestLine);
}

/**
 * DIGIT_TIES: which digit of the chosen line a branch takes among those with the fewest
 * configurations: 0 the lowest (default) │ 1 the one with the fewest candidate cells in the grid
 * (the most constrained) │ 2 the one with the fewest clues (the lowest on further ties). The
 * digits' names are the puzzle's own, so the default's choice among equal digits is arbitrary.
 */
const TIES: i32 = isDefined(DIGIT_TIES) ? DIGIT_TIES : 0;
/** The DIGIT_TIES key of `digit` (the lower wins). */
@inline function tieKey(st: usize, digit: u32): u32 {
  if (TIES == 2) return <u32>load<u8>(digit, CLUE_COUNTS);
  return popcnt(candidates(st, slotOf(digit, 0))) + popcnt(candidates(st, slotOf(digit, 1))) + popcnt(candidates(st, slotOf(digit, 2)));
}

/** fewestDigit's key of a line whose digits are all fixed. */
const NO_DIGIT: u32 = 0xff;

/** The configurations of `digit` from its line's matrices at `matrices`, `1 << shift` bytes apart (see fewestDigit). */
@inline function digitConfigurations(matrices: usize, shift: u32, digit: u32): u32 {
  const matrix = load<u32>(matrices + (<usize>digit << shift)) & 0x1ff; // a band's u16 and the next, or a stack's u32
  return <u32>load<u8>(matrix, CONFIGURATIONS);
}

/**
 * The digit of `line` with the fewest configurations, two or more (the lowest on ties, or as
 * DIGIT_TIES says): digit | its configurations << 8. Right after the stacks of `st` were scored
 * (STACK_MATRICES).
 */
function fewestDigit(st: usize, line: u32): u32 {
  // a band's matrices from rule 1's cache (u16 each), a stack's from its scoring (u32 each)
  const matrices = line < 3 ? st + TRIADS_OFFSET + (<usize>slotOf(0, line) << 1) : STACK_MATRICES + <usize>(line - 3) * 48;
  const shift: u32 = line < 3 ? 1 : 2;
  if (TIES != 0) {
    let bestDigit: u32 = 0;
    let bestCount: u32 = 7;
    let bestConfigurations: u32 = 0;
    let bestKey: u32 = 0;
    for (let digit: u32 = 0; digit < 9; digit++) {
      const configurations = digitConfigurations(matrices, shift, digit);
      const count = popcnt(configurations);
      if (count < 2 || count > bestCount) continue;
      const key = tieKey(st, digit);
      if (count == bestCount && key >= bestKey) continue;
      bestKey = key;
      bestCount = count;
      bestDigit = digit;
      bestConfigurations = configurations;
    }
    return bestDigit | (bestConfigurations << 8);
  }
  // the lowest key count << 4 | digit of a digit with two configurations or more: no branch
  // (which digit wins is a coin toss to the CPU)
  let best: u32 = NO_DIGIT;
  for (let digit: u32 = 0; digit < 9; digit++) {
    const count = popcnt(digitConfigurations(matrices, shift, digit));
    best = min<u32>(best, count >= 2 ? (count << 4) | digit : NO_DIGIT);
  }
  if (best == NO_DIGIT) return 0;
  const digit = best & 0xf;
  return digit | (digitConfigurations(matrices, shift, digit) << 8);
}

/** Writes as the frame at `depth` the branch on fewestDigit of `line`; true. */
function chooseDigit(st: usize, depth: i32, line: u32): bool {
  const choice = fewestDigit(st, line);
  const at = <usize>depth << 2;
  store<u32>(at, LINE_FRAME + line, FRAME_BAND_OR_LINE);
  store<u32>(at, choice & 0xff, FRAME_CELL_OR_DIGIT);
  store<u32>(at, choice >> 8, FRAME_ALTERNATIVES);
  return true;
}

/**
 * PROBING (see the header): each probe is propagated in a scratch state (the search stack's next
 * slot); when one fails, the other configuration is taken in the working state, with no guess.
 */
const PROBE: i32 = isDefined(PROBING) ? PROBING : 0;
/** Set in what probeBinaries returns when it fixed something: the state is then propagated again from the slots in the lower bits. */
const PROBE_FIXED: u32 = 0x80000000;

/** Probes one binary choice (digit, line, configurations): PROBE_FIXED | the slots changed in `st` when one fails, else 0. */
function probeChoice(st: usize, scratch: usize, line: u32, digit: u32, configurations: u32): u32 {
  const first = ctz(configurations);
  const second = ctz(configurations & (configurations - 1));
  memory.copy(scratch, st, STATE_BYTES);
  if (!propagate(scratch, applyConfiguration(scratch, digit, line, first))) return PROBE_FIXED | applyConfiguration(st, digit, line, second);
  memory.copy(scratch, st, STATE_BYTES);
  if (!propagate(scratch, applyConfiguration(scratch, digit, line, second))) return PROBE_FIXED | applyConfiguration(st, digit, line, first);
  return 0;
}

/**
 * PROBE_KEEP (0, default): 1 the probes' states are kept rather than propagated again (with
 * PROBING: the same states searched, fewer propagated): the branch's own digit's two
 * configurations are probed into the child state and the level's ready state (FRAME_READY), and
 * taken from there when the search branches on them; a probe whose other configuration fails
 * becomes the working state as it is. Guesses are counted as the default counts them: the branch's
 * own digit is a decision even when its probe finds one configuration dead (PROBING alone counts
 * that as a failed probe, no guess), so only the probes of the other digits save guesses.
 */
const KEEP: bool = PROBE != 0 && (isDefined(PROBE_KEEP) ? PROBE_KEEP != 0 : false);
/** PROBE_KEEP: per search level, the state its branch's second configuration was probed into. */
const READY_STATES: usize = KEEP ? memory.data(<i32>STATE_BYTES * MAX_DEPTH, 16) : 0;
/** PROBE_KEEP: per search level, 1 when its branch's states were probed (the first in the child state, the second in READY_STATES). */
const FRAME_READY: usize = KEEP ? memory.data(MAX_DEPTH * 4, 4) : 0;
/** PROBE_KEEP: two scratch states for the probes of the digits the search does not branch on. */
const PROBE_SCRATCH: usize = KEEP ? memory.data(<i32>STATE_BYTES * 2, 16) : 0;
/**
 * PROBE_ONCE (with PROBE_KEEP; 0 default): 1 a digit's two configurations in a line are probed once
 * on a path of the search: a state (and the states below it) notes the pairs whose probes both
 * lived (a u64 in the state's padding, bit line * 9 + digit) and does not probe them again.
 */
const PROBE_ONCE: bool = KEEP && (isDefined(PROBE_ONCE_PER_PATH) ? PROBE_ONCE_PER_PATH != 0 : false);
const PROBED_OFFSET: usize = 120;
/** What probeKept returns when the working state was replaced by a propagated, live probe state. */
const PROBE_TAKEN: u32 = 0x40000000;

@inline function readyAt(depth: i32): usize {
  return READY_STATES + <usize>depth * STATE_BYTES;
}

/**
 * probeChoice, the two configurations propagated into `first` and `second` (states of their own):
 * PROBE_FIXED | the slots changed in `st` when the first fails; PROBE_TAKEN when the second fails
 * (`st` is then the first's state, propagated); else 0 (both alive, in `first` and `second`).
 */
function probeKept(st: usize, first: usize, second: usize, line: u32, digit: u32, configurations: u32): u32 {
  const a = ctz(configurations);
  const b = ctz(configurations & (configurations - 1));
  copyState(first, st);
  if (!propagate(first, applyConfiguration(first, digit, line, a))) return PROBE_FIXED | applyConfiguration(st, digit, line, b);
  copyState(second, st);
  if (!propagate(second, applyConfiguration(second, digit, line, b))) {
    copyState(st, first);
    return PROBE_TAKEN;
  }
  return 0;
}

/**
 * probeBinaries with PROBE_KEEP: the frame's digit (when it has two configurations) is probed into
 * the child state and readyAt(depth); the others into PROBE_SCRATCH. Returns as probeKept at the
 * first that fixes something, else 0.
 */
function probeBinariesKept(st: usize, depth: i32): u32 {
  const at = <usize>depth << 2;
  const chosen = load<u32>(at, FRAME_BAND_OR_LINE) - LINE_FRAME;
  const chosenDigit = load<u32>(at, FRAME_CELL_OR_DIGIT);
  for (let line: u32 = 0; line < 6; line++) {
    if (PROBE == 1 && line != chosen) continue;
    for (let digit: u32 = 0; digit < 9; digit++) {
      const branch = line == chosen && digit == chosenDigit;
      const probedBit = <u64>1 << (line * 9 + digit);
      if (PROBE_ONCE && !branch && (load<u64>(st + PROBED_OFFSET) & probedBit)) continue;
      const configurations = <u32>load<u8>(lineMatrix(st, line, digit), CONFIGURATIONS);
      if (popcnt(configurations) != 2) continue;
      const fixed = branch
        ? probeKept(st, stateAt(depth + 1), readyAt(depth), line, digit, configurations)
        : probeKept(st, PROBE_SCRATCH, PROBE_SCRATCH + STATE_BYTES, line, digit, configurations);
      if (fixed) {
        // the branch's own digit: a decision, one side failed (counted as the default counts it)
        if (branch) guesses++;
        return fixed;
      }
      if (PROBE_ONCE) store<u64>(st + PROBED_OFFSET, load<u64>(st + PROBED_OFFSET) | probedBit);
    }
  }
  return 0;
}

/** Probes the binary choices of the lines PROBE names; returns as probeChoice at the first that fixes something, else 0. */
function probeBinaries(st: usize, scratch: usize, depth: i32): u32 {
  const chosen = load<u32>(<usize>depth << 2, FRAME_BAND_OR_LINE) - LINE_FRAME;
  for (let line: u32 = 0; line < 6; line++) {
    if (PROBE == 1 && line != chosen) continue;
    for (let digit: u32 = 0; digit < 9; digit++) {
      const configurations = <u32>load<u8>(lineMatrix(st, line, digit), CONFIGURATIONS);
      if (popcnt(configurations) != 2) continue;
      const fixed = probeChoice(st, scratch, line, digit, configurations);
      if (fixed) return fixed;
    }
  }
  return 0;
}

/** The 3×3 matrix of `digit` in `line` (0–2 a band: rows × boxes, from rule 1; 3–5 a stack: bands × columns). */
@inline function lineMatrix(st: usize, line: u32, digit: u32): u32 {
  if (line < 3) return triadsAt(st, slotOf(digit, line), 0);
  const shift = (line - 3) * 3;
  return ((columnsOf(candidates(st, slotOf(digit, 0))) >> shift) & 7) |
    (((columnsOf(candidates(st, slotOf(digit, 1))) >> shift) & 7) << 3) |
    (((columnsOf(candidates(st, slotOf(digit, 2))) >> shift) & 7) << 6);
}

/** Restricts `digit` to configuration `p` of `line` (0–2 a band, 3–5 a stack). */
function applyConfiguration(st: usize, digit: u32, line: u32, p: u32): u32 {
  if (line < 3) return narrow(st, slotOf(digit, line), load<u32>(<usize>p << 2, CONFIGURATION_CELLS));
  const shift = (line - 3) * 3;
  const others = ~spreadColumns(<u32>7 << shift);
  let changed: u32 = 0;
  for (let band: u32 = 0; band < 3; band++) {
    const column = <u32>load<u8>(p * 3 + band, CONFIGURATION_COLUMN);
    changed |= narrow(st, slotOf(digit, band), others | spreadColumns(<u32>1 << (shift + column)));
  }
  return changed;
}

/**
 * Takes alternative `alternative` of a frame: a digit for a cell, a configuration for a line.
 * Returns the slots it changed.
 */
@inline function applyAlternative(st: usize, bandOrLine: u32, cellOrDigit: u32, alternative: u32): u32 {
  return bandOrLine < LINE_FRAME ? place(st, alternative, bandOrLine, cellOrDigit) : applyConfiguration(st, cellOrDigit, bandOrLine - LINE_FRAME, alternative);
}

/**
 * AHEAD_BRANCHES (0 none, default): at the first AHEAD_BRANCHES branches of a search (in the order
 * they are taken), the default's branch and the one the digits-first score picks
 * (CONFIGURATION_SCORE 2) are both propagated one step ahead, each configuration in a state of its
 * own; the branch with fewer configurations left alive is taken (then the one with fewer
 * candidates left over them, then the default's). Its dead configurations are dropped, its live
 * ones kept and later taken as they are, not propagated again. Each probe counts as a node.
 */
const AHEAD: i32 = isDefined(AHEAD_BRANCHES) ? AHEAD_BRANCHES : 0;
/**
 * The branch choice of the default scores (and of the digits-first one) without tables: each
 * line's digits' configurations counted eight digits to a v128 (16 bits a digit), from the
 * entries of each of the six permutations (chooseCounted); the variants that score, weigh or
 * break ties otherwise keep the tables (lineScores, fewestDigit).
 */
const SIMD_CHOICE: bool = !LOG_SCORE && DIGITS_SCORE == 0 && !WEIGHTED && TIES == 0 && !PAIR_FIRST && AHEAD == 0 && DIGITS_OVER == 0;
/** Branches chosen so far by the current search (counted up to AHEAD_BRANCHES, or to 1 for DIGITS_ROOT_ABOVE). */
let branches: i32 = 0;
/** LINE_SCORE_DIGITS[3×3 bit matrix] = a digit's part of its line's digits-first score (22 less its configurations; fixed: FIXED_WEIGHT). */
const LINE_SCORE_DIGITS: usize = AHEAD != 0 || DIGITS_OVER != 0 || DIGITS_ROOT != 0 ? memory.data(512) : 0;
if (AHEAD != 0 || DIGITS_OVER != 0 || DIGITS_ROOT != 0) {
  for (let matrix: u32 = 0; matrix < 512; matrix++) {
    const count = popcnt(<u32>load<u8>(matrix, CONFIGURATIONS));
    store<u8>(matrix, <u8>(count > 1 ? DIGITS_FIRST_WEIGHT - count : FIXED_WEIGHT), LINE_SCORE_DIGITS);
  }
}
/**
 * Per branch AHEAD_BRANCHES decides, twelve states: the six configurations of the default's
 * branch, then the six of the other's, as propagated ahead.
 */
const AHEAD_STATES: usize = AHEAD != 0 ? memory.data(<i32>STATE_BYTES * 12 * AHEAD, 16) : 0;
/** Per search level: the six states ahead of its branch (AHEAD_STATES), or 0 when its configurations are not propagated yet. */
const FRAME_AHEAD: usize = AHEAD != 0 ? memory.data(MAX_DEPTH * 4, 4) : 0;

/**
 * The branch the lines' scores in `table` (LINE_SCORE's layout) pick: line | digit << 8 |
 * configurations << 16 (lowestLine, then fewestDigit), or -1 when every digit is fixed in every
 * line. With LINE_SCORE, the branch chooseConfiguration takes.
 */
function branchBy(st: usize, table: usize): i32 {
  const line = lowestLine(st, table);
  return line < 0 ? -1 : line | <i32>(fewestDigit(st, <u32>line) << 8);
}

/**
 * Propagates each configuration of `branch` (as branchBy returns it) from `st` into the states at
 * `ahead` (configuration p at state p). Returns the configurations that survive | the candidates
 * left over them beyond one per cell << 8.
 */
function propagateAhead(st: usize, ahead: usize, branch: i32): u32 {
  const line = <u32>branch & 0xff;
  const digit = (<u32>branch >> 8) & 0xff;
  let rest = <u32>branch >> 16;
  let alive: u32 = 0;
  let open: u32 = 0;
  while (rest) {
    const p = ctz(rest);
    rest &= rest - 1;
    const child = ahead + <usize>p * STATE_BYTES;
    memory.copy(child, st, STATE_BYTES);
    if (propagate(child, applyConfiguration(child, digit, line, p))) {
      alive |= <u32>1 << p;
      let candidateCount: u32 = 0;
      for (let slot: u32 = 0; slot < <u32>SLOTS; slot++) candidateCount += popcnt(candidates(child, slot));
      open += candidateCount - <u32>CELLS;
    }
  }
  return alive | (open << 8);
}

/**
 * AHEAD_BRANCHES: copies into `st` the state propagated ahead for `alternative` of the frame at
 * byte `at` of the frame arrays; false when that frame's configurations were not propagated ahead.
 */
@inline function takeAhead(st: usize, at: usize, alternative: u32): bool {
  const block = <usize>load<u32>(at, FRAME_AHEAD);
  if (!block) return false;
  memory.copy(st, block + <usize>alternative * STATE_BYTES, STATE_BYTES);
  return true;
}

/** The branch AHEAD_BRANCHES takes, written as the frame at `depth`; false when every digit is fixed in every line. */
function chooseAhead(st: usize, depth: i32): bool {
  const plain = branchBy(st, LINE_SCORE);
  if (plain < 0) return false;
  const other = branchBy(st, LINE_SCORE_DIGITS);
  let branch = plain;
  let alternatives = <u32>plain >> 16;
  if (((plain ^ other) & 0xffff) != 0) {
    const block = AHEAD_STATES + <usize>(branches - 1) * 12 * STATE_BYTES;
    const plainAhead = propagateAhead(st, block, plain);
    const otherAhead = propagateAhead(st, block + 6 * STATE_BYTES, other);
    const plainAlive = popcnt(plainAhead & 0xff);
    const otherAlive = popcnt(otherAhead & 0xff);
    const takeOther = otherAlive < plainAlive || (otherAlive == plainAlive && otherAhead >> 8 < plainAhead >> 8);
    branch = takeOther ? other : plain;
    alternatives = (takeOther ? otherAhead : plainAhead) & 0xff;
    store<u32>(<usize>depth << 2, <u32>(takeOther ? block + 6 * STATE_BYTES : block), FRAME_AHEAD);
  }
  const at = <usize>depth << 2;
  store<u32>(at, LINE_FRAME + (<u32>branch & 0xff), FRAME_BAND_OR_LINE);
  store<u32>(at, (<u32>branch >> 8) & 0xff, FRAME_CELL_OR_DIGIT);
  store<u32>(at, alternatives, FRAME_ALTERNATIVES);
  return true;
}

/**
 * Records the root's order: its unsolved cells by candidate count, then by the places their
 * candidates have left in the cell's row, column and box, most first (fewer guesses on the hard
 * sets than by count alone), then by index. Insertion-sorted
 * on a packed score: count << 16 | (255 - places) << 8 | cell (places ≤ 9 × 27).
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
      for (let digit: u32 = 0; digit < 9; digit++) {
        const cells = candidates(st, slotOf(digit, band));
        if (!(cells & bit)) continue;
        count++;
        places += popcnt(cells & rowCells) + popcnt(cells & boxCells);
        places += popcnt(candidates(st, slotOf(digit, 0)) & columnCells) + popcnt(candidates(st, slotOf(digit, 1)) & columnCells);
        places += popcnt(candidates(st, slotOf(digit, 2)) & columnCells);
      }
      const score = (count << 16) | ((255 - places) << 8) | (band * 27 + index);
      let at = cellOrderLength;
      while (at > 0 && load<u32>(<usize>(at - 1) << 2, CELL_ORDER_SCORE) > score) {
        store<u32>(<usize>at << 2, load<u32>(<usize>(at - 1) << 2, CELL_ORDER_SCORE), CELL_ORDER_SCORE);
        store<u32>(<usize>at << 2, load<u32>(<usize>(at - 1) << 2, CELL_ORDER_ENTRIES), CELL_ORDER_ENTRIES);
        at--;
      }
      store<u32>(<usize>at << 2, score, CELL_ORDER_SCORE);
      store<u32>(<usize>at << 2, (band << 5) | index, CELL_ORDER_ENTRIES);
      cellOrderLength++;
    }
  }
}

@inline function stateAt(depth: i32): usize {
  return STATES + <usize>depth * STATE_BYTES;
}

/**
 * Copies a state (STATE_BYTES, twelve v128s) from `from` to `to`. Written out rather than as
 * memory.copy, which V8 compiles to a call out of the module whatever its size.
 */
@inline function copyState(to: usize, from: usize): void {
  v128.store(to, v128.load(from));
  v128.store(to, v128.load(from, 16), 16);
  v128.store(to, v128.load(from, 32), 32);
  v128.store(to, v128.load(from, 48), 48);
  v128.store(to, v128.load(from, 64), 64);
  v128.store(to, v128.load(from, 80), 80);
  v128.store(to, v128.load(from, 96), 96);
  v128.store(to, v128.load(from, 112), 112);
  v128.store(to, v128.load(from, 128), 128);
  v128.store(to, v128.load(from, 144), 144);
  v128.store(to, v128.load(from, 160), 160);
  v128.store(to, v128.load(from, 176), 176);
}

/**
 * LOOKAHEAD (0 none, default): every alternative of the chosen branch is propagated before one is
 * taken, each into a state of its own (the last in the working state itself, which the branch no
 * longer needs); those that fail are dropped. With none left the state is a dead end; with one,
 * it is taken with no guess and no new level; with more, the search takes them in turn (in the
 * default's order), already propagated, and a guess is every live alternative but the last. The
 * states propagated are those of the default's search, which propagates each alternative in turn
 * too, so the nodes are the same whenever the search runs to its end; when it stops at its limit,
 * live alternatives it never took were propagated all the same. So a search for one solution
 * (limit 1), where that costs more states, is the default's.
 */
const LOOK: i32 = isDefined(LOOKAHEAD) ? LOOKAHEAD : 0;
/**
 * LOOKAHEAD's levels: a level opens only where two configurations or more stay alive, and each
 * fixes a digit of a line for the levels below it, so 6 lines × 9 digits of them at most.
 */
const CHILD_DEPTH: i32 = 55;
/**
 * LOOKAHEAD: per search level, a pool of six states for its branches' alternatives (but the last):
 * five at most, and the one that may hold the working state itself, after an alternative taken
 * with no guess (taken where it lies, not copied).
 */
/** LOOKAHEAD: the states of a level's pool. */
const POOL_STATES: u32 = 6;
const CHILD_STATES: usize = LOOK != 0 ? memory.data(<i32>STATE_BYTES * POOL_STATES * CHILD_DEPTH, 16) : 0;
/** LOOKAHEAD: per search level, its working state, which holds its branch's last alternative. */
const FRAME_HOME: usize = LOOK != 0 ? memory.data(CHILD_DEPTH * 4, 4) : 0;
/** LOOKAHEAD: a frame's bit for its working state (the bits below: the states of its level's pool); as `held`, no pool state. */
const HOME_BIT: u32 = POOL_STATES;

@inline function childAt(depth: i32, buffer: u32): usize {
  return CHILD_STATES + (<usize>buffer * CHILD_DEPTH + <usize>depth) * STATE_BYTES;
}

/**
 * LOOKAHEAD: propagates each alternative of the branch (`alternatives` of `bandOrLine`,
 * `cellOrDigit`) from `st`, the last in `st` itself, the others in the level's pool at `depth`
 * (skipping its state `held`). Returns the live ones: their states' bits in the pool, HOME_BIT for `st`.
 */
function probeAlternatives(st: usize, depth: i32, held: u32, alternatives: u32, bandOrLine: u32, cellOrDigit: u32): u32 {
  const last = 31 - clz(alternatives);
  let rest = alternatives ^ (<u32>1 << last);
  let live: u32 = 0;
  let buffer: u32 = 0;
  while (rest) {
    const alternative = ctz(rest);
    rest &= rest - 1;
    if (buffer == held) buffer++;
    const child = childAt(depth, buffer);
    copyState(child, st);
    nodes++; // (propagate's count, without its call: a probe is never the root)
    if (propagateSearch(child, applyAlternative(child, bandOrLine, cellOrDigit, alternative))) live |= <u32>1 << buffer;
    buffer++;
  }
  nodes++;
  if (propagateSearch(st, applyAlternative(st, bandOrLine, cellOrDigit, last))) live |= <u32>1 << HOME_BIT;
  return live;
}

/**
 * LOOKAHEAD's search from the loaded root state (stateAt(0)): as countSolutions, whose counts it
 * returns and sets. A level's working state is stateAt(0) at the root, below it the state an
 * alternative was propagated into; a frame keeps the states of its live alternatives not yet
 * taken (bits of its level's pool, and HOME_BIT).
 */
function searchAhead(solution: usize, limit: i32, budget: i32): i32 {
  const stopAt = nodeLimit(budget);
  let count = 0;
  let depth = 0;
  let st = stateAt(0);
  let held: u32 = HOME_BIT; // the state of this level's pool that is the working state (HOME_BIT: none)
  let alive = propagate(st, (<u32>1 << SLOTS) - 1);
  while (true) {
    if (!ASC_NO_ASSERT) {
      assert(depth >= 0 && depth < CHILD_DEPTH, "search depth out of bounds");
      if (alive) checkState(st);
    }
    if (alive) {
      if ((unsolved(st, 0) | unsolved(st, 1) | unsolved(st, 2)) == 0) {
        if (count == 0) writeSolution(st, solution);
        if (++count >= limit) return count;
      } else if (nodes >= stopAt && spent(budget)) {
        nodes = -nodes;
        return count;
      } else {
        if (!chooseConfiguration(st, depth)) chooseCell(st, depth); // (never: a digit fixed in every line is placed)
        const at = <usize>depth << 2;
        const alternatives = load<u32>(at, FRAME_ALTERNATIVES);
        if (!ASC_NO_ASSERT) assert(alternatives < 64, "more alternatives than configurations");
        const bandOrLine = load<u32>(at, FRAME_BAND_OR_LINE);
        const cellOrDigit = load<u32>(at, FRAME_CELL_OR_DIGIT);
        const live = probeAlternatives(st, depth, held, alternatives, bandOrLine, cellOrDigit);
        if (live == <u32>1 << HOME_BIT) continue; // the only one alive, in place: no guess, no new level
        if (live && (live & (live - 1)) == 0) {
          held = ctz(live); // the only one alive, taken where it lies: no guess, no new level
          st = childAt(depth, held);
          continue;
        }
        if (live) {
          const first = ctz(live);
          store<u32>(at, live & (live - 1), FRAME_ALTERNATIVES);
          store<u32>(at, <u32>st, FRAME_HOME);
          guesses++;
          st = childAt(depth, first);
          depth++;
          held = HOME_BIT;
          if (!ASC_NO_ASSERT) assert(depth < CHILD_DEPTH, "search stack overflow");
          continue;
        }
      }
    }
    // Back to the deepest frame with a live alternative not yet taken.
    while (depth > 0 && load<u32>(<usize>(depth - 1) << 2, FRAME_ALTERNATIVES) == 0) depth--;
    if (depth == 0) return count;
    const at = <usize>(depth - 1) << 2;
    const alternatives = load<u32>(at, FRAME_ALTERNATIVES);
    const rest = alternatives & (alternatives - 1);
    store<u32>(at, rest, FRAME_ALTERNATIVES);
    if (rest) guesses++; // the last live alternative is no guess
    const taken = ctz(alternatives);
    st = taken == HOME_BIT ? <usize>load<u32>(at, FRAME_HOME) : childAt(depth - 1, taken);
    held = HOME_BIT;
    alive = true;
  }
  return count;
}

// ── invariants (debug build only) ───────────────────────────────────────────────────────────
// The debug build checks them with assert(); every call sits behind `if (!ASC_NO_ASSERT)`, a
// compile-time constant that is true for the release targets (noAssert), so release code is unchanged.

/**
 * Traps unless a propagated, live state is consistent: masks inside their band, each placed cell
 * held by exactly one digit, whose row in that band holds no other cell, and every slot's cached
 * triad matrix current.
 */
function checkState(st: usize): void {
  for (let band: u32 = 0; band < 3; band++) {
    const open = unsolved(st, band);
    assert((open & ~BAND_CELLS) == 0, "unsolved cells outside the band");
    let placed = BAND_CELLS & ~open;
    while (placed) {
      const bit = placed & (0 - placed);
      const row = <u32>0x1ff << (ctz(bit) / 9 * 9);
      let holders = 0;
      for (let digit: u32 = 0; digit < 9; digit++) {
        const cells = candidates(st, slotOf(digit, band));
        assert((cells & ~BAND_CELLS) == 0, "candidates outside the band");
        if (cells & bit) {
          holders++;
          assert((cells & row) == bit, "a placed digit has another cell in its row");
        }
      }
      assert(holders == 1, "a placed cell holds other candidates, or none");
      placed &= placed - 1;
    }
  }
  // rule 1 keeps the triad matrices (level 3); below it no rule writes or reads them
  if (LEVEL == 3) {
    for (let slot: u32 = 0; slot < <u32>SLOTS; slot++) {
      assert(triadsAt(st, slot, 0) == triadsOf(candidates(st, slot)), "a stale triad matrix");
    }
  }
}

/**
 * Writes the placed digits of a solved state as 81 bytes 1–9. A solved slot holds exactly three
 * cells, one in each row of its band: three stores, no loop to mispredict.
 */
function writeSolution(st: usize, out: usize): void {
  for (let slot: u32 = 0; slot < <u32>SLOTS; slot++) {
    const digit = <u8>(digitOf(slot) + 1);
    const base = out + <usize>bandOf(slot) * 27;
    let cells = candidates(st, slot);
    if (!ASC_NO_ASSERT) assert(popcnt(cells) == 3, "a solved slot without three cells");
    const first = ctz(cells);
    cells &= cells - 1;
    const second = ctz(cells);
    cells &= cells - 1;
    store<u8>(base + first, digit);
    store<u8>(base + second, digit);
    store<u8>(base + ctz(cells), digit);
  }
}

/** Digits seen in each row, column and box while checking clues in order (27 × u16). */
const SEEN_IN_UNIT: usize = memory.data(27 * 2, 2);
/** The first fault of the 81 puzzle bytes in cell order: -1 a byte over 9, -2 a repeated clue; 1 none. */
function firstFault(puzzle: usize): i32 {
  memory.fill(SEEN_IN_UNIT, 0, 27 * 2);
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
  return 1;
}

/**
 * For a band's row×box matrix (9 bits, bit row * 3 + box, as triadsOf gives): MATRIX_OUT, the
 * cells of every row and box it touches; MATRIX_UNITS, how many rows plus how many boxes it touches.
 */
const MATRIX_OUT: usize = memory.data(512 * 4, 4);
const MATRIX_UNITS: usize = memory.data(512);
for (let matrix: u32 = 0; matrix < 512; matrix++) {
  let cells: u32 = 0;
  let units: u32 = 0;
  for (let i: u32 = 0; i < 3; i++) {
    if ((matrix >> (i * 3)) & 7) {
      cells |= <u32>0x1ff << (i * 9); // row i
      units++;
    }
    if ((matrix >> i) & 0x49) {
      cells |= BOX_CELLS << (i * 3); // box i
      units++;
    }
  }
  store<u32>(<usize>matrix << 2, cells, MATRIX_OUT);
  store<u8>(matrix, <u8>units, MATRIX_UNITS);
}

/** Per digit (u8): its clues, as loadPuzzle counted them (DIGIT_TIES 2 reads them). */
const CLUE_COUNTS: usize = memory.data(16, 16);
/**
 * Band `band`'s mask (cells 0–26, 27–53 or 54–80) of the cells marked in five 16-cell bitmasks
 * (cells 0–79, as i8x16.bitmask gives them) and `bit80` (cell 80). `band` is a constant at every
 * call, so only its own line is compiled.
 */
@inline function bandBits(band: i32, bits0: u32, bits1: u32, bits2: u32, bits3: u32, bits4: u32, bit80: u32): u32 {
  if (band == 0) return bits0 | ((bits1 & 0x7ff) << 16);
  if (band == 1) return (bits1 >> 11) | (bits2 << 5) | ((bits3 & 0x3f) << 21);
  return (bits3 >> 6) | (bits4 << 10) | (bit80 << 26);
}

/** loadPuzzle's clues of one digit (see there): writes its three slots; returns nonzero when a clue of it repeats. */
@inline function loadDigit(st: usize, digit: u32, c0: v128, c1: v128, c2: v128, c3: v128, c4: v128, byte80: u32, clued0: u32, clued1: u32, clued2: u32): u32 {
  const value = i8x16.splat(<i8>(digit + 1));
  const bits0 = <u32>i8x16.bitmask(i8x16.eq(c0, value));
  const bits1 = <u32>i8x16.bitmask(i8x16.eq(c1, value));
  const bits2 = <u32>i8x16.bitmask(i8x16.eq(c2, value));
  const bits3 = <u32>i8x16.bitmask(i8x16.eq(c3, value));
  const bits4 = <u32>i8x16.bitmask(i8x16.eq(c4, value));
  const bit80 = <u32>(byte80 == digit + 1);
  const clues0 = bandBits(0, bits0, bits1, bits2, bits3, bits4, bit80);
  const clues1 = bandBits(1, bits0, bits1, bits2, bits3, bits4, bit80);
  const clues2 = bandBits(2, bits0, bits1, bits2, bits3, bits4, bit80);
  const matrix0 = triadsOf(clues0);
  const matrix1 = triadsOf(clues1);
  const matrix2 = triadsOf(clues2);
  const columns = columnsOf(clues0 | clues1 | clues2);
  // each clue takes one row, one box and one column: fewer of any means two clues share it
  const clues = popcnt(clues0) + popcnt(clues1) + popcnt(clues2);
  const units = <u32>load<u8>(matrix0, MATRIX_UNITS) + <u32>load<u8>(matrix1, MATRIX_UNITS) + <u32>load<u8>(matrix2, MATRIX_UNITS);
  const repeated = (units + popcnt(columns)) ^ (3 * clues);
  store<u8>(digit, <u8>clues, CLUE_COUNTS);
  const spread = spreadColumns(columns);
  const out0 = load<u32>(<usize>matrix0 << 2, MATRIX_OUT) | spread;
  const out1 = load<u32>(<usize>matrix1 << 2, MATRIX_OUT) | spread;
  const out2 = load<u32>(<usize>matrix2 << 2, MATRIX_OUT) | spread;
  store<u32>(st + (<usize>slotOf(digit, 0) << 2), (BAND_CELLS & ~(out0 | clued0)) | clues0);
  store<u32>(st + (<usize>slotOf(digit, 1) << 2), (BAND_CELLS & ~(out1 | clued1)) | clues1);
  store<u32>(st + (<usize>slotOf(digit, 2) << 2), (BAND_CELLS & ~(out2 | clued2)) | clues2);
  return repeated;
}

/**
 * Loads 81 puzzle bytes into the root state: 1, or -1 for a byte over 9, -2 for a repeated clue.
 * Every byte is checked first. Then, digit by digit and without a branch, its clues are found 16
 * bytes at a time (as three band masks), a repeat seen as fewer rows, boxes or columns holding
 * them than there are clues, and each slot loses at once the rows, boxes and columns of its
 * digit's clues and the other clues' cells: the masks that placing the clues one by one gives.
 */
function loadPuzzle(puzzle: usize): i32 {
  const c0 = v128.load(puzzle);
  const c1 = v128.load(puzzle, 16);
  const c2 = v128.load(puzzle, 32);
  const c3 = v128.load(puzzle, 48);
  const c4 = v128.load(puzzle, 64);
  const byte80 = <u32>load<u8>(puzzle + 80);
  const nine = i8x16.splat(9);
  const over = v128.or(v128.or(i8x16.gt_u(c0, nine), i8x16.gt_u(c1, nine)), v128.or(v128.or(i8x16.gt_u(c2, nine), i8x16.gt_u(c3, nine)), i8x16.gt_u(c4, nine)));
  if (v128.any_true(over) || byte80 > 9) return firstFault(puzzle);
  // the clue cells, 16 at a time, then as band masks (cells 0–26, 27–53, 54–80)
  const zero = i8x16.splat(0);
  const chunk0 = <u32>i8x16.bitmask(i8x16.ne(c0, zero));
  const chunk1 = <u32>i8x16.bitmask(i8x16.ne(c1, zero));
  const chunk2 = <u32>i8x16.bitmask(i8x16.ne(c2, zero));
  const chunk3 = <u32>i8x16.bitmask(i8x16.ne(c3, zero));
  const chunk4 = <u32>i8x16.bitmask(i8x16.ne(c4, zero));
  const clue80 = <u32>(byte80 != 0);
  const clued0 = bandBits(0, chunk0, chunk1, chunk2, chunk3, chunk4, clue80);
  const clued1 = bandBits(1, chunk0, chunk1, chunk2, chunk3, chunk4, clue80);
  const clued2 = bandBits(2, chunk0, chunk1, chunk2, chunk3, chunk4, clue80);
  const st = stateAt(0);
  setUnsolved(st, 0, BAND_CELLS & ~clued0);
  setUnsolved(st, 1, BAND_CELLS & ~clued1);
  setUnsolved(st, 2, BAND_CELLS & ~clued2);
  let repeated: u32 = 0;
  for (let digit: u32 = 0; digit < 9; digit++) repeated |= loadDigit(st, digit, c0, c1, c2, c3, c4, byte80, clued0, clued1, clued2);
  if (repeated) return -2;
  return 1;
}

/**
 * Counts the solutions of the 81-byte puzzle at `puzzle` up to `limit`, writing the first into
 * the 81 bytes at `solution`. Returns the count, or -1 when a byte is over 9, -2 when a clue is
 * repeated in a row, column or box. Sets `guesses` and `nodes`. With a `budget` (0: no cap), it
 * stops before branching on a live unsolved state once `nodes >= budget` (`budget` states or more
 * propagated), with `nodes` negated.
 */
function countSolutions(puzzle: usize, solution: usize, limit: i32, budget: i32): i32 {
  guesses = 0;
  nodes = 0;
  startCounts();
  branches = 0;
  if (WEIGHTED) memory.fill(LINE_WEIGHTS, 0, 24);
  if (PAIRS != 0 || PAIRS_AT_ROOT) store<u32>(PAIRS_CLEAN, 0);
  digitsSearch = false;
  const loaded = loadPuzzle(puzzle);
  if (loaded < 0) return loaded;
  if (PROBE_ONCE) store<u64>(stateAt(0) + PROBED_OFFSET, 0);
  if (LOOK != 0 && limit > 1) return searchAhead(solution, limit, budget); // (a search to its first solution has the default's)
  const stopAt = nodeLimit(budget);
  let count = 0;
  let depth = 0;
  let st = stateAt(0);
  let dirty: u32 = (<u32>1 << SLOTS) - 1; // the slots to revisit: at the root, all
  let ahead: i32 = 0; // AHEAD_BRANCHES, PROBE_KEEP: 1 the state was propagated ahead (alive), 2 every configuration of its branch failed
  while (true) {
    let alive = (AHEAD != 0 || KEEP) && ahead != 0 ? ahead == 1 : propagate(st, dirty);
    if (AHEAD != 0 || KEEP) ahead = 0;
    if (!ASC_NO_ASSERT) {
      assert(depth >= 0 && depth < MAX_DEPTH, "search depth out of bounds");
      assert(count >= 0 && guesses >= 0 && nodes > 0, "a negative count");
      if (alive) checkState(st);
    }
    if (BRANCH != 0 && ORDER < 2 && nodes == 1 && alive) computeCellOrder(st);
    if (alive) {
      if ((unsolved(st, 0) | unsolved(st, 1) | unsolved(st, 2)) == 0) {
        if (count == 0) writeSolution(st, solution);
        if (++count >= limit) return count;
        alive = false;
      } else if (nodes >= stopAt && spent(budget)) {
        nodes = -nodes;
        return count;
      } else {
        if (AHEAD != 0) store<u32>(<usize>depth << 2, 0, FRAME_AHEAD);
        if (BRANCH == 2) {
          // configurations, but a two-candidate cell where the chosen digit has more than two
          if (!chooseConfiguration(st, depth)) chooseCell(st, depth);
          else if (popcnt(load<u32>(<usize>depth << 2, FRAME_ALTERNATIVES)) > 2 && (branchCells(st, 0) | branchCells(st, 1) | branchCells(st, 2))) {
            chooseCell(st, depth);
          }
        } else if (BRANCH != 0 || !chooseConfiguration(st, depth)) chooseCell(st, depth);
        if (KEEP) store<u32>(<usize>depth << 2, 0, FRAME_READY);
        if (KEEP && depth + 1 < MAX_DEPTH) {
          const fixed = probeBinariesKept(st, depth);
          if (fixed == PROBE_TAKEN) {
            ahead = 1; // the working state is a live probe's, propagated
            continue;
          }
          if (fixed) {
            dirty = fixed & ~PROBE_FIXED;
            continue;
          }
        } else if (PROBE != 0 && depth + 1 < MAX_DEPTH) {
          const fixed = probeBinaries(st, stateAt(depth + 1), depth);
          if (fixed) {
            dirty = fixed & ~PROBE_FIXED;
            continue;
          }
        }
        const at = <usize>depth << 2;
        const alternatives = load<u32>(at, FRAME_ALTERNATIVES);
        const alternative = ctz(alternatives);
        const bandOrLine = load<u32>(at, FRAME_BAND_OR_LINE);
        const cellOrDigit = load<u32>(at, FRAME_CELL_OR_DIGIT);
        if (KEEP && bandOrLine >= LINE_FRAME && popcnt(alternatives) == 2 && depth + 1 < MAX_DEPTH) {
          // both configurations were probed, alive: the first is the child state, the second waits in readyAt(depth)
          store<u32>(at, alternatives & (alternatives - 1), FRAME_ALTERNATIVES);
          store<u32>(at, 1, FRAME_READY);
          depth++;
          st = stateAt(depth);
          guesses++;
          ahead = 1;
          continue;
        }
        if (AHEAD != 0 && alternatives == 0) {
          ahead = 2; // every configuration failed ahead: a dead end
          continue;
        }
        if ((alternatives & (alternatives - 1)) == 0) {
          if (AHEAD != 0 && takeAhead(st, at, alternative)) {
            ahead = 1;
            continue;
          }
          dirty = applyAlternative(st, bandOrLine, cellOrDigit, alternative); // forced: no guess, no new level
          continue;
        }
        store<u32>(at, alternatives & (alternatives - 1), FRAME_ALTERNATIVES);
        if (!ASC_NO_ASSERT) assert(depth + 1 < MAX_DEPTH, "search stack overflow");
        copyState(stateAt(depth + 1), st);
        depth++;
        st = stateAt(depth);
        guesses++;
        if (AHEAD != 0 && takeAhead(st, at, alternative)) {
          ahead = 1;
          continue;
        }
        dirty = applyAlternative(st, bandOrLine, cellOrDigit, alternative);
        continue;
      }
    }
    // Backtrack to the deepest branch with an untried alternative.
    if (depth == 0) return count;
    const at = <usize>(depth - 1) << 2;
    if (KEEP && load<u32>(at, FRAME_READY)) {
      // the branch's second configuration, probed alive: its state is ready (and the branch's last)
      store<u32>(at, 0, FRAME_ALTERNATIVES);
      depth--;
      st = stateAt(depth);
      copyState(st, readyAt(depth));
      ahead = 1;
      continue;
    }
    const alternatives = load<u32>(at, FRAME_ALTERNATIVES);
    const alternative = ctz(alternatives);
    const rest = alternatives & (alternatives - 1);
    if (rest) {
      store<u32>(at, rest, FRAME_ALTERNATIVES);
      copyState(stateAt(depth), stateAt(depth - 1));
      guesses++;
    } else {
      depth--; // the last alternative of this branch is no guess: work in the parent state
    }
    st = stateAt(depth);
    if (AHEAD != 0 && takeAhead(st, at, alternative)) {
      ahead = 1;
      continue;
    }
    dirty = applyAlternative(st, load<u32>(at, FRAME_BAND_OR_LINE), load<u32>(at, FRAME_CELL_OR_DIGIT), alternative);
  }
  return count;
}

// ── exports ─────────────────────────────────────────────────────────────────────────────────

/** reserve(count, box): room for a batch of `count` puzzles (batch.ts holds the layout and the block). */
export { reserve } from "./batch";

/**
 * Solves the `count` puzzles of the batch at `base` (layout: batch.ts), counting up to `limit`;
 * `budget` caps the nodes of each search (0: no cap).
 */
export function solveBatch(base: usize, count: i32, limit: i32, budget: i32): i32 {
  if (outsideReservedBatch(base, count)) return -1; // only the reserved batch, never past it
  const solutions = solutionsAt(base, count);
  const counts = countsAt(base, count);
  const guessCounts = counts + <usize>count * 4;
  const nodeCounts = guessCounts + <usize>count * 4;
  for (let i = 0; i < count; i++) {
    const offset = <usize>i * CELLS;
    const found = countSolutions(base + offset, solutions + offset, limit, budget);
    store<i32>(counts + (<usize>i << 2), found);
    storeCounts(guessCounts, nodeCounts, i, guesses, nodes);
    if (!ASC_NO_ASSERT) assert(found >= -2 && guesses >= 0 && (nodes >= 0 || budget > 0), "a result out of range");
  }
  return count;
}

/** The text in and out of the CLI's byte path, over the batch (text.ts). */
export { cellsFromText, solutionsText, reserveRecords, writeRecords, reserveScan, scanLines, scanTable, scanCells } from "./text";
