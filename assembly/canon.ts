// The minlex kernel: the canonical form of 9×9 puzzles, and how many transformations fix each.
//
// Glossary
//   transformation  a geometric map (transposition or not; a permutation of the bands, of the
//           rows within each band, of the stacks, of the columns within each stack: 2 × 6^8 =
//           3,359,232 maps) followed by a relabelling of the digits.
//   form    an 81-character string, row by row: a given as its digit, an empty cell as 0.
//   minlex  the lexicographically smallest form over every transformation. For one geometric
//           map the smallest relabelling numbers the digits in order of first appearance, so
//           only the geometric maps are searched, each relabelled as it is read.
//   automorphism  a transformation that maps the puzzle onto itself; their number equals the
//           number of geometric maps whose relabelled form is the minlex form (at least 1).
//   mask    a row's pattern of givens, bit 8 − c for column c: a smaller mask is a smaller row
//           (more leading zeros), and rows with one mask are the same string once relabelled.
//
// Search, for each puzzle (no solution needed: 0, 1 or many solutions all have a form):
//   1. Row 1 of the form: the smallest mask any of the 18 (transposition, row) choices reaches
//      with the best order of its stacks and columns (stacks by count of givens, fewest first;
//      givens to the right of their stack). Choices that cannot reach it are cut at once.
//   2. For each choice that can: every column permutation that gives that mask (stack order,
//      then the columns of each stack, cut stack by stack): the column permutation is fixed
//      from here on.
//   3. Depth first over rows 2–9: the next row of the current band (or, at a band's start, any
//      row of a band not yet used), relabelled as it is read and compared cell by cell with
//      the best form so far: a greater row is cut; a smaller one replaces the rest of the best
//      form (the rows after it are reset to a sentinel above every digit); an equal one goes on.
//      Every geometric map not cut reaches row 9 equal to the best: those are counted.
//
// Batch layout in linear memory (see src/canon.ts), n puzzles from `base`:
//   puzzles n×81 u8 │ forms n×81 u8 │ (align 4) automorphisms n×i32
//   A puzzle byte is a digit 1–9, or its character `1`–`9`; any other byte is an empty cell.
//   A form is written as the characters `0`–`9`. automorphisms is -2 for a puzzle with a digit
//   repeated in a row, column or box (its form is then not written).

const CELLS: i32 = 81;
/** Above every label: the best form's rows not yet reached. */
const SENTINEL: u8 = 10;
/** The count for a digit repeated in a unit (the solving kernels' code). */
const REPEATED_CLUE: i32 = -2;

/** The six orders of three things: PERM3[6 × order + position]. */
const PERM3 = memory.data<u8>([0, 1, 2, 0, 2, 1, 1, 0, 2, 1, 2, 0, 2, 0, 1, 2, 1, 0]);

// Scratch, one copy per instance (the kernel is single-threaded).
/** The puzzle as digits 0–9, and its transpose. */
const grids = memory.data(2 * CELLS);
/** The best form so far, labels 0–9 (SENTINEL for rows not yet reached). */
const best = memory.data(CELLS);
/** labels[r × 10 + digit]: the label of each digit after rows 0..r-1 of the form (0: not met yet). */
const labels = memory.data(10 * 10);
/** next[r]: the next label to give after rows 0..r-1. */
const nextLabels = memory.data(10);
/** The digits met so far in each row, column and box (bit d for digit d). */
const rows = memory.data(9 * 4);
const cols = memory.data(9 * 4);
const boxes = memory.data(9 * 4);
/** The column permutation being tried: form column → source column. */
const columns = memory.data(9);

let automorphisms: i32 = 0;
let source: usize = 0;

let batchBase: usize = 0;
let batchRoom: i32 = 0;

/** Bytes of a batch of `count` puzzles (layout above). */
@inline function batchBytes(count: i32): u64 {
  return ((<u64>count * 2 * CELLS + 3) & ~3) + <u64>count * 4;
}

/** Where the automorphism counts of a batch of `count` at `base` start. */
@inline function countsAt(base: usize, count: i32): usize {
  return (base + <usize>count * 2 * CELLS + 3) & ~(<usize>3);
}

/**
 * Room for a batch of `count` puzzles: returns its base (the same one until a larger batch is
 * asked for), or 0 when it cannot be had.
 */
