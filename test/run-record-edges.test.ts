/**
 * Edges of the run record `FILE.run.json` (src/cli-kit/run-record.ts) found by an adversarial run:
 * a named pipe as input (its writer must not be ended by the record's sample read), a run stopped
 * right after writing its record (the record must never sit beside another run's bytes), commands
 * that rewrite FILE whole (a record left beside it is no longer its content's), and judge mode's
 * `-o FILE`, which now takes the output's lock as the streaming runs do.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli, scratchFolder } from "./cli-run.js";
import { relabelledPuzzles } from "../bench/corpus.js";

const { dir, file } = scratchFolder("sudoku-run-record-edges-");
const small = file("small.txt", relabelledPuzzles(300, 5));
const other = file("other.txt", relabelledPuzzles(700, 6));
const solved = (input: string) => runCli(["solve", "--no-progress", input]).stdout;
/** A module that, required by a run, kills it (SIGKILL) once its run record is renamed into place, as a kill -9 at that moment would. */
const inject = file(
  "inject.cjs",
  `const fs=require("fs"),r=fs.renameSync;fs.renameSync=function(a,b){r.apply(this,arguments);if(String(b).endsWith(".run.json"))process.kill(process.pid,"SIGKILL")};`,
);

describe("run record edges", () => {
  it.skipIf(process.platform === "win32")(
    "a named pipe as input: its writer is not ended, every record is solved, no record is left",
    async () => {
      const fifo = join(dir, "in.fifo");
      expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
      const path = join(dir, "fifo.out");
      const writer = spawn("sh", ["-c", `cat '${small}' > '${fifo}'`]);
      const wrote = new Promise<number | null>((resolve) => writer.on("exit", (code) => resolve(code)));
      const solve = spawn(process.execPath, [BIN, "solve", "--no-progress", "-o", path, fifo], { stdio: "ignore" });
      const ended = new Promise<number | null>((resolve) => solve.on("exit", (code) => resolve(code)));
      const timer = setTimeout(() => solve.kill("SIGKILL"), 20_000);
      expect(await wrote).toBe(0); // not 141 (SIGPIPE)
      expect(await ended).toBe(0);
      clearTimeout(timer);
      expect(readFileSync(path, "utf8")).toBe(solved(small));
      expect(existsSync(`${path}.run.json`)).toBe(false);
    },
    30_000,
  );

  it("a run killed right after writing its record leaves it beside no other run's bytes: --resume finishes its own output", () => {
    const path = join(dir, "killed.out");
    expect(runCli(["solve", "--no-progress", "-o", path, small]).status).toBe(0);
    const killed = spawnSync(process.execPath, ["--require", inject, BIN, "solve", "--no-progress", "-o", path, other]);
    expect(killed.signal).toBe("SIGKILL");
    const resumed = runCli(["solve", "--no-progress", "--resume", "-o", path, other]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(solved(other)); // not small's records, then other's from record 301
    expect(existsSync(`${path}.run.json`)).toBe(false);
  });

  it("generate, merge and judge mode writing FILE whole remove a run record left beside it", () => {
    const shard = join(dir, "whole.line");
    expect(runCli(["solve", "--no-progress", "-o", shard, small]).status).toBe(0);
    for (const [i, command] of [
      ["generate", "--count", "3"],
      ["merge", shard],
      ["solve", "--format", "poj3074", small],
    ].entries()) {
      const path = join(dir, `rewritten-${i}.out`);
      spawnSync(process.execPath, ["--require", inject, BIN, "solve", "--no-progress", "-o", path, other]); // leaves path.run.json
      expect(existsSync(`${path}.run.json`)).toBe(true);
      const run = runCli([...command, "-o", path]);
      expect(run.status, run.stderr).toBe(0);
      expect(existsSync(`${path}.run.json`), command.join(" ")).toBe(false);
      // so a --resume of the killed run gets no false assurance, and merge does not call the file unfinished
      const merged = runCli(["merge", "-o", join(dir, "merged.out"), path]);
      expect(merged.status, merged.stderr).toBe(0);
    }
  });

  it("judge mode refused before its first output leaves no -o file where there was none (the lock made one)", () => {
    const path = join(dir, "judge-refused.out");
    const refused = runCli(["solve", "--format", "poj3074", "-o", path, file("garbage.txt", "garbage\n")]);
    expect(refused.status).toBe(2);
    expect(existsSync(path)).toBe(false);
  });

  it("judge mode's -o FILE is refused while another run writes FILE", async () => {
    const big = file("big.txt", relabelledPuzzles(60_000, 7));
    const path = join(dir, "locked.out");
    const solve = spawn(process.execPath, [BIN, "solve", "--no-progress", "--threads", "0", "-o", path, big], { stdio: "ignore" });
    const ended = new Promise<number | null>((resolve) => solve.on("exit", (code) => resolve(code)));
    while (!(existsSync(path) && statSync(path).size > 0)) await new Promise((resolve) => setTimeout(resolve, 20));
    solve.kill("SIGSTOP"); // a stopped run keeps its lock: the judge run meets it whatever the timing
    const judge = runCli(["solve", "--format", "poj3074", "-o", path, small]);
    solve.kill("SIGCONT");
    expect([judge.status, judge.stderr]).toEqual([2, expect.stringContaining("is being written by another run")]);
    expect(await ended).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(solved(big));
  }, 60_000);

  it("merge stopped by SIGINT leaves an earlier -o file as it was and no temporary file beside it", async () => {
    // two shards of one run's jsonl records (index, file and line are what merge checks), large enough to be mid-merge when the signal comes
    const record = (i: number) =>
      `{"index":${i},"file":"in.txt","line":${i + 1},"puzzle":"${".".repeat(81)}","status":"invalid","solution":null,"count":0,"guesses":null,"error":"x"}\n`;
    const shards = [0, 1].map((k) => {
      const lines: string[] = [];
      for (let i = k; i < 600_000; i += 2) lines.push(record(i));
      return file(`big-${k}.jsonl`, lines.join(""));
    });
    const path = file("merged-before.jsonl", "an earlier merge\n");
    const merge = spawn(process.execPath, [BIN, "merge", "-o", path, ...shards], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    merge.stderr.on("data", (chunk) => (stderr += chunk));
    const ended = new Promise<number | null>((resolve) => merge.on("exit", (code) => resolve(code)));
    const temporary = () => readdirSync(dir).find((name) => name.startsWith("merged-before.jsonl.merge-"));
    for (let t = 0; temporary() === undefined && t < 2000; t++) await new Promise((resolve) => setTimeout(resolve, 5));
    merge.kill("SIGINT");
    expect(await ended).toBe(130);
    expect(stderr).toBe(`sudoku-wasm: merge stopped by SIGINT; ${path} is left as it was\n`);
    expect(readFileSync(path, "utf8")).toBe("an earlier merge\n");
    expect(temporary()).toBeUndefined();
  }, 60_000);
});
