/**
 * What `sudoku-wasm merge` checks before it writes: that every shard holds the same format (by
 * detection and against --out); that line and grid shards, which carry no index, hold the
 * round-robin counts of one run, each shard once, and that merge says what it could not check;
 * that jsonl and csv shards are one run's record by record (their input names and lines, not only
 * their indexes), while a run over an input named twice still merges; and that each shard is a file, not
 * standard input or a pipe. Spawns bin/sudoku-wasm.mjs
 * (dist/, built by `pretest`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli, scratchFolder, solveShards } from "./cli-run.js";
import { relabelledPuzzles } from "../bench/corpus.js";
import { outputFormatOf } from "../src/formats/output/split.js";

const { dir, file } = scratchFolder("sudoku-merge-checks-");
const PUZZLES = file("puzzles.txt", relabelledPuzzles(300, 23));
const A = file("a.txt", relabelledPuzzles(40, 41));
const B = file("b.txt", relabelledPuzzles(40, 42));

/** One `sudoku-wasm: …` line and nothing else (no stack trace). */
const ONE_ERROR_LINE = /^sudoku-wasm: [^\n]+\n$/;

/** Solves shards 0 … n-1 of PUZZLES in `format`; returns their paths. */
const shards = (n: number, format = "line", stem = "m"): string[] => solveShards(dir, PUZZLES, n, format, stem);

/** Solves `inputs` as shard k of n in `format`; returns the output's path. */
function shard(inputs: string[], k: number, n: number, format: string, name: string): string {
  const out = join(dir, name);
  const run = runCli(["solve", "--no-progress", "--out", format, "--shard", `${k}/${n}`, "-o", out, ...inputs]);
  expect(run.status, run.stderr).toBe(0);
  return out;
}

describe("merge checks every shard's format and the counts of shards without an index", () => {
  it("refuses shards of different formats, by detection and against --out, before writing", () => {
    const [line0] = shards(3, "line", "mix");
    const [, jsonl1, jsonl2] = shards(3, "jsonl", "mix");
    const merged = join(dir, "mixed.out");
    const mixed = runCli(["merge", "-o", merged, line0, jsonl1, jsonl2]);
    expect([mixed.status, mixed.stderr]).toEqual([
      2,
      `sudoku-wasm: ${jsonl1} holds jsonl records, but ${line0} holds line: give the N shards of one run, all written with the same --out\n`,
    ]);
    const against = runCli(["merge", "--out", "line", "-o", merged, jsonl1]);
    expect([against.status, against.stderr]).toEqual([
      2,
      `sudoku-wasm: ${jsonl1} holds jsonl records, but --out says line: give the N shards of one run, all written with the same --out\n`,
    ]);
    expect(existsSync(merged)).toBe(false);
  });

  it("writes a shard's count of 1 as '1 record' and counts of thousands grouped, as other messages (it said '1 records' and '1200')", () => {
    const [first, second] = readFileSync(PUZZLES, "utf8").split("\n");
    const merged = join(dir, "counts.txt");
    const one = runCli(["merge", "-o", merged, file("one-0.txt", `${first}\n`), file("one-1.txt", `${first}\n${second}\n`)]);
    expect([one.status, one.stderr]).toEqual([
      2,
      `sudoku-wasm: ${join(dir, "one-0.txt")} holds 1 record, fewer than its place needs (2): 2 shards of one run of 3 records hold 2, 1 (shard K of N: ⌈(T−K)/N⌉), these hold 1, 2; give the N shards of one run, shard 0 first, each whole\n`,
    ]);
    const lines = (n: number) => `${first}\n`.repeat(n);
    const many = runCli(["merge", "-o", merged, file("many-0.txt", lines(1000)), file("many-1.txt", lines(1200))]);
    expect(many.stderr).toBe(
      `sudoku-wasm: ${join(dir, "many-0.txt")} holds 1,000 records, fewer than its place needs (1,100): 2 shards of one run of 2,200 records hold 1,100, 1,100 (shard K of N: ⌈(T−K)/N⌉), these hold 1,000, 1,200; give the N shards of one run, shard 0 first, each whole\n`,
    );
  });

  it("refuses a line or grid shard one record short or named twice, naming the counts, before writing; says what it cannot check", () => {
    for (const format of ["line", "grid"]) {
      const paths = shards(3, format, `short-${format}-`);
      const merged = join(dir, `short.${format}`);
      const text = readFileSync(paths[1], "utf8");
      const end = format === "line" ? "\n" : "\n\n";
      writeFileSync(paths[1], text.slice(0, text.lastIndexOf(end, text.length - end.length - 1) + end.length)); // its last record gone
      const short = runCli(["merge", "-o", merged, ...paths]);
      expect(short.status, format).toBe(2);
      expect(short.stderr).toBe(
        `sudoku-wasm: ${paths[1]} holds 99 records, fewer than its place needs (100): 3 shards of one run of 299 records hold 100, 100, 99 (shard K of N: ⌈(T−K)/N⌉), these hold 100, 99, 100; give the N shards of one run, shard 0 first, each whole\n`,
      );
      expect(existsSync(merged), format).toBe(false);
      const twice = runCli(["merge", "-o", merged, paths[0], paths[0], paths[2]]);
      expect([twice.status, twice.stderr]).toEqual([2, `sudoku-wasm: ${paths[0]} is the same file as ${paths[0]}: each of the N shards must be given once\n`]);
      writeFileSync(paths[1], text);
      const whole = runCli(["merge", "-o", merged, ...paths]);
      expect(whole.status).toBe(0);
      expect(whole.stderr).toBe(
        `merged 300 ${format} records from 3 shards\nnote: ${format} records carry no index, so merge checked only their counts: not that these are the 3 shards of one run, each once, in shard order (jsonl and csv output are checked record by record)\n`,
      );
    }
  });
  it("refuses a shard with an empty line no record ends with, in every format, naming it and the line, before writing", () => {
    for (const format of ["line", "grid", "jsonl", "csv"]) {
      const paths = shards(2, format, `empty-${format}-`);
      writeFileSync(paths[1], readFileSync(paths[1], "utf8") + "\n");
      const lines = readFileSync(paths[1], "utf8").split("\n").length - 1;
      const merged = join(dir, `empty.${format}`);
      const run = runCli(["merge", "-o", merged, ...paths]);
      const what = format === "grid" ? "an empty line after no rows" : "an empty line";
      expect([run.status, run.stderr], format).toEqual([
        2,
        `sudoku-wasm: ${paths[1]} line ${lines} is ${what}, which no ${format} output of sudoku-wasm holds: was the file edited? Remove that line and run again\n`,
      ]);
      expect(existsSync(merged), format).toBe(false);
    }
    // -o a link (or a device, a pipe): left where it is, not removed
    const paths = shards(2, "jsonl", "empty-link-");
    writeFileSync(paths[1], readFileSync(paths[1], "utf8") + "\n");
    const link = join(dir, "merged-link.jsonl");
    symlinkSync(join(dir, "link-target.jsonl"), link);
    expect(runCli(["merge", "-o", link, ...paths]).status).toBe(2);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });
});

