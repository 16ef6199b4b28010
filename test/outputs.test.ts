/**
 * Outputs: nothing written is lost or doubled silently, however the command is
 * called. `merge` never empties a shard it reads; an output file that cannot be
 * opened or written ends the run with one line naming it and status 2, never 1; a grid
 * record's reason cannot hold the blank line that ends a record. What merge checks of its
 * shards is in merge-checks.test.ts, one run per output file in output-lock.test.ts.
 * Spawns bin/sudoku-wasm.mjs (dist/, built by `pretest`). The item number is in each title.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli, scratchFolder, solveShards } from "./cli-run.js";
import { relabelledPuzzles } from "../bench/corpus.js";

const { dir, file } = scratchFolder("sudoku-outputs-");
const PUZZLES = file("puzzles.txt", relabelledPuzzles(300, 23));

/** Solves shards 0 … n-1 of PUZZLES in `format`; returns their paths. */
const shards = (n: number, format = "line", stem = "m"): string[] => solveShards(dir, PUZZLES, n, format, stem);

/** Three line shards of PUZZLES, solved once for the tests that merge them (none changes them). */
let lineShards: string[];
// Three CLI runs: the tests' time limit, not Vitest's 10 s for a hook, which a loaded machine can outlast.
beforeAll(() => {
  lineShards = shards(3);
}, 120_000);

/** One `sudoku-wasm: …` line and nothing else (no stack trace). */
const ONE_ERROR_LINE = /^sudoku-wasm: [^\n]+\n$/;

describe("merge refuses an output that is one of its shards", () => {
  it("exits 2 before writing for -o naming a shard (also as ./path) and for standard output appended to one, and leaves every shard whole", () => {
    const paths = lineShards;
    const before = paths.map((path) => readFileSync(path, "utf8"));
    for (const output of [paths[0], join(dir, ".", "m2.line")]) {
      const run = runCli(["merge", ...paths, "-o", output]);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(ONE_ERROR_LINE);
      expect(run.stderr).toContain(`is the same file as input '${output === paths[0] ? paths[0] : paths[2]}'`);
    }
    const fd = openSync(paths[1], "a"); // `>> m1.line`: the shell has not emptied it
    try {
      const run = runCli(["merge", ...paths], { stdio: ["pipe", fd, "pipe"] });
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        `sudoku-wasm: standard output is the same file as input '${paths[1]}'; writing it would destroy the input (choose another output file)\n`,
      );
    } finally {
      closeSync(fd);
    }
    expect(paths.map((path) => readFileSync(path, "utf8"))).toEqual(before);
    expect(runCli(["merge", ...paths, "-o", join(dir, "merged.line")]).status).toBe(0);
  });
});

