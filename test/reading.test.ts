/**
 * Inputs: every input record yields one output record and a bad input says what
 * is wrong with it. A CSV row is a header only when it is one; a judge puzzle whose
 * givens repeat is answered as the judge expects an unsolvable one; unclear errors
 * name the encoding, the NUL, the count. Spawns bin/sudoku-wasm.mjs (dist/).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProfile } from "../bench/profile/run.js";
import { runCli, scratchFolder } from "./cli-run.js";
import { loadFixture } from "./fixture.js";

const { dir, file } = scratchFolder("sudoku-reading-");
const fixture = loadFixture();
const UNIQUE = fixture.filter((c) => c.count === 1 && c.puzzle.includes("."));
const [P1, P2, P3] = UNIQUE.map((c) => c.puzzle);
const [S1, S2, S3] = UNIQUE.map((c) => c.solution!);

/** The jsonl records `solve --threads 0` writes for `input` on standard input. */
function jsonlRecords(input: string, ...args: string[]): { line: number; puzzle: string; status: string; solution: string | null; error: string | null }[] {
  const run = runCli(["solve", "--no-progress", "--threads", "0", "--out", "jsonl", ...args], { input });
  expect(run.status, run.stderr).toBeLessThanOrEqual(1);
  return run.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("a CSV row whose field equals a column name is a record, not a header", () => {
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

describe("judge mode answers a puzzle whose givens repeat, and writes every puzzle's answer", () => {
  it("sicily1317 through the CLI: status 0, 'Puzzle 2 has no solution' between the answers of puzzles 1 and 3", () => {
    const grid = (puzzle: string) => Array.from({ length: 9 }, (_, r) => puzzle.slice(r * 9, r * 9 + 9).replaceAll(".", "_"));
    const input = ["3", ...grid(P1), ...grid("55" + P2.slice(2)), ...grid(P3), ""].join("\n");
    const run = runCli(["solve", "--format", "sicily1317"], { input });
    expect([run.status, run.stderr]).toEqual([0, ""]);
    expect(run.stdout.split("\n\n").map((answer) => answer.split("\n")[0])).toEqual([
      "Puzzle 1 solution is",
      "Puzzle 2 has no solution",
      "Puzzle 3 solution is",
    ]);
  });
});

describe("errors that say what is wrong", () => {
  it("names the encoding of a UTF-16 or UTF-32 file (by its byte order mark) instead of reading garbled records", () => {
    const text = `${P1}\n${P2}\n`;
    const encodings: [string, Buffer][] = [
      ["UTF-16 LE", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")])],
      ["UTF-16 BE", Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()])],
      ["UTF-32 LE", Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), ...[...text].map((ch) => Buffer.from([ch.charCodeAt(0), 0, 0, 0]))])],
    ];
    for (const [name, bytes] of encodings) {
      const path = join(dir, `${name.replace(" ", "")}.txt`);
      writeFileSync(path, bytes);
      const run = runCli(["solve", "--no-progress", "--threads", "0", path]);
      expect([run.status, run.stdout, run.stderr], name).toEqual([
        2,
        "",
        `sudoku-wasm: cannot read '${path}': the input is ${name} text (it starts with the byte order mark ${[...bytes.subarray(0, name.startsWith("UTF-32") ? 4 : 2)].map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ")}); sudoku-wasm reads UTF-8: convert it first, e.g. iconv -f ${name.replace(" ", "")} -t UTF-8\n`,
      ]);
    }
  });

  it("reads files joined with their UTF-8 byte order marks (cat a.txt b.txt) as without them: the marks never reach a record", () => {
    const BOM = "\uFEFF";
    const joined = `${P1}\n${BOM}${P2}\n${BOM}# second file\n${BOM}${P3}\n`;
    const path = file("joined.txt", joined);
    for (const args of [[], [path]]) {
      const records = jsonlRecords(args.length === 0 ? joined : "", ...args);
      expect(records.map((r) => [r.line, r.puzzle, r.solution])).toEqual([
        [1, P1, S1],
        [2, P2, S2],
        [4, P3, S3],
      ]);
    }
  });

  it("names a trailing NUL in a line of the wrong length", () => {
    const [record] = jsonlRecords(`${P1}\0\n`);
    expect(record.error).toBe("<stdin>:1: expected 81 characters, got 82 (character 82 is '\\x00', a NUL)");
  });

  it("the profiler refuses a 16×16 or 25×25 dataset naming its size, not 'offset is out of bounds'", async () => {
    for (const size of [16, 25]) {
      const path = file(`empty-${size}.txt`, `${".".repeat(size * size)}\n`.repeat(3));
      await expect(runProfile({ variants: ["wasm"], datasets: [path], limit: 2, budget: 1000, seed: 1, cpuProf: false, out: dir }, () => {})).rejects.toThrow(
        `${path} holds ${size}×${size} puzzles, but the profiler runs the 9×9 kernel's variants only (npm run bench measures every size)`,
      );
    }
  });

  it("names standard input `<stdin>` in a judge's input error, as solve mode's records do", () => {
    for (const [format, input, says] of [
      ["leetcode37", '[["5","3"]]', "expected a JSON array of 9 rows of 9 strings: row 1 has 2 values"],
      ["poj3074", "abc\n", "expected 81 characters, got 3"],
      ["sicily1317", "abc\n", "expected the number of puzzles, got 'abc'"],
    ]) {
      const run = runCli(["solve", "--format", format, "-"], { input });
      expect([run.status, run.stderr], format).toEqual([2, `sudoku-wasm: <stdin>:1: ${says}\n`]);
    }
  });

  it("refuses poj2676 counts written as 0x2, 1e3, 1.0 or +2, naming the line", () => {
    for (const count of ["0x2", "1e3", "1.0", "+2"]) {
      const run = runCli(["solve", "--format", "poj2676"], { input: `${count}\n${P1.replaceAll(".", "0")}\n` });
      expect([run.status, run.stderr], count).toEqual([2, `sudoku-wasm: <stdin>:1: expected the number of puzzles, got '${count}'\n`]);
    }
  });
});
