/**
 * The web page's bench (web/bench.ts), run here in Node: it measures through the bench's core —
 * the bench's answer check (a wrong count, or a timed pass that answers other than the checked
 * one, stops the run with the bench's WrongAnswerError, naming the solver and the line) and its
 * batch timing (tinybench's passes, each giving the checked answers). The page itself, in Chromium and Firefox: test/web.test.ts.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { WrongAnswerError } from "../bench/verify.js";
import { findSolver } from "../src/solvers/registry.js";
import { type WebBenchPlan, type WebBenchRow, runWebBench } from "../web/bench.js";
import { BENCH_COLUMNS, benchCells, doneLine, flagNotes } from "../web/bench-table.js";
import { contentHash } from "../web/export.js";
import { loadFixture } from "./fixture.js";

const HARD = readFileSync(new URL("../datasets/hard.txt", import.meta.url), "utf8");

function plan(overrides: Partial<WebBenchPlan>): WebBenchPlan {
  return { datasets: [], solvers: ["wasm", "bitmask"], puzzles: 20, timeMs: 30, limit: 2, seed: 1, budget: 100_000, ...overrides };
}

describe("the web page's bench", () => {
  it("times each row in tinybench passes and reports the guesses of its checked pass", async () => {
    const rows = await runWebBench(
      plan({ datasets: [{ name: "hard", text: HARD, expectation: "unique" }] }),
      () => {},
      () => {},
    );
    expect(rows.map((row) => [row.solver, row.puzzles, row.verified, row.timeouts, row.batchCall])).toEqual([
      ["wasm", 20, 20, 0, true],
      ["bitmask", 20, 20, 0, false],
    ]);
    for (const row of rows) {
      expect(row.samples).toBeGreaterThanOrEqual(3);
      expect(row.batchMs).toHaveLength(row.samples);
    }
    expect(rows[1].guessesPerPuzzle).toBe(rows[0].guessesPerPuzzle); // the twin takes the kernel's guesses
  });

  it("stops with the bench's WrongAnswerError, naming the solver and the line, when a count is not what the file promises", async () => {
    const several = loadFixture().find((c) => c.count === 2)!.puzzle;
    const text = `${HARD.split("\n").slice(0, 3).join("\n")}\n${several}\n`;
    const error = await runWebBench(
      plan({ puzzles: 4, datasets: [{ name: "claims-unique", text, expectation: "unique" }] }),
      () => {},
      () => {},
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongAnswerError);
    expect((error as Error).message).toMatch(/^wasm on claims-unique line 4: expected 1 solution \(the dataset is unique\), got 2/);
  });

  it("holds every timed pass to the checked answers: a solver that answers right only when checked is refused, naming the pass", async () => {
    const info = findSolver("bitmask");
    const load = info.load;
    // Right on the checked pass (the first 20 calls), then one wrong solution among the timed ones.
    const cheat = vi.spyOn(info, "load").mockImplementation(async (size, options) => {
      const inner = await load(size, options);
      let calls = 0;
      return {
        countSolutions(puzzle, limit, solution, stats, budget) {
          const count = inner.countSolutions(puzzle, limit, solution, stats, budget);
          if (++calls === 25) [solution[0], solution[1]] = [solution[1], solution[0]];
          return count;
        },
      };
    });
    try {
      const error = await runWebBench(
        plan({ solvers: ["bitmask"], datasets: [{ name: "hard", text: HARD, expectation: "unique" }] }),
        () => {},
        () => {},
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WrongAnswerError);
      expect((error as Error).message).toMatch(/^bitmask on hard line \d+: timed pass \d+: .*; the row is refused/);
    } finally {
      cheat.mockRestore();
    }
  });

  it("words the 'vs wasm' cell as the bench does: slower or faster than the kernel, never a ratio below 1", () => {
    const versusWasm = (wasm: number, row: number) =>
      benchCells(measuredRow({ puzzlesPerSecond: row }), measuredRow({ solver: "wasm", puzzlesPerSecond: wasm }))[9];
    expect(versusWasm(57_256, 23_200)).toBe("2.47× slower");
    expect(versusWasm(1000, 1000)).toBe("1.00× slower");
    expect(versusWasm(490, 769)).toBe("1.57× faster");
  });

  it("flags a row whose ± is above 5% as N (noisy), as the bench does, says what to do below the table and in the closing line", () => {
    const column = (name: (typeof BENCH_COLUMNS)[number]) => BENCH_COLUMNS.indexOf(name);
    const rows = [measuredRow({ rmePercent: 70.4 }), measuredRow({ solver: "dlx", rmePercent: 128 })];
    rows.push(measuredRow({ solver: "mrv", rmePercent: 4.9 }), measuredRow({ solver: "wasm", rmePercent: 5 }));
    expect(rows.map((row) => benchCells(row, undefined)[column("flags")])).toEqual(["N", "N", "", ""]);
    expect(benchCells(rows[0], undefined)[column("±")]).toBe("70.4%");
    const notes = flagNotes(rows);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^N noisy \(2 rows\): the ± of the mean is above 5%.*ms per row/);
    expect(flagNotes(rows.slice(2))).toEqual([]);
    expect(doneLine(rows, 3, 100_000)).toBe("done: 4 rows in 3.0 s, every answer checked (80 solves); 2 of them noisy (N, see below the table)");
    expect(doneLine(rows.slice(2), 3, 100_000)).toBe("done: 2 rows in 3.0 s, every answer checked (40 solves)");
    // one row of one puzzle, in a fifth of a second: not "1 rows in 0 s" nor "(1 solves)"
    expect(doneLine([{ ...rows[3], puzzles: 1, verified: 1 }], 0.2, 100_000)).toBe("done: 1 row in 0.2 s, every answer checked (1 solve)");
  });

  it("flags a row most of whose puzzles went over the budget as T, and says below the table what its puzzles/s means", () => {
    const flags = BENCH_COLUMNS.indexOf("flags");
    const rows = [
      measuredRow({ solver: "mrv", puzzles: 20, verified: 5, timeouts: 15 }),
      measuredRow({ solver: "dlx", puzzles: 20, verified: 10, timeouts: 10 }),
    ];
    expect(rows.map((row) => benchCells(row, undefined)[flags])).toEqual(["T", ""]);
    expect(flagNotes(rows)).toEqual([expect.stringMatching(/^T timed out \(1 row\): more than half its puzzles went over the budget/)]);
  });
});

/** A measured row with `overrides`: 20 puzzles, all checked, ± 1%. */
function measuredRow(overrides: Partial<WebBenchRow>): WebBenchRow {
  return {
    dataset: "hard",
    solver: "bitmask",
    puzzles: 20,
    puzzlesPerSecond: 10_000,
    meanMicros: 100,
    rmePercent: 1,
    samples: 5,
    guessesPerPuzzle: null,
    verified: 20,
    timeouts: 0,
    batchCall: false,
    batchMs: [2, 2, 2, 2, 2],
    datasetSize: 300,
    ...overrides,
  };
}

describe("the web page's dataset hash", () => {
  it("is the bench's (the first 16 hex digits of the SHA-256), also where crypto.subtle is missing (a page served over plain http from another host)", async () => {
    const bytes = readFileSync(new URL("../datasets/hard.txt", import.meta.url));
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const expected = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
    expect(await contentHash(buffer)).toBe(expected);
    vi.stubGlobal("crypto", {});
    try {
      expect(await contentHash(buffer)).toBe(expected);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
