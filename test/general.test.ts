// N×N grids: the general WASM kernel (release and debug builds), its TS twin, the N×N puzzle
// model (alphabets, errors) and the solver over text lines.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GeneralTsEngine } from "../src/solvers/general-ts.js";
import { Solver } from "../src/solvers/solver.js";
import { findConflict, formatGrid, isValidSolution, parseSymbols } from "../src/model/puzzle.js";
import { shapeOf } from "../src/model/shape.js";
import { createSolver } from "../src/index.js";
import { loadFixture } from "./fixture.js";
import { runCli } from "./cli-run.js";
import { PUBLIC_DATASETS, describeWithPublicDatasets } from "./public-datasets.js";
import { type KernelBuild, WasmKernel, batchViews, compileKernel } from "../src/kernel/wasm.js";

const readDataset = (name: string): string[] => readFileSync(new URL(name, PUBLIC_DATASETS), "utf8").trim().split("\n");

const HEX_LIKE = "123456789ABCDEFG";
const POJ = "ABCDEFGHIJKLMNOP";
/** Rewrites a line from one alphabet to another, keeping empty marks. */
const translate = (line: string, from: string, to: string): string => line.replace(/[^.-]/g, (ch) => to[from.indexOf(ch)]);

const EMPTY_4 = ".".repeat(16);
const UNIQUE_4 = "1...3..1.....14."; // 1 . . . / 3 . . 1 / . . . . / . 1 4 .
const UNSOLVABLE_4 = "12........3...4."; // cell 3 sees 1 2 in its row and 3 4 in its column

const BOXES = [2, 3, 4, 5];

/** The N×N kernel's `build` (the registry's general-wasm is `general`), one instance per box size. */
async function generalKernels(build: KernelBuild = "general"): Promise<Map<number, WasmKernel>> {
  return new Map(await Promise.all(BOXES.map(async (box) => [box, await WasmKernel.create(undefined, build, box)] as const)));
}

/** The TS twin, one engine per box size. */
const twinEngines = (): Map<number, GeneralTsEngine> => new Map(BOXES.map((box) => [box, new GeneralTsEngine(box)]));

/** A Solver with the N×N kernel's `build` for every size. */
async function generalKernelSolver(build: KernelBuild): Promise<Solver> {
  const kernels = await generalKernels(build);
  return new Solver(new Map(BOXES.map((box) => [box * box, { id: `general-${build}`, engine: kernels.get(box)!, reportsGuesses: true }])));
}

const createGeneralSolver = (options: { engine?: "ts" } = {}): Promise<Solver> =>
  createSolver({ solver: options.engine === "ts" ? "general-ts" : "general-wasm" });

/** Every record is unique, its solution valid for the puzzle of the same line and keeping its clues. */
function expectUniqueAndValid(solver: Solver, lines: string[]): void {
  const records = solver.solveMany(lines, { limit: 2 });
  expect(records).toHaveLength(lines.length);
  records.forEach((record, i) => {
    expect(record.status, `line ${i + 1}: ${record.error ?? ""}`).toBe("solved");
    const puzzle = parseSymbols(lines[i]);
    const solution = parseSymbols(record.solution!, { alphabet: puzzle.alphabet }).grid;
    expect(isValidSolution(puzzle.grid, solution, puzzle.shape), `line ${i + 1}`).toBe(true);
  });
}

