// The WASM kernel (debug and release builds) and its TS twin: fixture, agreement, properties,
// batches and memory growth.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createSolver, formatPuzzle, isValidSolution, parsePuzzle, type Grid } from "../src/index.js";
import { WasmKernel, kernelUrl, kernelVariants, variantBuild, type KernelBuild } from "../src/kernel/wasm.js";
import { BitmaskEngine } from "../src/solvers/bitmask.js";
import { loadFixture } from "./fixture.js";

const fixture = loadFixture();
const solvable = fixture.filter((c) => c.count === 1);

/** A solved grid from the fixture, to derive random valid grids from. */
const baseSolution = parsePuzzle(solvable[0].solution!);

/**
 * A valid grid from the base solution by symmetries that keep Sudoku rules: relabel digits,
 * permute bands, rows inside bands, stacks and columns inside stacks, and transpose.
 */
function transformGrid(grid: Grid, digits: number[], rowOrder: number[], colOrder: number[], transpose: boolean): Grid {
  const out = new Uint8Array(81);
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) {
      const from = transpose ? colOrder[c] * 9 + rowOrder[r] : rowOrder[r] * 9 + colOrder[c];
      out[r * 9 + c] = digits[grid[from] - 1];
    }
  }
  return out;
}

/** Orders of 9 lines that keep bands (or stacks) together: a band order and a row order in each. */
const lineOrder = fc
  .tuple(fc.shuffledSubarray([0, 1, 2], { minLength: 3 }), fc.array(fc.shuffledSubarray([0, 1, 2], { minLength: 3 }), { minLength: 3, maxLength: 3 }))
  .map(([bands, inner]) => bands.flatMap((band, i) => inner[i].map((row) => band * 3 + row)));

const randomGrid = fc
  .tuple(fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9], { minLength: 9 }), lineOrder, lineOrder, fc.boolean())
  .map(([digits, rows, cols, transpose]) => transformGrid(baseSolution, digits, rows, cols, transpose));

const builds: KernelBuild[] = ["debug", "release"];