describe("an output's format, told from its first bytes", () => {
  it("is grid when its empty lines end grid records (N rows of N, or a status line), line with a stray empty line", () => {
    const grid = (side: number) => Array.from({ length: side }, () => "1".repeat(side)).join("\n");
    const solution = "1".repeat(81);
    for (const text of [
      `${grid(9)}\n\n${grid(9)}\n\n`,
      `${grid(4)}\n\n`,
      `${grid(25)}\n\n${grid(25).slice(0, 100)}`,
      `unsolvable\n\n${grid(9)}\n\n`,
      "invalid: a.txt:1: bad\n\n",
      "multiple\n\ntimeout\n\n",
      `${grid(9)}\n\n1111\n11`,
    ]) {
      expect(outputFormatOf(text), text.slice(0, 40)).toBe("grid");
    }
    for (const text of [
      `${solution}\n${solution}\n\n`,
      `${solution}\n\n${solution}\n`,
      `unsolvable\n\n${solution}\n${solution}\n`,
      "invalid\n".repeat(7) + "\n",
      "error\n".repeat(5) + "\n",
      "invalid\n\ninvalid\n",
      "1234341221434321\n".repeat(3) + "\n",
      "111111111\n1111",
    ]) {
      expect(outputFormatOf(text), text.slice(0, 40)).toBe("line");
    }
  });
});

