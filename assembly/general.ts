// The general kernel: N×N Sudoku for box sizes 2–5 (4×4, 9×9, 16×16, 25×25), counting to a limit.
//
// Glossary
//   box size  B, the side of a box; N = B² symbols, N² cells, 3N units.
//   unit      a row, a column or a box: N cells that take every symbol once.
//   peer      another cell sharing a unit with a cell: 3(N-1) - 2(B-1) of them (64 at N = 25).
//   mask      the candidates of a cell, one bit per symbol (bit s-1 for symbol s), N ≤ 25 bits.
//   placed    a cell whose mask has one bit; it enters the queue the moment it gets there.
//   segment   the B cells where a unit meets a crossing unit: a line meets a box, a box meets
//             a row or a column.
//   triad     a segment seen from a line (row or column): its B cells hold B different symbols.
//   guess     a tentative placement made while another candidate of the cell remains.
//   node      one state propagated (the root, then one per placement tried); the budget caps them.
//
// State (one per search level, STATE_BYTES apart; only the first N² + 1 + 4N words are used):
//
//   word:  0        …   N²-1       N²         N²+1 … N²+4N
//        ┌────────┬───┬──────────┬──────────┬──────────────┐
//        │ mask 0 │ … │ mask N²-1│ unplaced │ locked × 4N  │
//        └────────┴───┴──────────┴──────────┴──────────────┘
//   unplaced  cells not yet placed;
//   locked    per row, column, box (cut into rows) and box (cut into columns): the symbols
//             already found confined to one segment of it, whose crossing unit was cleared.
//
// Propagation (exact rules only):
//   naked singles   a placed cell's symbol leaves its peers (the queue of placed cells);
//   hidden singles  a symbol with one cell left in a unit is placed there; a symbol with no
//                   cell left is a contradiction;
//   locked          a symbol whose cells in a unit all lie in one segment leaves the rest of
//   candidates      the crossing unit (pointing and claiming), once per symbol and unit.
//   triads          a triad whose cells have only B candidates between them holds exactly
//                   those: they leave the rest of its line and of its box (a naked set); a
//                   triad where B symbols are known to lie (each confined to it within its
//                   line or within its box) holds only those: its cells lose the others.
// Only units whose cells changed ("dirty") are scanned, one at a time in the order rows,
// columns, boxes, the queue drained after each; a scan that finds hidden singles places them
// and leaves the locked candidates to the next scan of the unit. The triads of a line whose
// cells changed are scanned only when no unit is dirty (the cheaper rules first).
// Then the search branches on the cell with the fewest candidates, ties going to the cell
// whose row, column and box have the most unplaced cells (the first of those), trying its
// symbols from the lowest, on an explicit stack of states: no recursion, no allocation during
// search.
//
// Batch layout in linear memory: the 9×9 kernel's (assembly/batch.ts), n puzzles of C = N² bytes.
// A puzzle byte is 0 (empty) or a symbol 1..N; a byte over N gives count -1 for that puzzle and a
// clue repeated in a row, column or box count -2 (the 9×9 kernel's codes, assembly/index.ts).
// nodes counts the states propagated; it is negative when the search hit the node budget
// (the count is then the solutions found before it stopped).

import { MAX_BATCH_BYTES, batchBytes, capped, carryCounts, countsAt, nodeLimit, solutionsAt, startCounts, storeCounts } from "./batch";

const MIN_BOX: i32 = 2;
const MAX_BOX: i32 = 5;
const MAX_SIZE: i32 = 25;
const MAX_CELLS: i32 = 625;
const MAX_PEERS: i32 = 64;
const MAX_UNITS: i32 = 75;
/** 625 + 1 + 100 words rounded up to 16 bytes. */
const STATE_BYTES: usize = 2912;
/** Search levels: the root plus one per guess, and at most one guess per cell. */
const MAX_DEPTH: i32 = MAX_CELLS + 1;

// ── tables and stacks (allocated once; the tables are rebuilt when the box size changes) ────
//
// The tables and scratch are static data, read as load<T>(index, TABLE): the table's address is
// the load's constant offset, which V8 folds into the instruction (an address held in a global
// costs a global read and an add per access). The stack of states, 1.8 MB, stays on the heap.

/** PEERS[cell * MAX_PEERS + i], u16: the peers of each cell, in order, as byte offsets in a state (cell × 4). */
const PEERS: usize = memory.data(MAX_CELLS * MAX_PEERS * 2, 16);
/** UNIT_CELLS[unit * MAX_SIZE + i], u16: rows 0..N-1, columns N..2N-1, boxes 2N..3N-1. */
const UNIT_CELLS: usize = memory.data(MAX_UNITS * MAX_SIZE * 2, 16);
/** CELL_UNITS[cell], u32: row | column << 8 | box << 16. */
const CELL_UNITS: usize = memory.data(MAX_CELLS * 4, 16);
/** The queue of placed cells whose symbol has not yet left their peers, u16. */
const QUEUE: usize = memory.data(MAX_CELLS * 2, 16);
/** Scratch for the unit being scanned: the candidates of its `box` segments (u32 each). */
const ROW_SEGMENTS: usize = memory.data(MAX_BOX * 4, 16);
/** Scratch for a box being scanned: the candidates of each of its columns. */
const BOX_COLUMN_SEGMENTS: usize = memory.data(MAX_BOX * 4, 16);
/** The search stack of states; state `depth` is the working state. */
const STATES: usize = heap.alloc(STATE_BYTES * <usize>MAX_DEPTH);
/** Per search level: the branch cell and its untried symbols. */
const FRAME_CELL: usize = memory.data(MAX_DEPTH * 4, 16);
const FRAME_SYMBOLS: usize = memory.data(MAX_DEPTH * 4, 16);