describe.each(builds)("WASM kernel, %s build", (build) => {
  it("passes the shared fixture", async () => {
    const kernel = await WasmKernel.create(undefined, build);
    const solution = new Uint8Array(81);
    const stats = { guesses: 0, timedOut: false };
    for (const c of fixture) {
      if (c.count === "invalid") continue;
      const count = kernel.countSolutions(parsePuzzle(c.puzzle), 2, solution, stats);
      expect(count, `fixture line ${c.line}`).toBe(c.count);
      if (c.solution) expect(formatPuzzle(solution), `fixture line ${c.line}`).toBe(c.solution);
    }
  });

  it("gives -1 for bytes over 9, -2 for repeated clues, and never traps", async () => {
    const kernel = await WasmKernel.create(undefined, build);
    const repeated = fixture.filter((c) => c.count === "invalid" && c.puzzle.length === 81 && !c.puzzle.includes("y"));
    expect(repeated.length).toBeGreaterThanOrEqual(3);
    const clashes = new Uint8Array(81 * repeated.length);
    repeated.forEach((c, i) =>
      clashes.set(
        Array.from(c.puzzle, (ch) => (ch === "." ? 0 : Number(ch))),
        i * 81,
      ),
    );
    expect(Array.from(kernel.solveBatch(clashes, repeated.length, 2).counts)).toEqual(repeated.map(() => -2));
    const puzzles = new Uint8Array(81 * 3);
    puzzles.set(parsePuzzle(solvable[0].puzzle), 0);
    puzzles.set(parsePuzzle(solvable[0].puzzle), 81);
    puzzles[81 + 40] = 10;
    puzzles.set(parsePuzzle(solvable[1].puzzle), 162);
    puzzles[162 + 80] = 255;
    const result = kernel.solveBatch(puzzles, 3, 2);
    expect(Array.from(result.counts)).toEqual([1, -1, -1]);
  });

  it("gives -2 exactly when a row, column or box repeats a clue (any cells, any digits)", async () => {
    const kernel = await WasmKernel.create(undefined, build);
    // A valid grid with 32–49 cells emptied (40–75 drawn, some twice) and up to two cells set to any digit: some repeat
    // a digit in a row, some in a column, some only in a box, some nowhere.
    const puzzles = fc.sample(
      fc
        .tuple(
          randomGrid,
          fc.array(fc.integer({ min: 0, max: 80 }), { minLength: 40, maxLength: 75 }),
          fc.array(fc.tuple(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 1, max: 9 })), { maxLength: 2 }),
        )
        .map(([grid, holes, changes]) => {
          const puzzle = grid.slice();
          for (const cell of holes) puzzle[cell] = 0;
          for (const [cell, digit] of changes) puzzle[cell] = digit;
          return puzzle;
        }),
      { numRuns: 600, seed: 32 },
    );
    /** The kinds of unit in which `puzzle` repeats a digit ("row", "column", "box"). */
    const repeatsIn = (puzzle: Uint8Array): Set<string> => {
      const seen = new Set<string>();
      const kinds = new Set<string>();
      for (let cell = 0; cell < 81; cell++) {
        const digit = puzzle[cell];
        if (digit === 0) continue;
        const [row, column] = [Math.floor(cell / 9), cell % 9];
        const units: [string, number][] = [
          ["row", row],
          ["column", column],
          ["box", Math.floor(row / 3) * 3 + Math.floor(column / 3)],
        ];
        for (const [kind, unit] of units) {
          const key = `${kind}${unit}:${digit}`;
          if (seen.has(key)) kinds.add(kind);
          seen.add(key);
        }
      }
      return kinds;
    };
    const batch = new Uint8Array(81 * puzzles.length);
    puzzles.forEach((puzzle, i) => batch.set(puzzle, i * 81));
    const counts = Array.from(kernel.solveBatch(batch, puzzles.length, 2, 2000).counts);
    const kinds = puzzles.map(repeatsIn);
    // every kind is drawn: a repeat only in a box, only in a row, only in a column, and none
    for (const only of ["box", "row", "column"]) expect(kinds.filter((k) => k.size === 1 && k.has(only)).length, only).toBeGreaterThan(5);
    expect(kinds.filter((k) => k.size === 0).length).toBeGreaterThan(50);
    expect(counts.map((count) => count === -2)).toEqual(kinds.map((k) => k.size > 0));
  });

  it("solves a batch that grows memory, with views re-created", async () => {
    const kernel = await WasmKernel.create(undefined, build);
    const small = kernel.solveBatch(parsePuzzle(solvable[0].puzzle), 1, 2);
    expect(small.counts[0]).toBe(1);
    const count = 60_000; // about 10 MB of batch: far past the initial 128 KiB
    const easy = fixture.find((c) => c.count === 1 && c.puzzle.split(".").length === 2)!; // one empty cell
    const hard = solvable[0];
    const [easyGrid, hardGrid] = [parsePuzzle(easy.puzzle), parsePuzzle(hard.puzzle)];
    const puzzles = new Uint8Array(count * 81);
    for (let i = 0; i < count; i++) puzzles.set(i % 1000 === 999 ? hardGrid : easyGrid, i * 81);
    const before = kernel.input(1).buffer.byteLength;
    const result = kernel.solveBatch(puzzles, count, 2);
    expect(kernel.input(1).buffer.byteLength).toBeGreaterThan(before);
    // Every count 1 (the records that are not, by index: none), and every 500th solution the puzzle's.
    expect(Array.from(result.counts).flatMap((c, i) => (c === 1 ? [] : [i]))).toEqual([]);
    const sampled = Array.from({ length: count / 500 }, (_, k) => 500 * k + 499);
    expect(sampled.map((i) => formatPuzzle(result.solutions.subarray(i * 81, i * 81 + 81)))).toEqual(
      sampled.map((i) => (i % 1000 === 999 ? hard : easy).solution!),
    );
  });
});

