/**
 * Seeded sampling: the same seed draws the same puzzles on every machine, and every row of a
 * dataset solves a prefix of one seeded order, so a sampled row's puzzles are a subset of every faster row's.
 */
import { Random } from "../src/model/prng.js";

/** The first `count` indices of a seeded random permutation of 0..size-1. */
export function seededSample(size: number, count: number, seed: number): number[] {
  const order = Array.from({ length: size }, (_, i) => i);
  return new Random(seed).shuffle(order).slice(0, Math.min(count, size));
}
