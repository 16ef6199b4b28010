/**
 * Bring your own solver: a JavaScript module (examples/my-solver.mjs) and a WebAssembly module
 * behind the wasm-abi, which this test builds itself from examples/wasm-abi/solver.ts (an
 * AssemblyScript wrapper around the project's kernel) and runs through the fixture and the bench.
 */
import asc from "assemblyscript/asc";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve as resolvePath, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSolver, resolveSolvers } from "../bench/custom-solvers.js";
import { runBench } from "../bench/runner.js";
import { loadDatasets } from "../src/datasets/read.js";
import { formatPuzzle, parsePuzzle } from "../src/model/puzzle.js";
import { CELLS } from "../src/model/shape.js";
import { findSolver } from "../src/solvers/registry.js";
import { type SearchStats, type SolverEngine, Solver, solvePacked } from "../src/solvers/solver.js";
import { WasmAbiEngine, instantiateAbiSolver } from "../bench/wasm-abi.js";
import { loadFixture } from "./fixture.js";

const folder = mkdtempSync(join(tmpdir(), "sudoku-abi-"));
/**
 * asc's flags for the modules these tests build: unoptimised (what is checked is how the host
 * calls a module, not its speed; binaryen's -O3 would take most of the file's time), with the
 * release target's `noAssert`.
 */
const TEST_BUILD = ["-O0", "--noAssert"];
const wasmPath = join(folder, "abi-solver.wasm");

