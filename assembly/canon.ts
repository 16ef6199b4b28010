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
// Search, for each puzzle (no solution needed: 0, 1 or many solutions all have a form), a form
// row at a time, breadth first (searchLevels):
//   A candidate is a set of geometric maps that agree on the form so far: transposition, the
//   source rows placed, and each form column's source column, except that columns of one stack
//   empty in every row placed so far stay interchangeable (a run), and so do whole stacks empty
//   so far.
//   Level r tries, for every candidate, each source row it may place as form row r (the next row
//   of its band; at a band's start any row of an unused band), read through its column order
//   with each run sorted (empty cells first, then digits already labelled, by label, then digits
//   met for the first time) and the interchangeable stacks sorted by those three values; digits
//   met for the first time then take the next labels, left to right, so any order of them gives
//   the same row. A row that starts with fewer empty cells than another of the level is greater
//   whatever its digits, and that count follows from its givens and the candidate's ties alone:
//   the level counts it first for every row, and reads only the rows with the most. The smallest
//   row of the level is form row r, and only the candidates that give it go on: one per order of
//   the new digits in each run and of the stacks that tie on them, with the cells left empty
//   still interchangeable. Level 0 starts from each row with the smallest mask, all its columns
//   and stacks interchangeable. After row 9 each candidate counts the orders of its runs and
//   stacks: their sum is the automorphism count.
//   A puzzle whose candidates outgrow a list (ROOM; a solution grid: each of its 18 lines is row
//   1 under every column order) is searched instead by fixing each column order under row 1
//   (canonByMaps):
//   1. Row 1 of the form: the smallest mask any of the 18 (transposition, row) choices reaches
//      with the best order of its stacks and columns (stacks by count of givens, fewest first;
//      givens to the right of their stack). Choices that cannot reach it are cut at once.
//   2. For each choice that can: every column permutation that gives that mask (stack order,
//      then the column order of each stack among those with the right givens), fixed from here
//      on. While the stacks are placed, form row 2 is checked as far as it is known (each of the
//      two rows of the band that can become it): a partial order under which both are already
//      greater than the best row 2 is cut (row 1's digits take the rank of their column among
//      its givens; a digit of row 1 in a stack not yet placed leaves the check undecided).
//   3. Depth first over rows 2–9: the next row of the current band (or, at a band's start, any
//      row of a band not yet used), relabelled as it is read and compared with the best form so
//      far, a row at a time in v128 (the row's cells through the column order and then through
//      the labels by swizzles; a digit met for the first time takes the next label): a greater
//      row is cut; a smaller one replaces the rest of the best form (the rows after it are reset
//      to a sentinel above every digit); an equal one goes on.
//      Every geometric map not cut reaches row 9 equal to the best: those are counted.
//
// Batch layout in linear memory (see src/canon/canon.ts), n puzzles from `base`:
//   puzzles n×81 u8 │ forms n×81 u8 │ (align 4) automorphisms n×i32
//   A puzzle byte is a digit 1–9, or its character `1`–`9`; any other byte is an empty cell.
//   A form is written as the characters `0`–`9`. automorphisms is -2 for a puzzle with a digit
//   repeated in a row, column or box (its form is then not written).

const CELLS: i32 = 81;
/** A best row not reached yet: 10 (above every label) in bytes 0–8, 0 in the rest. */
const ROW_SENTINEL: v128 = i8x16(10, 10, 10, 10, 10, 10, 10, 10, 10, 0, 0, 0, 0, 0, 0, 0);
/** The count for a digit repeated in a unit (the solving kernels' code). */
const REPEATED_CLUE: i32 = -2;

/** The six orders of three things: PERM3[6 × order + position]. */
const PERM3 = memory.data<u8>([0, 1, 2, 0, 2, 1, 1, 0, 2, 1, 2, 0, 2, 0, 1, 2, 1, 0]);

// Scratch, one copy per instance (the kernel is single-threaded).
/** The puzzle as digits 0–9, and its transpose (16 bytes to spare: a row is read as 16 bytes). */
const grids = memory.data(2 * CELLS + 16);
/** The best form so far, one row per 16 bytes: labels 0–9 in bytes 0–8 (ROW_SENTINEL for rows not yet reached), 0 in the rest. */
const best = memory.data(9 * 16, 16);
/** labels[16r + digit]: the label of each digit after rows 0..r-1 of the form (UNLABELLED: not met yet; byte 0, empty, is 0). */
const labels = memory.data(10 * 16, 16);
/** next[r]: the next label to give after rows 0..r-1. */
const nextLabels = memory.data(10);
/** The column permutation being tried: form column → source column; bytes 9–15 out of a swizzle's range (they read as 0). */
const columns = memory.data<u8>([0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255]);
/** A row's cells as read, spare room to patch a row's labels in. */
const scratch = memory.data(32, 16);
/** The label byte of a digit not met yet. */
const UNLABELLED: u8 = 255;