export function reserve(count: i32): usize {
  if (count < 0 || batchBytes(count) > 0x3fffffff) return 0;
  if (count > batchRoom) {
    let room = max(count, batchRoom * 2);
    if (batchBytes(room) > 0x3fffffff) room = count;
    if (batchBase != 0) heap.free(batchBase);
    batchBase = heap.alloc(<usize>batchBytes(room));
    batchRoom = room;
  }
  return batchBase;
}

/**
 * Writes the minlex form and automorphism count of each of the `count` puzzles of the batch at
 * `base` (layout above). Returns `count`, or -1 when that is not the batch reserved.
 */
export function canonBatch(base: usize, count: i32): i32 {
  if (base != batchBase || count < 0 || count > batchRoom) return -1;
  const counts = countsAt(base, count);
  const forms = base + <usize>count * CELLS;
  for (let i = 0; i < count; i++) {
    const found = canonOne(base + <usize>i * CELLS);
    store<i32>(counts + <usize>i * 4, found);
    if (found < 0) continue;
    const form = forms + <usize>i * CELLS;
    for (let c = 0; c < CELLS; c++) store<u8>(form + c, load<u8>(best + c) + 48);
  }
  return count;
}

/** Reads the puzzle at `at` into grids (and its transpose); false when a digit repeats in a unit. */
function readPuzzle(at: usize): bool {
  memory.fill(rows, 0, 9 * 4);
  memory.fill(cols, 0, 9 * 4);
  memory.fill(boxes, 0, 9 * 4);
  for (let cell = 0; cell < CELLS; cell++) {
    let value = <u32>load<u8>(at + cell);
    if (value >= 48) value -= 48;
    if (value - 1 > 8) value = 0;
    const row = cell / 9;
    const col = cell % 9;
    store<u8>(grids + cell, <u8>value);
    store<u8>(grids + CELLS + col * 9 + row, <u8>value);
    if (value == 0) continue;
    const bit = <u32>1 << value;
    const box = (row / 3) * 3 + col / 3;
    const r = rows + <usize>row * 4;
    const c = cols + <usize>col * 4;
    const b = boxes + <usize>box * 4;
    if ((load<u32>(r) | load<u32>(c) | load<u32>(b)) & bit) return false;
    store<u32>(r, load<u32>(r) | bit);
    store<u32>(c, load<u32>(c) | bit);
    store<u32>(b, load<u32>(b) | bit);
  }
  return true;
}

/** The smallest mask row `row` of `grid` reaches under a column permutation (see the header). */
function rowMask(grid: usize, row: i32): u32 {
  let a: u32 = 0;
  let b: u32 = 0;
  let c: u32 = 0;
  const at = grid + <usize>row * 9;
  for (let k = 0; k < 3; k++) {
    a += <u32>(load<u8>(at + k) != 0);
    b += <u32>(load<u8>(at + 3 + k) != 0);
    c += <u32>(load<u8>(at + 6 + k) != 0);
  }
  // Sort the three counts, fewest first.
  if (a > b) { const t = a; a = b; b = t; }
  if (b > c) { const t = b; b = c; c = t; }
  if (a > b) { const t = a; a = b; b = t; }
  return ((((<u32>1 << a) - 1) << 6) | (((<u32>1 << b) - 1) << 3) | ((<u32>1 << c) - 1));
}

/**
 * The minlex form of the puzzle at `at` into `best`; returns the number of geometric maps that
 * give it, or REPEATED_CLUE.
 */
function canonOne(at: usize): i32 {
  if (!readPuzzle(at)) return REPEATED_CLUE;
  let least: u32 = 0x3ff;
  for (let t = 0; t < 2; t++) {
    for (let row = 0; row < 9; row++) least = min(least, rowMask(grids + <usize>t * CELLS, row));
  }
  // Row 1 of the form: its mask, givens labelled 1, 2, … in order; the rest not reached yet.
  let label: u8 = 0;
  for (let c = 0; c < 9; c++) store<u8>(best + c, (least >> (8 - c)) & 1 ? ++label : 0);
  memory.fill(best + 9, SENTINEL, CELLS - 9);
  automorphisms = 0;
  for (let t = 0; t < 2; t++) {
    source = grids + <usize>t * CELLS;
    for (let row = 0; row < 9; row++) {
      if (rowMask(source, row) == least) firstRow(row);
    }
  }
  return automorphisms;
}