/** The box size the tables hold (0 before the first batch). */
let currentBox: i32 = 0;
let size: i32 = 0;
let cells: i32 = 0;
let peerCount: i32 = 0;
/** Every symbol: the low N bits. */
let allSymbols: u32 = 0;

/** Builds the peer, unit and cell tables for box size `b`. */
function configure(b: i32): void {
  if (b == currentBox) return;
  currentBox = b;
  size = b * b;
  cells = size * size;
  peerCount = 3 * (size - 1) - 2 * (b - 1);
  allSymbols = (<u32>1 << <u32>size) - 1;
  for (let cell = 0; cell < cells; cell++) {
    const row = cell / size;
    const column = cell % size;
    const boxIndex = (row / b) * b + column / b;
    store<u32>(<usize>cell << 2, <u32>row | (<u32>column << 8) | (<u32>boxIndex << 16), CELL_UNITS);
    const rowBase = UNIT_CELLS + (<usize>(row * MAX_SIZE) << 1);
    const columnBase = UNIT_CELLS + (<usize>((size + column) * MAX_SIZE) << 1);
    const boxBase = UNIT_CELLS + (<usize>((2 * size + boxIndex) * MAX_SIZE) << 1);
    store<u16>(rowBase + (<usize>column << 1), <u16>cell);
    store<u16>(columnBase + (<usize>row << 1), <u16>cell);
    store<u16>(boxBase + (<usize>((row % b) * b + column % b) << 1), <u16>cell);
  }
  for (let cell = 0; cell < cells; cell++) {
    const row = cell / size;
    const column = cell % size;
    const top = (row / b) * b;
    const left = (column / b) * b;
    const out = PEERS + (<usize>(cell * MAX_PEERS) << 1);
    let n = 0;
    for (let other = 0; other < cells; other++) {
      if (other == cell) continue;
      const otherRow = other / size;
      const otherColumn = other % size;
      const sameBox = otherRow >= top && otherRow < top + b && otherColumn >= left && otherColumn < left + b;
      if (otherRow == row || otherColumn == column || sameBox) {
        store<u16>(out + (<usize>n << 1), <u16>(other << 2));
        n++;
      }
    }
  }
}

// ── state access ────────────────────────────────────────────────────────────────────────────

/** Unscanned units, one bit per row, column and box. */
let dirtyRows: u32 = 0;
let dirtyColumns: u32 = 0;
let dirtyBoxes: u32 = 0;
/** Lines whose triads are unscanned, one bit per row and column. */
let triadRows: u32 = 0;
let triadColumns: u32 = 0;
let queueHead: i32 = 0;
let queueTail: i32 = 0;
/** Guesses taken by the current search. */
let guesses: i32 = 0;
/** States propagated by the current search; negated when the budget stopped it. */
let nodes: i32 = 0;

/** At a search's node limit (nodeLimit): true when that is its budget; without one (see capped), false, once the counts have moved to their i64 totals. */
function spent(budget: i32): bool {
  if (capped(budget)) return true;
  carryCounts(guesses, nodes);
  nodes = 2;
  guesses = 0;
  return false;
}

@inline function stateAt(depth: i32): usize {
  return STATES + <usize>depth * STATE_BYTES;
}

/** The candidate mask of `cell` in state `st`. */
@inline function maskOf(st: usize, cell: i32): u32 {
  return load<u32>(st + (<usize>cell << 2));
}

@inline function setMask(st: usize, cell: i32, mask: u32): void {
  store<u32>(st + (<usize>cell << 2), mask);
}

@inline function unplaced(st: usize): i32 {
  return load<i32>(st + (<usize>cells << 2));
}

@inline function setUnplaced(st: usize, count: i32): void {
  store<i32>(st + (<usize>cells << 2), count);
}

/** The locked-symbols word `slot` (0..4N-1) of state `st`. */
@inline function lockedAt(st: usize, slot: i32): usize {
  return st + (<usize>(cells + 1 + slot) << 2);
}

@inline function isSingle(mask: u32): bool {
  return (mask & (mask - 1)) == 0;
}

/** Marks the row, column and box of `cell` for a hidden-single scan. */
@inline function markDirty(cell: i32): void {
  const units = load<u32>(<usize>cell << 2, CELL_UNITS);
  dirtyRows |= <u32>1 << (units & 0xff);
  dirtyColumns |= <u32>1 << ((units >> 8) & 0xff);
  dirtyBoxes |= <u32>1 << (units >> 16);
  triadRows |= <u32>1 << (units & 0xff);
  triadColumns |= <u32>1 << ((units >> 8) & 0xff);
}

/** Places the one-bit `symbol` on `cell` (a candidate there) and queues it for its peers. */
@inline function place(st: usize, cell: i32, symbol: u32): void {
  assert(queueTail < cells && (maskOf(st, cell) & symbol) != 0);
  setMask(st, cell, symbol);
  setUnplaced(st, unplaced(st) - 1);
  store<u16>(<usize>queueTail << 1, <u16>cell, QUEUE);
  queueTail++;
  markDirty(cell);
}

/** Clears the queue and the dirty units before a placement in a fresh state. */
@inline function resetWork(): void {
  queueHead = 0;
  queueTail = 0;
  dirtyRows = 0;
  dirtyColumns = 0;
  dirtyBoxes = 0;
  triadRows = 0;
  triadColumns = 0;
}

