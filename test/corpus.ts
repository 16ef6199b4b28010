/**
 * Large test corpora made on the spot: the bundled easy puzzles with their digits relabelled
 * by a seeded permutation per line, so every line of a million differs from its neighbours
 * (a lost, doubled or shifted record changes the output) and nothing large is committed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Random } from "../src/prng.js";

const easy = readFileSync(new URL("../datasets/easy.txt", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.length === 81);

/** `count` 81-character puzzle lines, each ending with "\n"; equal seeds give equal text. */
export function relabelledPuzzles(count: number, seed = 1): string {
  const random = new Random(seed);
  const lines: string[] = [];
  const digits = [..."123456789"];
  for (let i = 0; i < count; i++) {
    const order = random.shuffle([...digits]);
    const relabel: Record<string, string> = { ".": "." };
    digits.forEach((digit, k) => (relabel[digit] = order[k]));
    const puzzle = easy[i % easy.length];
    let line = "";
    for (const cell of puzzle) line += relabel[cell] ?? cell;
    lines.push(line);
  }
  return lines.join("\n") + "\n";
}

/** Writes {@link relabelledPuzzles} to `path` and returns the path. */
export function writePuzzles(path: string, count: number, seed = 1): string {
  writeFileSync(path, relabelledPuzzles(count, seed));
  return path;
}
