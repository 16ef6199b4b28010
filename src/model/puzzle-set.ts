/**
 * A set of 9×9 puzzles (the generator's puzzles made, canon --unique's forms seen), to tell a repeat:
 * exact (each puzzle is stored whole, packed nine digits to a 32-bit word), in typed arrays outside
 * the JavaScript heap. A `Set` of puzzle strings stops at 2^24 entries ("Set maximum size exceeded")
 * and costs some 100 to 125 bytes a puzzle of the heap; this costs 44 to 52 bytes a puzzle (36 for
 * the puzzle, 8 to 16 for its slot in a table at most half full), up to {@link MAX_PUZZLES}.
 */
import type { Grid } from "./puzzle.js";
import { CELLS } from "./shape.js";

/** 32-bit words per stored puzzle: nine digits (0-9) to a word, 10^9 < 2^32. */
const WORDS = CELLS / 9;

/** Puzzles per block of the store (2.4 MB): the store grows a block at a time, never copied. */
const BLOCK_BITS = 16;
const BLOCK = 1 << BLOCK_BITS;

/** The most puzzles a set holds: its table of 2^32 slots (a typed array's longest) at most half full; 77 GB of puzzles. */
export const MAX_PUZZLES = 2 ** 31;

export class PuzzleSet {
  /** The puzzles in the order added, {@link BLOCK} to a block of {@link WORDS} words each. */
  private readonly blocks: Uint32Array[] = [];
  /** Open addressing: 1 + the index of a puzzle, or 0 for an empty slot; a power of two long, at most half full. */
  private slots: Uint32Array;
  private readonly packed = new Uint32Array(WORDS);
  /** Puzzles held. */
  size = 0;

  /** `capacity`: puzzles held before the table first grows (tests set it small). */
  constructor(capacity = 1024) {
    this.slots = new Uint32Array(2 ** Math.ceil(Math.log2(Math.max(2, capacity) * 2)));
  }

  /** Adds `puzzle` (81 digits, 0 for an empty cell); false when it was there already. */
  add(puzzle: Grid): boolean {
    const packed = this.packed;
    for (let word = 0, cell = 0; word < WORDS; word++) {
      let value = 0;
      for (let k = 0; k < 9; k++, cell++) value = value * 10 + puzzle[cell];
      packed[word] = value;
    }
    return this.addPacked();
  }

  /** {@link add} for a puzzle written as 81 digit characters `0`-`9` (a minlex form). */
  addDigits(text: string): boolean {
    const packed = this.packed;
    for (let word = 0, cell = 0; word < WORDS; word++) {
      let value = 0;
      for (let k = 0; k < 9; k++, cell++) value = value * 10 + (text.charCodeAt(cell) - 48);
      packed[word] = value;
    }
    return this.addPacked();
  }

  /** Adds the puzzle in {@link packed}; false when it was there already. */
  private addPacked(): boolean {
    const packed = this.packed;
    const mask = this.slots.length - 1;
    for (let slot = hash(packed, 0) & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot];
      if (held === 0) break;
      if (this.equals(held - 1, packed)) return false;
    }
    if (this.size === MAX_PUZZLES) throw new RangeError(`a set of puzzles holds at most 2^31 (${MAX_PUZZLES}) puzzles`);
    const index = this.size;
    if (index % BLOCK === 0) this.blocks.push(new Uint32Array(BLOCK * WORDS));
    this.blocks[index >>> BLOCK_BITS].set(packed, (index % BLOCK) * WORDS);
    this.size++;
    if (this.size * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(index);
    return true;
  }

  /** True when the puzzle stored at `index` is `packed`. */
  private equals(index: number, packed: Uint32Array): boolean {
    const block = this.blocks[index >>> BLOCK_BITS];
    const at = (index % BLOCK) * WORDS;
    for (let word = 0; word < WORDS; word++) if (block[at + word] !== packed[word]) return false;
    return true;
  }

  /** Puts the stored puzzle `index` in the first empty slot from its hash on. */
  private place(index: number): void {
    const mask = this.slots.length - 1;
    let slot = hash(this.blocks[index >>> BLOCK_BITS], (index % BLOCK) * WORDS) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = index + 1;
  }

  /** Slots `length` long, every stored puzzle placed again. */
  private rehash(length: number): void {
    this.slots = new Uint32Array(length);
    for (let index = 0; index < this.size; index++) this.place(index);
  }
}

/** A 32-bit hash of the packed puzzle at `at` in `words` (multiply-rotate mixing of each word, then a final avalanche). */
function hash(words: Uint32Array, at: number): number {
  let h = 0x9e3779b9;
  for (let word = at; word < at + WORDS; word++) {
    h = Math.imul(h ^ words[word], 0x85ebca6b);
    h = (h << 13) | (h >>> 19);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}
