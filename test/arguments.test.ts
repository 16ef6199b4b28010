/**
 * Arguments: the kernel API (`WasmKernel`, on both kernels) and the library's
 * options are checked where they enter, with a RangeError naming the argument and the value;
 * nothing is coerced into another limit, budget or grid.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type Solver, WasmKernel, createSolver } from "../src/index.js";

let kernel: WasmKernel;
/** The N×N kernel for 4×4 and 16×16 grids. */
let general4: WasmKernel;
let general16: WasmKernel;
let solver: Solver;
beforeAll(async () => {
  [kernel, general4, general16, solver] = await Promise.all([
    WasmKernel.create(),
    WasmKernel.create(undefined, "general", 2),
    WasmKernel.create(undefined, "general", 4),
    createSolver(),
  ]);
});

/** Limits the kernels read as i32 and once took as 1 (an empty grid then read as unique). */
const BAD_LIMITS = [0, -1, NaN, 0.5, 2 ** 31, 2 ** 32 + 1];
/** Budgets that are no number, NaN or negative (they read as no cap); 0 and Infinity are the engines' "no cap" (see test/baselines.test.ts). */
const BAD_BUDGETS: unknown[] = ["10", null, {}, Number.NaN, -5, -0.5, -Infinity];
const BUDGET_ERROR =
  /^budget must be a number of search nodes from 0 up \(0 or Infinity: no cap\), got (the string "10"|null|an object|NaN|-5|-0\.5|-Infinity)$/;
const stats = () => ({ guesses: 0, timedOut: false });

describe("the kernel API refuses arguments it would coerce", () => {
  it("WasmKernel.run refuses limits 0, -1, NaN, 0.5, 2^31, 2^32+1, bad budgets and counts, naming each; a good call still counts 2 for an empty grid", () => {
    for (const limit of BAD_LIMITS) {
      kernel.input(1).fill(0);
      expect(() => kernel.run(1, limit), `limit ${limit}`).toThrow(new RangeError(`limit must be a whole number from 1 to 2^31-1, got ${limit}`));
    }
    for (const budget of BAD_BUDGETS) {
      kernel.input(1).fill(0);
      expect(() => kernel.run(1, 2, budget as number), `budget ${String(budget)}`).toThrow(BUDGET_ERROR);
    }
    expect(() => kernel.run(1, 2, -5)).toThrow(new RangeError("budget must be a number of search nodes from 0 up (0 or Infinity: no cap), got -5"));
    for (const budget of [0, Infinity, undefined]) {
      kernel.input(1).fill(0);
      expect(kernel.run(1, 2, budget).counts[0], `budget ${budget}`).toBe(2); // no cap
    }
    for (const count of [NaN, 0.5, -1])
      expect(() => kernel.run(count, 2), `count ${count}`).toThrow(`count must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, got ${count}`);
    kernel.input(1).fill(0);
    expect(kernel.run(1, 2).counts[0]).toBe(2);
  });

  it("WasmKernel.countSolutions refuses an 80-byte grid (it read a stale 81st byte) and a short solution buffer; solveBatch a short batch", () => {
    const solution = new Uint8Array(81);
    kernel.input(1).fill(5); // a stale byte that an 80-byte puzzle would leave in place
    expect(() => kernel.countSolutions(new Uint8Array(80), 2, solution, stats())).toThrow(
      new RangeError("puzzle must be a Uint8Array of 81 bytes, got 80 bytes"),
    );
    expect(() => kernel.countSolutions(new Uint8Array(81), 2, new Uint8Array(80), stats())).toThrow(
      /^solution must be a Uint8Array of at least 81 bytes, got 80 bytes/,
    );
    expect(() => kernel.countSolutions(new Uint8Array(81), 0, solution, stats())).toThrow(/^limit must be/);
    expect(() => kernel.solveBatch(new Uint8Array(161), 2, 2)).toThrow(/^puzzles must be a Uint8Array of at least 162 bytes, got 161 bytes/);
    expect(kernel.countSolutions(new Uint8Array(81), 2, solution, stats())).toBe(2);
  });

  it("WasmKernel on the N×N kernel: run and countSolutions refuse the same limits, budgets and short grids, for 4×4 and 16×16", () => {
    for (const limit of BAD_LIMITS) {
      general4.input(1).fill(0);
      expect(() => general4.run(1, limit), `limit ${limit}`).toThrow(new RangeError(`limit must be a whole number from 1 to 2^31-1, got ${limit}`));
    }
    for (const budget of BAD_BUDGETS) expect(() => general4.run(1, 2, budget as number), `budget ${String(budget)}`).toThrow(BUDGET_ERROR);
    expect(() => general16.countSolutions(new Uint8Array(255), 2, new Uint8Array(256), stats())).toThrow(
      new RangeError("puzzle must be a Uint8Array of 256 bytes, got 255 bytes"),
    );
    expect(() => general4.countSolutions(new Uint8Array(16), 2, new Uint8Array(15), stats())).toThrow(/^solution must be a Uint8Array of at least 16 bytes/);
    expect(() => general4.solveBatch(new Uint8Array(31), 2, 2)).toThrow(/^puzzles must be a Uint8Array of at least 32 bytes, got 31 bytes/);
    expect(general4.countSolutions(new Uint8Array(16), 2, new Uint8Array(16), stats())).toBe(2);
  });
});

describe("the library's options and cell types say what is wrong", () => {
  it("refuses budget '10' as it refuses limit '3'", () => {
    expect(() => solver.solve(".".repeat(81), { limit: "3" as unknown as number })).toThrow(RangeError);
    expect(() => solver.solve(".".repeat(81), { budget: "10" as unknown as number })).toThrow(
      new RangeError('budget must be at least 1 search node (or Infinity), got the string "10"'),
    );
  });

  it("refuses a bad alphabet option instead of ignoring it", () => {
    expect(() => solver.solve(".".repeat(16), { alphabet: "ABC" })).toThrow("an alphabet needs 4, 9, 16 or 25 symbols, got 3 ('ABC')");
    expect(() => solver.solve(".".repeat(16), { alphabet: "AABC" })).toThrow(/repeats a character/);
    expect(() => solver.solve(".".repeat(16), { alphabet: 5 as unknown as string })).toThrow(
      new RangeError("alphabet must be a string of 4, 9, 16 or 25 symbols, got the number 5"),
    );
    expect(solver.solve(".".repeat(15) + "A", { alphabet: "ABCD" }).status).toBe("multiple");
  });

  it("names a BigInt64Array as the wrong type, not as cells that hold 0", () => {
    const record = solver.solve(new BigInt64Array(81) as unknown as Uint8Array);
    expect(record.status).toBe("invalid");
    expect(record.error).toBe("expected a puzzle as text or an array of cell values as numbers, got a BigInt64Array (its cells are bigints)");
    expect(solver.solve([0n, ...Array(80).fill(0)] as unknown as Uint8Array).error).toMatch(/holds the bigint 0n, not 0-9/);
  });
});