let automorphisms: i32 = 0;
let source: usize = 0;
/** The column permutation as a swizzle (see columns). */
let order: v128 = i8x16.splat(0);

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
  if (lists == 0) {
    lists = heap.alloc(2 * <usize>ROOM * RECORD);
    marks = heap.alloc(<usize>ROOM * 4);
    for (let col = 0; col < 9; col++) {
      for (let k = 0; k < 6; k++) {
        for (let lane = 0; lane < 16; lane++) {
          const cell = 9 * lane + col;
          store<u8>(TRANSPOSE_PICK + <usize>(col * 96 + k * 16 + lane), lane < 9 && cell >> 4 == k ? <u8>(cell & 15) : 255);
        }
      }
    }
    for (let ties = 0; ties < 64; ties++) {
      for (let stack = 0; stack < 3; stack++) {
        store<u8>(TIED_SLOTS + <usize>(32 * ties + 3 * stack), (ties >> (2 * stack)) & 1 ? 255 : 0);
        store<u8>(TIED_SLOTS + <usize>(32 * ties + 16 + 3 * stack + 1), (ties >> (2 * stack + 1)) & 1 ? 255 : 0);
      }
    }
    for (let key = 0; key < 256; key++) {
      // Interchangeable stacks sorted by a network of three, the most leading empty cells first.
      const stackTies = key >> 6;
      let lead0 = (key >> 4) & 3;
      let lead1 = (key >> 2) & 3;
      let lead2 = key & 3;
      if ((stackTies & 1) != 0 && lead1 > lead0) { const t = lead0; lead0 = lead1; lead1 = t; }
      if ((stackTies & 2) != 0 && lead2 > lead1) { const t = lead1; lead1 = lead2; lead2 = t; }
      if ((stackTies & 1) != 0 && lead1 > lead0) { const t = lead0; lead0 = lead1; lead1 = t; }
      store<u8>(STACKS_LEAD + <usize>key, <u8>(lead0 < 3 ? lead0 : lead1 < 3 ? 3 + lead1 : 6 + lead2));
    }
    for (let fresh = 0; fresh < 512; fresh++) {
      let count = 0;
      for (let lane = 0; lane < 16; lane++) {
        count += (fresh >> lane) & 1;
        store<u8>(FRESH_COUNTS + <usize>(16 * fresh + lane), <u8>count);
      }
    }
  }
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
    for (let r = 0; r < 9; r++) {
      // Labels to characters, a row at a time: 8 bytes and then the ninth (no write past the form).
      const characters = i8x16.add(v128.load(best + <usize>r * 16), i8x16.splat(48));
      const at = form + <usize>r * 9;
      v128.store64_lane(at, characters, 0);
      v128.store8_lane(at + 8, characters, 8);
    }
  }
  return count;
}

/** Digit bits for the unit checks: DIGIT_BITS[d] is bit d − 1 for digits 1–8, 0 for an empty cell and for 9 (counted by itself). */
const DIGIT_BITS = memory.data<u8>([0, 1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0], 16);
/** The lanes that hold a box once a band's three columns of each stack are gathered into its first. */
const BOX_LANES = i8x16(-1, 0, 0, -1, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0);

/**
 * TRANSPOSE_PICK[96c + 16k]: the swizzle that takes, from bytes 16k to 16k + 15 of the grid, the
 * cells of column c that lie there into their row's lane (made by the first reserve).
 */
const TRANSPOSE_PICK = memory.data(9 * 96, 16);

/**
 * The givens of each line per stack, as readPuzzle counts them, a byte per line (lanes 0–8):
 * bytes 16s to 16s + 15 the rows' givens in stack s (lane: row); 48 bytes on, the same for the
 * transpose's rows (lane: column of the puzzle, counted per band).
 */
const stackGivens = memory.data(6 * 16, 16);

/**
 * The lanes of nine units (lanes 0–8) that repeat a digit, from their cells' digit bits OR-ed
 * (digits 1–8), their givens and their nines: a unit repeats one when it has more givens than
 * distinct digits.
 */
@inline function repeatedIn(low: v128, givens: v128, nines: v128): v128 {
  return i8x16.lt_u(i8x16.add(i8x16.popcnt(low), i8x16.min_u(nines, i8x16.splat(1))), givens);
}

/** Each lane takes the byte two lanes after it (the last two take 0). */
@inline function fromSecondNext(v: v128): v128 {
  return i8x16.shuffle(v, i8x16.splat(0), 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17);
}