// ── propagation ─────────────────────────────────────────────────────────────────────────────

/**
 * Removes `symbols` from the candidates of `cell`: marks its units dirty and queues it when one
 * candidate is left. False when none is left.
 */
@inline function eliminate(st: usize, cell: i32, symbols: u32): bool {
  let mask = maskOf(st, cell);
  if (!(mask & symbols)) return true;
  mask &= ~symbols;
  if (mask == 0) return false;
  setMask(st, cell, mask);
  markDirty(cell);
  if (isSingle(mask)) {
    setUnplaced(st, unplaced(st) - 1);
    store<u16>(<usize>queueTail << 1, <u16>cell, QUEUE);
    queueTail++;
  }
  return true;
}

/**
 * Naked singles: each queued cell's symbol leaves its peers. False on a contradiction (the state
 * is then dropped, so the sweep need not stop at the first peer left empty).
 * Each cell's peers are swept without a branch on whether a peer had the symbol (a branch the
 * CPU mispredicts often): every peer's mask is rewritten and the peers that had it are noted;
 * those then have their units marked and, when a single candidate is left, are queued, in the
 * peers' order, as eliminate does.
 */
function drainQueue(st: usize): bool {
  while (queueHead < queueTail) {
    const cell = <i32>load<u16>(<usize>queueHead << 1, QUEUE);
    queueHead++;
    const symbol = maskOf(st, cell);
    const keep = ~symbol;
    const shift = ctz(symbol);
    const peers = <usize>(cell * MAX_PEERS) << 1;
    let hits: u64 = 0;
    let emptied: u32 = 0;
    // from the last peer to the first, each shifting the set up: bit i is peer i
    for (let p = peers + (<usize>peerCount << 1); p > peers; ) {
      p -= 2;
      const at = st + <usize>load<u16>(p, PEERS);
      const mask = load<u32>(at);
      store<u32>(at, mask & keep);
      hits = (hits << 1) | <u64>((mask >> shift) & 1);
      emptied |= <u32>(mask == symbol);
    }
    if (emptied) return false;
    while (hits) {
      const i = <usize>ctz(hits);
      hits &= hits - 1;
      const peer = <i32>(load<u16>(peers + (i << 1), PEERS) >> 2);
      markDirty(peer);
      if (isSingle(maskOf(st, peer))) {
        setUnplaced(st, unplaced(st) - 1);
        store<u16>(<usize>queueTail << 1, <u16>peer, QUEUE);
        queueTail++;
      }
    }
  }
  return true;
}

/** Takes the next dirty unit (rows, then columns, then boxes), or -1 when none is left. */
@inline function nextDirtyUnit(): i32 {
  if (dirtyRows) {
    const row = ctz(dirtyRows);
    dirtyRows &= dirtyRows - 1;
    return <i32>row;
  }
  if (dirtyColumns) {
    const column = ctz(dirtyColumns);
    dirtyColumns &= dirtyColumns - 1;
    return size + <i32>column;
  }
  if (dirtyBoxes) {
    const boxIndex = ctz(dirtyBoxes);
    dirtyBoxes &= dirtyBoxes - 1;
    return 2 * size + <i32>boxIndex;
  }
  return -1;
}

/** The offset of the cell list of `unit` in UNIT_CELLS. */
@inline function unitCellsOf(unit: i32): usize {
  return <usize>(unit * MAX_SIZE) << 1;
}

/** The cell at position `i` of the unit whose cell list is at `unitCells` in UNIT_CELLS. */
@inline function unitCell(unitCells: usize, i: i32): i32 {
  return <i32>load<u16>(unitCells + (<usize>i << 1), UNIT_CELLS);
}

/**
 * Removes `symbols` from the cells of unit `target` that lie outside the unit whose index, in
 * the CELL_UNITS field at `shift` (0 row, 8 column, 16 box), is `source`. False on a contradiction.
 * As drainQueue, without a branch per cell: every mask is rewritten and the cells that lost a
 * symbol noted (from the last cell down, bit i for cell i), then those are marked and queued in
 * the unit's order, as eliminate does.
 */
function eliminateOutside(st: usize, target: i32, symbols: u32, shift: u32, source: u32): bool {
  const unitCells = unitCellsOf(target);
  let hits: u32 = 0;
  let emptied: u32 = 0;
  for (let i = size - 1; i >= 0; i--) {
    const cell = unitCell(unitCells, i);
    const outside = ((load<u32>(<usize>cell << 2, CELL_UNITS) >> shift) & 0xff) != source;
    const at = st + (<usize>cell << 2);
    const mask = load<u32>(at);
    const cut = outside ? mask & symbols : 0;
    store<u32>(at, mask ^ cut);
    hits = (hits << 1) | <u32>(cut != 0);
    emptied |= <u32>(mask == cut);
  }
  if (emptied) return false;
  while (hits) {
    const cell = unitCell(unitCells, ctz(hits));
    hits &= hits - 1;
    markDirty(cell);
    if (isSingle(maskOf(st, cell))) {
      setUnplaced(st, unplaced(st) - 1);
      store<u16>(<usize>queueTail << 1, <u16>cell, QUEUE);
      queueTail++;
    }
  }
  return true;
}

/**
 * Locked candidates of one orientation: the unit is cut into `box` segments whose candidates are
 * at SEGMENTS + `segments` (u32 each); a symbol whose cells all lie in segment k leaves the rest
 * of the unit crossing it there (`crossingUnit`). Symbols already handled are in the state's
 * locked word `slot`. False on a contradiction.
 */
