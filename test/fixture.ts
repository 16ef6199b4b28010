/** Reads test/fixtures/puzzles.txt: `puzzle:count[:solution]` lines, count a number or `invalid`. */
import { readFileSync } from "node:fs";

/** Grid sides by cell count; a line of any other length (an invalid one) counts as 9×9. */
const SIDE_OF_CELLS = new Map([
  [16, 4],
  [256, 16],
  [625, 25],
]);

export interface FixtureCase {
  /** 1-based line in the fixture file. */
  line: number;
  puzzle: string;
  /** Solutions up to 2, or "invalid" for input a solver must reject. */
  count: number | "invalid";
  solution?: string;
  /** The grid side N: 4, 9, 16 or 25. */
  size: number;
}

/** The fixture lines of grids of side `size` (9×9 by default), or of every size for "all". */
export function loadFixture(size: number | "all" = 9): FixtureCase[] {
  const text = readFileSync(new URL("./fixtures/puzzles.txt", import.meta.url), "utf8");
  const cases: FixtureCase[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const [puzzle, count, solution] = line.split(":");
    const side = SIDE_OF_CELLS.get(puzzle.length) ?? 9;
    if (size === "all" || side === size) cases.push({ line: i + 1, puzzle, count: count === "invalid" ? "invalid" : Number(count), solution, size: side });
  });
  return cases;
}

/** One 9×9 fixture puzzle of each answer a run tells apart: a unique one with empty cells, one with two solutions or more, one with none. */
export function fixtureAnswers(): { solved: string; multiple: string; unsolvable: string } {
  const fixture = loadFixture();
  return {
    solved: fixture.find((c) => c.count === 1 && c.puzzle.includes("."))!.puzzle,
    multiple: fixture.find((c) => c.count === 2)!.puzzle,
    unsolvable: fixture.find((c) => c.count === 0)!.puzzle,
  };
}