describeWithPublicDatasets("shared N×N datasets", () => {
  it("solves every 16×16 puzzle of sudoku16_kr100 as unique, with valid solutions", async () => {
    const lines = readDataset("sudoku16_kr100.txt");
    expect(lines).toHaveLength(99);
    expectUniqueAndValid(await createGeneralSolver(), lines);
  });

  it("solves both 25×25 puzzles of sudoku25_misc as unique, with valid solutions", async () => {
    const lines = readDataset("sudoku25_misc.txt");
    expect(lines).toHaveLength(2);
    expectUniqueAndValid(await createGeneralSolver(), lines);
  });

  it("at small budgets the TS twin times out on the same 16×16 puzzles as the kernel, with the same counts and guesses", async () => {
    const lines = readDataset("sudoku16_kr100.txt");
    const wasm = await createGeneralSolver();
    const ts = await createGeneralSolver({ engine: "ts" });
    for (const budget of [5, 50, 300]) {
      const records = wasm.solveMany(lines, { budget });
      const timeouts = records.filter((r) => r.status === "timeout").length;
      expect(timeouts, `budget ${budget}`).toBeGreaterThan(0);
      expect(timeouts, `budget ${budget}`).toBeLessThan(lines.length);
      expect(ts.solveMany(lines, { budget }), `budget ${budget}`).toEqual(records);
      expect(
        lines.map((line) => wasm.solve(line, { budget })),
        `budget ${budget}`,
      ).toEqual(records);
    }
  });

  it("without a budget (or with one no search reaches) every 16×16 record is as before: solved, none timed out", async () => {
    const lines = readDataset("sudoku16_kr100.txt");
    const solver = await createGeneralSolver();
    const unbounded = solver.solveMany(lines);
    expect(unbounded.every((r) => r.status === "solved")).toBe(true);
    expect(solver.solveMany(lines, { budget: Infinity })).toEqual(unbounded);
    expect(solver.solveMany(lines, { budget: 0x7fffffff })).toEqual(unbounded);
  });

  it("the TS twin agrees with the kernel on every record, guesses included", async () => {
    const lines = [...readDataset("sudoku16_kr100.txt"), ...readDataset("sudoku25_misc.txt")];
    const wasm = (await createGeneralSolver()).solveMany(lines);
    const ts = (await createGeneralSolver({ engine: "ts" })).solveMany(lines);
    expect(ts).toEqual(wasm);
  });

  it("reads the POJ 3076 alphabet A-P and answers in it", async () => {
    const solver = await createGeneralSolver();
    const line = readDataset("sudoku16_kr100.txt")[0];
    const asPoj = translate(line, HEX_LIKE, POJ).replace(/\./g, "-");
    expect(parseSymbols(asPoj).alphabet).toBe(POJ);
    const record = solver.solve(asPoj);
    expect(record.status).toBe("solved");
    expect(record.solution).toMatch(/^[A-P]{256}$/);
    expect(translate(record.solution!, POJ, HEX_LIKE)).toBe(solver.solve(line).solution);
  });
});

const builds: KernelBuild[] = ["general", "general-debug"];