function lockSegments(st: usize, unit: i32, slot: i32, segments: usize, stride: i32, open: u32): bool {
  let once: u32 = 0;
  let twice: u32 = 0;
  for (let k = 0; k < currentBox; k++) {
    const mask = load<u32>(segments + (<usize>k << 2));
    twice |= once & mask;
    once |= mask;
  }
  const lockedWord = lockedAt(st, slot);
  const locked = load<u32>(lockedWord);
  const confined = once & ~twice & open & ~locked;
  if (!confined) return true;
  store<u32>(lockedWord, locked | confined);
  for (let k = 0; k < currentBox; k++) {
    const symbols = load<u32>(segments + (<usize>k << 2)) & confined;
    if (!symbols) continue;
    if (!eliminateOutside(st, crossingUnit(unit, k, stride), symbols, crossingShift(unit), <u32>unitIndex(unit))) return false;
  }
  return true;
}

/** The index of a unit within its kind (row, column or box number). */
@inline function unitIndex(unit: i32): i32 {
  return unit < size ? unit : unit < 2 * size ? unit - size : unit - 2 * size;
}

/** The CELL_UNITS field of the unit's own kind, to skip its cells in the crossing unit. */
@inline function crossingShift(unit: i32): u32 {
  return unit < size ? 0 : unit < 2 * size ? 8 : 16;
}

/**
 * The unit crossing segment `k` of `unit`: a box for a row or a column; for a box, its row
 * `k` (segments of stride 1) or its column `k` (segments of stride `box`).
 */
function crossingUnit(unit: i32, k: i32, stride: i32): i32 {
  const b = currentBox;
  if (unit < size) return 2 * size + (unit / b) * b + k;
  if (unit < 2 * size) return 2 * size + k * b + (unit - size) / b;
  const boxIndex = unit - 2 * size;
  if (stride == 1) return (boxIndex / b) * b + k;
  return size + (boxIndex % b) * b + k;
}

/** The union of a vector's four masks. */
@inline function laneUnion(masks: v128): u32 {
  const halves = v128.or(masks, i32x4.shuffle(masks, masks, 2, 3, 0, 1));
  return <u32>i32x4.extract_lane(v128.or(halves, i32x4.shuffle(halves, halves, 1, 0, 3, 2)), 0);
}

/**
 * A vector scan's lanes folded into one, lane by lane, for the four columns of masks it kept
 * apart (`once`: symbols seen, `twice`: seen in two cells or more, `placed`: placed): lanes 0+2
 * and 1+3, then the two. Returns [once, twice, placed, placed].
 */
@inline function foldLanes(onceLanes: v128, twiceLanes: v128, placedLanes: v128): v128 {
  let onceOther = i32x4.shuffle(onceLanes, onceLanes, 2, 3, 0, 1);
  twiceLanes = v128.or(v128.or(twiceLanes, i32x4.shuffle(twiceLanes, twiceLanes, 2, 3, 0, 1)), v128.and(onceLanes, onceOther));
  onceLanes = v128.or(onceLanes, onceOther);
  onceOther = i32x4.shuffle(onceLanes, onceLanes, 1, 0, 3, 2);
  twiceLanes = v128.or(v128.or(twiceLanes, i32x4.shuffle(twiceLanes, twiceLanes, 1, 0, 3, 2)), v128.and(onceLanes, onceOther));
  onceLanes = v128.or(onceLanes, onceOther);
  placedLanes = v128.or(placedLanes, i32x4.shuffle(placedLanes, placedLanes, 2, 3, 0, 1));
  placedLanes = v128.or(placedLanes, i32x4.shuffle(placedLanes, placedLanes, 1, 0, 3, 2));
  return i32x4.shuffle(i32x4.shuffle(onceLanes, twiceLanes, 0, 4, 0, 4), placedLanes, 0, 1, 4, 4);
}

/** What scanWide found besides the candidates of the unit: the symbols in two cells or more, the placed symbols. */
let wideTwice: u32 = 0;
let widePlaced: u32 = 0;

/**
 * A 25×25 row or box for scanUnit, at `at` with `step` bytes from one segment to the next:
 * each segment is four adjacent masks, one vector, and a fifth beside it, kept apart and merged
 * at the end. Writes the segments' candidates at ROW_SEGMENTS, sets wideTwice and widePlaced
 * and returns the unit's candidates. (Written apart from the 16×16 loop: sharing its code with
 * it, with a test of the box size, cost 16×16 1%.)
 */
function scanWide(at: usize, step: usize): u32 {
  const zero = i32x4.splat(0);
  const one = i32x4.splat(1);
  let onceLanes = zero;
  let twiceLanes = zero;
  let placedLanes = zero;
  let once: u32 = 0;
  let twice: u32 = 0;
  let placed: u32 = 0;
  for (let k = 0; k < 5; k++) {
    const masks = v128.load(at);
    const mask = load<u32>(at, 16);
    at += step;
    twiceLanes = v128.or(twiceLanes, v128.and(onceLanes, masks));
    onceLanes = v128.or(onceLanes, masks);
    placedLanes = v128.or(placedLanes, v128.and(masks, i32x4.eq(v128.and(masks, i32x4.sub(masks, one)), zero)));
    twice |= once & mask;
    once |= mask;
    placed |= isSingle(mask) ? mask : 0;
    store<u32>(<usize>k << 2, laneUnion(masks) | mask, ROW_SEGMENTS);
  }
  // the four lanes folded, then the fifth cell's column
  const lanes = foldLanes(onceLanes, twiceLanes, placedLanes);
  const onceAll = <u32>i32x4.extract_lane(lanes, 0);
  wideTwice = twice | <u32>i32x4.extract_lane(lanes, 1) | (once & onceAll);
  widePlaced = placed | <u32>i32x4.extract_lane(lanes, 2);
  return once | onceAll;
}

