// Every 9×9 puzzle of the public datasets in ../shared/datasets (test/shared.ts):
// solved with limit 2, each solution valid and keeping its clues; serg's all report "multiple".
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { findConflict, parsePuzzle } from "../src/model/puzzle.js";
import { CELLS } from "../src/model/shape.js";
import { WasmKernel } from "../src/kernel/wasm.js";
import { SHARED_DATASETS, describeWithSharedDatasets, hasSharedDatasets } from "./shared.js";

const folder = SHARED_DATASETS.pathname;
const files = hasSharedDatasets ? readdirSync(folder).filter((f) => f.endsWith(".txt") && !f.startsWith("sudoku16") && !f.startsWith("sudoku25")) : [];

describeWithSharedDatasets("public 9×9 datasets", () => {
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
