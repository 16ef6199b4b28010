/**
 * Bring your own solver: a JavaScript module (examples/my-solver.mjs) and a WebAssembly module
 * behind the wasm-abi, which this test builds itself from examples/wasm-abi/solver.ts (an
 * AssemblyScript wrapper around the project's kernel) and runs through the fixture and the bench.
 */
import asc from "assemblyscript/asc";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSolver, resolveSolvers } from "../bench/custom-solvers.js";
import { runBench } from "../bench/runner.js";
import { loadDatasets } from "../src/datasets.js";
import { formatPuzzle, parsePuzzle } from "../src/puzzle.js";
import { CELLS } from "../src/shape.js";
import { findSolver } from "../src/registry.js";
import { type SearchStats, type SolverEngine, Solver, solvePacked } from "../src/solver.js";
import { WasmAbiEngine, instantiateAbiSolver } from "../src/solvers/wasm-abi.js";
import { loadFixture } from "./fixture.js";

const folder = mkdtempSync(join(tmpdir(), "sudoku-abi-"));
const wasmPath = join(folder, "abi-solver.wasm");

beforeAll(async () => {
  const { error, stderr } = await asc.main(["examples/wasm-abi/solver.ts", "--target", "release", "-o", wasmPath]);
  if (error) throw new Error(`asc failed: ${error.message}\n${stderr.toString()}`);
}, 120_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs every fixture case with a count through `engine`; returns what differs from the fixture. */
function fixtureMismatches(engine: SolverEngine): string[] {
  const solution = new Uint8Array(CELLS);
  const stats: SearchStats = { guesses: 0, timedOut: false };
  const problems: string[] = [];
  for (const fixture of loadFixture()) {
    if (fixture.count === "invalid") continue;
    const count = engine.countSolutions(parsePuzzle(fixture.puzzle), 2, solution, stats, Infinity);
    if (count !== fixture.count) problems.push(`line ${fixture.line}: count ${count}, expected ${fixture.count}`);
    else if (fixture.solution && formatPuzzle(solution) !== fixture.solution) problems.push(`line ${fixture.line}: wrong solution`);
  }
  return problems;
}

describe("wasm-abi", () => {
  it("round-trips the fixture through a module built for the ABI, with the kernel's guesses", async () => {
    const info = await resolveSolver(`wasm-abi:${wasmPath}`);
    expect(info).toMatchObject({ id: `wasm-abi:${wasmPath}`, external: true, capabilities: { guesses: true, budget: false } });
    const engine = await info.load(9);
    expect(fixtureMismatches(engine)).toEqual([]);
    // Same guesses as the kernel itself, puzzle by puzzle.
    const kernel = await findSolver("wasm").load(9);
    const a: SearchStats = { guesses: 0, timedOut: false };
    const b: SearchStats = { guesses: 0, timedOut: false };
    const solution = new Uint8Array(CELLS);
    for (const fixture of loadFixture().filter((f) => f.count === 1)) {
      const grid = parsePuzzle(fixture.puzzle);
      engine.countSolutions(grid, 2, solution, a, Infinity);
      kernel.countSolutions(grid, 2, solution, b, Infinity);
      expect(a.guesses, `line ${fixture.line}`).toBe(b.guesses);
    }
  });

  it("uses a page it grows when the module exports no allocator", async () => {
    const { readFile } = await import("node:fs/promises");
    const full = await instantiateAbiSolver(await readFile(wasmPath), "abi");
    const exports = (full as unknown as { exports: ConstructorParameters<typeof WasmAbiEngine>[0] }).exports;
    const pagesBefore = exports.memory.buffer.byteLength / 65536;
    const engine = new WasmAbiEngine({ memory: exports.memory, solve: exports.solve }, "no allocator");
    expect(exports.memory.buffer.byteLength / 65536).toBe(pagesBefore + 1);
    expect(fixtureMismatches(engine)).toEqual([]);
  });

  it("runs a WASI reactor's _initialize before solving (the example built with asc --exportStart _initialize, as emscripten's STANDALONE_WASM builds C)", async () => {
    const reactorPath = join(folder, "abi-reactor.wasm");
    const { error, stderr } = await asc.main(["examples/wasm-abi/solver.ts", "--target", "release", "--exportStart", "_initialize", "-o", reactorPath]);
    if (error) throw new Error(`asc failed: ${error.message}\n${stderr.toString()}`);
    const { readFile } = await import("node:fs/promises");
    const bytes = await readFile(reactorPath);
    const exported = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((entry) => entry.name);
    expect(exported).toContain("_initialize");
    expect(fixtureMismatches(await instantiateAbiSolver(bytes, "reactor.wasm"))).toEqual([]);
  }, 120_000);

  it("names what is wrong with a module that does not follow the ABI", async () => {
    await expect(instantiateAbiSolver(new Uint8Array([1, 2, 3]), "junk.wasm")).rejects.toThrow(/junk\.wasm: not a WebAssembly module/);
    // (module (memory (export "memory") 1)): a memory but no solve.
    const memoryOnly = Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0, 5, 3, 1, 0, 1, 7, 10, 1, 6, 109, 101, 109, 111, 114, 121, 2, 0]);
    await expect(instantiateAbiSolver(memoryOnly, "empty.wasm")).rejects.toThrow(/empty\.wasm: exports no function solve\(puzzle_ptr/);
    await expect((await resolveSolver("wasm-abi:./missing.wasm")).load(9)).rejects.toThrow(/missing\.wasm: cannot read the wasm-abi solver \(ENOENT\)/);
  });
});