/**
 * Scans one unit. Hidden singles: places each symbol with one cell left (and returns, the unit
 * being dirty again). Otherwise locked candidates: a symbol confined to the unit's intersection
 * with a crossing unit leaves the rest of that unit. False on a contradiction.
 */
function scanUnit(st: usize, unit: i32): bool {
  const b = currentBox;
  // Position i = k * box + j is the cell base + k * strideK + j * strideJ: segment k of a line
  // or row k of a box; column j of a box.
  let base: i32;
  let strideK: i32;
  let strideJ: i32;
  const isBox = unit >= 2 * size;
  if (unit < size) {
    base = unit * size;
    strideK = b;
    strideJ = 1;
  } else if (!isBox) {
    base = unit - size;
    strideK = b * size;
    strideJ = size;
  } else {
    const boxIndex = unit - 2 * size;
    base = (boxIndex / b) * b * size + (boxIndex % b) * b;
    strideK = size;
    strideJ = 1;
  }
  let once: u32 = 0;
  let twice: u32 = 0;
  let placed: u32 = 0;
  if (b == 4 && strideJ == 1) {
    // 16×16, a row or a box: each segment is four adjacent masks, one vector.
    const zero = i32x4.splat(0);
    const one = i32x4.splat(1);
    let onceLanes = zero;
    let twiceLanes = zero;
    let placedLanes = zero;
    let at = st + (<usize>base << 2);
    const step = <usize>strideK << 2;
    for (let k = 0; k < 4; k++) {
      const masks = v128.load(at);
      at += step;
      twiceLanes = v128.or(twiceLanes, v128.and(onceLanes, masks));
      onceLanes = v128.or(onceLanes, masks);
      placedLanes = v128.or(placedLanes, v128.and(masks, i32x4.eq(v128.and(masks, i32x4.sub(masks, one)), zero)));
      store<u32>(<usize>k << 2, laneUnion(masks), ROW_SEGMENTS);
    }
    const lanes = foldLanes(onceLanes, twiceLanes, placedLanes);
    once = <u32>i32x4.extract_lane(lanes, 0);
    twice = <u32>i32x4.extract_lane(lanes, 1);
    placed = <u32>i32x4.extract_lane(lanes, 2);
  } else if (b == 5 && strideJ == 1) {
    once = scanWide(st + (<usize>base << 2), <usize>strideK << 2);
    twice = wideTwice;
    placed = widePlaced;
  } else {
    for (let k = 0; k < b; k++) {
      let segment: u32 = 0;
      let cell = base + k * strideK;
      for (let j = 0; j < b; j++) {
        const mask = maskOf(st, cell);
        cell += strideJ;
        twice |= once & mask;
        once |= mask;
        placed |= isSingle(mask) ? mask : 0;
        segment |= mask;
      }
      store<u32>(<usize>k << 2, segment, ROW_SEGMENTS);
    }
  }
  if (once != allSymbols) return false;
  let hidden = once & ~twice & ~placed;
  if (hidden) {
    while (hidden) {
      const symbol = hidden & (0 - hidden);
      hidden ^= symbol;
      const cell = cellWith(st, symbol, base, strideK, strideJ);
      if (cell < 0) return false; // an earlier hidden single of this unit took the same cell
      place(st, cell, symbol);
    }
    return true;
  }
  const open = allSymbols & ~placed;
  if (!isBox) return lockSegments(st, unit, unit, ROW_SEGMENTS, 1, open);
  if (!lockSegments(st, unit, unit, ROW_SEGMENTS, 1, open)) return false;
  // The box's columns, read only now: the rows' eliminations above left the box's cells alone.
  for (let j = 0; j < b; j++) {
    let segment: u32 = 0;
    let cell = base + j;
    for (let k = 0; k < b; k++) {
      segment |= maskOf(st, cell);
      cell += size;
    }
    store<u32>(<usize>j << 2, segment, BOX_COLUMN_SEGMENTS);
  }
  return lockSegments(st, unit, unit + size, BOX_COLUMN_SEGMENTS, b, open);
}

/** The first cell of a unit (laid out as in scanUnit) with `symbol` among its candidates, or -1. */
function cellWith(st: usize, symbol: u32, base: i32, strideK: i32, strideJ: i32): i32 {
  for (let k = 0; k < currentBox; k++) {
    let cell = base + k * strideK;
    for (let j = 0; j < currentBox; j++) {
      if (maskOf(st, cell) & symbol) return cell;
      cell += strideJ;
    }
  }
  return -1;
}

/**
 * Triads of a line (row or column) whose segment candidates scanUnit left at ROW_SEGMENTS:
 * segment k, where the line meets a box, holds exactly `box` symbols. When its cells'
 * candidates are only `box` symbols, those leave the rest of the line and the rest of the box;
 * when `box` symbols are known to lie in it (confined to it within the line or within the box),
 * its cells lose every other candidate. `placed`: the line's placed symbols. False on a
 * contradiction.
 */
