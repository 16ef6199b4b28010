/**
 * Issue 23, the inputs: every input record yields one output record and a bad input says what
 * is wrong with it. A CSV row is a header only when it is one (item 3); a judge puzzle whose
 * givens repeat is answered as the judge expects an unsolvable one (item 6); unclear errors
 * name the encoding, the NUL, the count (item 10). Spawns bin/sudoku-wasm.mjs (dist/).
 */
import { describe, expect, it } from "vitest";
import { runCli } from "./cli-run.js";
import { loadFixture } from "./fixture.js";

const fixture = loadFixture();
const UNIQUE = fixture.filter((c) => c.count === 1 && c.puzzle.includes("."));
const [P1, P2, P3] = UNIQUE.map((c) => c.puzzle);
const [S1, S2, S3] = UNIQUE.map((c) => c.solution!);

/** The jsonl records `solve --threads 0` writes for `input` on standard input. */
function jsonlRecords(input: string, ...args: string[]): { line: number; puzzle: string; status: string; solution: string | null; error: string | null }[] {
  const run = runCli(["solve", "--no-progress", "--threads", "0", "--out", "jsonl", ...args], { input });
  expect(run.status, run.stderr).toBeLessThanOrEqual(1);
  return run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
}

describe("item 3: a CSV row whose field equals a column name is a record, not a header", () => {
  it("reads rows whose source is `sudoku` or `grid` and whose level is `puzzle` as records, each from the puzzle column", () => {
    const input = `id,puzzle,source\n0,${P1},sudoku\n1,${P2},forum\n2,${P3},grid\n`;
    const records = jsonlRecords(input);
    expect(records.map((r) => [r.line, r.puzzle, r.solution])).toEqual([
      [2, P1, S1],
      [3, P2, S2],
      [4, P3, S3],
    ]);
    const levels = jsonlRecords(`puzzle,level\n${P1},grid\n${P2},puzzle\n${P3},easy\n`);
    expect(levels.map((r) => r.solution)).toEqual([S1, S2, S3]);
  });

  it("still takes a repeated header (concatenated files) and a header in another column order as headers", () => {
    const input = `id,puzzle,source\n0,${P1},sudoku\nquizzes,solutions\n${P2},${S2}\nid,puzzle,source\n2,${P3},x\n`;
    expect(jsonlRecords(input).map((r) => [r.line, r.solution])).toEqual([
      [2, S1],
      [4, S2],
      [6, S3],
    ]);
  });

  it("gives a row with a bad puzzle and a column-name field an invalid record, and reads the rows after it from the same column", () => {
    const records = jsonlRecords(`id,puzzle,source\n0,123,sudoku\n1,${P2},x\n`);
    expect(records.map((r) => [r.line, r.status])).toEqual([
      [2, "invalid"],
      [3, "solved"],
    ]);
    expect(records[0].puzzle).toBe("123");
  });
});

describe("item 6: judge mode answers a puzzle whose givens repeat, and writes every puzzle's answer", () => {
  it("sicily1317 through the CLI: status 0, 'Puzzle 2 has no solution' between the answers of puzzles 1 and 3", () => {
    const grid = (puzzle: string) => Array.from({ length: 9 }, (_, r) => puzzle.slice(r * 9, r * 9 + 9).replaceAll(".", "_"));
    const input = ["3", ...grid(P1), ...grid("55" + P2.slice(2)), ...grid(P3), ""].join("\n");
    const run = runCli(["solve", "--format", "sicily1317"], { input });
    expect([run.status, run.stderr]).toEqual([0, ""]);
    expect(run.stdout.split("\n\n").map((answer) => answer.split("\n")[0])).toEqual(["Puzzle 1 solution is", "Puzzle 2 has no solution", "Puzzle 3 solution is"]);
  });
});

describe("item 10: errors that say what is wrong", () => {
  it("refuses poj2676 counts written as 0x2, 1e3, 1.0 or +2, naming the line", () => {
    for (const count of ["0x2", "1e3", "1.0", "+2"]) {
      const run = runCli(["solve", "--format", "poj2676"], { input: `${count}\n${P1.replaceAll(".", "0")}\n` });
      expect([run.status, run.stderr], count).toEqual([2, `sudoku-wasm: line 1: expected the number of puzzles, got '${count}'\n`]);
    }
  });
});