/** Reads the puzzle at `at` into grids (and its transpose) and stackGivens; false when a digit repeats in a unit. */
function readPuzzle(at: usize): bool {
  // Bytes to digits 0–9, 16 at a time (the last vector runs past the puzzle: the batch goes on
  // after it, and the transpose below overwrites what lands past the grid; the transpose reads
  // only the grid's 81 bytes of it).
  for (let offset: usize = 0; offset < <usize>CELLS; offset += 16) {
    const bytes = v128.load(at + offset);
    const lowered = i8x16.sub(bytes, v128.and(i8x16.ge_u(bytes, i8x16.splat(48)), i8x16.splat(48)));
    v128.store(grids + offset, v128.and(lowered, i8x16.le_u(i8x16.sub(lowered, i8x16.splat(1)), i8x16.splat(8))));
  }
  // The transpose, a row at a time: column c of the grid picked out of its six vectors.
  const v0 = v128.load(grids);
  const v1 = v128.load(grids + 16);
  const v2 = v128.load(grids + 32);
  const v3 = v128.load(grids + 48);
  const v4 = v128.load(grids + 64);
  const v5 = v128.load(grids + 80);
  for (let col: usize = 0; col < 9; col++) {
    const pick = TRANSPOSE_PICK + col * 96;
    let column = i8x16.swizzle(v0, v128.load(pick));
    column = v128.or(column, i8x16.swizzle(v1, v128.load(pick + 16)));
    column = v128.or(column, i8x16.swizzle(v2, v128.load(pick + 32)));
    column = v128.or(column, i8x16.swizzle(v3, v128.load(pick + 48)));
    column = v128.or(column, i8x16.swizzle(v4, v128.load(pick + 64)));
    column = v128.or(column, i8x16.swizzle(v5, v128.load(pick + 80)));
    v128.store(grids + CELLS + col * 9, column); // its 7 zero bytes land where the next row goes, or in the spare
  }
  // Unit checks, nine units at a time (lane: unit): a cell's digit bit (1–8), whether it is given,
  // whether it is a 9, gathered per unit. Rows (lane: row) across the transpose's rows, a stack
  // at a time (the givens per stack kept: the rows' keys for searchLevels).
  const one = i8x16.splat(1);
  const nine = i8x16.splat(9);
  const bits = v128.load(DIGIT_BITS);
  let low = i8x16.splat(0);
  let givens = i8x16.splat(0);
  let nines = i8x16.splat(0);
  for (let stack: usize = 0; stack < 3; stack++) {
    let inStack = i8x16.splat(0);
    for (let k: usize = 0; k < 3; k++) {
      const cells = v128.load(grids + <usize>CELLS + (3 * stack + k) * 9);
      low = v128.or(low, i8x16.swizzle(bits, cells));
      nines = i8x16.sub(nines, i8x16.eq(cells, nine));
      inStack = i8x16.add(inStack, i8x16.min_u(cells, one));
    }
    v128.store(stackGivens + stack * 16, inStack);
    givens = i8x16.add(givens, inStack);
  }
  let repeated = repeatedIn(low, givens, nines);
  // Columns (lane: column) across the rows, a band at a time, and the band's boxes: each stack's
  // three columns gathered into its first lane.
  low = i8x16.splat(0);
  givens = i8x16.splat(0);
  nines = i8x16.splat(0);
  for (let band: usize = 0; band < 3; band++) {
    let bandLow = i8x16.splat(0);
    let bandGivens = i8x16.splat(0);
    let bandNines = i8x16.splat(0);
    for (let k: usize = 0; k < 3; k++) {
      const cells = v128.load(grids + (3 * band + k) * 9);
      bandLow = v128.or(bandLow, i8x16.swizzle(bits, cells));
      bandNines = i8x16.sub(bandNines, i8x16.eq(cells, nine));
      bandGivens = i8x16.add(bandGivens, i8x16.min_u(cells, one));
    }
    v128.store(stackGivens + 48 + band * 16, bandGivens);
    low = v128.or(low, bandLow);
    givens = i8x16.add(givens, bandGivens);
    nines = i8x16.add(nines, bandNines);
    const boxLow = v128.or(bandLow, v128.or(fromNext(bandLow), fromSecondNext(bandLow)));
    const boxGivens = i8x16.add(bandGivens, i8x16.add(fromNext(bandGivens), fromSecondNext(bandGivens)));
    const boxNines = i8x16.add(bandNines, i8x16.add(fromNext(bandNines), fromSecondNext(bandNines)));
    repeated = v128.or(repeated, v128.and(repeatedIn(boxLow, boxGivens, boxNines), BOX_LANES));
  }
  repeated = v128.or(repeated, repeatedIn(low, givens, nines));
  return (i8x16.bitmask(repeated) & 0x1ff) == 0;
}

/** The smallest mask of a row with `a`, `b` and `c` givens in its stacks, under a column permutation (see the header). */
function countsMask(a: u32, b: u32, c: u32): u32 {
  // Sort the three counts, fewest first.
  if (a > b) { const t = a; a = b; b = t; }
  if (b > c) { const t = b; b = c; c = t; }
  if (a > b) { const t = a; a = b; b = t; }
  return ((((<u32>1 << a) - 1) << 6) | (((<u32>1 << b) - 1) << 3) | ((<u32>1 << c) - 1));
}

/** The smallest mask row `row` of `grid` reaches under a column permutation (see the header). */
function rowMask(grid: usize, row: i32): u32 {
  const givens = <u32>i8x16.bitmask(i8x16.ne(v128.load(grid + <usize>row * 9), i8x16.splat(0)));
  return countsMask(popcnt(givens & 7), popcnt((givens >> 3) & 7), popcnt((givens >> 6) & 7));
}

/**
 * The minlex form of the puzzle at `at` into `best`; returns the number of geometric maps that
 * give it, or REPEATED_CLUE.
 */
function canonOne(at: usize): i32 {
  if (!readPuzzle(at)) return REPEATED_CLUE;
  const found = searchLevels();
  return found >= 0 ? found : canonByMaps();
}

// ── The level search ───────────────────────────────────────────────────────────────────────────
//
// A candidate is a set of geometric maps that agree on the form so far, one record of RECORD
// bytes in a candidate list:
//
//   0–8   slot → source column: form column k reads source column byte k (9–15: 255, read as 0 by a swizzle)
//   16–25 labels[digit]: the label of each digit met so far (UNLABELLED: not met; byte 16, empty, is 0)
//   26 the next label to give │ 27 transposed (0 or 1) │ 28 the band of the rows being placed
//   29 ties │ 30–31 the source rows used (bit per row)
//
// ties: bit 2s says form columns 3s and 3s + 1 are interchangeable, bit 2s + 1 columns 3s + 1
// and 3s + 2: columns empty in every row placed so far, in one stack, side by side, in any order
// (a run). Bit 6 says stack positions 0 and 1 are interchangeable, bit 7 positions 1 and 2: whole
// stacks empty so far. A candidate stands for every order of each run and of the interchangeable
// stacks (mapsOf: 1, 2 or 6 for each).
const RECORD: usize = 32;
/** Candidates a list holds; a puzzle that needs more (a solution grid) is searched by column orders instead (canonByMaps). */
const ROOM: i32 = 16384;
/** The two candidate lists (the current level's and the next), allocated by the first reserve (before the host makes its views). */
let lists: usize = 0;
/** Per candidate of the current level, the rows it may place with the most leading empty cells (bits 0–8) and that count (bits 16–23), made by the first reserve. */
let marks: usize = 0;
/** Lanes 9–15 out of the way of the smallest key. */
const PAST_LINES = i8x16(0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1);