function scanTriads(st: usize, unit: i32, placed: u32): bool {
  const b = currentBox;
  const isRow = unit < size;
  const line = isRow ? unit : unit - size;
  const lineShift: u32 = isRow ? 0 : 8;
  // The line's band (rows) or stack (columns), from line bandStart.
  const bandStart = (line / b) * b;
  // Byte steps in a state from a cell to the next line's (lineStep) and to the line's next cell (cellStep).
  const lineStep: usize = isRow ? <usize>size << 2 : 4;
  const cellStep: usize = isRow ? 4 : <usize>size << 2;
  const bandAt = st + <usize>bandStart * lineStep;
  const ownAt = st + <usize>line * lineStep;
  const boxBase = isRow ? bandStart : line / b;
  const boxStep = isRow ? 1 : b;
  for (let k = 0; k < b; k++) {
    const segment = load<u32>(<usize>k << 2, ROW_SEGMENTS);
    const count = <i32>popcnt(segment);
    if (count < b) return false;
    if (count == b && (segment & ~placed) == 0) continue; // every cell placed
    let lineOthers: u32 = 0;
    for (let other = 0; other < b; other++) {
      if (other != k) lineOthers |= load<u32>(<usize>other << 2, ROW_SEGMENTS);
    }
    let boxOthers: u32 = 0;
    const segmentAt = <usize>(k * b) * cellStep;
    let lineAt = bandAt + segmentAt;
    const ownSegmentAt = ownAt + segmentAt;
    for (let otherLine = 0; otherLine < b; otherLine++) {
      if (lineAt != ownSegmentAt) {
        let at = lineAt;
        for (let j = 0; j < b; j++) {
          boxOthers |= load<u32>(at);
          at += cellStep;
        }
      }
      lineAt += lineStep;
    }
    const boxIndex = boxBase + k * boxStep;
    if (count == b) {
      const outside = segment & (lineOthers | boxOthers);
      if (outside) {
        if (!eliminateOutside(st, unit, outside, 16, <u32>boxIndex)) return false;
        if (!eliminateOutside(st, 2 * size + boxIndex, outside, lineShift, <u32>line)) return false;
      }
      continue;
    }
    const required = segment & (~lineOthers | ~boxOthers);
    const requiredCount = <i32>popcnt(required);
    if (requiredCount > b) return false;
    if (requiredCount == b && segment != required) {
      for (let j = k * b; j < k * b + b; j++) {
        if (!eliminate(st, isRow ? line * size + j : j * size + line, ~required)) return false;
      }
    }
  }
  return true;
}

/** Takes the next line whose triads are unscanned (rows, then columns), or -1 when none is left. */
@inline function nextTriadLine(): i32 {
  if (triadRows) {
    const row = ctz(triadRows);
    triadRows &= triadRows - 1;
    return <i32>row;
  }
  if (triadColumns) {
    const column = ctz(triadColumns);
    triadColumns &= triadColumns - 1;
    return size + <i32>column;
  }
  return -1;
}

/** Gathers a line's segment candidates at ROW_SEGMENTS and its placed symbols, then scans its triads. */
function triadsOfLine(st: usize, unit: i32): bool {
  const b = currentBox;
  let placed: u32 = 0;
  if (unit < size && b == 4) {
    // a 16×16 row: each segment is four adjacent masks, one vector
    const zero = i32x4.splat(0);
    const one = i32x4.splat(1);
    let placedLanes = zero;
    let at = st + (<usize>(unit * size) << 2);
    for (let k = 0; k < 4; k++) {
      const masks = v128.load(at);
      at += 16;
      placedLanes = v128.or(placedLanes, v128.and(masks, i32x4.eq(v128.and(masks, i32x4.sub(masks, one)), zero)));
      const halves = v128.or(masks, i32x4.shuffle(masks, masks, 2, 3, 0, 1));
      store<u32>(<usize>k << 2, i32x4.extract_lane(v128.or(halves, i32x4.shuffle(halves, halves, 1, 0, 3, 2)), 0), ROW_SEGMENTS);
    }
    placedLanes = v128.or(placedLanes, i32x4.shuffle(placedLanes, placedLanes, 2, 3, 0, 1));
    placedLanes = v128.or(placedLanes, i32x4.shuffle(placedLanes, placedLanes, 1, 0, 3, 2));
    placed = <u32>i32x4.extract_lane(placedLanes, 0);
  } else {
    // a row's cells are 4 bytes apart in a state, a column's N × 4
    const isRow = unit < size;
    const step: usize = isRow ? 4 : <usize>size << 2;
    let at = st + (isRow ? <usize>(unit * size) << 2 : <usize>(unit - size) << 2);
    for (let k = 0; k < b; k++) {
      let segment: u32 = 0;
      for (let j = 0; j < b; j++) {
        const mask = load<u32>(at);
        at += step;
        segment |= mask;
        placed |= isSingle(mask) ? mask : 0;
      }
      store<u32>(<usize>k << 2, segment, ROW_SEGMENTS);
    }
  }
  return scanTriads(st, unit, placed);
}

/**
 * Propagates to a fixed point: naked singles first, then the dirty units (hidden singles,
 * locked candidates), and the triads of a line only when both are done. False on a contradiction.
 */
function propagate(st: usize): bool {
  nodes++;
  while (true) {
    if (!drainQueue(st)) return false;
    if (unplaced(st) == 0) return true;
    const unit = nextDirtyUnit();
    if (unit >= 0) {
      if (!scanUnit(st, unit)) return false;
      continue;
    }
    const line = nextTriadLine();
    if (line < 0) return true;
    if (!triadsOfLine(st, line)) return false;
  }
  return true;
}

// ── search ──────────────────────────────────────────────────────────────────────────────────

/** Scratch for branching: unplaced cells per unit (rows, columns, boxes), u8 each. */
const UNIT_OPEN: usize = memory.data(MAX_UNITS, 16);