describe("solver modules", () => {
  it("loads examples/my-solver.mjs and passes the fixture", async () => {
    const info = await resolveSolver("./examples/my-solver.mjs");
    expect(info).toMatchObject({ id: "./examples/my-solver.mjs", external: true, capabilities: { guesses: true, budget: true } });
    expect(info.description).toMatch(/fewest candidates/);
    expect(fixtureMismatches(await info.load(9))).toEqual([]);
  });

  it("is shown in docs/bench.md as it is (the file below its three-line header)", () => {
    const file = readFileSync("examples/my-solver.mjs", "utf8").split("\n").slice(3).join("\n");
    const doc = readFileSync("docs/bench.md", "utf8");
    const start = doc.indexOf("```js\nexport const description") + "```js\n".length;
    expect(doc.slice(start, doc.indexOf("```", start))).toBe(file);
  });

  it("explains a module whose default export is not an engine, and a missing one", async () => {
    const path = join(folder, "not-an-engine.mjs");
    writeFileSync(path, "export default { solve() {} };\n");
    await expect((await resolveSolver(path)).load(9)).rejects.toThrow(/not a solver engine \(an object with countSolutions/);
    await expect(resolveSolver("./nowhere/solver.mjs")).rejects.toThrow(/--solvers \.\/nowhere\/solver\.mjs: cannot load it \(no such module\)/);
    await expect(resolveSolvers(["wasm", "wasm"])).rejects.toThrow(/'wasm' is given twice/);
    expect((await resolveSolver("bitmask")).id).toBe("bitmask");
  });

  it("benches the kernel, a module and a wasm-abi module side by side, verified", async () => {
    const [dataset] = loadDatasets("hard");
    const solvers = await resolveSolvers(["wasm", "./examples/my-solver.mjs", `wasm-abi:${wasmPath}`]);
    const records = await runBench({
      solvers, datasets: [dataset], limit: 2, timeMs: 10, budget: 100_000, seed: 3, maxPuzzles: 5, expectationOf: () => "unique",
    });
    expect(records.map((r) => r.row)).toEqual(["wasm", "wasm (1 call/puzzle)", "./examples/my-solver.mjs", `wasm-abi:${wasmPath}`]);
    const [wasm, , mine, abi] = records;
    expect(mine.puzzles).toBe(5);
    expect(abi.guessesPerPuzzle).toBe(wasm.guessesPerPuzzle);
    expect(abi.puzzlesPerSecond).toBeGreaterThan(0);
  });
});

describe("a figure an engine cannot tell is unknown end to end", () => {
  /** A 9×9 engine of one puzzle per call that counts 1 (0 for the second puzzle, which it gives up on) and never knows its guesses. */
  const unknowing: SolverEngine = {
    countSolutions(puzzle, _limit, solution, stats) {
      stats.guesses = NaN;
      stats.timedOut = puzzle[0] === 9;
      if (stats.timedOut) return 0;
      solution.set(parsePuzzle(loadFixture().find((c) => c.solution)!.solution!));
      return 1;
    },
  };

  it("gives NaN guesses and nodes in the batch (-Infinity nodes where the budget stopped it) and null guesses in the record, never an invented 0 or ±1", () => {
    const puzzles = new Uint8Array(2 * CELLS);
    puzzles[CELLS] = 9;
    const result = solvePacked(unknowing, puzzles, 2, CELLS, 2, Infinity);
    expect(Array.from(result.counts)).toEqual([1, 0]);
    expect(Array.from(result.guesses)).toEqual([NaN, NaN]);
    expect(Array.from(result.nodes)).toEqual([NaN, -Infinity]);
    const solver = new Solver(new Map([[9, { id: "unknowing", engine: unknowing, reportsGuesses: true }]]));
    const [solved, stopped] = solver.solveMany([".".repeat(CELLS), "9" + ".".repeat(CELLS - 1)]);
    expect(solved).toMatchObject({ status: "solved", guesses: null });
    expect(stopped).toMatchObject({ status: "timeout", guesses: null });
  });
});