describe.each(builds)("general WASM kernel, %s build", (build) => {
  const solver = generalKernelSolver(build);

  it("counts all 288 4×4 grids and tells unique, multiple and unsolvable 4×4 puzzles apart", async () => {
    const s = await solver;
    expect(s.solve(EMPTY_4, { limit: 1000 }).count).toBe(288);
    expect(s.solve(EMPTY_4)).toMatchObject({ status: "multiple", count: 2 });
    expect(s.solve(UNIQUE_4)).toMatchObject({ status: "solved", count: 1, solution: "1234342143122143" });
    expect(s.solve(UNSOLVABLE_4)).toMatchObject({ status: "unsolvable", count: 0, solution: null });
  });

  it("passes the shared 9×9 fixture", async () => {
    const s = await solver;
    for (const c of loadFixture()) {
      const record = s.solve(c.puzzle);
      if (c.count === "invalid") {
        expect(record.status, `fixture line ${c.line}`).toBe("invalid");
        continue;
      }
      expect(record.count, `fixture line ${c.line}`).toBe(c.count);
      if (c.solution) expect(record.solution, `fixture line ${c.line}`).toBe(c.solution);
    }
  });

  it("reports multiple solutions for the empty 16×16 and 25×25 grids, with a valid first one", async () => {
    const s = await solver;
    for (const box of [4, 5]) {
      const { size, cells } = shapeOf(box);
      const record = s.solve(".".repeat(cells));
      expect(record).toMatchObject({ status: "multiple", count: 2 });
      const alphabet = parseSymbols(record.solution!).alphabet;
      expect(alphabet).toHaveLength(size);
      expect(findConflict(parseSymbols(record.solution!).grid, shapeOf(box))).toBeNull();
    }
  });

  it("stops a search at the node budget: nodes negative, status timeout, the solutions found so far kept", async () => {
    const kernel = await generalKernels(build);
    const { cells } = shapeOf(2);
    const puzzles = new Uint8Array(cells * 2);
    puzzles[cells] = 9; // a byte over N: count -1, no search
    const capped = kernel.get(2)!.solveBatch(puzzles, 2, 1000, 40);
    expect(capped.counts[0]).toBeGreaterThan(0);
    expect(capped.counts[0]).toBeLessThan(288);
    expect(capped.nodes![0]).toBeLessThan(0);
    expect(capped.counts[1]).toBe(-1);
    const free = kernel.get(2)!.solveBatch(puzzles, 2, 1000);
    expect(free.counts[0]).toBe(288);
    expect(free.nodes![0]).toBeGreaterThan(40);
    expect(-capped.nodes![0]).toBeGreaterThanOrEqual(40);
    expect(-capped.nodes![0]).toBeLessThan(free.nodes![0]);
    const s = await solver;
    const record = s.solve(EMPTY_4, { limit: 1000, budget: 40 });
    expect(record).toMatchObject({ status: "timeout", count: capped.counts[0] });
    expect(isValidSolution(new Uint8Array(cells), parseSymbols(record.solution!).grid, shapeOf(2))).toBe(true);
    expect(s.solve(EMPTY_4, { limit: 1000, budget: 100_000 })).toMatchObject({ status: "multiple", count: 288 });
  });

  it("gives -1 for bytes over N, puzzle by puzzle, and never traps", async () => {
    const kernel = await generalKernels(build);
    const { cells } = shapeOf(4);
    const puzzles = new Uint8Array(cells * 3);
    puzzles[cells + 7] = 17;
    puzzles[2 * cells + 255] = 255;
    const result = kernel.get(4)!.solveBatch(puzzles, 3, 2);
    expect(Array.from(result.counts)).toEqual([2, -1, -1]);
  });

  it("gives -2 for a clue repeated in a row, a column or a box, with no search, as the 9×9 kernel does", async () => {
    const kernel = await generalKernels(build);
    const nineByNine = await WasmKernel.create(undefined, build === "general" ? "release" : "debug");
    for (const box of [2, 3, 4, 5]) {
      const { size, cells } = shapeOf(box);
      const repeatedAt = [1, size, size + 1]; // beside cell 0 in its row, below it in its column, diagonally in its box
      const puzzles = new Uint8Array(cells * (repeatedAt.length + 1));
      repeatedAt.forEach((cell, i) => {
        puzzles[i * cells] = 1;
        puzzles[i * cells + cell] = 1;
      });
      puzzles[repeatedAt.length * cells + 1] = size + 1; // and a byte over N after them: still -1
      const result = kernel.get(box)!.solveBatch(puzzles, repeatedAt.length + 1, 2);
      expect(Array.from(result.counts), `box ${box}`).toEqual([-2, -2, -2, -1]);
      expect(Array.from(result.nodes), `box ${box}`).toEqual([0, 0, 0, 0]);
      if (box === 3) expect(result.counts).toEqual(nineByNine.solveBatch(puzzles, repeatedAt.length + 1, 2).counts);
    }
    const unsolvable = kernel.get(2)!.solveBatch(parseSymbols(UNSOLVABLE_4).grid, 1, 2); // no clue repeated, a cell with no candidate: 0
    expect([unsolvable.counts[0], unsolvable.nodes[0]]).toEqual([0, 1]);
  });

  it("solves a batch that grows memory, with views re-created", async () => {
    const kernel = await generalKernels(build);
    const { cells } = shapeOf(4);
    const first = kernel.get(4)!.solveBatch(new Uint8Array(cells), 1, 1);
    const puzzle = first.solutions.slice();
    for (let cell = 0; cell < cells; cell += 3) puzzle[cell] = 0;
    const count = 2_000; // about 1 MB of batch
    const puzzles = new Uint8Array(count * cells);
    for (let i = 0; i < count; i++) puzzles.set(puzzle, i * cells);
    const before = kernel.get(4)!.input(1).buffer.byteLength;
    const result = kernel.get(4)!.solveBatch(puzzles, count, 1);
    expect(kernel.get(4)!.input(1).buffer.byteLength).toBeGreaterThan(before);
    for (let i = 0; i < count; i += 199) {
      expect(result.counts[i]).toBe(1);
      expect(isValidSolution(puzzle, result.solutions.subarray(i * cells, (i + 1) * cells), shapeOf(4))).toBe(true);
    }
  });
});