beforeAll(async () => {
  const { error, stderr } = await asc.main(["examples/wasm-abi/solver.ts", ...TEST_BUILD, "-o", wasmPath]);
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
    const { error, stderr } = await asc.main(["examples/wasm-abi/solver.ts", ...TEST_BUILD, "--exportStart", "_initialize", "-o", reactorPath]);
    if (error) throw new Error(`asc failed: ${error.message}\n${stderr.toString()}`);
    const { readFile } = await import("node:fs/promises");
    const bytes = await readFile(reactorPath);
    const exported = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((entry) => entry.name);
    expect(exported).toContain("_initialize");
    expect(fixtureMismatches(await instantiateAbiSolver(bytes, "reactor.wasm"))).toEqual([]);
  }, 120_000);

  it("gives a reactor's _initialize the random bytes it asks for (env.getentropy, WASI's random_get), and names any other import it calls", async () => {
    // The example behind a start that asks for 32 random bytes, as emscripten's reactors do, and
    // traps unless they came (a zero run of 16 bytes has odds of 2^-128). `via` picks the import.
    const example = relative(folder, resolvePath("examples/wasm-abi/solver")).split(sep).join("/");
    const build = async (via: string): Promise<Uint8Array<ArrayBuffer>> => {
      const [from, name] = via.split(".");
      const source = join(folder, `${name}.ts`);
      writeFileSync(
        source,
        `export { malloc, solve } from "${example}";
@external("${from}", "${name}") declare function entropy(buffer: usize, length: usize): i32;
const seed = memory.data(32);
if (entropy(seed, 32) != 0 || (load<u64>(seed) == 0 && load<u64>(seed, 8) == 0) || (load<u64>(seed, 16) == 0 && load<u64>(seed, 24) == 0)) unreachable();
`,
      );
      const wasm = join(folder, `${name}.wasm`);
      const { error, stderr } = await asc.main([source, ...TEST_BUILD, "--exportStart", "_initialize", "-o", wasm]);
      if (error) throw new Error(`asc failed: ${error.message}\n${stderr.toString()}`);
      return new Uint8Array(readFileSync(wasm));
    };
    for (const via of ["env.getentropy", "wasi_snapshot_preview1.random_get"]) {
      expect(fixtureMismatches(await instantiateAbiSolver(await build(via), via)), via).toEqual([]);
    }
    await expect(instantiateAbiSolver(await build("env.seed"), "seeded.wasm")).rejects.toThrow(
      /seeded\.wasm: its _initialize failed \(seeded\.wasm: the solver called its import env\.seed, which the wasm-abi host does not provide\)/,
    );
  }, 120_000);

  it("ends the puzzle with a NUL, as a C string: tdoku takes an 82nd byte of '.' or more for its pencilmark form", async () => {
    // The example behind a solve that, as tdoku does, reads the byte after the 81 cells and
    // refuses the puzzle when it is not a string's end (the solution once lay right there).
    const example = relative(folder, resolvePath("examples/wasm-abi/solver")).split(sep).join("/");
    const source = join(folder, "c-string.ts");
    writeFileSync(
      source,
      `import { solve as solveExample } from "${example}";
export { malloc } from "${example}";
export function solve(puzzle: usize, limit: u32, flags: u32, solution: usize, guesses: usize): u32 {
  return load<u8>(puzzle + 81) != 0 ? 0 : solveExample(puzzle, limit, flags, solution, guesses);
}
`,
    );
    const wasm = join(folder, "c-string.wasm");
    const { error, stderr } = await asc.main([source, ...TEST_BUILD, "-o", wasm]);
    if (error) throw new Error(`asc failed: ${error.message}\n${stderr.toString()}`);
    expect(fixtureMismatches(await instantiateAbiSolver(readFileSync(wasm), "c-string.wasm"))).toEqual([]);
  }, 120_000);

  it("names what is wrong with a module that does not follow the ABI", async () => {
    await expect(instantiateAbiSolver(new Uint8Array([1, 2, 3]), "junk.wasm")).rejects.toThrow(/junk\.wasm: not a WebAssembly module/);
    // (module (memory (export "memory") 1)): a memory but no solve.
    const memoryOnly = Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0, 5, 3, 1, 0, 1, 7, 10, 1, 6, 109, 101, 109, 111, 114, 121, 2, 0]);
    await expect(instantiateAbiSolver(memoryOnly, "empty.wasm")).rejects.toThrow(/empty\.wasm: exports no function solve\(puzzle_ptr/);
    await expect((await resolveSolver("wasm-abi:./missing.wasm")).load(9)).rejects.toThrow(/missing\.wasm: cannot read the wasm-abi solver \(ENOENT\)/);
  });

  it("is loaded once when the bench's solvers are resolved, so that a file that is no module is refused before measuring, naming it", async () => {
    const junk = join(folder, "junk.wasm");
    writeFileSync(junk, "not wasm");
    await expect(resolveSolvers(["wasm", `wasm-abi:${junk}`])).rejects.toThrow(
      new RegExp(`^--solvers wasm-abi:${junk.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not a WebAssembly module \\([^\n]+\\)$`),
    );
    await expect(resolveSolvers(["wasm-abi:./missing.wasm"])).rejects.toThrow("--solvers wasm-abi:./missing.wasm: cannot read the wasm-abi solver (ENOENT)");
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
    // the bench's solvers, resolved before measuring: one line naming the item
    await expect(resolveSolvers(["wasm", path])).rejects.toThrow(`--solvers ${path}: the default export is not a solver engine (an object with countSolutions`);
    const factory = join(folder, "factory-of-nothing.mjs");
    writeFileSync(factory, "export default async (size) => null;\n");
    await expect(resolveSolvers([factory])).rejects.toThrow(`--solvers ${factory}: the default export is not a solver engine`);
    await expect(resolveSolver("./nowhere/solver.mjs")).rejects.toThrow(/--solvers \.\/nowhere\/solver\.mjs: cannot load it \(no such module\)/);
    await expect(resolveSolvers(["wasm", "wasm"])).rejects.toThrow(/'wasm' is given twice/);
    expect((await resolveSolver("bitmask")).id).toBe("bitmask");
  });

  it("refuses a module whose id is a built-in solver's, saying so and how to rename it (it read 'given twice', or took the built-in row's place)", async () => {
    for (const id of ["wasm", "bitmask", "wasm:first"]) {
      const path = join(folder, `${id.replace(":", "-")}-id.mjs`);
      writeFileSync(path, `export { default } from ${JSON.stringify(resolvePath("examples/my-solver.mjs"))};\nexport const id = ${JSON.stringify(id)};\n`);
      const refusal = `--solvers ${path}: its id '${id}' is a built-in solver's; rename it (export const id = "my-${id}"), or export no id (its row is then named by its path)`;
      await expect(resolveSolvers([path]), id).rejects.toThrow(refusal);
      await expect(resolveSolvers(["wasm", path]), id).rejects.toThrow(refusal);
    }
    // two modules of one id: neither is given twice
    const [a, b] = ["a.mjs", "b.mjs"].map((name) => join(folder, name));
    for (const path of [a, b])
      writeFileSync(path, `export { default } from ${JSON.stringify(resolvePath("examples/my-solver.mjs"))};\nexport const id = "mine";\n`);
    await expect(resolveSolvers([a, b])).rejects.toThrow(`--solvers: two items have the id 'mine' (${a}) (${b}): give each solver module an id of its own`);
  });

  it("benches the kernel, a module and a wasm-abi module side by side, verified", async () => {
    const [dataset] = loadDatasets("hard");
    const solvers = await resolveSolvers(["wasm", "./examples/my-solver.mjs", `wasm-abi:${wasmPath}`]);
    const records = await runBench({
      solvers,
      datasets: [dataset],
      limit: 2,
      timeMs: 10,
      budget: 100_000,
      seed: 3,
      maxPuzzles: 5,
      expectationOf: () => "unique",
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
