/**
 * `sudoku-wasm canon`: one record per input in order, on workers and on the main thread alike;
 * the three output formats; invalid records; --unique, --minimal, --automorphisms. Its bulk
 * runs (--shard and merge, --resume, SIGINT, a long run under a capped heap) are in
 * canon-bulk.test.ts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli, scratchFolder } from "./cli-run.js";
import { canonicalize } from "../src/canon/canon.js";
import { recordForm } from "../src/cli/canon.js";
import { CORPUS, SEVENTEEN } from "./canon-corpus.js";

const { dir, file } = scratchFolder("sudoku-canon-");

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
      expect(run.stderr).toContain("6 puzzles: 4 with a form, 2 invalid"); // two of them the same form
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
    // line output (the default) has no columns: asking for one is refused, not ignored
    for (const column of ["--automorphisms", "--minimal"]) {
      expect(runCli(["canon", column, input])).toMatchObject({
        status: 2,
        stdout: "",
        stderr: `sudoku-wasm: ${column} adds a column to jsonl and csv output; --out line has none (use --out jsonl or csv)\n`,
      });
    }
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
      expect(run.stderr, out).toContain("6 puzzles: 4 with a form (1 repeated, left out), 2 invalid");
      if (out === "jsonl") expect(lines.map((line) => JSON.parse(line).index)).toEqual([0, 1, 3, 4, 5]);
    }
    expect(runCli(["canon", "--unique", "--resume", "-o", `${dir}/u.txt`, input]).status).toBe(2);
  });

  it("--unique --out csv keeps or leaves out a record whole when its file name holds a line end (it wrote the name's second line of each repeat)", () => {
    const odd = file('we,ird\n"name.txt', CORPUS.join("\n") + "\n"); // every record of it repeats one of `input`, or is invalid
    const records = (text: string) => text.replace(/\n$/, "").split(/\n(?=\d+,)/); // a line that does not start with an index continues a file name
    const all = records(runCli(["canon", "--out", "csv", input, odd]).stdout);
    const seen = new Set<string>();
    const firsts = all.filter((record, i) => {
      const form = i === 0 ? "" : record.split(",")[1];
      if (form === "" || !seen.has(form)) return (seen.add(form), true);
      return false;
    });
    const run = runCli(["canon", "--unique", "--out", "csv", input, odd]);
    expect(run.stderr).toContain("12 puzzles: 8 with a form (5 repeated, left out), 4 invalid");
    expect(records(run.stdout)).toEqual(firsts);
  });

  it("--resume of a complete output says it was complete and how many records it holds, as solve does, not '0 puzzles'", () => {
    for (const [name, text, records] of [
      ["complete.txt", CORPUS.join("\n") + "\n", "6 records"],
      ["complete-one.txt", `${SEVENTEEN}\n`, "1 record"],
    ]) {
      const out = `${dir}/${name}`;
      const source = file(`source-${name}`, text);
      expect(runCli(["canon", "--no-progress", "-o", out, source]).status).toBeLessThan(2);
      const before = readFileSync(out, "utf8");
      const run = runCli(["canon", "--no-progress", "--resume", "-o", out, source]);
      expect([run.status, run.stderr]).toEqual([0, `'${out}' was already complete (${records}): every input record is in it already; nothing added\n`]);
      expect(readFileSync(out, "utf8")).toBe(before);
    }
  });

  it("has its own --help, and a bad option is a usage error naming the tool", () => {
    const help = runCli(["canon", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--minimal[\s\S]*--unique[\s\S]*sort -t, -k2,2 -u/);
    const bad = runCli(["canon", "--out", "grid", input]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^sudoku-wasm: /);
  });
});