describe("merge checks that jsonl and csv shards are one run's", () => {
  it("refuses shards converted to CRLF line ends (and --resume an output so converted), saying so, before writing", () => {
    const paths = [shard([A], 0, 2, "csv", "crlf0.csv"), shard([A], 1, 2, "csv", "crlf1.csv")];
    for (const path of paths) writeFileSync(path, readFileSync(path, "utf8").replaceAll("\n", "\r\n"));
    const out = join(dir, "crlf.csv");
    const said = "has CRLF line ends (\\r\\n), not the \\n sudoku-wasm writes: convert it back first (e.g. dos2unix)";
    expect(runCli(["merge", "-o", out, ...paths])).toMatchObject({ status: 2, stderr: `sudoku-wasm: ${paths[0]} ${said}\n` });
    expect(existsSync(out)).toBe(false);
    const resumed = runCli(["solve", "--no-progress", "--out", "csv", "--shard", "0/2", "--resume", "-o", paths[0], A]);
    expect(resumed).toMatchObject({ status: 2, stderr: `sudoku-wasm: --resume: ${paths[0]} ${said}\n` });
  });

  it("refuses a shard that starts with a byte order mark, in every format, saying so, before writing (it was merged into the output)", () => {
    for (const format of ["line", "jsonl", "csv"]) {
      const paths = [shard([A], 0, 2, format, `bom0.${format}`), shard([A], 1, 2, format, `bom1.${format}`)];
      writeFileSync(paths[1], "\uFEFF" + readFileSync(paths[1], "utf8"));
      const out = join(dir, `bom.${format}`);
      expect([runCli(["merge", "-o", out, ...paths]).stderr, existsSync(out)]).toEqual([
        `sudoku-wasm: ${paths[1]} starts with a byte order mark, which sudoku-wasm does not write: remove it first\n`,
        false,
      ]);
    }
  });

  it("jsonl: refuses shards whose records have other fields (solve's and canon's; canon's with and without its columns), before writing", () => {
    const canon = (k: number, extra: string[], name: string) => {
      const out = join(dir, name);
      expect(runCli(["canon", "--no-progress", "--out", "jsonl", ...extra, "--shard", `${k}/2`, "-o", out, A]).status).toBe(0);
      return out;
    };
    const solved = shard([A], 0, 2, "jsonl", "fields-solve0.jsonl");
    const plain = canon(1, [], "fields-canon1.jsonl");
    const withColumns = canon(0, ["--automorphisms", "--minimal"], "fields-canon0.jsonl");
    const solveFields = "index,file,line,puzzle,status,solution,count,guesses,error";
    const canonFields = "index,canon,puzzle,file,line,error";
    const out = join(dir, "fields.jsonl");
    for (const [first, second, found, held] of [
      [solved, plain, canonFields, solveFields],
      [withColumns, plain, canonFields, "index,canon,puzzle,file,line,automorphisms,minimal,error"],
    ]) {
      const run = runCli(["merge", "-o", out, first, second]);
      expect([run.status, run.stderr]).toEqual([
        2,
        `sudoku-wasm: ${second} holds jsonl records of the fields ${found}, but ${first} holds ${held}: give the N shards of one run, all written with the same options\n`,
      ]);
    }
    expect(existsSync(out)).toBe(false);
  });

  it("refuses a jsonl or csv record that carries no index or no line, saying so (not 'index NaN' or 'line undefined of undefined')", () => {
    for (const format of ["jsonl", "csv"]) {
      const paths = [shard([A], 0, 2, format, `edited0.${format}`), shard([A], 1, 2, format, `edited1.${format}`)];
      const text = readFileSync(paths[0], "utf8");
      const out = join(dir, `edited.${format}`);
      for (const stray of ["not a record", format === "jsonl" ? '{"index":2}' : "2"]) {
        const lines = text.split("\n");
        lines.splice(format === "csv" ? 2 : 1, 0, stray); // after the first record
        writeFileSync(paths[0], lines.join("\n"));
        const run = runCli(["merge", "-o", out, ...paths]);
        expect([run.status, run.stderr], stray).toEqual([
          2,
          `sudoku-wasm: ${paths[0]}: record 2 is not a record sudoku-wasm writes (it carries no index, or no line of an input): was the file edited? give the N shards of one run, shard 0 first\n`,
        ]);
        expect(existsSync(out)).toBe(false);
      }
    }
  });

  for (const format of ["jsonl", "csv"]) {
    it(`${format}: refuses shards of runs over other inputs whose counts and indexes fit, naming the shard and the record`, () => {
      const paths = [shard([A], 0, 2, format, `a0.${format}`), shard([B], 1, 2, format, `b1.${format}`)];
      const out = join(dir, `mixed.${format}`);
      const run = runCli(["merge", "-o", out, ...paths]);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(ONE_ERROR_LINE);
      expect(run.stderr).toContain(`${paths[0]}: record 2 (index 2) is line 3 of input ${A}, but the record before it is line 2 of ${B}`);
    });

    it(`${format}: merges the shards of one run over inputs A, B, A (an input named again) into the one-run output`, () => {
      const whole = join(dir, `aba.${format}`);
      expect(runCli(["solve", "--no-progress", "--out", format, "-o", whole, A, B, A]).status).toBe(0);
      const paths = [0, 1, 2].map((k) => shard([A, B, A], k, 3, format, `aba${k}.${format}`));
      const out = join(dir, `aba-merged.${format}`);
      const run = runCli(["merge", "-o", out, ...paths]);
      expect(run.status, run.stderr).toBe(0);
      expect(readFileSync(out, "utf8")).toBe(readFileSync(whole, "utf8"));
    });
  }
});

describe("merge reads its shards from files", () => {
  it("merge refuses standard input and a pipe as a shard, saying to save it to a file", () => {
    const paths = [shard([A], 0, 2, "jsonl", "p0.jsonl"), shard([A], 1, 2, "jsonl", "p1.jsonl")];
    const piped = spawnSync("sh", ["-c", `cat '${paths[1]}' | "$@"`, "sh", process.execPath, BIN, "merge", paths[0], "/dev/stdin"], { encoding: "utf8" });
    expect([piped.status, piped.stderr]).toEqual([
      2,
      "sudoku-wasm: /dev/stdin is not a regular file (a pipe or a device): merge reads each shard by position, so save it to a file first\n",
    ]);
    const dash = runCli(["merge", paths[0], "-"], { input: readFileSync(paths[1], "utf8") });
    expect([dash.status, dash.stderr]).toEqual([
      2,
      "sudoku-wasm: merge reads shards from files, not standard input ('-'): save that shard to a file and name the file\n",
    ]);
  });
});