describe("WASM kernel and TS twin", () => {
  it("agree on count, solution and guesses for every fixture line", async () => {
    const wasm = await createSolver();
    const twin = await createSolver({ solver: "bitmask" });
    for (const c of fixture) {
      for (const limit of [1, 2, 3]) {
        expect(twin.solve(c.puzzle, { limit }), `fixture line ${c.line}, limit ${limit}`).toEqual(wasm.solve(c.puzzle, { limit }));
      }
    }
  });

  it("agree on sparse puzzles whatever their digits are named (the kernel's root takes every dirty slot a round, in any naming)", async () => {
    const wasm = await createSolver();
    const twin = await createSolver({ solver: "bitmask" });
    const sparse = fixture.filter((c) => c.count !== "invalid" && c.puzzle.replace(/[.0]/g, "").length < 30);
    expect(sparse.length).toBeGreaterThan(10);
    const namings = fc.sample(fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9], { minLength: 9 }), { numRuns: 6, seed: 32 });
    for (const c of sparse) {
      const original = wasm.solve(c.puzzle, { limit: 2 });
      for (const digits of namings) {
        const rename = (text: string) => text.replace(/[1-9]/g, (d) => String(digits[Number(d) - 1]));
        const record = wasm.solve(rename(c.puzzle), { limit: 2 });
        expect(record.count, `fixture line ${c.line}`).toBe(original.count);
        if (original.count === 1) expect(record.solution, `fixture line ${c.line}`).toBe(rename(original.solution!)); // (of several, which comes first depends on the names)
        expect(twin.solve(rename(c.puzzle), { limit: 2 }), `fixture line ${c.line}`).toEqual(record);
      }
    }
  });

  it("agree on puzzles carved from random valid grids, and keep the clues", async () => {
    const wasm = await createSolver();
    const twin = await createSolver({ solver: "bitmask" });
    fc.assert(
      fc.property(randomGrid, fc.array(fc.integer({ min: 0, max: 80 }), { maxLength: 64 }), (grid, holes) => {
        const puzzle = grid.slice();
        for (const cell of holes) puzzle[cell] = 0;
        const record = wasm.solve(puzzle, { limit: 2 });
        expect([1, 2]).toContain(record.count); // the grid itself is a solution; limit 2
        const solution = parsePuzzle(record.solution!);
        expect(isValidSolution(puzzle, solution)).toBe(true);
        if (record.count === 1) expect(record.solution).toBe(formatPuzzle(grid));
        expect(twin.solve(puzzle, { limit: 2 })).toEqual(record);
      }),
      { numRuns: 300, seed: 20261130 },
    );
  });

  it("count every solution of a puzzle with few clues exactly", async () => {
    // Emptying a whole band leaves exactly the grids that refill it: count them both ways.
    const wasm = await createSolver();
    const twin = await createSolver({ solver: "bitmask" });
    const puzzle = baseSolution.slice();
    puzzle.fill(0, 0, 27);
    const all = wasm.solve(puzzle, { limit: 1000 });
    expect(all.count).toBe(bandRefills(baseSolution));
    expect(all.count).toBeLessThan(1000);
    expect(twin.solve(puzzle, { limit: 1000 }).count).toBe(all.count);
  });
});

/**
 * The ways to refill the first band of `grid` (rows 0-2) with rows 3-8 kept, by plain
 * backtracking over its 27 cells: each column takes the digits rows 3-8 leave it, each row and
 * box every digit once. An independent count for the kernel's.
 */
function bandRefills(grid: Uint8Array): number {
  const columnLeft = Array.from({ length: 9 }, (_, column) => {
    let left = 0x3fe;
    for (let row = 3; row < 9; row++) left &= ~(1 << grid[row * 9 + column]);
    return left;
  });
  const rowUsed = [0, 0, 0];
  const boxUsed = [0, 0, 0];
  const fill = (cell: number): number => {
    if (cell === 27) return 1;
    const row = Math.floor(cell / 9),
      column = cell % 9,
      box = Math.floor(column / 3);
    let count = 0;
    for (let digit = 1; digit <= 9; digit++) {
      const bit = 1 << digit;
      if (!(columnLeft[column] & bit) || rowUsed[row] & bit || boxUsed[box] & bit) continue;
      columnLeft[column] ^= bit;
      rowUsed[row] ^= bit;
      boxUsed[box] ^= bit;
      count += fill(cell + 1);
      columnLeft[column] ^= bit;
      rowUsed[row] ^= bit;
      boxUsed[box] ^= bit;
    }
    return count;
  };
  return fill(0);
}