/** A complete grid of box size `box`: the kernel's first solution of the empty grid. */
const fullGrid = (kernel: Map<number, WasmKernel>, box: number): Uint8Array => kernel.get(box)!.solveBatch(new Uint8Array(shapeOf(box).cells), 1, 1).solutions;

/** `puzzle` solved by the kernel and by its twin: each one's [count, guesses, timed out] and first solution. */
function onKernelAndTwin(
  kernel: Map<number, WasmKernel>,
  twin: Map<number, GeneralTsEngine>,
  puzzle: Uint8Array,
  box: number,
  limit: number,
  budget = Infinity,
) {
  const stats = { guesses: 0, timedOut: false };
  const wasmSolution = new Uint8Array(puzzle.length);
  const tsSolution = new Uint8Array(puzzle.length);
  const wasm = [kernel.get(box)!.countSolutions(puzzle, limit, wasmSolution, stats, budget), stats.guesses, stats.timedOut];
  const ts = [twin.get(box)!.countSolutions(puzzle, limit, tsSolution, stats, budget), stats.guesses, stats.timedOut];
  return { wasm, ts, wasmSolution, tsSolution };
}

describe("one kernel interface for both kernel files", () => {
  const ALL_BUILDS: KernelBuild[] = ["release", "debug", "general", "general-debug"];

  it("both export reserve(count, box) and solveBatch(base, count, limit, budget), with the same codes", async () => {
    for (const build of ALL_BUILDS) {
      const exports = WebAssembly.Module.exports(await compileKernel(build)).map((entry) => entry.name);
      expect(exports, build).toEqual(expect.arrayContaining(["memory", "reserve", "solveBatch"]));
      const instance = await WebAssembly.instantiate(await compileKernel(build), { env: { abort: () => {} } });
      const raw = instance.exports as { reserve: (...args: number[]) => number; solveBatch: (...args: number[]) => number; memory: WebAssembly.Memory };
      expect([raw.reserve.length, raw.solveBatch.length], build).toEqual([2, 4]);
      // A 9×9 batch of an empty grid and a grid with a repeated clue: the same counts from every build.
      const base = raw.reserve(2, 3) >>> 0;
      expect(base, build).toBeGreaterThan(0);
      const puzzles = new Uint8Array(raw.memory.buffer, base, 162).fill(0);
      puzzles[81] = puzzles[82] = 7;
      expect(raw.solveBatch(base, 2, 2, 0), build).toBe(2);
      expect(Array.from(batchViews(raw.memory, base, 2).counts), build).toEqual([2, -2]);
      expect(raw.solveBatch(base, 3, 2, 0), `${build}: past the batch reserved`).toBe(-1);
    }
  });

  it("WasmKernel.create takes a box size: the 9×9 builds refuse any but 3, the general builds take 2 to 5", async () => {
    await expect(WasmKernel.create(undefined, "release", 4)).rejects.toThrow(
      new RangeError("the kernel build 'release' does not take 16×16 grids (box size 4); the general builds take every size"),
    );
    await expect(WasmKernel.create(undefined, "general", 6)).rejects.toThrow(/box size must be one of 2, 3, 4, 5, got 6/);
    for (const box of BOXES) {
      const kernel = await WasmKernel.create(undefined, "general-debug", box);
      expect(kernel.shape).toEqual(shapeOf(box));
      kernel.input(1).fill(0);
      expect(kernel.run(1, 2).counts[0]).toBe(2);
    }
  });
});

