/** The puzzle-file reader and the bundled corpora in datasets/ (counts, clue ranges, uniqueness of a sample). */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createSolver, type Solver } from "../src/index.js";
import { bundledDatasets, datasetsFolder, loadDatasetList, loadDatasets } from "../src/datasets/read.js";
import { readManifest } from "../src/cli/generate.js";
import { parsePuzzle } from "../src/model/puzzle.js";
import { countClues } from "../src/generate/generate.js";
import { scratchFolder } from "./cli-run.js";

const PUZZLE_A = "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.";
const PUZZLE_B = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";

const scratch = scratchFolder("sudoku-datasets-");

/** A fresh folder (in the file's scratch folder) holding the given files. */
function folderWith(files: Record<string, string>): string {
  const folder = mkdtempSync(join(scratch.dir, "case-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}

describe("reading puzzle files", () => {
  it("skips comments and blank lines and keeps each puzzle's line number", () => {
    const folder = folderWith({ "mixed.txt": `# a comment\n\n${PUZZLE_A}\r\n   \n  # indented comment\n  ${PUZZLE_B}  \nnot a puzzle\n` });
    const [dataset] = loadDatasets(join(folder, "mixed.txt"));
    expect(dataset.name).toBe("mixed");
    expect(dataset.path).toBe(join(folder, "mixed.txt"));
    expect(dataset.puzzles).toEqual([PUZZLE_A, PUZZLE_B, "not a puzzle"]);
    expect(dataset.lines).toEqual([3, 6, 7]);
  });

  it("reads every .txt of a folder, sorted by name", () => {
    const folder = folderWith({ "b.txt": PUZZLE_B + "\n", "a.txt": PUZZLE_A + "\n", "notes.md": "# not puzzles\n" });
    mkdirSync(join(folder, "sub"));
    expect(loadDatasets(folder).map((d) => [d.name, d.puzzles])).toEqual([
      ["a", [PUZZLE_A]],
      ["b", [PUZZLE_B]],
    ]);
  });

  it("rejects an empty folder and unknown names, listing the bundled names", () => {
    expect(() => loadDatasets(folderWith({}))).toThrow(/holds no \.txt puzzle files/);
    const unknown = () => loadDatasets("no-such-tier");
    expect(unknown).toThrow(/no dataset 'no-such-tier'/);
    for (const name of bundledDatasets()) expect(unknown).toThrow(name);
  });

  it("loads bundled names and paths in the order given", () => {
    const folder = folderWith({ "x.txt": PUZZLE_A + "\n" });
    const [first] = bundledDatasets();
    const list = loadDatasetList([join(folder, "x.txt"), first]);
    expect(list.map((d) => d.name)).toEqual(["x", first]);
    expect(list[1].path).toBe(join(datasetsFolder(), `${first}.txt`));
  });
});

describe("bundled corpora", () => {
  let solver: Solver;
  beforeAll(async () => {
    solver = await createSolver();
  });
  const manifest = readManifest(join(datasetsFolder(), "manifest.json"));

  it("lists the tiers easiest first, as the manifest's mean guesses order them", () => {
    const names = bundledDatasets();
    expect(names).toEqual(expect.arrayContaining(["easy", "medium", "hard", "hardest"]));
    const means = names.map((name) => manifest.files.find((e) => e.file === `${name}.txt`)!.guesses.mean);
    expect(means).toEqual([...means].sort((a, b) => a - b));
  });

  it("grades the guess-graded tiers by two families, each tier harder than the one before for every grader", () => {
    const graded = ["medium", "hard", "hardest"].map((name) => manifest.files.find((e) => e.file === `${name}.txt`)!);
    const graders = graded[0].graders!;
    expect(new Set(graders.map((id) => id.split(":")[0])).size).toBeGreaterThanOrEqual(2);
    for (const entry of graded) expect(entry.graders).toEqual(graders);
    for (const id of graders) {
      const means = graded.map((entry) => entry.grading!.graders[id].mean);
      expect(means, id).toEqual([...means].sort((a, b) => a - b));
      expect(new Set(means).size, id).toBe(means.length);
    }
  });

  it("today's kernel still takes, on each file, the wasm guesses the manifest recorded (a kernel change that keeps them keeps the tiers)", () => {
    for (const entry of manifest.files) {
      const [dataset] = loadDatasets(join(datasetsFolder(), entry.file));
      const guesses = solver.solveMany(dataset.puzzles, { limit: 2 }).map((record) => record.guesses!);
      const mean = Math.round((guesses.reduce((a, b) => a + b, 0) / guesses.length) * 100) / 100;
      const recorded = entry.grading?.graders.wasm ?? entry.guesses;
      expect(mean, entry.file).toBe(recorded.mean);
    }
  });

  for (const entry of manifest.files) {
    it(`${entry.file} matches its manifest entry and a sample of it is unique`, () => {
      const [dataset] = loadDatasets(join(datasetsFolder(), entry.file));
      expect(dataset.puzzles.length).toBe(entry.count);
      expect(new Set(dataset.puzzles).size).toBe(entry.count);
      const clues = dataset.puzzles.map((line) => countClues(parsePuzzle(line)));
      expect(Math.min(...clues)).toBe(entry.clues.min);
      expect(Math.max(...clues)).toBe(entry.clues.max);
      const step = Math.max(1, Math.floor(dataset.puzzles.length / 40));
      const sample = dataset.puzzles.filter((_, i) => i % step === 0);
      expect(solver.solveMany(sample, { limit: 2 }).map((record) => record.count)).toEqual(sample.map(() => 1));
    });
  }
});