describe("batches", () => {
  it("a 10,000-puzzle batch equals the one-by-one results", async () => {
    const solver = await createSolver();
    const lines: string[] = [];
    const rng = fc.sample(fc.tuple(fc.integer({ min: 0, max: solvable.length - 1 }), fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9], { minLength: 9 })), {
      numRuns: 10_000,
      seed: 7,
    });
    for (const [index, digits] of rng) {
      const grid = parsePuzzle(fixture.filter((c) => c.count !== "invalid")[index].puzzle).map((v) => (v ? digits[v - 1] : 0));
      lines.push(formatPuzzle(grid));
    }
    lines.push("not a puzzle", ".".repeat(81));
    const batch = solver.solveMany(lines, { limit: 2 });
    expect(batch).toHaveLength(lines.length);
    expect(batch).toEqual(lines.map((line) => solver.solve(line, { limit: 2 })));
    expect(batch.at(-2)!.status).toBe("invalid");
    expect(batch.at(-1)!.status).toBe("multiple");
  });

  it("reads 9×9 text in the kernel (inputText says whether it was digits, `.` and `0` only) and writes a run's solutions as text (solutionsText)", async () => {
    const kernel = await WasmKernel.create();
    const lines = fixture.filter((c) => c.size === 9 && c.count === 1).map((c) => c.puzzle);
    expect(lines.length).toBeGreaterThan(10);
    const cells = new Uint8Array(lines.length * 81);
    lines.forEach((line, i) => cells.set(parsePuzzle(line), i * 81));
    kernel.input(lines.length).set(cells);
    const solutions = kernel.run(lines.length, 2).solutions.slice();
    expect(solutions.every((cell) => cell >= 1 && cell <= 9)).toBe(true);
    lines[1] = lines[1].replace(/\./g, "0");
    expect(kernel.inputText(Buffer.from(lines.join(""), "latin1"), lines.length)).toBe(true);
    const result = kernel.run(lines.length, 2);
    expect(Array.from(result.counts)).toEqual(lines.map(() => 1));
    expect(kernel.solutionsText(lines.length)).toBe(true);
    expect(Buffer.from(result.solutions).toString("latin1")).toBe(Buffer.from(solutions.map((cell) => cell + 48)).toString("latin1"));
    for (const other of ["x", "-", " ", "\u00e9"]) expect(kernel.inputText(Buffer.from(lines[0].replace(".", other), "latin1"), 1)).toBe(false);
  });
});

describe("budgets", () => {
  it("stop the kernel and its twin at the same node budget, keeping what they counted", async () => {
    const kernel = await WasmKernel.create();
    const twin = new BitmaskEngine();
    const grids = fixture.filter((c) => c.count !== "invalid").map((c) => parsePuzzle(c.puzzle));
    const packed = new Uint8Array(grids.length * 81);
    grids.forEach((grid, i) => packed.set(grid, i * 81));
    const stats = { guesses: 0, timedOut: false };
    for (const budget of [1, 3, 10, 40]) {
      const batch = kernel.solveBatch(packed, grids.length, 2, budget);
      let timeouts = 0;
      grids.forEach((grid, i) => {
        const count = twin.countSolutions(grid, 2, new Uint8Array(81), stats, budget);
        expect(count, `budget ${budget}, puzzle ${i}`).toBe(batch.counts[i]);
        expect(stats.timedOut, `budget ${budget}, puzzle ${i}`).toBe(batch.nodes![i] < 0);
        expect(stats.guesses).toBe(batch.guesses[i]);
        if (stats.timedOut) timeouts++;
      });
      expect(timeouts, `budget ${budget}`).toBeGreaterThan(0); // the hardest fixture lines need more
    }
  });
});

