// Every 9×9 puzzle of the public datasets (test/public-datasets.ts says where they are read from):
// solved with limit 2, each solution valid and keeping its clues; serg's all report "multiple".
// And Norvig's 11 hardest through the pure-TypeScript baselines and the npm references, which
// solve each one or (the row-major ones) stop at their budget, never with a wrong answer.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { type Solver, createSolver, findSolver, isValidSolution } from "../src/index.js";
import { findConflict, parsePuzzle } from "../src/model/puzzle.js";
import { CELLS } from "../src/model/shape.js";
import { WasmKernel } from "../src/kernel/wasm.js";
import { PUBLIC_SETS } from "../src/datasets/catalog.js";
import { PUBLIC_DATASETS, PUBLIC_DATASETS_FOLDER, describeWithPublicDatasets, hasPublicDatasets } from "./public-datasets.js";

const folder = PUBLIC_DATASETS_FOLDER;
const files = hasPublicDatasets ? PUBLIC_SETS.map((set) => `${set.name}.txt`).filter((f) => !f.startsWith("sudoku16") && !f.startsWith("sudoku25")) : [];

describeWithPublicDatasets("public 9×9 datasets", () => {
  it.each(files)("%s", async (file) => {
    const lines = readFileSync(join(folder, file), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
    const kernel = await WasmKernel.create();
    const puzzles = new Uint8Array(lines.length * CELLS);
    lines.forEach((line, i) => puzzles.set(parsePuzzle(line), i * CELLS));
    const { counts, solutions } = kernel.solveBatch(puzzles, lines.length, 2);
    const expected = file.startsWith("serg_") ? 2 : 1;
    let wrong = 0;
    for (let i = 0; i < lines.length; i++) {
      const solution = solutions.subarray(i * CELLS, (i + 1) * CELLS);
      const keepsClues = puzzles.subarray(i * CELLS, (i + 1) * CELLS).every((v, cell) => v === 0 || v === solution[cell]);
      if (counts[i] !== expected || !keepsClues || findConflict(solution) !== null || solution.includes(0)) {
        if (wrong++ < 3) console.error(`${file}:${i + 1}: count ${counts[i]}`);
      }
    }
    expect(wrong).toBe(0);
  });
});

/** Our own search engines and the npm solvers behind thin adapters, in registry order. */
const BASELINES_AND_PACKAGES = ["scan", "tables", "queue", "mrv", "dlx", "npm:dancing-links", "npm:algorithm.ts"];
/** The baselines that fill cells in row-major order with digits 1–9: one search tree. */
const ROW_MAJOR = ["scan", "tables", "queue"];
/** Norvig's 11 "hardest", read from the public datasets (test/public-datasets.ts). */
const NORVIG_HARDEST = hasPublicDatasets ? readFileSync(new URL("norvig_hardest.txt", PUBLIC_DATASETS), "utf8").trim().split("\n") : [];
/** Placements allowed when a slow baseline must not hang a test; Norvig's 11 need ≤ 401k. */
const BUDGET = 5_000_000;

describeWithPublicDatasets("Norvig's 11 hardest, limit 2", () => {
  const reference = new Map<string, string>();
  const loaded = new Map<string, Solver>();
  // Loading every baseline and npm package can take over Vitest's 10 s hook limit on a loaded machine: the tests' limit instead.
  beforeAll(async () => {
    for (const id of BASELINES_AND_PACKAGES) loaded.set(id, await createSolver({ solver: id }));
  }, 120_000);
  const solverFor = (id: string): Solver => loaded.get(id)!;

  it.each(BASELINES_AND_PACKAGES)("%s solves each one or reports timeout, never a wrong answer", (id) => {
    const budget = findSolver(id).capabilities.budget ? BUDGET : undefined;
    for (const line of NORVIG_HARDEST) {
      const record = solverFor(id).solve(line, { limit: 2, budget });
      if (record.status === "timeout") {
        expect(ROW_MAJOR).toContain(id);
        expect(record.count).toBeLessThanOrEqual(1);
      } else {
        expect(record).toMatchObject({ status: "solved", count: 1 });
      }
      if (record.solution === null) continue;
      expect(isValidSolution(parsePuzzle(line), parsePuzzle(record.solution))).toBe(true);
      if (!reference.has(line)) reference.set(line, record.solution);
      expect(record.solution).toBe(reference.get(line));
    }
  });
});
