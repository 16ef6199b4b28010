/**
 * `sudoku-wasm canon`: one record per input in order, on workers and on the main thread alike;
 * the three output formats; invalid records; --unique, --minimal, --automorphisms; --resume and
 * --shard; and a long run under a capped heap (constant memory).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { BIN, runCli, scratchFolder } from "./cli-run.js";
import { relabelledPuzzleBytes } from "../bench/corpus.js";
import { canonicalize } from "../src/canon/canon.js";
import { recordForm } from "../src/cli/canon.js";

const { dir, file } = scratchFolder("sudoku-canon-");

const SEVENTEEN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/** SEVENTEEN transposed and with digits 1↔2: the same puzzle up to symmetry. */
const MOVED = Array.from({ length: 81 }, (_, i) => SEVENTEEN[(i % 9) * 9 + Math.floor(i / 9)].replace(/[12]/, (d) => (d === "1" ? "2" : "1"))).join("");
/** A puzzle with many solutions (the first 16 clues of SEVENTEEN). */
const FEWER = SEVENTEEN.replace(/4(?=\.*$)/, ".");
const CORPUS = [SEVENTEEN, "not a puzzle", MOVED, "11" + ".".repeat(79), FEWER, "0".repeat(81)];

describe("sudoku-wasm canon", () => {
  const input = file("corpus.txt", CORPUS.join("\n") + "\n");

  it("writes one form per record, in order, `invalid` for the unreadable ones, and exits 1 for them", async () => {
    const expected = await canonicalize(CORPUS);
    for (const threads of ["0", "2"]) {
      const run = runCli(["canon", "--threads", threads, input]);
      expect(run.status, run.stderr).toBe(1);
      expect(run.stdout).toBe(expected.map((result) => (result.form ?? "invalid") + "\n").join(""));
      expect(run.stderr).toMatch(/corpus\.txt:2: expected 81 cells/);
      expect(run.stderr).toMatch(/corpus\.txt:4: .*repeated/);
      expect(run.stderr).toContain("6 puzzles: 4 forms, 2 invalid");
    }
    expect(expected[0].form).toBe(expected[2].form);
  });

  it("writes jsonl and csv records with the original, the form, the count and minimality", () => {
    const jsonl = runCli(["canon", "--out", "jsonl", "--automorphisms", "--minimal", input]);
    const records = jsonl.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((record) => record.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(records[0]).toMatchObject({ puzzle: SEVENTEEN, line: 1, automorphisms: 1, minimal: true, error: null });
    expect(records[2].canon).toBe(records[0].canon);
    expect(records[1]).toMatchObject({ canon: null, minimal: null });
    expect(records[4].minimal).toBeNull(); // many solutions: not a proper puzzle
    expect(records[5]).toMatchObject({ canon: "0".repeat(81), automorphisms: 3359232, minimal: null });
    const csv = runCli(["canon", "--out", "csv", "--minimal", input]).stdout.trim().split("\n");
    expect(csv[0]).toBe("index,canon,puzzle,file,line,minimal,error");
    expect(csv[1]).toBe(`0,${records[0].canon},${SEVENTEEN},${input},1,true,`);
    expect(recordForm("csv", csv[3])).toBe(records[0].canon);
    const plain = runCli(["canon", "--out", "jsonl", input]).stdout.split("\n")[0];
    expect(Object.keys(JSON.parse(plain))).toEqual(["index", "canon", "puzzle", "file", "line", "error"]);
  });

  it("tells a minimal puzzle from one with a clue to spare", () => {
    // SEVENTEEN with one more clue from its solution is still uniquely solvable, so not minimal.
    const solved = runCli(["solve", file("one.txt", SEVENTEEN + "\n")]).stdout.trim();
    const cell = SEVENTEEN.indexOf(".");
    const extra = SEVENTEEN.slice(0, cell) + solved[cell] + SEVENTEEN.slice(cell + 1);
    const run = runCli(["canon", "--out", "jsonl", "--minimal", file("extra.txt", `${SEVENTEEN}\n${extra}\n`)]);
    expect(
      run.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).minimal),
    ).toEqual([true, false]);
  });

  it("--unique keeps the first record of each form and every invalid one, in line, jsonl and csv", () => {
    for (const out of ["line", "jsonl", "csv"]) {
      const run = runCli(["canon", "--unique", "--out", out, input]);
      const lines = run.stdout
        .trim()
        .split("\n")
        .slice(out === "csv" ? 1 : 0);
      expect(lines.length, out).toBe(5); // MOVED is a duplicate of SEVENTEEN
      if (out === "jsonl") expect(lines.map((line) => JSON.parse(line).index)).toEqual([0, 1, 3, 4, 5]);
    }
    expect(runCli(["canon", "--unique", "--resume", "-o", `${dir}/u.txt`, input]).status).toBe(2);
  });

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
  });

  it("has its own --help, and a bad option is a usage error naming the tool", () => {
    const help = runCli(["canon", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--minimal[\s\S]*--unique[\s\S]*sort -t, -k2,2 -u/);
    const bad = runCli(["canon", "--out", "grid", input]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^sudoku-wasm: /);
  });

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