/**
 * Writes the frame at `depth`: the cell with the fewest candidates (≥ 2), ties to the most
 * unplaced cells in its units (the first of those). A unit holds at most 25 cells, so the
 * fewest candidates decide first: only the cells that have that many are weighed.
 */
function chooseBranch(st: usize, depth: i32): void {
  memory.fill(UNIT_OPEN, 0, <usize>(3 * size));
  // Row by row and segment by segment, without a branch per cell: a row's and a segment's
  // unplaced cells are summed in locals, a column's in UNIT_OPEN.
  let fewest: u32 = 32;
  const b = currentBox;
  let at = st;
  let boxes = <usize>(2 * size);
  let bandRow = 0;
  for (let row = 0; row < size; row++) {
    let rowOpen: u32 = 0;
    let column = <usize>size;
    for (let k = 0; k < b; k++) {
      let segmentOpen: u32 = 0;
      for (let j = 0; j < b; j++) {
        const mask = load<u32>(at);
        at += 4;
        const open = <u32>!isSingle(mask);
        segmentOpen += open;
        store<u8>(column, load<u8>(column, UNIT_OPEN) + <u8>open, UNIT_OPEN);
        column++;
        const count = open ? popcnt(mask) : 32;
        fewest = count < fewest ? count : fewest;
      }
      rowOpen += segmentOpen;
      const box = boxes + <usize>k;
      store<u8>(box, load<u8>(box, UNIT_OPEN) + <u8>segmentOpen, UNIT_OPEN);
    }
    store<u8>(<usize>row, <u8>rowOpen, UNIT_OPEN);
    if (++bandRow == b) {
      bandRow = 0;
      boxes += <usize>b;
    }
  }
  let bestCell = 0;
  let bestDegree: i32 = -1;
  for (let cell = 0; cell < cells; cell++) {
    const mask = maskOf(st, cell);
    if (popcnt(mask) != fewest) continue;
    const units = load<u32>(<usize>cell << 2, CELL_UNITS);
    const degree = <i32>load<u8>(<usize>(units & 0xff), UNIT_OPEN) + <i32>load<u8>(<usize>(size + ((units >> 8) & 0xff)), UNIT_OPEN) + <i32>load<u8>(<usize>(2 * size + (units >> 16)), UNIT_OPEN);
    if (degree > bestDegree) {
      bestDegree = degree;
      bestCell = cell;
    }
  }
  store<i32>(<usize>depth << 2, bestCell, FRAME_CELL);
  store<u32>(<usize>depth << 2, maskOf(st, bestCell), FRAME_SYMBOLS);
}

/** Takes the lowest untried symbol of the frame at `depth` (one bit). */
@inline function takeSymbol(depth: i32): u32 {
  const at = <usize>depth << 2;
  const symbols = load<u32>(at, FRAME_SYMBOLS);
  store<u32>(at, symbols & (symbols - 1), FRAME_SYMBOLS);
  return symbols & (0 - symbols);
}

/** Writes the symbols of a solved state as N² bytes 1..N. */
function writeSolution(st: usize, out: usize): void {
  for (let cell = 0; cell < cells; cell++) {
    store<u8>(out + <usize>cell, <u8>(ctz(maskOf(st, cell)) + 1));
  }
}

/** Scratch for loading a puzzle: the clue symbols of each unit (rows, columns, boxes), u32 each. */
const UNIT_CLUES: usize = memory.data(MAX_UNITS * 4, 16);

/**
 * Loads N² puzzle bytes into the root state: a clue's cell holds its symbol, every other cell
 * the symbols no clue in its row, column or box has (queued when that leaves one). Returns -1
 * for a byte over N, -2 when two clues of a unit share a symbol, 0 when a cell is left with
 * none, 1 otherwise.
 */
function loadPuzzle(puzzle: usize): i32 {
  for (let cell = 0; cell < cells; cell++) {
    if (<i32>load<u8>(puzzle + <usize>cell) > size) return -1;
  }
  const st = stateAt(0);
  resetWork();
  memory.fill(UNIT_CLUES, 0, <usize>(12 * size));
  for (let slot = 0; slot < 4 * size; slot++) store<u32>(lockedAt(st, slot), 0);
  for (let cell = 0; cell < cells; cell++) {
    const value = <u32>load<u8>(puzzle + <usize>cell);
    if (value == 0) continue;
    const symbol = <u32>1 << (value - 1);
    const units = load<u32>(<usize>cell << 2, CELL_UNITS);
    const row = UNIT_CLUES + (<usize>(units & 0xff) << 2);
    const column = UNIT_CLUES + (<usize>(size + ((units >> 8) & 0xff)) << 2);
    const boxAt = UNIT_CLUES + (<usize>(2 * size + (units >> 16)) << 2);
    if ((load<u32>(row) | load<u32>(column) | load<u32>(boxAt)) & symbol) return -2;
    store<u32>(row, load<u32>(row) | symbol);
    store<u32>(column, load<u32>(column) | symbol);
    store<u32>(boxAt, load<u32>(boxAt) | symbol);
  }
  let open = 0;
  for (let cell = 0; cell < cells; cell++) {
    const value = <u32>load<u8>(puzzle + <usize>cell);
    if (value != 0) {
      setMask(st, cell, <u32>1 << (value - 1));
      continue;
    }
    const units = load<u32>(<usize>cell << 2, CELL_UNITS);
    const taken =
      load<u32>(<usize>(units & 0xff) << 2, UNIT_CLUES) |
      load<u32>(<usize>(size + ((units >> 8) & 0xff)) << 2, UNIT_CLUES) |
      load<u32>(<usize>(2 * size + (units >> 16)) << 2, UNIT_CLUES);
    const mask = allSymbols & ~taken;
    if (mask == 0) return 0;
    setMask(st, cell, mask);
    if (isSingle(mask)) {
      store<u16>(<usize>queueTail << 1, <u16>cell, QUEUE);
      queueTail++;
    } else {
      open++;
    }
  }
  setUnplaced(st, open);
  dirtyRows = allSymbols;
  dirtyColumns = allSymbols;
  dirtyBoxes = allSymbols;
  triadRows = allSymbols;
  triadColumns = allSymbols;
  return 1;
}