describe("the TS twin", () => {
  it("agrees with the kernel on counts, solutions and guesses for generated puzzles of every size", async () => {
    const kernel = await generalKernels();
    const twin = twinEngines();
    for (const box of [2, 3, 4, 5]) {
      const full = fullGrid(kernel, box);
      for (const blankEvery of [2, 3, 5]) {
        const puzzle = full.map((symbol, cell) => ((cell * 7) % blankEvery === 0 ? 0 : symbol));
        const { wasm, ts, wasmSolution, tsSolution } = onKernelAndTwin(kernel, twin, puzzle, box, 2);
        expect(ts, `box ${box}, blank every ${blankEvery}`).toEqual(wasm);
        expect(tsSolution).toEqual(wasmSolution);
        expect(isValidSolution(puzzle, tsSolution, shapeOf(box))).toBe(true);
      }
    }
  });

  it("honours the kernel's node budget: the same counts, guesses, solutions and timeouts at every budget", async () => {
    const kernel = await generalKernels();
    const twin = twinEngines();
    for (const box of [2, 3, 4, 5]) {
      const full = fullGrid(kernel, box);
      const puzzles = [new Uint8Array(full.length), full.map((symbol, cell) => ((cell * 7) % 2 === 0 ? 0 : symbol))];
      for (const [p, puzzle] of puzzles.entries()) {
        for (const budget of [1, 2, 7, 30, 200]) {
          const { wasm, ts, wasmSolution, tsSolution } = onKernelAndTwin(kernel, twin, puzzle, box, 50, budget);
          expect(ts, `box ${box}, puzzle ${p}, budget ${budget}`).toEqual(wasm);
          if ((wasm[0] as number) > 0) expect(tsSolution).toEqual(wasmSolution);
        }
      }
    }
    // The empty grids branch at once: budget 1 stops them before any solution.
    const stats = { guesses: 0, timedOut: false };
    expect(twin.get(4)!.countSolutions(new Uint8Array(256), 2, new Uint8Array(256), stats, 1)).toBe(0);
    expect(stats.timedOut).toBe(true);
  });

  it("gives -2 when two clues of a row, a column or a box share a symbol (the 9×9 kernel's code) and 0 when a cell has no candidate, in every size, as the kernel", async () => {
    const kernel = await generalKernels();
    const twin = twinEngines();
    const stats = { guesses: 0, timedOut: false };
    for (const box of [2, 3, 4, 5]) {
      const { size, cells } = shapeOf(box);
      const full = kernel.get(box)!.solveBatch(new Uint8Array(cells), 1, 1).solutions;
      const firstRow = full.map((symbol, cell) => (cell < size ? symbol : 0));
      const clash = (cell: number) => firstRow.map((symbol, c) => (c === cell ? full[0] : symbol));
      const rowClash = clash(1).map((symbol, c) => (c === 1 || c < size ? symbol : 0));
      // Row 0 given, and row 1 outside the first box holds row 0's symbols of the next box
      // (the last box those of box 1): no clue clashes, but cell (1, 0) sees every symbol.
      const noCandidate = full.map((symbol, c) => {
        const column = c - size;
        if (c < size) return symbol;
        if (column < box || column >= size) return 0;
        return full[column + box < size ? column + box : column + 2 * box - size];
      });
      const puzzles: [string, Uint8Array, number][] = [
        ["first row only", firstRow, 2],
        ["row clash", rowClash, -2],
        ["column clash", firstRow.map((symbol, c) => (c === size ? full[0] : symbol)), -2],
        ["box clash", firstRow.map((symbol, c) => (c === size + 1 ? full[0] : symbol)), -2],
      ];
      if (box > 2) {
        expect(findConflict(noCandidate, shapeOf(box))).toBeNull();
        puzzles.push(["no candidate", noCandidate, 0]);
      }
      for (const [name, puzzle, expected] of puzzles) {
        const solution = new Uint8Array(cells);
        expect(kernel.get(box)!.countSolutions(puzzle, 2, solution, stats), `box ${box}, ${name}`).toBe(expected);
        expect(twin.get(box)!.countSolutions(puzzle, 2, solution, stats), `twin, box ${box}, ${name}`).toBe(expected);
      }
    }
  });

  it("gives -1 for a byte over N and rejects an unsupported box size", () => {
    const twin = twinEngines();
    const puzzle = new Uint8Array(16);
    puzzle[3] = 5;
    expect(twin.get(2)!.countSolutions(puzzle, 2, new Uint8Array(16), { guesses: 0, timedOut: false })).toBe(-1);
    expect(() => new GeneralTsEngine(6)).toThrow(RangeError);
  });
});

