/**
 * Which characters each reader takes for an empty cell. The sets are written out here, not
 * taken from src/model/empty-cells.ts, so that a change to what a reader accepts fails a test
 * instead of passing silently.
 */
import { createReadStream } from "node:fs";
import { describe, expect, it } from "vitest";
import { type SolveRecord, createSolver } from "../src/index.js";
import { createPool } from "../src/pool/solver-pool.js";
import { parseRecord } from "../src/formats/record.js";
import { parsePuzzle, parseSymbols, readPuzzle } from "../src/model/puzzle.js";
import { runCli, scratchFolder } from "./cli-run.js";
import { loadFixture } from "./fixture.js";

/** Every printable ASCII character that is no 9×9 digit: the candidates for an empty mark. */
const CANDIDATES = Array.from({ length: 0x7e - 0x20 }, (_, i) => String.fromCharCode(0x21 + i)).filter((ch) => !/[1-9]/.test(ch));

const { file } = scratchFolder("sudoku-empty-cells-");

const NINE = loadFixture().find((c) => c.count === 1 && c.puzzle.includes("."))!.puzzle;
const FOUR = loadFixture(4).find((c) => c.count === 1 && c.puzzle.includes("."))!.puzzle;

/** The puzzle with every `.` written as `mark`. */
const marked = (puzzle: string, mark: string) => puzzle.replaceAll(".", mark);

/** The candidates `accepts` takes for an empty cell, as one sorted string. */
function accepted(accepts: (mark: string) => boolean): string {
  return CANDIDATES.filter(accepts).sort().join("");
}

const reads = (read: () => unknown): boolean => {
  try {
    read();
    return true;
  } catch {
    return false;
  }
};

describe("empty cells", () => {
  it("the library's 9×9 text takes the CLI's marks, . 0 _ ? - * x X", () => {
    expect(accepted((mark) => reads(() => parsePuzzle(marked(NINE, mark))))).toBe("*-.0?X_x");
    expect(accepted((mark) => reads(() => readPuzzle(marked(NINE, mark))))).toBe("*-.0?X_x");
  });

  it("the library's solve, solveMany and pool read each 9×9 line as the CLI does, its byte streams too", async () => {
    const lines = CANDIDATES.map((mark) => marked(NINE, mark));
    const input = file("library-marks.txt", lines.join("\n") + "\n");
    const cli = runCli(["solve", "--threads", "0", "--out", "jsonl", input])
      .stdout.trim()
      .split("\n")
      .map((line) => JSON.parse(line).status as string);
    expect(accepted((mark) => cli[CANDIDATES.indexOf(mark)] === "solved")).toBe("*-.0?X_x");
    const solver = await createSolver();
    const statuses = (records: SolveRecord[]) => records.map((r) => r.status);
    expect(lines.map((line) => solver.solve(line).status)).toEqual(cli);
    expect(statuses(solver.solveMany(lines))).toEqual(cli); // 64 lines and more are read as one text
    expect(lines.flatMap((line) => statuses(solver.solveMany([line])))).toEqual(cli); // fewer, line by line
    const pool = await createPool({ threads: 1, batchSize: 16 });
    try {
      expect(statuses(await pool.solveMany(lines))).toEqual(cli);
      expect(statuses(await pool.solveMany(createReadStream(input)))).toEqual(cli); // bytes, scanned by the kernel
    } finally {
      await pool.close();
    }
  });

  it("the CLI's 9×9 records take . 0 _ ? - * x X", () => {
    const record = (mark: string) => parseRecord({ index: 0, line: 1, file: "in.txt", text: marked(NINE, mark), error: null });
    expect(accepted((mark) => record(mark).error === null)).toBe("*-.0?X_x");
  });

  it("the CLI's batch fast path takes the same marks as its records (one run over every candidate)", () => {
    const input = file("marks.txt", CANDIDATES.map((mark) => marked(NINE, mark)).join("\n") + "\n");
    const { stdout, status } = runCli(["solve", "--threads", "0", "--out", "jsonl", input]);
    expect(status).toBe(1); // the candidates that are no empty mark
    const statuses = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).status as string);
    expect(statuses).toHaveLength(CANDIDATES.length);
    expect(accepted((mark) => statuses[CANDIDATES.indexOf(mark)] === "solved")).toBe("*-.0?X_x");
  });

  it("N×N text takes . and -, and 0 when the alphabet does not use it", () => {
    expect(accepted((mark) => reads(() => readPuzzle(marked(FOUR, mark))))).toBe("-.0");
    expect(accepted((mark) => reads(() => parseSymbols(marked(FOUR, mark))))).toBe("-.0");
    const withZero = FOUR.replace(/[1-4]/g, (d) => String(Number(d) - 1)); // the same puzzle in the alphabet 0123
    expect(accepted((mark) => mark !== "0" && reads(() => parseSymbols(marked(withZero, mark), { alphabet: "0123" })))).toBe("-.");
    expect(parseSymbols(withZero, { alphabet: "0123" }).grid).toEqual(parseSymbols(FOUR).grid); // there 0 is a symbol
  });

  it("an N×N character error lists the empty marks it takes: 0 too, unless the alphabet uses it", () => {
    expect(() => parseSymbols(marked(FOUR, "_"))).toThrow(/contains invalid character '_' \(symbols 1-4, empty \. - 0\)$/);
    expect(() => parseSymbols(marked(FOUR, "_"), { alphabet: "0123" })).toThrow(/contains invalid character '_' \(symbols 0-3, empty \. -\)$/);
  });
});