describe("an output file that fails is one line naming it, status 2", () => {
  const full = "sudoku-wasm: cannot write '/dev/full': ENOSPC (no space left on device)\n";

  it("solve (batches of 10, workers and --threads 0), generate and merge to /dev/full: status 2, one line, every run", () => {
    for (let run = 0; run < 2; run++) {
      for (const threads of ["2", "0"]) {
        const solved = runCli(["solve", "--no-progress", "--batch", "10", "--threads", threads, PUZZLES, "-o", "/dev/full"]);
        expect([solved.status, solved.stderr], `run ${run}, --threads ${threads}`).toEqual([2, full]);
      }
    }
    const generated = runCli(["generate", "-n", "2000", "--quiet", "-o", "/dev/full"]);
    expect([generated.status, generated.stderr]).toEqual([2, full]);
    const merged = runCli(["merge", ...lineShards, "-o", "/dev/full"]);
    expect([merged.status, merged.stderr]).toEqual([2, full]);
  });

  it("canon --unique (its records through a filter) to /dev/full, as -o and as standard output: status 2, one line; into a pipe closed early: status 0, quiet", () => {
    expect(runCli(["canon", "--no-progress", "--unique", PUZZLES, "-o", "/dev/full"])).toMatchObject({ status: 2, stderr: full });
    const fd = openSync("/dev/full", "w");
    try {
      expect(runCli(["canon", "--no-progress", "--unique", PUZZLES], { stdio: ["pipe", fd, "pipe"] })).toMatchObject({
        status: 2,
        stderr: "sudoku-wasm: cannot write to standard output: ENOSPC (no space left on device)\n",
      });
    } finally {
      closeSync(fd);
    }
    const errors = join(dir, "unique-pipe.err");
    const piped = spawnSync(
      "bash",
      [
        "-c",
        `"$@" 2> '${errors}' | head -c 1 > /dev/null; echo "\${PIPESTATUS[0]}"`,
        "bash",
        process.execPath,
        BIN,
        "canon",
        "--no-progress",
        "--unique",
        PUZZLES,
      ],
      { encoding: "utf8" },
    );
    expect([piped.stdout, readFileSync(errors, "utf8")]).toEqual(["0\n", ""]);
  });

  it("names the file for a missing folder (ENOENT), a folder (EISDIR) and an unwritable --manifest", () => {
    const missing = join(dir, "no-such-folder", "out.txt");
    expect(runCli(["solve", "--no-progress", PUZZLES, "-o", missing])).toMatchObject({
      status: 2,
      stderr: `sudoku-wasm: cannot write '${missing}': ENOENT (no such file or directory)\n`,
    });
    const folder = join(dir, "a-folder");
    mkdirSync(folder);
    expect(runCli(["solve", "--no-progress", PUZZLES, "-o", folder])).toMatchObject({
      status: 2,
      stderr: `sudoku-wasm: cannot write '${folder}': EISDIR (illegal operation on a directory)\n`,
    });
    expect(runCli(["merge", PUZZLES, "-o", folder])).toMatchObject({
      status: 2,
      stderr: `sudoku-wasm: cannot write '${folder}': EISDIR (illegal operation on a directory)\n`,
    });
    const manifest = join(dir, "no-such-folder", "manifest.json");
    const run = runCli(["generate", "-n", "3", "--quiet", "-o", join(dir, "three.txt"), "--manifest", manifest]);
    expect(run).toMatchObject({ status: 2, stderr: `sudoku-wasm: cannot write '${manifest}': ENOENT (no such file or directory)\n` });
  });

  it("keeps the README's `[ $? -le 1 ]` recipe from accepting a cut-off output", () => {
    const result = spawnSync(
      "sh",
      ["-c", `"$@" -o /dev/full; [ $? -le 1 ] && echo accepted || echo refused`, "sh", process.execPath, BIN, "solve", "--no-progress", PUZZLES],
      { encoding: "utf8" },
    );
    expect(result.stdout).toBe("refused\n");
  });
});

describe("a grid record is framed by its blank line whatever its reason holds", () => {
  it("escapes a file name with a blank line in it: merge and --resume count 9 records of 9, and the run resumes to the same bytes", () => {
    const lines = relabelledPuzzles(9, 8).split("\n");
    lines[4] = "not a puzzle";
    const input = file("bad\n\nname.txt", lines.join("\n"));
    const whole = join(dir, "whole.grid");
    expect(runCli(["solve", "--no-progress", "--out", "grid", "-o", whole, input]).status).toBe(1);
    const text = readFileSync(whole, "utf8");
    expect(text).toContain(`invalid: ${input.replaceAll("\n", "\\n")}:5: `);
    expect(text.split("\n\n")).toHaveLength(10); // 9 records, each ending with a blank line
    expect(runCli(["merge", "--out", "grid", "-o", join(dir, "one.grid"), whole]).stderr).toBe("merged 9 grid records from 1 shard\n");
    const resumed = join(dir, "resumed.grid");
    writeFileSync(resumed, text.slice(0, text.indexOf("invalid")) + text.slice(text.indexOf("invalid"), text.indexOf("\n\n", text.indexOf("invalid")) + 2));
    expect(runCli(["solve", "--no-progress", "--out", "grid", "--resume", "-o", resumed, input]).status).toBe(0);
    expect(readFileSync(resumed, "utf8")).toBe(text);
  });
});
