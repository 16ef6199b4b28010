// The 9×9 kernel's batch in linear memory: its layout (the N×N kernel's too), and the one block
// `reserve` hands out. The solver (index.ts) and the CLI's text in and out (text.ts) both reach a
// batch through what is here.
//
// Batch layout (see src/kernel/wasm.ts), n puzzles of C cells (81 here; N² in the N×N kernel,
// assembly/general.ts, which takes its offsets from here too) from `base`:
//   puzzles n×C u8 │ solutions n×C u8 │ (align 4) counts n×i32 │ guesses n×i32 │ nodes n×i32
//   counts is -1 for a byte over 9 (over N) and -2 for a clue repeated in a unit.
//   nodes counts the states propagated; it is negative when the search hit the node budget.

/** The cells of a 9×9 puzzle: the bytes of one puzzle, or of one solution, in a batch. */
export const CELLS: i32 = 81;

/** The base of the block reserved last (0: none yet). */
export let batchBase: usize = 0;
/** The largest batch reserved so far: the entry points that take a batch take no larger one. */
export let batchCapacity: i32 = 0;
/** The puzzles the block at batchBase has room for (a power of two, from roomFor). */
let batchRoom: i32 = 0;

/** True unless `base` and `count` name the batch reserved (or a smaller one at its base), the only batch an entry point touches. */
@inline export function outsideReservedBatch(base: usize, count: i32): bool {
  return base != batchBase || count < 0 || count > batchCapacity;
}

/** Byte offsets of a batch of `count` puzzles of `cells` cells: solutions, then 4-byte aligned counts and guesses. */
@inline export function solutionsAt(base: usize, count: i32, cells: i32 = CELLS): usize {
  return base + <usize>count * <usize>cells;
}
@inline export function countsAt(base: usize, count: i32, cells: i32 = CELLS): usize {
  return (solutionsAt(base, count, cells) + <usize>count * <usize>cells + 3) & ~(<usize>3);
}

/** The largest batch in bytes: one heap block of the stub runtime (2^30 minus its header). */
export const MAX_BATCH_BYTES: u64 = (1 << 30) - 64;

/** The bytes of a batch of `count` puzzles of `cells` cells (the layout above), in 64 bits. */
@inline export function batchBytes(count: i32, cells: i32 = CELLS): u64 {
  return ((<u64>count * <u64>(2 * cells) + 3) & ~(<u64>3)) + <u64>count * 12;
}

/** A block's room for `count` items: the power of two at or above it, from 64 (so that a block grows a few times, not once per batch). */
@inline export function roomFor(count: i32): i32 {
  return count <= 64 ? 64 : <i32>(<u32>1 << (32 - clz(<u32>(count - 1))));
}

/**
 * Room for a batch of `count` puzzles of box size `box`; returns its base, or 0 when the box size
 * is not 3 (the N×N kernel, assembly/general.ts, exports the same entry points for every size),
 * `count` is negative or the batch would be over {@link MAX_BATCH_BYTES} (sizes are computed in
 * 64 bits, so nothing wraps).
 * A larger batch replaces the block of the last one, with room for a power of two of puzzles:
 * freeing the old block gives its memory back when it is the last on the heap, and when the
 * records area (text.ts, reserveRecords) came after it, the blocks left behind are a geometric
 * series: memory is bounded by a few times the largest batch (a block up to twice what it needs,
 * and as much again left behind), not by the sum of batches.
 * May grow memory.
 */
export function reserve(count: i32, box: i32): usize {
  if (box != 3 || count < 0) return 0;
  if (batchBytes(count) > MAX_BATCH_BYTES) return 0;
  if (count > batchRoom) {
    let room = roomFor(count);
    if (batchBytes(room) > MAX_BATCH_BYTES) room = count;
    if (batchBase != 0) heap.free(batchBase);
    batchBase = heap.alloc(<usize>batchBytes(room));
    batchRoom = room;
  }
  if (count > batchCapacity) batchCapacity = count;
  return batchBase;
}

/**
 * Where a search without a budget moves its i32 guess and node counts into i64 totals and goes on
 * (the search loop's one check against its node limit does it): 2^31 - 2^20 nodes, well before an
 * i32 count would wrap negative and read as stopped by a budget. CARRY_AT sets it for a test.
 */
const CARRY_NODES: i32 = isDefined(CARRY_AT) ? CARRY_AT : 0x7ff00000;

/**
 * True when `budget` caps a search: a budget from 1 to CARRY_NODES. A larger one (over two billion
 * states, minutes of searching) is no cap: an i32 count could not reach it without wrapping.
 */
@inline export function capped(budget: i32): bool {
  return budget > 0 && budget <= CARRY_NODES;
}

/** A search's node limit: its budget, or CARRY_NODES without one. */
@inline export function nodeLimit(budget: i32): i32 {
  return capped(budget) ? budget : CARRY_NODES;
}

/** A search's guesses or nodes (its i64 total) as a result's i32: past 2^31 - 1 (minutes of searching), 2^31 - 1. */
@inline function resultCount(count: i64): i32 {
  return <i32>(count > <i64>i32.MAX_VALUE ? <i64>i32.MAX_VALUE : count);
}

/** What the current search without a budget has moved out of its kernel's i32 guess and node counts (carryCounts). */
let carriedGuesses: i64 = 0;
let carriedNodes: i64 = 0;

/** A new search: nothing carried yet. */
@inline export function startCounts(): void {
  carriedGuesses = 0;
  carriedNodes = 0;
}

/** At the node limit of a search without a budget: its `guesses` and all but 2 of its `nodes` move to the totals (the kernel goes on from 0 and 2). */
@inline export function carryCounts(guesses: i32, nodes: i32): void {
  carriedGuesses += <i64>guesses;
  carriedNodes += <i64>nodes - 2;
}

/** Stores result `i`'s guesses and nodes, the carried totals added (a stopped search, `nodes` negative, carried nothing). */
@inline export function storeCounts(guessCounts: usize, nodeCounts: usize, i: i32, guesses: i32, nodes: i32): void {
  store<i32>(guessCounts + (<usize>i << 2), resultCount(carriedGuesses + <i64>guesses));
  store<i32>(nodeCounts + (<usize>i << 2), nodes < 0 ? nodes : resultCount(carriedNodes + <i64>nodes));
}
