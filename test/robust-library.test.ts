/**
 * The library: `solve` and `solveMany` never throw for a bad puzzle, whatever its
 * value or type (an `invalid` record with the reason instead), and options follow one rule for
 * every grid size.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import asc from "assemblyscript/asc";
import { beforeAll, describe, expect, it } from "vitest";
import { type Solver, WasmKernel, createSolver } from "../src/index.js";
import { loadFixture } from "./fixture.js";

let solver: Solver;
beforeAll(async () => {
  solver = await createSolver();
});

const P = loadFixture().find((c) => c.count === 1 && c.puzzle.includes("."))!.puzzle;
const GRID = Uint8Array.from(P, (ch) => (ch === "." ? 0 : Number(ch)));
const EMPTY_16 = ".".repeat(256);
const EMPTY_25 = ".".repeat(625);

describe("the library never throws for a bad puzzle value or type", () => {
  it("gives an invalid record naming the type for undefined, null, numbers and objects, alone or inside a batch", () => {
    for (const value of [undefined, null, 42, {}, new Map(), Symbol("p"), () => P]) {
      const record = solver.solve(value as never);
      expect(record.status).toBe("invalid");
      expect(record.error).toMatch(/^expected a puzzle as text or an array of cell values, got /);
    }
    const records = solver.solveMany([P, undefined as never, P]);
    expect(records.map((r) => r.status)).toEqual(["solved", "invalid", "solved"]);
    expect(records[1].error).toContain("got undefined");
  });

  it("reads null options as no options", () => {
    expect(solver.solve(P, null).status).toBe("solved");
  });

  it("names the cell of an array value that is not a whole number 0-N (-1, 1.5, 'a', -1e10), in arrays and typed arrays", () => {
    for (const [value, shown] of [
      [-1, "-1"],
      [1.5, "1.5"],
      ["a", "'a'"],
      [-1e10, "-10000000000"],
      [NaN, "NaN"],
      [10, "10"],
      [null, "null"],
      [{}, "an object"],
      [new Map(), "a Map"],
    ] as const) {
      const cells: unknown[] = Array.from(GRID);
      cells[3] = value;
      const record = solver.solve(cells as never);
      expect(record).toMatchObject({ status: "invalid", count: 0, solution: null });
      expect(record.error).toBe(`cell 4 (row 1, column 4) holds ${shown}, not 0-9`);
    }
    const signed = Int8Array.from(GRID);
    signed[0] = -1;
    expect(solver.solve(signed as never).error).toMatch(/^cell 1 .* holds -1/);
    // a text's bytes (a Buffer read from a file) are told as such
    expect(solver.solve(new TextEncoder().encode(P.replaceAll(".", "0")) as never).error).toMatch(
      /^cell 1 \(row 1, column 1\) holds \d+, not 0-9 \(the byte of '\d': for text, give the puzzle as a string\)$/,
    );
    // several lines' bytes (a chunk of a stream of bytes that was not read as lines: a DecompressionStream's, Readable.toWeb's)
    const chunk = new TextEncoder().encode(`${P}\n${P}\r\n${P}`);
    expect(solver.solve(chunk as never).error).toBe(
      `expected 16, 81, 256, 625 cells, got ${chunk.length} (bytes of text with line breaks: a chunk of a stream? ` +
        "give each line as a string, or the pool (sudoku-wasm/pool) the stream of bytes itself, which it reads as lines)",
    );
    expect(solver.solve(new Uint8Array(100) as never).error).toBe("expected 16, 81, 256, 625 cells, got 100"); // no text, no hint
    // cell values of 10 and 13 (a 16×16 grid of values, one short) are no line breaks
    expect(solver.solve(new Uint8Array(255).fill(10).fill(13, 0, 5) as never).error).toBe("expected 16, 81, 256, 625 cells, got 255");
    expect(solver.solve(new ArrayBuffer(81) as never).error).toBe("expected a puzzle as text or an array of cell values, got an ArrayBuffer");
    expect(solver.solve(Array.from(GRID) as never).status).toBe("solved");
  });

  it("reads a String object like the string it holds", () => {
    // eslint-disable-next-line no-new-wrappers
    expect(solver.solve(new String(P) as never)).toEqual(solver.solve(P));
  });

  it("solves a grid whose options' getter calls solve again (it answered the inner call's emptied input: invalid)", () => {
    const inner: string[] = [];
    const options = {
      get limit() {
        inner.push(solver.solve(new Uint8Array(16)).status);
        return 2;
      },
    };
    expect(solver.solve(GRID, options)).toEqual(solver.solve(GRID));
    expect(inner.length).toBeGreaterThan(0);
  });
});

describe("one budget and limit rule for every grid size", () => {
  it("refuses the same budgets (0, -1, NaN, 0.5) and limits with the same RangeError for 9×9, 16×16 and 25×25", () => {
    for (const puzzle of [P, EMPTY_16, EMPTY_25]) {
      for (const budget of [0, -1, NaN, 0.5])
        expect(() => solver.solve(puzzle, { budget })).toThrow(`budget must be at least 1 search node (or Infinity), got ${budget}`);
      for (const limit of [0, 1.5, NaN]) expect(() => solver.solve(puzzle, { limit })).toThrow(/^limit must be a whole number/);
      expect(solver.solve(puzzle, { budget: Infinity }).status).not.toBe("invalid");
    }
  });

  it("gives status timeout at budget 1 on every size", () => {
    for (const puzzle of [".".repeat(81), EMPTY_16, EMPTY_25]) expect(solver.solve(puzzle, { budget: 1 }).status).toBe("timeout");
  });
});

describe("stored solutions are flat strings (memory bounded by the work, not by string pieces)", () => {
  /**
   * Heap bytes per kept result, measured in a child with --expose-gc: 20,000 formatted grids and
   * 20,000 solveMany records. A string built with `+=` per cell is a rope of N² pieces (2,250
   * bytes for 81 cells, measured before the fix); a flat 81-character string takes about 100.
   */
  it("keeps a formatted 9×9 grid in about its own size, and a solveMany record in a few hundred bytes", () => {
    const dist = new URL("../dist/src/index.js", import.meta.url).href;
    const easy = new URL("../datasets/easy.txt", import.meta.url).pathname;
    const script = `
      const { createSolver, formatPuzzle, formatGrid } = await import(${JSON.stringify(dist)});
      const solver = await createSolver();
      const n = 20000;
      const grid = new Uint8Array(81).map((_, i) => 1 + ((i * 7 + Math.floor(i / 9)) % 9));
      const perItem = (make) => {
        gc(); const before = process.memoryUsage().heapUsed;
        const kept = make();
        gc(); const after = process.memoryUsage().heapUsed;
        return (after - before) / kept.length;
      };
      const lines = (await import("node:fs")).readFileSync(${JSON.stringify(easy)}, "utf8").trim().split("\\n");
      const puzzles = Array.from({ length: n }, (_, i) => lines[i % lines.length]);
      console.log(JSON.stringify({
        formatPuzzle: perItem(() => Array.from({ length: n }, () => formatPuzzle(grid))),
        formatGrid: perItem(() => Array.from({ length: n }, () => formatGrid(grid, "ABCDEFGHI"))),
        record: perItem(() => solver.solveMany(puzzles)),
      }));`;
    const run = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    const perItem = JSON.parse(run.stdout) as Record<string, number>;
    expect(perItem.formatPuzzle).toBeLessThan(400);
    expect(perItem.formatGrid).toBeLessThan(400);
    expect(perItem.record).toBeLessThan(600);
  });
});

