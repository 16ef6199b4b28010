/** Reads test/fixtures/puzzles.txt: `puzzle:count[:solution]` lines, count a number or `invalid`. */
import { readFileSync } from "node:fs";

export interface FixtureCase {
  /** 1-based line in the fixture file. */
  line: number;
  puzzle: string;
  /** Solutions up to 2, or "invalid" for input a solver must reject. */
  count: number | "invalid";
  solution?: string;
}

export function loadFixture(): FixtureCase[] {
  const text = readFileSync(new URL("./fixtures/puzzles.txt", import.meta.url), "utf8");
  const cases: FixtureCase[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const [puzzle, count, solution] = line.split(":");
    cases.push({ line: i + 1, puzzle, count: count === "invalid" ? "invalid" : Number(count), solution });
  });
  return cases;
}
