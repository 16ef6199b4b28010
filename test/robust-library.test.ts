/**
 * Issue 16, the library: `solve` and `solveMany` never throw for a bad puzzle, whatever its
 * value or type (an `invalid` record with the reason instead), and options follow one rule for
 * every grid size. The item number of the issue is in each describe title.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type Solver, createSolver } from "../src/index.js";
import { loadFixture } from "./fixture.js";

let solver: Solver;
beforeAll(async () => {
  solver = await createSolver();
});

const P = loadFixture().find((c) => c.count === 1 && c.puzzle.includes("."))!.puzzle;
const GRID = Uint8Array.from(P, (ch) => (ch === "." ? 0 : Number(ch)));
const EMPTY_16 = ".".repeat(256);
const EMPTY_25 = ".".repeat(625);

describe("item 12: the library never throws for a bad puzzle value or type", () => {
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
    for (const [value, shown] of [[-1, "-1"], [1.5, "1.5"], ["a", "'a'"], [-1e10, "-10000000000"], [NaN, "NaN"], [10, "10"]] as const) {
      const cells: unknown[] = Array.from(GRID);
      cells[3] = value;
      const record = solver.solve(cells as never);
      expect(record).toMatchObject({ status: "invalid", count: 0, solution: null });
      expect(record.error).toBe(`cell 4 (row 1, column 4) holds ${shown}, not 0-9`);
    }
    const signed = Int8Array.from(GRID);
    signed[0] = -1;
    expect(solver.solve(signed as never).error).toMatch(/^cell 1 .* holds -1/);
    expect(solver.solve(Array.from(GRID) as never).status).toBe("solved");
  });

  it("reads a String object like the string it holds", () => {
    // eslint-disable-next-line no-new-wrappers
    expect(solver.solve(new String(P) as never)).toEqual(solver.solve(P));
  });
});

describe("item 13: one budget and limit rule for every grid size", () => {
  it("refuses the same budgets (0, -1, NaN, 0.5) and limits with the same RangeError for 9×9, 16×16 and 25×25", () => {
    for (const puzzle of [P, EMPTY_16, EMPTY_25]) {
      for (const budget of [0, -1, NaN, 0.5]) expect(() => solver.solve(puzzle, { budget })).toThrow(`budget must be at least 1 search node (or Infinity), got ${budget}`);
      for (const limit of [0, 1.5, NaN]) expect(() => solver.solve(puzzle, { limit })).toThrow(/^limit must be a whole number/);
      expect(solver.solve(puzzle, { budget: Infinity }).status).not.toBe("invalid");
    }
  });

  it("gives status timeout at budget 1 on every size", () => {
    for (const puzzle of [".".repeat(81), EMPTY_16, EMPTY_25]) expect(solver.solve(puzzle, { budget: 1 }).status).toBe("timeout");
  });
});