/** True when form columns `3 × stack` to `3 × stack + 2` of source row `row` hold givens where best row 1 does. */
@inline function stackMatches(row: i32, stack: i32): bool {
  const at = source + <usize>row * 9;
  for (let k = 0; k < 3; k++) {
    const column = 3 * stack + k;
    if ((load<u8>(at + load<u8>(columns + column)) != 0) != (load<u8>(best + column) != 0)) return false;
  }
  return true;
}

/** Sets form columns of stack position `position` to source stack `stack` in column order `order`. */
@inline function placeStack(position: i32, stack: i32, order: i32): void {
  for (let k = 0; k < 3; k++) store<u8>(columns + 3 * position + k, <u8>(3 * stack + load<u8>(PERM3 + 3 * order + k)));
}

/** Every column permutation under which source row `row` becomes best row 1, each searched on (step 2). */
function firstRow(row: i32): void {
  for (let stacks = 0; stacks < 6; stacks++) {
    const s0 = <i32>load<u8>(PERM3 + 3 * stacks);
    const s1 = <i32>load<u8>(PERM3 + 3 * stacks + 1);
    const s2 = <i32>load<u8>(PERM3 + 3 * stacks + 2);
    for (let o0 = 0; o0 < 6; o0++) {
      placeStack(0, s0, o0);
      if (!stackMatches(row, 0)) continue;
      for (let o1 = 0; o1 < 6; o1++) {
        placeStack(1, s1, o1);
        if (!stackMatches(row, 1)) continue;
        for (let o2 = 0; o2 < 6; o2++) {
          placeStack(2, s2, o2);
          if (!stackMatches(row, 2)) continue;
          startRows(row);
        }
      }
    }
  }
}

/** With the column permutation fixed: labels row 1 and searches rows 2–9. */
function startRows(row: i32): void {
  memory.fill(labels + 10, 0, 10);
  let label: u8 = 0;
  const at = source + <usize>row * 9;
  for (let c = 0; c < 9; c++) {
    const value = load<u8>(at + load<u8>(columns + c));
    if (value != 0) store<u8>(labels + 10 + value, ++label);
  }
  store<u8>(nextLabels + 1, label + 1);
  searchRows(1, row / 3, <u32>1 << row);
}

/** Form rows `r` to 8, in band `band` (source rows `used` taken), depth first (step 3). */
function searchRows(r: i32, band: i32, used: u32): void {
  if (r == 9) {
    automorphisms++;
    return;
  }
  if (r % 3 != 0) {
    for (let k = 0; k < 3; k++) {
      const row = 3 * band + k;
      if ((used & (<u32>1 << row)) == 0) tryRow(r, row, band, used);
    }
    return;
  }
  for (let b = 0; b < 3; b++) {
    if ((used >> (3 * b)) & 7) continue;
    for (let k = 0; k < 3; k++) tryRow(r, 3 * b + k, b, used);
  }
}

/** Source row `row` as form row `r`: relabelled and compared with the best form; searched on unless greater. */
function tryRow(r: i32, row: i32, band: i32, used: u32): void {
  const before = labels + <usize>r * 10;
  const after = before + 10;
  store<u64>(after, load<u64>(before));
  store<u16>(after + 8, load<u16>(before + 8));
  let next = load<u8>(nextLabels + r);
  const at = source + <usize>row * 9;
  const bestRow = best + <usize>r * 9;
  let less = false;
  for (let c = 0; c < 9; c++) {
    const value = load<u8>(at + load<u8>(columns + c));
    let out: u8 = 0;
    if (value != 0) {
      out = load<u8>(after + value);
      if (out == 0) {
        out = next++;
        store<u8>(after + value, out);
      }
    }
    if (!less) {
      const known = load<u8>(bestRow + c);
      if (out > known) return;
      if (out == known) continue;
      less = true;
    }
    store<u8>(bestRow + c, out);
  }
  if (less) {
    memory.fill(bestRow + 9, SENTINEL, <usize>(CELLS - 9 * (r + 1)));
    automorphisms = 0;
  }
  store<u8>(nextLabels + r + 1, next);
  searchRows(r + 1, band, used | (<u32>1 << row));
}
