/**
 * `sudoku-wasm canon` in bulk runs: --shard K/N outputs that merge into the whole run's, --resume
 * of a cut-off output, a SIGINT that leaves the batches sent written whole, and 40,000 records
 * under a capped heap (constant memory). The formats and options are in canon-cli.test.ts.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { BIN, runCli, scratchFolder } from "./cli-run.js";
import { relabelledPuzzleBytes } from "../bench/corpus.js";
import { CORPUS } from "./canon-corpus.js";

const { dir, file } = scratchFolder("sudoku-canon-bulk-");

describe("sudoku-wasm canon in bulk", () => {
  const input = file("corpus.txt", CORPUS.join("\n") + "\n");

  it("--shard K/N outputs merge into the whole run's (line, jsonl, csv); --resume goes on from a cut-off output", () => {
    for (const [out, extra] of [
      ["line", []],
      ["jsonl", []],
      ["csv", ["--automorphisms", "--minimal"]],
      ["csv", []],
    ] as const) {
      const options = ["canon", "--out", out, ...extra];
      const run = runCli([...options, input]).stdout;
      const shards = [0, 1, 2].map((k) => runCli([...options, "--shard", `${k}/3`, "-o", `${dir}/s${k}.${out}`, input]));
      expect(shards.map((shard) => shard.status)).toEqual([1, 1, 0]); // the invalid records (indexes 1 and 3) are shards 1's and 0's
      const merged = runCli(["merge", ...[0, 1, 2].map((k) => `${dir}/s${k}.${out}`)]);
      expect(merged.stderr, `${out} ${extra.join(" ")}`).toContain(`merged 6 ${out} records from 3 shards`);
      expect(merged.stdout).toBe(run);
    }
    // csv shards written with other columns are not one run's: refused before anything is written.
    runCli(["canon", "--out", "csv", "--automorphisms", "--shard", "1/3", "-o", `${dir}/s1.csv`, input]);
    const mixed = runCli(["merge", "-o", `${dir}/mixed.csv`, ...[0, 1, 2].map((k) => `${dir}/s${k}.csv`)]);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toMatch(
      /s1\.csv has the csv header "index,canon,puzzle,file,line,automorphisms,error", but .*s0\.csv has "index,canon,puzzle,file,line,error"/,
    );
    expect(existsSync(`${dir}/mixed.csv`) && readFileSync(`${dir}/mixed.csv`, "utf8")).toBe(false);

    const whole = runCli(["canon", "--out", "jsonl", input]).stdout;
    const cut = `${dir}/cut.jsonl`;
    writeFileSync(cut, whole.split("\n").slice(0, 3).join("\n") + "\n" + whole.split("\n")[3].slice(0, 20));
    const resumed = runCli(["canon", "--out", "jsonl", "--resume", "-o", cut, input]);
    expect(resumed.status, resumed.stderr).toBe(1);
    expect(readFileSync(cut, "utf8")).toBe(whole);
  }, 300_000); // two dozen CLI runs: 47 s on two loaded cores

  it("stops on SIGINT with the records of the batches sent written whole, in order, and exits 130", async () => {
    const block = relabelledPuzzleBytes(20_000, 7);
    const path = file("interrupted-input.txt", block.toString("latin1"));
    const output = `${dir}/interrupted.txt`;
    const expected = runCli(["canon", path]).stdout;
    // The file, then standard input held open and never written: the run is waiting when the signal comes.
    const child = spawn(process.execPath, [BIN, "canon", "--no-progress", "--threads", "1", path, "-", "-o", output], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = once(child, "close");
    while (!(existsSync(output) && statSync(output).size >= expected.length)) {
      if (child.exitCode !== null) throw new Error(`the run ended early: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill("SIGINT");
    const [status] = await closed;
    child.stdin.destroy();
    expect(status, stderr).toBe(130);
    const written = Number(/stopped by SIGINT: the first ([\d,]+) records written whole/.exec(stderr)![1].replaceAll(",", ""));
    expect(written).toBe(20_000);
    expect(readFileSync(output, "utf8")).toBe(expected);
  }, 120_000);

  it("runs 40,000 records from standard input under a 64 MB heap: the block's forms repeated, in order", async () => {
    const block = relabelledPuzzleBytes(1000, 36);
    const repeats = 40;
    const expected = runCli(["canon", "-"], { input: block.toString("latin1") }).stdout;
    const child = spawn(process.execPath, ["--max-old-space-size=64", BIN, "canon", "--threads", "2", "-"], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("latin1").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    Readable.from(Array.from({ length: repeats }, () => block)).pipe(child.stdin);
    const [status] = await once(child, "close");
    expect(status, stderr).toBe(0);
    expect(stdout.length).toBe(expected.length * repeats);
    expect(stdout === expected.repeat(repeats)).toBe(true);
  }, 120_000);
});