describe("kernel memory is reused between batches, and sizes are checked in host and kernel", () => {
  /** The raw exports of a kernel instance (memory, reserve, solveBatch), for what the host hides. */
  type RawKernel = { memory: WebAssembly.Memory; reserve(...args: number[]): number; solveBatch(...args: number[]): number };
  const raw = (kernel: WasmKernel): RawKernel => (kernel as unknown as { exports: RawKernel }).exports;

  it("keeps memory at about the largest batch when batches grow (the old block is reused, not left behind)", async () => {
    const kernel = await WasmKernel.create();
    for (let count = 2000; count <= 40_000; count += 2000) kernel.input(count);
    // 20 growing batches: 73 MB if each took a fresh block; the largest alone is 7 MB.
    expect(raw(kernel).memory.buffer.byteLength).toBeLessThan(24 << 20);
    const general = await WasmKernel.create(undefined, "general", 4);
    for (let count = 200; count <= 4000; count += 200) general.input(count);
    expect(raw(general).memory.buffer.byteLength).toBeLessThan(24 << 20);
  });

  it("keeps memory bounded when batches grow with their records written after each: blocks grow by powers of two", async () => {
    const kernel = await WasmKernel.create();
    const start = raw(kernel).memory.buffer.byteLength;
    for (let count = 200; count <= 4000; count += 200) {
      kernel.input(count).fill(0); // empty grids: each has many solutions, found at once
      kernel.run(count, 2);
      const texts = new Uint8Array(count * 81).fill(46);
      const bytes = kernel.writeRecords!({
        format: "jsonl",
        count,
        fast: count,
        texts,
        lines: Int32Array.from({ length: count }, (_, i) => i + 1),
        sources: null,
        given: new Int32Array(0),
        givens: 0,
        arena: new Uint8Array(0),
        firstIndex: 0,
        step: 1,
        piece: new TextEncoder().encode(',"file":"x","line":'),
        guesses: true,
      });
      const text = new TextDecoder().decode(bytes);
      expect(text.split("\n")).toHaveLength(count + 1);
      expect(text.slice(0, text.indexOf("\n") + 1)).toMatch(
        /^\{"index":0,"file":"x","line":1,"puzzle":"\.{81}","status":"multiple","solution":"\d{81}","count":2,"guesses":\d+,"error":null\}\n$/,
      );
    }
    // 20 growing batches, each with its records area after it: 28 MB if each took fresh blocks.
    expect(raw(kernel).memory.buffer.byteLength - start).toBeLessThan(12 << 20);
  });

  it("writes a given record, and refuses records whose entries point outside the request or that name a rejected puzzle as fast", async () => {
    const kernel = await WasmKernel.create();
    kernel.input(2).set(new Uint8Array(2 * 81)); // two empty grids: `multiple`
    kernel.input(2)[81] = 10; // the second: a byte over 9, rejected
    kernel.run(2, 2);
    const given = (fields: number[]) => Int32Array.from(fields);
    const request = {
      format: "jsonl" as const,
      count: 1,
      fast: 0,
      texts: null,
      lines: Int32Array.of(1),
      sources: Int32Array.of(-1),
      given: given([3, 0, 0, 3, -1, 0, -1, 0, 3, 3]), // invalid, count 0, puzzle "a", error "b"
      givens: 1,
      arena: new TextEncoder().encode('"a""b"'),
      firstIndex: 0,
      step: 1,
      piece: new TextEncoder().encode(',"file":"x","line":'),
      guesses: false,
    };
    expect(new TextDecoder().decode(kernel.writeRecords!(request))).toBe(
      '{"index":0,"file":"x","line":1,"puzzle":"a","status":"invalid","solution":null,"count":0,"guesses":null,"error":"b"}\n',
    );
    const refused = /the kernel refused the records/;
    expect(() => kernel.writeRecords!({ ...request, given: given([3, 0, 0, 3, -1, 0, -1, 0, 3, 4]) })).toThrow(refused); // a token past the arena
    expect(() => kernel.writeRecords!({ ...request, given: given([6, 0, 0, 3, -1, 0, -1, 0, 3, 3]) })).toThrow(refused); // no such status
    expect(() => kernel.writeRecords!({ ...request, sources: Int32Array.of(-2) })).toThrow(refused); // no such given record
    expect(() => kernel.writeRecords!({ ...request, count: 2, fast: 2, sources: null, givens: 0, lines: Int32Array.of(1, 2) })).toThrow(refused); // the rejected puzzle as fast
    expect(() => kernel.writeRecords!({ ...request, fast: 3 })).toThrow(/without a matching input\(\) first/); // past the batch solved
  });

  it("counts guesses and nodes past an i32 without a budget: builds that carry them at 500 nodes give the default's totals", async () => {
    // The kernels count in i32 and move the counts to i64 totals at a node limit (2^31 - 2^20 nodes; CARRY_AT here), where a
    // search of minutes without a budget wrapped them negative and read as stopped by the budget.
    const folder = mkdtempSync(join(tmpdir(), "sudoku-carry-"));
    try {
      const built = async (entry: string, target: string) => {
        const wasm = join(folder, `${target}.wasm`);
        const { error, stderr } = await asc.main([entry, "--target", target, "-o", wasm, "--textFile", join(folder, `${target}.wat`), "--use", "CARRY_AT=500"]);
        expect(error, stderr.toString()).toBeNull();
        return readFileSync(wasm);
      };
      const totals = (kernel: WasmKernel, puzzles: Uint8Array, count: number, limit: number, budget?: number) => {
        const { counts, guesses, nodes } = kernel.solveBatch(puzzles, count, limit, budget);
        return { counts: Array.from(counts), guesses: Array.from(guesses!), nodes: Array.from(nodes!) };
      };
      const nine = new Uint8Array(2 * 81); // an empty grid, and the fixture's puzzle
      nine.set(GRID, 81);
      const carried = await WasmKernel.create(await built("assembly/index.ts", "debug"));
      const release = await WasmKernel.create();
      const many = totals(release, nine, 2, 3000);
      expect(many.nodes[0]).toBeGreaterThan(3000); // carried several times
      expect(totals(carried, nine, 2, 3000)).toEqual(many);
      expect(totals(carried, nine, 2, 3000, 400)).toEqual(totals(release, nine, 2, 3000, 400)); // a budget below the limit still stops it
      expect(totals(carried, nine, 2, 3000, 600)).toEqual(many); // one above it is no cap (past two billion states in a release build)
      const sixteen = new Uint8Array(256); // an empty 16×16 grid
      const general = await WasmKernel.create(await built("assembly/general.ts", "general-debug"), undefined, 4);
      const generalRelease = await WasmKernel.create(undefined, "general", 4);
      const wide = totals(generalRelease, sixteen, 1, 2000);
      expect(wide.nodes[0]).toBeGreaterThan(1000);
      expect(totals(general, sixteen, 1, 2000)).toEqual(wide);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it("runs no more puzzles than the last input() took, whatever batch was reserved before", async () => {
    const kernel = await WasmKernel.create();
    const many = kernel.input(100);
    for (let i = 0; i < 100; i++) many.set(GRID, i * 81);
    expect(Array.from(kernel.run(100, 2).counts.slice(0, 3))).toEqual([1, 1, 1]);
    kernel.input(3).set(new Uint8Array(3 * 81)); // three empty grids in the larger room
    expect(() => kernel.run(100, 2)).toThrow(/run\(100\) without a matching input\(\) first \(the last took 3 puzzles\)/);
    expect(Array.from(kernel.run(3, 2).counts)).toEqual([2, 2, 2]);
    expect(kernel.run(2, 1).counts).toHaveLength(2); // fewer than it took: its first two
    // ... whose results were written where the third puzzle's cells were: a later run of all three is refused, not answered from them
    expect(() => kernel.run(3, 2)).toThrow(/run\(3\) without a matching input\(\) first \(the last took 2 puzzles\)/);
    expect(() => kernel.input("3" as unknown as number)).toThrow('a batch holds a whole number of puzzles from 0, got the string "3"');
  });

  it("refuses a batch that cannot fit with a RangeError naming the limit, before touching memory", async () => {
    const kernel = await WasmKernel.create();
    const before = raw(kernel).memory.buffer.byteLength;
    expect(() => kernel.input(30e6)).toThrow(
      /a batch of 30000000 puzzles of 81 cells needs 5220000000 bytes, over the limit of 1073741760 bytes \(2\^30 - 64\): at most 6170929/,
    );
    expect(() => kernel.input(10e6)).toThrow(RangeError);
    expect(() => kernel.input(-1)).toThrow(/a whole number of puzzles from 0, got -1/);
    expect(() => kernel.input(1.5)).toThrow(/got 1\.5/);
    expect(raw(kernel).memory.buffer.byteLength).toBe(before);
    expect(() => kernel.run(10e6, 2)).toThrow(RangeError);
    const general = await WasmKernel.create(undefined, "general", 5);
    expect(() => general.input(2e6)).toThrow(/puzzles of 625 cells needs .* over the limit of 1073741760 bytes/);
  });

  it("has the kernels check sizes themselves: reserve returns 0 past the limit, solveBatch refuses a batch past the reserved one", async () => {
    const kernel = raw(await WasmKernel.create());
    expect(kernel.reserve(30e6, 3)).toBe(0); // 30e6 × 174 bytes wraps past 2^32 in 32-bit arithmetic
    expect(kernel.reserve(-5, 3)).toBe(0);
    const base = kernel.reserve(10, 3);
    expect(base).toBeGreaterThan(0);
    expect(kernel.solveBatch(base, 11, 2, 0)).toBe(-1);
    expect(kernel.solveBatch(base + 81, 10, 2, 0)).toBe(-1);
    const general = raw(await WasmKernel.create(undefined, "general", 4));
    expect(general.reserve(2e6, 5)).toBe(0);
    const at = general.reserve(4, 4);
    expect(general.solveBatch(at, 5, 2, 0)).toBe(-1);
  });
});
