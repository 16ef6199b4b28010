/**
 * The exit status a script reads from `sudoku-wasm solve`: 0 when every record is an answer, 1
 * when any is invalid or over its budget, 2 for usage and I/O errors. Spawns bin/sudoku-wasm.mjs.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, scratchFolder } from "./cli-run.js";
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
});
