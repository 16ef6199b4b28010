/**
 * The exit status a script reads from `sudoku-wasm solve`: 0 when every record is an answer, 1
 * when any is invalid or over its budget, 2 for usage and I/O errors. Spawns bin/sudoku-wasm.mjs.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writePuzzles } from "../bench/corpus.js";
import { BIN, runCli, scratchFolder } from "./cli-run.js";
import { fixtureAnswers } from "./fixture.js";

const { dir, file } = scratchFolder("sudoku-exit-status-");
const cli = (args: string[], input?: string) => runCli(args, { input });

const { solved, multiple, unsolvable } = fixtureAnswers();
/** 17 clues, thousands of nodes: over a budget of 10. */
const HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

describe("solve: exit status", () => {
  it("0 when every record is solved, unsolvable or multiple: those are answers", () => {
    const answers = file("answers.txt", [solved, unsolvable, multiple].join("\n") + "\n");
    const run = cli(["solve", answers]);
    expect(run.stderr).toContain("3 puzzles: 1 solved, 1 unsolvable, 1 multiple, 0 invalid, 0 timeout");
    expect(run.status).toBe(0);
  });

  it("1 when any record is invalid or over its budget, the rest still written", () => {
    const oneBad = file("one-bad.txt", [solved, solved.replace(".", "z"), solved].join("\n") + "\n");
    const bad = cli(["solve", oneBad]);
    expect(bad.status).toBe(1);
    expect(bad.stdout.split("\n")).toEqual([expect.any(String), "invalid", expect.any(String), ""]);
    const hard = file("hard.txt", `${solved}\n${HARD}\n`);
    expect(cli(["solve", "--budget", "10", hard]).status).toBe(1);
    expect(cli(["solve", hard]).status).toBe(0);
  });

  it("2 for usage and I/O errors", () => {
    expect(cli(["solve", "--threads", "x"]).status).toBe(2);
    expect(cli(["solve", join(dir, "missing.txt")]).status).toBe(2);
  });

  it("0, quietly, when the reader goes away early: standard output into a pipe and an -o FIFO alike (no lock or run record left)", () => {
    const big = writePuzzles(join(dir, "big.txt"), 20_000, 3); // far more than a pipe holds: the run is still writing when the reader goes
    const fifo = join(dir, "out.fifo");
    execFileSync("mkfifo", [fifo]);
    const bash = (script: string) => spawnSync("bash", ["-c", script, "bash", process.execPath, BIN, big, fifo], { encoding: "utf8" });
    const piped = bash(`"$1" "$2" solve --no-progress "$3" | head -c 100 > /dev/null; echo "\${PIPESTATUS[0]}"`);
    const fifoed = bash(`head -c 100 "$4" > /dev/null & "$1" "$2" solve --no-progress "$3" -o "$4"; echo "$?"; wait`);
    expect([piped.stdout, piped.stderr]).toEqual(["0\n", ""]);
    expect([fifoed.stdout, fifoed.stderr]).toEqual(["0\n", ""]);
    expect([existsSync(`${fifo}.lock`), existsSync(`${fifo}.lock.owner`), existsSync(`${fifo}.run.json`)]).toEqual([false, false, false]);
  });
});