describe("the TS twin", () => {
  const bundled = ["hard", "hardest"].flatMap((name) =>
    readFileSync(new URL(`../datasets/${name}.txt`, import.meta.url), "utf8")
      .split("\n")
      .filter((line) => line.length >= 81),
  );
  const carved = fc.sample(
    fc.tuple(randomGrid, fc.array(fc.integer({ min: 0, max: 80 }), { minLength: 50, maxLength: 64 })).map(([grid, holes]) => {
      const puzzle = grid.slice();
      for (const cell of holes) puzzle[cell] = 0;
      return puzzle;
    }),
    { numRuns: 200, seed: 20261204 },
  );
  const grids = [...fixture.filter((c) => c.count !== "invalid").map((c) => c.puzzle), ...bundled].map((text) => parsePuzzle(text)).concat(carved);
  const packed = new Uint8Array(grids.length * 81);
  grids.forEach((grid, i) => packed.set(grid, i * 81));

  it("takes the default kernel's guesses on the fixture, the bundled hard sets and carved puzzles", async () => {
    const batch = (await WasmKernel.create()).solveBatch(packed, grids.length, 2);
    // the plain kernel (no root pairs, no digits-first root) takes other guesses somewhere
    const otherBatch = (await WasmKernel.create(undefined, variantBuild("plain"))).solveBatch(packed, grids.length, 2);
    const twin = new BitmaskEngine();
    const stats = { guesses: 0, timedOut: false };
    let differs = 0;
    grids.forEach((grid, i) => {
      expect(twin.countSolutions(grid, 2, new Uint8Array(81), stats), `puzzle ${i}`).toBe(batch.counts[i]);
      expect(stats.guesses, `puzzle ${i}`).toBe(batch.guesses[i]);
      if (batch.guesses[i] !== otherBatch.guesses[i]) differs++;
    });
    expect(differs).toBeGreaterThan(0); // guesses tell the searches apart: the check has something to see
  });
});

/** A kernel build's search of `puzzles` (text) in one batch at `limit`: each puzzle's count, nodes and guesses. */
async function searchOf(build: string, puzzles: readonly string[], limit = 2) {
  const packed = new Uint8Array(puzzles.length * 81);
  puzzles.forEach((puzzle, i) => packed.set(parsePuzzle(puzzle), i * 81));
  const result = (await WasmKernel.create(kernelUrl(build))).solveBatch(packed, puzzles.length, limit);
  return { counts: Array.from(result.counts), nodes: Array.from(result.nodes!), guesses: Array.from(result.guesses!) };
}

const total = (counts: readonly number[]) => counts.reduce((sum, n) => sum + n, 0);