/**
 * Counts the solutions of the puzzle at `puzzle` up to `limit`, writing the first into the N²
 * bytes at `solution`. Returns the count, or -1 when a byte is over N, -2 when a clue is
 * repeated in a row, column or box. Sets `guesses` and `nodes` (0 for a puzzle refused, as
 * there was no search); stops before branching, with `nodes` negated, once `budget` nodes are
 * spent (0: no cap).
 */
function countSolutions(puzzle: usize, solution: usize, limit: i32, budget: i32): i32 {
  guesses = 0;
  nodes = 0;
  startCounts();
  const stopAt = nodeLimit(budget);
  const loaded = loadPuzzle(puzzle);
  if (loaded < 0) return loaded;
  if (loaded == 0) {
    nodes = 1; // a cell with no candidate is found by the root's state, as in propagate
    return 0;
  }
  const copyBytes = <usize>(cells + 1 + 4 * size) << 2;
  let count = 0;
  let depth = 0;
  let st = stateAt(0);
  while (true) {
    if (propagate(st)) {
      if (unplaced(st) == 0) {
        if (count == 0) writeSolution(st, solution);
        if (++count >= limit) return count;
      } else if (nodes >= stopAt && spent(budget)) {
        nodes = -nodes;
        return count;
      } else {
        chooseBranch(st, depth);
        const symbol = takeSymbol(depth);
        assert(depth + 1 < MAX_DEPTH);
        memory.copy(stateAt(depth + 1), st, copyBytes);
        const cell = load<i32>(<usize>depth << 2, FRAME_CELL);
        depth++;
        st = stateAt(depth);
        guesses++;
        resetWork();
        place(st, cell, symbol);
        continue;
      }
    }
    // Backtrack to the deepest branch with an untried symbol.
    if (depth == 0) return count;
    const frame = depth - 1;
    const symbol = takeSymbol(frame);
    if (load<u32>(<usize>frame << 2, FRAME_SYMBOLS)) {
      memory.copy(stateAt(depth), stateAt(frame), copyBytes);
      guesses++;
    } else {
      depth = frame; // the last symbol of this branch is no guess: work in the parent state
    }
    st = stateAt(depth);
    resetWork();
    place(st, load<i32>(<usize>frame << 2, FRAME_CELL), symbol);
  }
  return count;
}

// ── exports ─────────────────────────────────────────────────────────────────────────────────

let batchBase: usize = 0;
let reservedBytes: usize = 0;
/** The box size of the batch last reserved: what solveBatch solves it as. */
let batchBox: i32 = 0;

/** True for a supported box size (2–5). */
@inline function supportedBox(b: i32): bool {
  return b >= MIN_BOX && b <= MAX_BOX;
}

/**
 * Room for a batch of `count` puzzles of box size `b`, which {@link solveBatch} then solves as
 * puzzles of that size; returns its base, or 0 for an unsupported box size, a negative count or a
 * batch over {@link MAX_BATCH_BYTES}. A larger batch replaces the block of the last one, so memory
 * is bounded by the largest batch. May grow memory. (The 9×9 kernel exports the same two entry
 * points with the same codes; it takes box size 3 only.)
 */
export function reserve(count: i32, b: i32): usize {
  if (!supportedBox(b) || count < 0) return 0;
  const cellCount = b * b * b * b;
  const bytes = batchBytes(count, cellCount); // 64 bits: nothing wraps
  if (bytes > MAX_BATCH_BYTES) return 0;
  if (<usize>bytes > reservedBytes) {
    if (batchBase != 0) heap.free(batchBase); // the last block on the heap: its memory is reused
    batchBase = heap.alloc(<usize>bytes);
    reservedBytes = <usize>bytes;
  }
  batchBox = b;
  return batchBase;
}

/**
 * Solves the `count` puzzles of the batch at `base` (layout above), of the box size it was
 * reserved for, counting up to `limit`; `budget` caps the nodes of each search (0: no cap).
 * Returns `count`, or -1 (touching nothing) when that is not the batch reserved or it holds fewer.
 */
export function solveBatch(base: usize, count: i32, limit: i32, budget: i32): i32 {
  const b = batchBox;
  if (!supportedBox(b) || base != batchBase || count < 0 || batchBytes(count, b * b * b * b) > <u64>reservedBytes) return -1; // only the reserved batch, never past it
  configure(b);
  const solutions = solutionsAt(base, count, cells);
  const counts = countsAt(base, count, cells);
  const guessCounts = counts + <usize>count * 4;
  const nodeCounts = guessCounts + <usize>count * 4;
  for (let i = 0; i < count; i++) {
    const offset = <usize>i * <usize>cells;
    const found = countSolutions(base + offset, solutions + offset, limit, budget);
    store<i32>(counts + (<usize>i << 2), found);
    storeCounts(guessCounts, nodeCounts, i, guesses, nodes);
  }
  return count;
}
