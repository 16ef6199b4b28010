/**
 * Outputs: nothing written is lost or doubled silently, however the command is
 * called. `merge` never empties a shard it reads; an output file that cannot be
 * opened or written ends the run with one line naming it and status 2, never 1; a grid
 * record's reason cannot hold the blank line that ends a record; merge checks each
 * shard's format, a shard named twice and the round-robin counts of line and grid shards, and
 * says what it cannot check; a second run writing the same output is refused, and a
 * crashed run's lock goes stale.
 * Spawns bin/sudoku-wasm.mjs (dist/, built by `pretest`). The item number is in each title.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli, scratchFolder } from "./cli-run.js";
import { relabelledPuzzles } from "../bench/corpus.js";

const { dir, file } = scratchFolder("sudoku-outputs-");
const PUZZLES = file("puzzles.txt", relabelledPuzzles(300, 23));

/** Solves shards 0 … n-1 of PUZZLES in `format`; returns their paths. */
function shards(n: number, format = "line", stem = "m"): string[] {
  return Array.from({ length: n }, (_, k) => {
    const path = join(dir, `${stem}${k}.${format}`);
    const run = runCli(["solve", "--no-progress", "--threads", "1", "--out", format, "--shard", `${k}/${n}`, "-o", path, PUZZLES]);
    expect(run.status, run.stderr).toBe(0);
    return path;
  });
}

/** One `sudoku-wasm: …` line and nothing else (no stack trace). */
const ONE_ERROR_LINE = /^sudoku-wasm: [^\n]+\n$/;

describe("merge refuses an output that is one of its shards", () => {
  it("exits 2 before writing for -o naming a shard (also as ./path) and for standard output appended to one, and leaves every shard whole", () => {
    const paths = shards(3);
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
    const merged = runCli(["merge", ...shards(2, "line", "f"), "-o", "/dev/full"]);
    expect([merged.status, merged.stderr]).toEqual([2, full]);
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
    expect(runCli(["merge", "--out", "grid", "-o", join(dir, "one.grid"), whole]).stderr).toBe("merged 9 grid records from 1 shards\n");
    const resumed = join(dir, "resumed.grid");
    writeFileSync(resumed, text.slice(0, text.indexOf("invalid")) + text.slice(text.indexOf("invalid"), text.indexOf("\n\n", text.indexOf("invalid")) + 2));
    expect(runCli(["solve", "--no-progress", "--out", "grid", "--resume", "-o", resumed, input]).status).toBe(0);
    expect(readFileSync(resumed, "utf8")).toBe(text);
  });
});

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
});

describe("one run per output file", () => {
  /** Waits until `done()` holds, polling. */
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it("refuses a second --resume run of an output another run is writing; the first writes each record once", async () => {
    const puzzles = relabelledPuzzles(20_000, 9);
    const out = join(dir, "locked.txt");
    // The first run reads standard input, which stays open until the second run has been refused: it holds the lock until then.
    const first = spawn(process.execPath, [BIN, "solve", "--no-progress", "--threads", "1", "--resume", "-o", out, "-"], { stdio: ["pipe", "ignore", "pipe"] });
    const exited = new Promise<number | null>((resolve) => first.on("exit", resolve));
    first.stdin.write(puzzles.slice(0, 82 * 1000));
    await until(() => existsSync(`${out}.lock`) || (existsSync(out) && statSync(out).size >= 82 * 1000)); // the lock, or on code without one the first records
    const second = runCli(["solve", "--no-progress", "--threads", "1", "--resume", "-o", out, "-"], { input: puzzles });
    first.stdin.end(puzzles.slice(82 * 1000));
    expect(await exited).toBe(0);
    expect(second.status).toBe(2);
    expect(second.stderr).toBe(
      `sudoku-wasm: '${out}' is being written by another run (pid ${first.pid}): one run per output file; ` +
        "to take it over anyway (that run then stops, writing nothing more to it), add --take-lock\n",
    );
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(20_001);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("takes over at once the lock of a killed run of this host, and resumes to the one-run output", async () => {
    const input = file("stale-input.txt", relabelledPuzzles(100_000, 10));
    const whole = join(dir, "stale-whole.txt");
    expect(runCli(["solve", "--no-progress", "-o", whole, input]).status).toBe(0);
    const out = join(dir, "stale.txt");
    const killed = spawn(process.execPath, [BIN, "solve", "--no-progress", "--threads", "1", "--batch", "256", "-o", out, input], { stdio: "ignore" });
    const exited = new Promise((resolve) => killed.on("exit", resolve));
    await until(() => (existsSync(out) && statSync(out).size > 82 * 1000) || killed.exitCode !== null);
    killed.kill("SIGKILL");
    await exited;
    expect(existsSync(`${out}.lock`), "SIGKILL leaves the lock behind").toBe(true);
    const resumed = runCli(["solve", "--no-progress", "--resume", "-o", out, input]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(whole, "utf8"));
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("takes over a lock whose owner it cannot check (another host's) once it is stale, 30 s without a refresh", () => {
    const out = file("elsewhere.txt", "");
    mkdirSync(`${out}.lock`);
    writeFileSync(`${out}.lock.owner`, "another-host 12345\n");
    const fresh = runCli(["solve", "--no-progress", "--resume", "-o", out, PUZZLES]);
    expect([fresh.status, fresh.stderr]).toEqual([2, expect.stringContaining("is being written by another run")]);
    const longAgo = new Date(Date.now() - 31_000);
    utimesSync(`${out}.lock`, longAgo, longAgo);
    const resumed = runCli(["solve", "--no-progress", "--resume", "-o", out, PUZZLES]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(301);
    expect([existsSync(`${out}.lock`), existsSync(`${out}.lock.owner`)]).toEqual([false, false]);
  });
});
