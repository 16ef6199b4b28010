/**
 * Large corpora made on the spot: the bundled easy puzzles, digits relabelled per line by a seeded permutation, so a
 * lost, doubled or shifted record changes the output.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../src/kernel/paths.js";
import { Random } from "../src/model/prng.js";

const LINE = 82;
const ZERO = 48;
const easy = readFileSync(join(packageRoot(), "datasets", "easy.txt"), "latin1")
  .split("\n")
  .filter((line) => line.length === LINE - 1)
  .map((line) => Buffer.from(line, "latin1"));

/** `count` 81-character puzzle lines, each ending with "\n", as bytes; equal seeds give equal bytes. */
export function relabelledPuzzleBytes(count: number, seed = 1): Buffer {
  const random = new Random(seed);
  const bytes = Buffer.alloc(count * LINE);
  const relabel = new Uint8Array(128).map((_, code) => code); // every byte but a digit stays
  const order = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  for (let i = 0; i < count; i++) {
    random.shuffle(order);
    order.forEach((digit, k) => (relabel[ZERO + 1 + k] = ZERO + digit));
    const puzzle = easy[i % easy.length];
    const at = i * LINE;
    for (let cell = 0; cell < LINE - 1; cell++) bytes[at + cell] = relabel[puzzle[cell]];
    bytes[at + LINE - 1] = 10;
  }
  return bytes;
}

export function relabelledPuzzles(count: number, seed = 1): string {
  return relabelledPuzzleBytes(count, seed).toString("latin1");
}

/** Writes {@link relabelledPuzzleBytes} to `path` and returns the path. */
export function writePuzzles(path: string, count: number, seed = 1): string {
  writeFileSync(path, relabelledPuzzleBytes(count, seed));
  return path;
}