describe("createSolver with a budget", () => {
  it("passes the budget to the general kernel for 4×4, 16×16 and 25×25 lines, in input order", async () => {
    const solver = await createSolver();
    const lines = [EMPTY_4, UNIQUE_4, ".".repeat(256), ".".repeat(625)];
    const capped = solver.solveMany(lines, { limit: 1000, budget: 3 });
    expect(capped.map((r) => r.status)).toEqual(["timeout", "solved", "timeout", "timeout"]);
    expect(capped[0].count).toBeLessThan(288);
    expect(solver.solve(".".repeat(256), { budget: 3 }).status).toBe("timeout");
    expect(solver.solveMany(lines, { limit: 1000 }).map((r) => r.status)).toEqual(["multiple", "solved", "multiple", "multiple"]);
  });
});

describe("N×N puzzle lines", () => {
  it("detects the alphabet from the characters and writes solutions in it", async () => {
    const solver = await createGeneralSolver();
    expect(parseSymbols(UNIQUE_4).alphabet).toBe("1234");
    expect(parseSymbols("G" + ".".repeat(255)).alphabet).toBe(HEX_LIKE);
    expect(parseSymbols("P" + ".".repeat(255)).alphabet).toBe(POJ);
    expect(parseSymbols("Y" + "-".repeat(624)).alphabet).toBe("ABCDEFGHIJKLMNOPQRSTUVWXY");
    const poj = solver.solve("P" + "-".repeat(255));
    expect(poj.solution!.startsWith("P")).toBe(true);
    expect(poj.solution).toMatch(/^[A-P]{256}$/);
    const hex = solver.solve("9" + "0".repeat(255));
    expect(hex.solution!.startsWith("9")).toBe(true);
    expect(hex.solution).toMatch(/^[1-9A-G]{256}$/);
  });

  it("round-trips a 16×16 puzzle between 1-9A-G and A-P", async () => {
    const solver = await createGeneralSolver();
    const full = solver.solve(".".repeat(256), { limit: 1 }).solution!;
    const puzzle = [...full].map((ch, cell) => (cell % 3 === 0 ? "." : ch)).join("");
    const asPoj = translate(puzzle, HEX_LIKE, POJ);
    const parsed = parseSymbols(asPoj);
    expect(parsed.alphabet).toBe(POJ);
    expect(formatGrid(parsed.grid, parsed.alphabet)).toBe(asPoj);
    expect(parsed.grid).toEqual(parseSymbols(puzzle).grid);
    const [hexRecord, pojRecord] = solver.solveMany([puzzle, asPoj], { limit: 1 });
    expect(translate(hexRecord.solution!, HEX_LIKE, POJ)).toBe(pojRecord.solution);
  });

  it("takes an explicit alphabet, with 0 as a symbol when the alphabet has it", async () => {
    const solver = await createGeneralSolver();
    const hexDigits = "0123456789ABCDEF";
    const record = solver.solve("0" + ".".repeat(255), { alphabet: hexDigits, limit: 1 });
    expect(record.solution!.startsWith("0")).toBe(true);
    expect(record.solution).toMatch(/^[0-9A-F]{256}$/);
    expect(() => parseSymbols(UNIQUE_4, { alphabet: "ABCDEFGHIJKLMNOP" })).toThrow(/expected 256 \(16×16\) characters, got 16/);
    expect(() => parseSymbols(UNIQUE_4, { alphabet: "12345" })).toThrow(/alphabet needs 4, 9, 16 or 25 symbols, got 5/);
    expect(() => parseSymbols(UNIQUE_4, { alphabet: "12.4" })).toThrow(/marks an empty cell/);
  });

  it("names the cell and the reason for bad input", async () => {
    const solver = await createGeneralSolver();
    expect(solver.solve("1".repeat(200)).error).toBe("expected 81 characters, got 200; a 16×16 puzzle has 256"); // no size has 200 cells: the 9×9 reader says so, and names the size nearer
    expect(solver.solve("1".repeat(255)).error).toBe("expected 81 characters, got 255; a 16×16 puzzle has 256");
    expect(solver.solve("1".repeat(600)).error).toBe("expected 81 characters, got 600; a 25×25 puzzle has 625");
    expect(solver.solve("1".repeat(160)).error).toBe("expected 81 characters, got 160"); // nearer 81 than 256
    expect(solver.solve("1".repeat(15)).error).toBe("expected 81 characters, got 15"); // shorter: most likely a cut 9×9 line
    // More than 81 cells, N² of a size no solver takes: said so (a shorter line is most likely a 9×9 one cut short)
    const untaken = "(4×4, 9×9, 16×16, 25×25)";
    expect(solver.solve(".".repeat(36)).error).toBe("expected 81 characters, got 36");
    expect(solver.solve(".".repeat(64)).error).toBe("expected 81 characters, got 64");
    expect(solver.solve(".".repeat(121)).error).toBe(`expected 81 characters, got 121: an 11×11 grid, which no solver here takes ${untaken}`);
    expect(solver.solve(".".repeat(144)).error).toBe(`expected 81 characters, got 144: a 12×12 grid, which no solver here takes ${untaken}`);
    expect(solver.solve(".".repeat(1296)).error).toBe(`expected 81 characters, got 1296: a 36×36 grid, which no solver here takes ${untaken}`);
    expect(solver.solve(".".repeat(9)).error).toBe("expected 81 characters, got 9"); // a row, not a 3×3 grid
    const badCharacter = ".".repeat(17) + "Z" + ".".repeat(238);
    expect(solver.solve(badCharacter)).toMatchObject({ status: "invalid", count: 0, solution: null });
    expect(solver.solve(badCharacter).error).toMatch(/^cell 18 \(row 2, column 2\) contains invalid character 'Z'/);
    const mixed = "1" + ".".repeat(100) + "P" + ".".repeat(154);
    expect(solver.solve(mixed).error).toMatch(/^cell 102 \(row 7, column 6\) contains invalid character 'P' \(symbols 1-9A-G or A-P/);
    expect(solver.solve("5" + ".".repeat(15)).error).toMatch(/^cell 1 \(row 1, column 1\) contains invalid character '5'/);
    const repeatedInColumn = "A" + ".".repeat(15) + "." + ".".repeat(15) + "A" + ".".repeat(223);
    expect(solver.solve(repeatedInColumn).error).toBe("cell 33 (row 3, column 1): symbol 'A' is repeated in column 1 (also at cell 1 (row 1, column 1))");
    const repeatedInBox = "3" + ".".repeat(9) + "3" + ".".repeat(70);
    expect(solver.solve(repeatedInBox).error).toBe(
      // a 9×9 line: the 9×9 reader names it
      "cell 11 (row 2, column 2): digit 3 is repeated in box 1 (also at cell 1 (row 1, column 1))",
    );
  });

  it("keeps one record per line, in order, across sizes and invalid lines", async () => {
    const solver = await createGeneralSolver();
    const lines = [UNIQUE_4, "not a puzzle", ".".repeat(256), UNSOLVABLE_4, "1".repeat(16), ".".repeat(81)];
    const records = solver.solveMany(lines);
    expect(records.map((r) => r.status)).toEqual(["solved", "invalid", "multiple", "unsolvable", "invalid", "multiple"]);
    const ts = (await createGeneralSolver({ engine: "ts" })).solveMany(lines);
    expect(ts).toEqual(records);
    expect(() => solver.solveMany(lines, { limit: 0 })).toThrow(RangeError);
  });
});

describe("solve --solver general-wasm on a 9×9 line with a repeated clue", () => {
  const line = "1.1" + ".".repeat(78);
  const record = (args: string[]) =>
    JSON.parse(
      runCli(["solve", "--out", "jsonl", ...args], { input: line + "\n" })
        .stdout.trim()
        .split("\n")[0],
    );

  it.each([["0"], ["1"]])("gives the invalid record naming the cell, as the 9×9 kernel does (--threads %s)", (threads) => {
    const expected = record(["--solver", "wasm", "--threads", threads]);
    expect(expected).toMatchObject({ status: "invalid", count: 0 });
    expect(expected.error).toMatch(/cell 3 \(row 1, column 3\): digit 1 is repeated in row 1/);
    expect(record(["--solver", "general-wasm", "--threads", threads])).toEqual(expected);
  });
});