/**
 * The keys of nine lines from their givens per stack at `counts` (stackGivens: three vectors,
 * lane i line i). A line's key is its givens per stack, sorted a ≤ b ≤ c, as 16a + 4b + c: keys
 * order the lines as their smallest masks do (countsMask puts a in its top bits), and lines with
 * one key have one smallest mask. Lanes 9–15 are 255.
 */
@inline function lineKeys(counts: usize): v128 {
  const s0 = v128.load(counts);
  const s1 = v128.load(counts + 16);
  const s2 = v128.load(counts + 32);
  // Three counts sorted by a network of three.
  let a = i8x16.min_u(s0, s1);
  let b = i8x16.max_u(s0, s1);
  const c = i8x16.max_u(b, s2);
  b = i8x16.min_u(b, s2);
  const low = i8x16.min_u(a, b);
  b = i8x16.max_u(a, b);
  a = low;
  return v128.or(v128.or(v128.or(i8x16.shl(a, 4), i8x16.shl(b, 2)), c), PAST_LINES);
}
/** The identity column order, 255 past column 9 (read as 0 by a swizzle). */
const NATURAL_COLUMNS = memory.data<u8>([0, 1, 2, 3, 4, 5, 6, 7, 8, 255, 255, 255, 255, 255, 255, 255], 16);
/** The level-0 candidate: columns in their order, all interchangeable within and across stacks, nothing labelled. */
const startRecord = memory.data(<i32>RECORD, 16);
/** Scratch for a placed row's values and digits, per slot. */
const slotValues = memory.data(16, 16);
const slotDigits = memory.data(16, 16);
/** Orders of a stack's two column ties, or of the two stack ties: none 1, one run of two 2, all three 6. */
const RUN_ORDERS = memory.data<u8>([1, 2, 2, 6]);

/**
 * The level search (see the header): form row r at level r, each level's candidates in one list
 * and the next level's in the other. Returns the automorphisms, or -1 when a list would overflow.
 */