describe("kernel variants", () => {
  it("agree with the default kernel on every count, and on unique solutions", async () => {
    const variants = kernelVariants();
    expect(variants[0].name).toBe("");
    const kernels = await Promise.all(variants.map((v) => WasmKernel.create(undefined, variantBuild(v.name))));
    const puzzles = fixture.filter((c) => c.count !== "invalid" && !c.puzzle.startsWith("........")); // the hardest take seconds without propagation
    const packed = new Uint8Array(puzzles.length * 81);
    puzzles.forEach((c, i) => packed.set(parsePuzzle(c.puzzle), i * 81));
    const [reference, ...others] = kernels.map((kernel) => kernel.solveBatch(packed, puzzles.length, 2));
    expect(Array.from(reference.counts)).toEqual(puzzles.map((c) => c.count));
    others.forEach((result, k) => {
      const name = variants[k + 1].name;
      puzzles.forEach((c, i) => {
        expect(result.nodes![i], `${name} timed out on fixture line ${c.line}`).toBeGreaterThan(0);
        expect(result.counts[i], `${name} on fixture line ${c.line}`).toBe(c.count);
        if (c.count === 1) expect(formatPuzzle(result.solutions.subarray(i * 81, i * 81 + 81))).toBe(c.solution);
      });
    });
  });

  it("with hidden pairs (pairs, its debug build too), propagate fewer states than the default on the fixture", async () => {
    const puzzles = fixture.filter((c) => c.count !== "invalid").map((c) => c.puzzle);
    const pairs = await searchOf(variantBuild("pairs"), puzzles);
    expect(total(pairs.nodes)).toBeLessThan(total((await searchOf("release", puzzles)).nodes));
    expect(await searchOf("variants-debug/pairs", puzzles)).toEqual(pairs);
  });

  /** The fixture's puzzles with fewer than two solutions: at limit 2 a search runs to its end on each. */
  const toTheEnd = fixture.filter((c) => c.count !== "invalid" && c.count < 2).map((c) => c.puzzle);

  it("with lookahead (its debug build too), propagate the default's states and guess less on the fixture", async () => {
    // limit 2: a search that finds fewer solutions runs to its end, where both propagate the same states
    const plain = await searchOf("release", toTheEnd);
    const ahead = await searchOf(variantBuild("lookahead"), toTheEnd);
    expect(ahead.nodes).toEqual(plain.nodes);
    ahead.guesses.forEach((g, i) => expect(g).toBeLessThanOrEqual(plain.guesses[i]));
    expect(total(ahead.guesses)).toBeLessThan(total(plain.guesses));
    expect(await searchOf("variants-debug/lookahead", toTheEnd)).toEqual(ahead);
    // a search for one solution is the default's, step for step
    expect(await searchOf(variantBuild("lookahead"), toTheEnd, 1)).toEqual(await searchOf("release", toTheEnd, 1));
  });

  it("with probe-keep (its debug build too), search probe's states but propagate fewer, counting its branch digit's decisions", async () => {
    // limit 2: both search to the end, where they take the same states in the same order
    const probe = await searchOf(variantBuild("probe"), toTheEnd);
    const kept = await searchOf(variantBuild("probe-keep"), toTheEnd);
    kept.nodes.forEach((n, i) => expect(n, `fixture puzzle ${i}`).toBeLessThanOrEqual(probe.nodes[i]));
    kept.guesses.forEach((g, i) => expect(g, `fixture puzzle ${i}`).toBeGreaterThanOrEqual(probe.guesses[i]));
    expect(total(kept.nodes)).toBeLessThan(total(probe.nodes));
    expect(await searchOf("variants-debug/probe-keep", toTheEnd)).toEqual(kept);
    expect(await searchOf("variants-debug/probe-once", toTheEnd)).toEqual(await searchOf(variantBuild("probe-once"), toTheEnd));
  });

  it("with matching (its debug build too), propagate fewer states than the default on the bundled hard sets", async () => {
    // (not on the fixture, where its few hard puzzles take 865 states against the default's 863)
    const puzzles = ["hard", "hardest"].flatMap((name) =>
      readFileSync(new URL(`../datasets/${name}.txt`, import.meta.url), "utf8")
        .split("\n")
        .filter((line) => line.length >= 81),
    );
    const matching = await searchOf(variantBuild("matching"), puzzles);
    const plain = await searchOf("release", puzzles);
    expect(matching.counts).toEqual(plain.counts);
    expect(total(matching.nodes)).toBeLessThan(total(plain.nodes));
    expect(total(matching.guesses)).toBeLessThan(total(plain.guesses));
    expect((await searchOf("variants-debug/matching", puzzles)).nodes).toEqual(matching.nodes);
  });

  it("with naked pairs (naked-pairs, both-pairs, their debug builds too), propagate fewer states than the default on the bundled hard sets", async () => {
    const puzzles = ["hard", "hardest"].flatMap((name) =>
      readFileSync(new URL(`../datasets/${name}.txt`, import.meta.url), "utf8")
        .split("\n")
        .filter((line) => line.length >= 81),
    );
    const plain = await searchOf("release", puzzles);
    const naked = await searchOf(variantBuild("naked-pairs"), puzzles);
    const both = await searchOf(variantBuild("both-pairs"), puzzles);
    expect(naked.counts).toEqual(plain.counts);
    expect(total(naked.nodes)).toBeLessThan(total(plain.nodes));
    expect(total(both.nodes)).toBeLessThan(total(naked.nodes)); // hidden pairs everywhere take more
    expect((await searchOf("variants-debug/naked-pairs", puzzles)).nodes).toEqual(naked.nodes);
    expect((await searchOf("variants-debug/both-pairs", puzzles)).nodes).toEqual(both.nodes);
  });

  it("stop at the node budget and say so", async () => {
    const kernel = await WasmKernel.create(undefined, variantBuild("none"));
    const hard = parsePuzzle(solvable[0].puzzle);
    const stats = { guesses: 0, timedOut: false };
    kernel.countSolutions(hard, 2, new Uint8Array(81), stats, 50);
    expect(stats.timedOut).toBe(true);
    kernel.countSolutions(hard, 2, new Uint8Array(81), stats, Infinity);
    expect(stats.timedOut).toBe(false);
  });
});