function searchLevels(): i32 {
  // Each line's key (see lineKeys): lanes 0–8 the rows of the puzzle, the columns in a second vector.
  const rowKeys = lineKeys(stackGivens);
  const columnKeys = lineKeys(stackGivens + 48);
  let least = i8x16.min_u(rowKeys, columnKeys);
  least = i8x16.min_u(least, i8x16.shuffle(least, least, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  least = i8x16.min_u(least, i8x16.shuffle(least, least, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3));
  least = i8x16.min_u(least, i8x16.shuffle(least, least, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1));
  least = i8x16.min_u(least, i8x16.shuffle(least, least, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0));
  // Bit t × 9 + row: that line (of the transpose when t is 1) has the smallest mask.
  let lines = <u32>i8x16.bitmask(i8x16.eq(rowKeys, least)) | (<u32>i8x16.bitmask(i8x16.eq(columnKeys, least)) << 9);
  // Level 0: each row with the smallest mask, its stacks and their columns all interchangeable.
  let current = lists;
  let following = lists + <usize>ROOM * RECORD;
  const start = startRecord;
  v128.store(start, v128.load(NATURAL_COLUMNS));
  v128.store(start + 16, i8x16.splat(<i8>UNLABELLED));
  store<u8>(start + 16, 0);
  store<u8>(start + 26, 1);
  store<u8>(start + 28, 0);
  store<u8>(start + 29, 0xff);
  store<u16>(start + 30, 0);
  v128.store(best, ROW_SENTINEL);
  let placed = 0;
  while (lines != 0) {
    const line = <i32>ctz(lines);
    lines &= lines - 1;
    store<u8>(start + 27, <u8>(line / 9));
    placed = placeRow(start, line % 9, 0, following, placed);
    if (placed < 0) return -1;
  }
  let count = placed;
  current = following;
  following = lists;
  for (let r = 1; r < 9; r++) {
    v128.store(best + <usize>r * 16, ROW_SENTINEL);
    // First the empty cells each row a candidate may place starts with (leadingEmpty): a row with
    // more is smaller, so only the rows with the level's most can give form row r. Each
    // candidate's rows with its most go into its mark (bits: rows; byte 2: that most).
    let most = 0;
    for (let i = 0; i < count; i++) {
      const record = current + <usize>i * RECORD;
      const used = <u32>load<u16>(record + 30);
      let rows: u32;
      if (r % 3 != 0) {
        rows = (<u32>7 << (3 * <u32>load<u8>(record + 28))) & ~used;
      } else {
        const bands = (used | (used >> 1) | (used >> 2)) & 0b001001001;
        rows = ~(bands * 7) & 0x1ff;
      }
      const grid = grids + <usize>load<u8>(record + 27) * CELLS;
      const columns = v128.load(record);
      const ties = <u32>load<u8>(record + 29);
      let own = -1;
      let chosen: u32 = 0;
      while (rows != 0) {
        const row = ctz(rows);
        rows &= rows - 1;
        const digits = i8x16.swizzle(v128.load(grid + <usize>row * 9), columns);
        const lead = leadingEmpty(<u32>i8x16.bitmask(i8x16.ne(digits, i8x16.splat(0))), ties);
        const bit = <u32>1 << row;
        chosen = select<u32>(bit, select<u32>(chosen | bit, chosen, lead == own), lead > own);
        own = max(own, lead);
      }
      store<u32>(marks + <usize>i * 4, chosen | (<u32>own << 16));
      most = max(most, own);
    }
    placed = 0;
    for (let i = 0; i < count; i++) {
      const mark = load<u32>(marks + <usize>i * 4);
      if (<i32>(mark >> 16) != most) continue;
      const record = current + <usize>i * RECORD;
      let rows = mark & 0x1ff;
      while (rows != 0) {
        const row = <i32>ctz(rows);
        rows &= rows - 1;
        placed = placeRow(record, row, r, following, placed);
        if (placed < 0) return -1;
      }
    }
    const swap = current;
    current = following;
    following = swap;
    count = placed;
  }
  return count; // after row 9: the maps that give the form
}

/** The geometric maps a candidate with ties byte `ties` stands for: the orders of its runs and of its interchangeable stacks. */
@inline function mapsOf(ties: u32): i32 {
  return <i32>load<u8>(RUN_ORDERS + (ties & 3)) * <i32>load<u8>(RUN_ORDERS + ((ties >> 2) & 3)) * <i32>load<u8>(RUN_ORDERS + ((ties >> 4) & 3)) * <i32>load<u8>(RUN_ORDERS + (ties >> 6));
}

/** The column ties of a candidate's ties byte (its top two bits are the stack ties). */
const COLUMN_TIES: u32 = 0x3f;
/**
 * TIED_SLOTS[32t] and [32t + 16], for column ties t: 255 in the lanes of the slots tied to the
 * next one, the first slot of a stack and then the second (made by the first reserve).
 */
const TIED_SLOTS = memory.data(64 * 32, 16);
/**
 * FRESH_COUNTS[16f], for the lanes f (a bit each) of digits met for the first time: each lane's
 * count of those lanes up to it (made by the first reserve).
 */
const FRESH_COUNTS = memory.data(512 * 16, 16);

/** Each lane takes the next lane's byte (the last takes 0). */
@inline function fromNext(v: v128): v128 {
  return i8x16.shuffle(v, i8x16.splat(0), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
}

/** Each lane takes the previous lane's byte (the first takes 0). */
@inline function fromBefore(v: v128): v128 {
  return i8x16.shuffle(i8x16.splat(0), v, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
}

/** `v` with the lanes of each pair swapped where `swap` marks its lower lane and `upper` its upper one. */
@inline function swapPairs(v: v128, swap: v128, upper: v128): v128 {
  return v128.bitselect(fromNext(v), v128.bitselect(fromBefore(v), v, upper), swap);
}

/** Scratch for the swizzle that puts interchangeable stacks in order. */
const stackOrder = memory.data(16, 16);
const IDENTITY = memory.data<u8>([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], 16);

/** The orders of each group, made at its first use: 96 bytes per key (see groupOrdersOf), a byte per key once made. */
const orderTables = memory.data(32 * 96, 16);
const orderTablesMade = memory.data(32);
/** The orders groupOrdersOf found last. */
let ordersAt: usize = 0;

/**
 * Points ordersAt to the orders of `count` (2 or 3) blocks of `width` lanes (1 or 3) from lane
 * `first`, as swizzles (order 0 the identity; lanes outside the group unmoved); returns how many
 * (2 or 6).
 */
function groupOrdersOf(first: usize, count: i32, width: usize): i32 {
  const orders = count == 2 ? 2 : 6;
  const key = (first << 2) | (<usize>(count - 2) << 1) | <usize>(width == 3);
  ordersAt = orderTables + key * 96;
  if (load<u8>(orderTablesMade + key) != 0) return orders;
  store<u8>(orderTablesMade + key, 1);
  for (let o = 0; o < orders; o++) {
    const order = ordersAt + <usize>o * 16;
    v128.store(order, v128.load(IDENTITY));
    for (let q = 0; q < count; q++) {
      const from = count == 2 ? (o == 0 ? q : 1 - q) : <i32>load<u8>(PERM3 + 3 * o + q);
      for (let k: usize = 0; k < width; k++) store<u8>(order + first + <usize>q * width + k, <u8>(first + <usize>from * width + k));
    }
  }
  return orders;
}

/**
 * The children `placed` to `placed + made - 1` at `out`, each copied in every other order at
 * ordersAt (its columns moved, the labels of the row's new digits given again by slot):
 * returns the new number of children, or -1 when the list would overflow.
 */
function splitChildren(out: usize, placed: i32, made: i32, orders: i32, grid: usize, fresh: i32): i32 {
  if (placed + made * orders > ROOM) return -1;
  for (let o = 1; o < orders; o++) {
    const order = v128.load(ordersAt + <usize>o * 16);
    for (let j = 0; j < made; j++) {
      const from = out + <usize>(placed + j) * RECORD;
      const copy = out + <usize>(placed + made * o + j) * RECORD;
      const columns = i8x16.swizzle(v128.load(from), order);
      v128.store(copy, columns);
      v128.store(copy + 16, v128.load(from + 16));
      v128.store(slotDigits, i8x16.swizzle(v128.load(grid), columns));
      let lanes = fresh;
      while (lanes != 0) {
        const lane = <usize>ctz(lanes);
        store<u8>(copy + 16 + <usize>load<u8>(slotDigits + lane), load<u8>(slotValues + lane));
        lanes &= lanes - 1;
      }
    }
  }
  return made * orders;
}

/**
 * RUN_LEAD[8 × ties + givens]: the empty cells a stack starts with once its runs are sorted
 * (empty cells first), from its two column tie bits and its givens (bit k: slot k).
 */
const RUN_LEAD = memory.data<u8>([3, 0, 1, 0, 2, 0, 1, 0, 3, 1, 1, 0, 2, 1, 1, 0, 3, 0, 2, 0, 2, 0, 1, 0, 3, 2, 2, 1, 2, 1, 1, 0]);

/**
 * STACKS_LEAD[64 × stack ties + 16a + 4b + c]: the empty cells a row starts with when its stacks
 * start with a, b and c (0–3, RUN_LEAD) and its interchangeable stacks go the one with the most
 * first, as placeRow sorts them (made by the first reserve).
 */
const STACKS_LEAD = memory.data(256);

/**
 * The empty cells a row starts with when read under a candidate (its runs and interchangeable
 * stacks sorted as placeRow sorts them), from the row's givens by slot (bit k: slot k) and the
 * candidate's ties: the most any of the candidate's maps gives, as the smallest row has the most.
 */
@inline function leadingEmpty(givens: u32, ties: u32): i32 {
  const lead0 = <u32>load<u8>(RUN_LEAD + (((ties & 3) << 3) | (givens & 7)));
  const lead1 = <u32>load<u8>(RUN_LEAD + ((((ties >> 2) & 3) << 3) | ((givens >> 3) & 7)));
  const lead2 = <u32>load<u8>(RUN_LEAD + ((((ties >> 4) & 3) << 3) | (givens >> 6)));
  return <i32>load<u8>(STACKS_LEAD + (((ties >> 6) << 6) | (lead0 << 4) | (lead1 << 2) | lead2));
}

/**
 * Source row `row` as form row `r` under the candidate at `record`: read, compared with best row
 * `r`, and when not greater its candidates appended to the list at `out` (after `placed` others;
 * a smaller row first empties it). Returns the list's new length, or -1 when it would overflow.
 */
@inline function placeRow(record: usize, row: i32, r: i32, out: usize, placed: i32): i32 {
  const grid = grids + <usize>load<u8>(record + 27) * CELLS + <usize>row * 9;
  let columns = v128.load(record);
  let digits = i8x16.swizzle(v128.load(grid), columns);
  let values = i8x16.swizzle(v128.load(record + 16), digits);
  const ties = <u32>load<u8>(record + 29);
  if ((ties & COLUMN_TIES) != 0) {
    // Each run sorted by value: compare-exchange slots (0, 1), (1, 2), (0, 1) of every stack, where tied.
    const first = v128.load(TIED_SLOTS + (<usize>(ties & COLUMN_TIES) << 5));
    const second = v128.load(TIED_SLOTS + (<usize>(ties & COLUMN_TIES) << 5) + 16);
    for (let step = 0; step < 3; step++) {
      const swap = v128.and(step == 1 ? second : first, i8x16.gt_u(values, fromNext(values)));
      if (!v128.any_true(swap)) continue;
      const upper = fromBefore(swap);
      values = swapPairs(values, swap, upper);
      digits = swapPairs(digits, swap, upper);
      columns = swapPairs(columns, swap, upper);
    }
  }
  // Interchangeable stacks (all empty so far) in order of their sorted values, as a network of three.
  const stackTies = ties >> 6;
  let key0: u32 = 0;
  let key1: u32 = 0;
  let key2: u32 = 0;
  if (stackTies != 0) {
    // Each stack's three values as one number, its first value highest, in an i32 lane.
    const keys = i8x16.shuffle(values, i8x16.splat(0), 2, 1, 0, 16, 5, 4, 3, 16, 8, 7, 6, 16, 16, 16, 16, 16);
    key0 = <u32>i32x4.extract_lane(keys, 0);
    key1 = <u32>i32x4.extract_lane(keys, 1);
    key2 = <u32>i32x4.extract_lane(keys, 2);
    let from0 = 0;
    let from1 = 1;
    let from2 = 2;
    for (let step = 0; step < 3; step++) {
      if (step == 1) {
        if ((stackTies & 2) != 0 && key1 > key2) {
          const key = key1; key1 = key2; key2 = key;
          const from = from1; from1 = from2; from2 = from;
        }
      } else if ((stackTies & 1) != 0 && key0 > key1) {
        const key = key0; key0 = key1; key1 = key;
        const from = from0; from0 = from1; from1 = from;
      }
    }
    if (from0 != 0 || from1 != 1) {
      const order = stackOrder;
      v128.store(order, v128.load(IDENTITY));
      for (let k = 0; k < 3; k++) {
        store<u8>(order + k, <u8>(3 * from0 + k));
        store<u8>(order + 3 + k, <u8>(3 * from1 + k));
        store<u8>(order + 6 + k, <u8>(3 * from2 + k));
      }
      const moved = v128.load(order);
      values = i8x16.swizzle(values, moved);
      digits = i8x16.swizzle(digits, moved);
      columns = i8x16.swizzle(columns, moved);
    }
  }
  // Digits met for the first time take the next labels, left to right (a running count of them).
  const freshLanes = i8x16.eq(values, i8x16.splat(<i8>UNLABELLED));
  const fresh = i8x16.bitmask(freshLanes);
  let next = load<u8>(record + 26);
  if (fresh != 0) {
    const running = v128.load(FRESH_COUNTS + (<usize>fresh << 4));
    values = v128.bitselect(i8x16.add(running, i8x16.splat(<i8>(next - 1))), values, freshLanes);
    next += <u8>popcnt(fresh);
  }
  const bestRow = best + <usize>r * 16;
  const known = v128.load(bestRow);
  const less = i8x16.bitmask(i8x16.lt_u(values, known));
  const greater = i8x16.bitmask(i8x16.gt_u(values, known));
  if ((less | greater) != 0) {
    if ((greater & ((less | greater) & -(less | greater))) != 0) return placed; // the first difference is greater
    v128.store(bestRow, values);
    placed = 0;
  }
  const empty = <u32>i8x16.bitmask(i8x16.eq(values, i8x16.splat(0)));
  // A column tie (slots 3s + i, 3s + i + 1) stays when both cells are empty; a stack tie when both stacks are.
  const bothEmpty = empty & (empty >> 1);
  let kept = ties & ((bothEmpty & 3) | ((bothEmpty >> 1) & 0xc) | ((bothEmpty >> 2) & 0x30));
  if (stackTies != 0) kept |= (ties & 0x40 & -<u32>((key0 | key1) == 0)) | (ties & 0x80 & -<u32>((key1 | key2) == 0));
  // Every order of interchangeable stacks with equal values (new digits only), and of two or
  // three new digits in one run, gives this row: each is a candidate. After row 9 only their
  // maps are counted (the list's length is then that count): no candidate is written.
  const last = r == 8;
  if (!last) {
    if (placed >= ROOM) return -1;
    const child = out + <usize>placed * RECORD;
    v128.store(child, columns);
    v128.store(child + 16, v128.load(record + 16));
    v128.store(slotValues, values);
    v128.store(slotDigits, digits);
    let lanes = fresh;
    while (lanes != 0) {
      const lane = <usize>ctz(lanes);
      store<u8>(child + 16 + <usize>load<u8>(slotDigits + lane), load<u8>(slotValues + lane));
      lanes &= lanes - 1;
    }
    store<u8>(child + 26, next);
    store<u8>(child + 27, load<u8>(record + 27));
    store<u8>(child + 28, <u8>(row / 3));
    store<u8>(child + 29, <u8>kept);
    store<u16>(child + 30, load<u16>(record + 30) | (<u16>1 << <u16>row));
  }
  let made = 1;
  if (fresh != 0 && ties != 0) {
    let orders = 1;
    if (stackTies == 3 && key0 == key1 && key1 == key2 && key0 != 0) orders = groupOrdersOf(0, 3, 3);
    else if ((stackTies & 1) != 0 && key0 == key1 && key0 != 0) orders = groupOrdersOf(0, 2, 3);
    else if ((stackTies & 2) != 0 && key1 == key2 && key1 != 0) orders = groupOrdersOf(3, 2, 3);
    if (orders > 1) made = last ? made * orders : splitChildren(out, placed, made, orders, grid, fresh);
    if (made < 0) return -1;
    for (let stack = 0; stack < 3; stack++) {
      const run = (ties >> (2 * stack)) & 3;
      if (run == 0) continue;
      const runLanes = (fresh >> (3 * stack)) & (run == 3 ? 7 : run == 1 ? 3 : 6);
      const newCount = <i32>popcnt(runLanes);
      if (newCount < 2) continue;
      if (last) {
        made *= newCount == 2 ? 2 : 6;
        continue;
      }
      made = splitChildren(out, placed, made, groupOrdersOf(<usize>(3 * stack) + <usize>ctz(runLanes), newCount, 1), grid, fresh);
      if (made < 0) return -1;
    }
  }
  if (last) made *= mapsOf(kept);
  return placed + made;
}

/**
 * The minlex form of the grid read into `grids`, by trying each column order (steps 1–3 of the
 * fallback, above) into `best`; returns the number of geometric maps that give it.
 */
function canonByMaps(): i32 {
  let least: u32 = 0x3ff;
  for (let t = 0; t < 2; t++) {
    for (let row = 0; row < 9; row++) least = min(least, rowMask(grids + <usize>t * CELLS, row));
  }
  // Row 1 of the form: its mask, givens labelled 1, 2, … in order; the rest not reached yet.
  let label: u8 = 0;
  memory.fill(best, 0, 16);
  for (let c = 0; c < 9; c++) store<u8>(best + c, (least >> (8 - c)) & 1 ? ++label : 0);
  for (let r = 1; r < 9; r++) v128.store(best + <usize>r * 16, ROW_SENTINEL);
  automorphisms = 0;
  for (let t = 0; t < 2; t++) {
    source = grids + <usize>t * CELLS;
    for (let row = 0; row < 9; row++) {
      if (rowMask(source, row) == least) firstRow(row, least);
    }
  }
  return automorphisms;
}

/** Sets form columns of stack position `position` to source stack `stack` in column order `order` (and formColumns the other way). */
@inline function placeStack(position: i32, stack: i32, order: i32): void {
  for (let k = 0; k < 3; k++) {
    const column = 3 * stack + load<u8>(PERM3 + 3 * order + k);
    store<u8>(columns + 3 * position + k, <u8>column);
    store<u8>(formColumns + column, <u8>(3 * position + k));
  }
}

/** formColumns[source column]: its form column under the stacks placed so far. */
const formColumns = memory.data(9);
/** rowOneColumns[digit]: the source column of the digit in the source row that becomes form row 1 (255: not in it). */
const rowOneColumns = memory.data(10);
/** The labels given so far to digits new in form row 2 (0: none yet), while it is checked. */
const newLabels = memory.data(10);

/**
 * True when source row `row` as form row 2 is already greater than best row 2 in form columns
 * 0 to 3 × `position` + 2, whatever the columns still to be placed (stack positions 0 to
 * `position` are placed: source stacks `s0`, `s1`, …). A digit of form row 1 in a stack not yet
 * placed has a label not known yet: the comparison stops there, undecided (false). Form row 1's
 * givens are where `least` says, so a digit of it takes the rank of its column among them.
 */
function rowTwoGreater(row: i32, position: i32, s0: i32, s1: i32, least: u32): bool {
  const at = source + <usize>row * 9;
  memory.fill(newLabels, 0, 10);
  let next = <u8>(popcnt(least) + 1);
  const end = 3 * position + 3;
  for (let c = 0; c < end; c++) {
    const digit = load<u8>(at + load<u8>(columns + c));
    let value: u8 = 0;
    if (digit != 0) {
      const column = <i32>load<u8>(rowOneColumns + digit);
      if (column != 255) {
        const stack = column / 3;
        if (position < 2 && stack != s0 && (position == 0 || stack != s1)) return false;
        value = <u8>popcnt(least >> (8 - <u32>load<u8>(formColumns + column)));
      } else {
        value = load<u8>(newLabels + digit);
        if (value == 0) {
          value = next++;
          store<u8>(newLabels + digit, value);
        }
      }
    }
    const known = load<u8>(best + 16 + c);
    if (value != known) return value > known;
  }
  return false;
}

/** patterns[6 × stack + order]: the givens of a source row's stack in that column order, 3 bits, the first column highest. */
const patterns = memory.data(18);

/** Every column permutation under which source row `row` becomes best row 1 (mask `least`), each searched on (step 2). */
function firstRow(row: i32, least: u32): void {
  const at = source + <usize>row * 9;
  for (let stack = 0; stack < 3; stack++) {
    for (let order = 0; order < 6; order++) {
      let pattern: u32 = 0;
      for (let k = 0; k < 3; k++) pattern = (pattern << 1) | <u32>(load<u8>(at + 3 * stack + load<u8>(PERM3 + 3 * order + k)) != 0);
      store<u8>(patterns + 6 * stack + order, <u8>pattern);
    }
  }
  memory.fill(rowOneColumns, 255, 10);
  for (let column = 0; column < 9; column++) {
    const digit = load<u8>(at + column);
    if (digit != 0) store<u8>(rowOneColumns + digit, <u8>column);
  }
  // The two source rows that can become form row 2: the others of the band.
  const band = row / 3;
  const ra = 3 * band + (row % 3 == 0 ? 1 : 0);
  const rb = 3 * band + (row % 3 == 2 ? 1 : 2);
  const want0 = (least >> 6) & 7;
  const want1 = (least >> 3) & 7;
  const want2 = least & 7;
  for (let stacks = 0; stacks < 6; stacks++) {
    const s0 = <i32>load<u8>(PERM3 + 3 * stacks);
    const s1 = <i32>load<u8>(PERM3 + 3 * stacks + 1);
    const s2 = <i32>load<u8>(PERM3 + 3 * stacks + 2);
    for (let o0 = 0; o0 < 6; o0++) {
      if (<u32>load<u8>(patterns + 6 * s0 + o0) != want0) continue;
      placeStack(0, s0, o0);
      if (rowTwoGreater(ra, 0, s0, s1, least) && rowTwoGreater(rb, 0, s0, s1, least)) continue;
      for (let o1 = 0; o1 < 6; o1++) {
        if (<u32>load<u8>(patterns + 6 * s1 + o1) != want1) continue;
        placeStack(1, s1, o1);
        if (rowTwoGreater(ra, 1, s0, s1, least) && rowTwoGreater(rb, 1, s0, s1, least)) continue;
        for (let o2 = 0; o2 < 6; o2++) {
          if (<u32>load<u8>(patterns + 6 * s2 + o2) != want2) continue;
          placeStack(2, s2, o2);
          startRows(row);
        }
      }
    }
  }
}

/** With the column permutation fixed: labels row 1 and searches rows 2–9. */
function startRows(row: i32): void {
  order = v128.load(columns);
  const table = labels + 16;
  v128.store(table, i8x16.splat(UNLABELLED));
  store<u8>(table, 0);
  let label: u8 = 0;
  const at = source + <usize>row * 9;
  for (let c = 0; c < 9; c++) {
    const value = load<u8>(at + load<u8>(columns + c));
    if (value != 0) store<u8>(table + value, ++label);
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
  const before = labels + <usize>r * 16;
  const after = before + 16;
  const table = v128.load(before);
  const digits = i8x16.swizzle(v128.load(source + <usize>row * 9), order);
  let out = i8x16.swizzle(table, digits);
  let fresh = i8x16.bitmask(i8x16.eq(out, i8x16.splat(<i8>UNLABELLED)));
  let next = load<u8>(nextLabels + r);
  v128.store(after, table);
  if (fresh != 0) {
    // Digits met for the first time take the next labels, left to right (a row holds each digit once).
    v128.store(scratch, digits);
    const patched = scratch + 16;
    v128.store(patched, out);
    do {
      const lane = <usize>ctz(fresh);
      store<u8>(patched + lane, next);
      store<u8>(after + load<u8>(scratch + lane), next);
      next++;
      fresh &= fresh - 1;
    } while (fresh != 0);
    out = v128.load(patched);
  }
  const bestRow = best + <usize>r * 16;
  const known = v128.load(bestRow);
  const less = i8x16.bitmask(i8x16.lt_u(out, known));
  const greater = i8x16.bitmask(i8x16.gt_u(out, known));
  if ((less | greater) != 0) {
    if ((greater & ((less | greater) & -(less | greater))) != 0) return; // the first difference is greater
    v128.store(bestRow, out);
    for (let later = r + 1; later < 9; later++) v128.store(best + <usize>later * 16, ROW_SENTINEL);
    automorphisms = 0;
  }
  store<u8>(nextLabels + r + 1, next);
  searchRows(r + 1, band, used | (<u32>1 << row));
}
