/**
 * Solver.solveMany's read of 9×9 lines of digits straight into one buffer of cells: the records
 * are those of reading each line on its own (parsePuzzle), in input order, whatever mix of lines,
 * grids, other sizes and bad input surrounds them, and whatever the input's shape (array or iterable).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type SolveOptions, type Solver, type SolveRecord, PuzzleError, createSolver, parsePuzzle, readDigits } from "../src/index.js";
import { DIGITS, readDigitBytes } from "../src/model/puzzle.js";
import { SOLVE_MANY_PIECE, SolutionWriter, batchRecords } from "../src/solvers/solver.js";
import { relabelledPuzzles } from "../bench/corpus.js";
import { WasmKernel } from "../src/kernel/wasm.js";
import { loadFixture } from "./fixture.js";

let solver: Solver;
let twin: Solver; // the TS twin: one puzzle per call, so its lines are read the slow way
beforeAll(async () => {
  solver = await createSolver();
  twin = await createSolver({ solver: "bitmask" });
});

const nine = loadFixture().filter((c) => c.puzzle.length === 81 && c.count !== "invalid");
const UNIQUE = nine.find((c) => c.count === 1)!.puzzle;
/** A valid line whose second clue is moved next to a copy of itself: a repeated clue in row 1. */
const REPEATED = (() => {
  const first = UNIQUE.search(/[1-9]/);
  const other = first === 0 ? 1 : 0;
  return UNIQUE.slice(0, other) + UNIQUE[first] + UNIQUE.slice(other + 1);
})();

/** The error parsePuzzle throws for `line`, as the record's `error`. */
function parseError(line: string): string {
  try {
    parsePuzzle(line);
  } catch (error) {
    if (error instanceof PuzzleError) return error.message;
  }
  throw new Error(`parsePuzzle read ${line}`);
}

describe("solveMany on 9×9 lines of digits", () => {
  it("gives the records of solving each line alone, in order, among grids, 4×4 lines, bad input and lines with other empty marks", () => {
    const inputs = [
      UNIQUE,
      "..3..4.22...4..1",
      REPEATED,
      UNIQUE.replace(/\./g, "0"),
      UNIQUE.replace(".", "y"),
      ` ${UNIQUE}`,
      parsePuzzle(UNIQUE),
      undefined as never,
      ...nine.map((c) => c.puzzle),
      UNIQUE.replace(".", "\u0131"), // a character over 255 (its low byte is "1")
    ];
    const records = solver.solveMany(inputs);
    expect(records).toHaveLength(inputs.length);
    const alone = inputs.map((input) => solver.solveMany(new Set([input]).values())[0]); // an iterable of one: no array fast path
    expect(records).toEqual(alone);
    expect(records[0].status).toBe("solved");
    expect(records[1].solution).toBe("1234341221434321");
    expect(records[2]).toEqual({ status: "invalid", count: 0, solution: null, guesses: null, error: parseError(REPEATED) });
    expect(records[3]).toEqual(records[0]);
    expect(records[4].error).toBe(parseError(UNIQUE.replace(".", "y")));
    expect(records[5]).toEqual(records[0]); // surrounding white space is trimmed (the slow way)
    expect(records[6]).toEqual(records[0]);
    expect(records.at(-1)!.error).toMatch(/contains invalid character/);
    nine.forEach((c, i) => expect(records[8 + i].count, c.puzzle).toBe(c.count));
  });

  it("gives the twin's records, which reads every line the slow way (its engine solves one puzzle per call)", () => {
    const inputs = [...nine.map((c) => c.puzzle), REPEATED, UNIQUE.replace(".", "y")];
    const strip = (records: SolveRecord[]) => records.map(({ guesses: _, ...rest }) => rest);
    expect(strip(solver.solveMany(inputs))).toEqual(strip(twin.solveMany(inputs)));
  });

  it("takes a generator, and a solve() called from within it, without mixing their puzzles", () => {
    const lines = nine.map((c) => c.puzzle);
    const inner: SolveRecord[] = [];
    function* withCalls() {
      for (const line of lines) {
        inner.push(solver.solve(UNIQUE));
        yield line;
      }
    }
    const records = solver.solveMany(withCalls());
    expect(records).toEqual(solver.solveMany(lines));
    expect(new Set(inner.map((r) => r.solution))).toEqual(new Set([solver.solve(UNIQUE).solution]));
  });

  it("solves one 9×9 line straight in the kernel with the record solveMany gives it, under any limit and budget", () => {
    const lines = nine.map((c) => c.puzzle);
    for (const options of [{}, { limit: 1 }, { limit: 1000 }, { budget: 5 }, { limit: 2, budget: 40 }, { budget: Infinity }])
      expect(lines.map((line) => solver.solve(line, options))).toEqual(lines.map((line) => solver.solveMany([line], options)[0]));
    expect(solver.solve(REPEATED)).toEqual(solver.solveMany([REPEATED])[0]); // the kernel rejects it: solveMany words why
    expect(solver.solve(REPEATED).error).toBe(parseError(REPEATED));
    expect(() => solver.solve(UNIQUE, { limit: "2" as never })).toThrow('limit must be a whole number from 1 to 2^31-1, got the string "2"');
  });

  it("reads an array of many 81-character lines as text in the kernel (digits, `.` and `0` only, a repeated clue among them) or line by line (any other character, other empty marks too): the records of each line alone", () => {
    const lines = nine.map((c) => c.puzzle);
    while (lines.length < 100) lines.push(...nine.map((c) => c.puzzle));
    const alone = (inputs: string[]) => inputs.map((line) => solver.solve(line));
    expect(solver.solveMany(lines)).toEqual(alone(lines));
    const digitsOnly = [...lines];
    digitsOnly[5] = REPEATED;
    digitsOnly[6] = UNIQUE.replace(/\./g, "0");
    const read = solver.solveMany(digitsOnly);
    expect(read).toEqual(alone(digitsOnly));
    expect(read.slice(5, 7).map((r) => r.error ?? r.status)).toEqual([parseError(REPEATED), "solved"]);
    const bad = [...lines];
    bad[7] = UNIQUE.replace(".", "y");
    bad[8] = REPEATED;
    bad[9] = UNIQUE.replace(".", "\u00e9");
    bad[10] = UNIQUE.replace(".", "\u0131");
    bad[11] = UNIQUE.replace(/\./g, "0");
    bad[12] = UNIQUE.replace(/\./g, "_");
    const records = solver.solveMany(bad);
    expect(records).toEqual(alone(bad));
    expect(records.slice(7, 13).map((r) => r.error ?? r.status)).toEqual([
      parseError(bad[7]),
      parseError(bad[8]),
      parseError(bad[9]),
      parseError(bad[10]),
      "solved",
      "solved",
    ]);
  });

  it("solves a batch larger than the buffer it keeps, then a small one", () => {
    const many = Array.from({ length: 5000 }, (_, i) => nine[i % nine.length].puzzle);
    const records = solver.solveMany(many);
    records.forEach((record, i) => expect(record.count).toBe(nine[i % nine.length].count));
    expect(solver.solveMany([UNIQUE])[0].status).toBe("solved");
  });

  it("solves more puzzles than an engine's call takes in pieces: one record per input, in order, from an array and from a generator", () => {
    const easy = relabelledPuzzles(1000, 3).split("\n").slice(0, -1);
    const count = SOLVE_MANY_PIECE + 3;
    const lines = Array.from({ length: count }, (_, i) => (i === SOLVE_MANY_PIECE ? REPEATED : easy[i % easy.length]));
    function* generated() {
      yield* lines;
    }
    const alone = (i: number) => solver.solve(lines[i]);
    // each engine call takes a piece at most (one call of all of them failed past the kernel's batch, 6,170,929 9×9 puzzles)
    const input = WasmKernel.prototype.input;
    let most = 0;
    WasmKernel.prototype.input = function (this: WasmKernel, count: number) {
      most = Math.max(most, count);
      return input.call(this, count);
    };
    let calls: SolveRecord[][];
    try {
      calls = [solver.solveMany(lines), solver.solveMany(generated())];
    } finally {
      WasmKernel.prototype.input = input;
    }
    expect(most).toBe(SOLVE_MANY_PIECE);
    for (const records of calls) {
      expect(records).toHaveLength(count);
      for (const i of [0, 1, SOLVE_MANY_PIECE - 1, SOLVE_MANY_PIECE, SOLVE_MANY_PIECE + 1, count - 1]) expect(records[i], `record ${i}`).toEqual(alone(i));
      expect(records.filter((record) => record.status === "solved")).toHaveLength(count - 1); // all but the repeated clue's
    }
  });

  it("keeps every guess count exactly, small or beyond 32 bits, and the solutions of runs long and short", () => {
    const guesses = [0, 7, 2 ** 30 - 1, 2 ** 30, 2 ** 31 + 5, 2 ** 40, -0x40000000, NaN];
    const count = guesses.length;
    const solution = parsePuzzle(solver.solve(UNIQUE).solution!);
    const result = {
      counts: new Int32Array(count).fill(1),
      guesses: Float64Array.from(guesses),
      nodes: new Float64Array(count),
      solutions: new Uint8Array(count * 81).map((_, i) => solution[i % 81]),
    };
    for (const perString of [1, 3, count]) {
      const style = { cells: 81, writer: new SolutionWriter(DIGITS, perString), reportsGuesses: true };
      const records = batchRecords(result, count, style);
      expect(records.map((r) => r.guesses)).toEqual([...guesses.slice(0, -1), null]);
      expect(records.every((r) => r.solution === solver.solve(UNIQUE).solution)).toBe(true);
    }
  });
});

describe("solveMany's input", () => {
  it("is an iterable of puzzles: one string (a whole text), null or a number is a TypeError saying so", () => {
    const text = loadFixture("all")
      .map((c) => c.puzzle)
      .join("\n");
    expect(() => solver.solveMany(text as unknown as string[])).toThrow(
      /^sudoku-wasm: solveMany takes an array or other iterable of puzzles, not one string: pass an array of lines \(text\.split\("\\n"\)\); one puzzle is \[line\], or solve\(line\) on a Solver$/,
    );
    expect(() => solver.solveMany(new String(text) as unknown as string[])).toThrow(/not one string: pass an array of lines/);
    for (const bad of [null, 42, {}]) expect(() => solver.solveMany(bad as unknown as string[])).toThrow(TypeError);
    // one grid of cell values is an iterable of numbers too: refused, not read as 81 inputs
    const grid = parsePuzzle(nine[0].puzzle);
    expect(() => solver.solveMany(grid as unknown as string[])).toThrow(/^sudoku-wasm: solveMany takes .*, not one typed array .*: one grid is \[grid\]$/);
    expect(solver.solveMany([grid])).toHaveLength(1);
    expect(solver.solveMany(new Set(text.split("\n").slice(0, 3)))).toHaveLength(3);
  });

  it("takes grids from a generator that yields one array again and again, each as it was when yielded", () => {
    const lines = loadFixture("all")
      .map((c) => c.puzzle)
      .filter((line) => /^[0-9.]{81}$/.test(line))
      .slice(0, 5);
    function* reused(grid: Uint8Array) {
      for (const line of lines) {
        for (let i = 0; i < 81; i++) grid[i] = line[i] === "." || line[i] === "0" ? 0 : Number(line[i]);
        yield grid;
      }
    }
    const alone = lines.map((line) => solver.solve(line));
    expect(solver.solveMany(reused(new Uint8Array(81)))).toEqual(alone);
    expect(solver.solveMany(reused(Buffer.alloc(81)))).toEqual(alone); // (a Buffer's slice is a view, not a copy)
  });

  it("reads an option given as null as one not given, as it reads null options", async () => {
    const lines = loadFixture("all").map((c) => c.puzzle);
    const nulls = { limit: null, budget: null, alphabet: null } as unknown as Parameters<Solver["solveMany"]>[1];
    expect(solver.solveMany(lines, nulls)).toEqual(solver.solveMany(lines, null));
    // createSolver's too: null options, a null solver, general or kernel
    for (const options of [null, { solver: null, general: null, kernels: { wasm: null, general: null } }] as unknown as Parameters<typeof createSolver>[0][]) {
      expect((await createSolver(options)).solveMany(lines)).toEqual(solver.solveMany(lines));
    }
    await expect(createSolver({ solver: 5 as unknown as string })).rejects.toThrow(
      new TypeError("solver must be a solver's id (see solvers) or an array of them, got 5"),
    );
  });

  it("refuses createSolver options it does not know, and options that are no object, naming them (a misspelt option is not ignored)", async () => {
    const given = (options: unknown) => createSolver(options as Parameters<typeof createSolver>[0]);
    await expect(given({ solvers: "dlx" })).rejects.toThrow(
      new TypeError("sudoku-wasm: createSolver has no option 'solvers'; its options are solver, general, kernels"),
    );
    await expect(given({ solver: "dlx", limit: 2, budjet: 9 })).rejects.toThrow("createSolver has no option 'limit' or 'budjet'");
    await expect(given("dlx")).rejects.toThrow(
      new TypeError('sudoku-wasm: createSolver takes an options object (solver, general, kernels), got the string "dlx"'),
    );
    for (const bad of [2, ["dlx"], true]) await expect(given(bad)).rejects.toThrow(/createSolver takes an options object/);
    expect((await given(undefined)).solve(UNIQUE)).toEqual(solver.solve(UNIQUE));
  });
});

describe("solve and solveMany options", () => {
  it("refuses option names they do not have, and options that are no object, naming the call (a misspelt limit is not ignored)", () => {
    const options = (given: unknown) => given as SolveOptions;
    expect(() => solver.solve(UNIQUE, options({ limt: 1 }))).toThrow(
      new TypeError("sudoku-wasm: solve has no option 'limt'; its options are limit, budget, alphabet"),
    );
    expect(() => solver.solveMany([UNIQUE], options({ limit: 1, solver: "dlx", batch: 2 }))).toThrow(
      new TypeError("sudoku-wasm: solveMany has no option 'solver' or 'batch'; its options are limit, budget, alphabet"),
    );
    // every path of solve: a 9×9 line, another line, a grid of bytes
    for (const puzzle of [UNIQUE, `${UNIQUE} `, new Uint8Array(81)])
      expect(() => solver.solve(puzzle, options({ budjet: 5 }))).toThrow("solve has no option 'budjet'");
    expect(() => solver.solve(UNIQUE, options(2))).toThrow(new TypeError("sudoku-wasm: solve takes an options object (limit, budget, alphabet), got 2"));
    expect(() => solver.solveMany([UNIQUE], options([1]))).toThrow(/solveMany takes an options object/);
    expect(solver.solve(UNIQUE, { limit: 1, budget: null, alphabet: undefined })).toEqual(solver.solve(UNIQUE, { limit: 1 }));
  });
});

describe("readDigits", () => {
  it("writes 1–9 and 0 for the empty marks at the offset, and returns the first cell of another character", () => {
    const cells = new Uint8Array(90).fill(7);
    expect(readDigits(UNIQUE, cells, 9)).toBe(-1);
    expect(Array.from(cells.subarray(9))).toEqual(Array.from(parsePuzzle(UNIQUE)));
    expect(cells[8]).toBe(7);
    expect(readDigits(UNIQUE.slice(0, 40) + "y" + UNIQUE.slice(41), cells, 0)).toBe(40);
    expect(readDigits("._0?-*xX".repeat(11).slice(0, 81), cells, 0)).toBe(-1); // the CLI's marks
    expect(Array.from(cells.subarray(0, 81))).toEqual(new Array(81).fill(0));
    expect(readDigits("_".repeat(81), cells, 0, "_")).toBe(-1);
    expect(readDigits("\u00b7".repeat(81), cells, 0, "\u00b7")).toBe(-1);
    expect(readDigits("\u0131".repeat(81), cells, 0)).toBe(0);
    expect(readDigits("1".repeat(80) + "\u00e9", cells, 0)).toBe(80); // two bytes in UTF-8: past the 81st
    expect(readDigits("1".repeat(79) + "\u00e9" + "1", cells, 0)).toBe(79);
    expect(readDigits(UNIQUE.slice(0, 80), cells, 0)).toBe(80);
  });
});

describe("the 9×9 kernel's text check and readDigitBytes (a batch of lines written as bytes, as solveMany and the pool's workers read it)", () => {
  /** `lines` as bytes, 81 each. */
  const written = (lines: string[]) => new Uint8Array(lines.flatMap((line) => Array.from(line, (ch) => ch.charCodeAt(0))));

  it("says false for any byte but a digit or `.`, wherever it is (WasmKernel.inputText); readDigitBytes takes the other empty marks too, and names the cell of any other byte", async () => {
    const kernel = await WasmKernel.create();
    const cells = new Uint8Array(3 * 81);
    for (let byte = 0; byte < 256; byte++) {
      const digitOrDot = byte === 46 || (byte >= 48 && byte <= 57);
      const cell = digitOrDot || "_?-*xX".includes(String.fromCharCode(byte));
      for (const at of [0, 3, 80, 81 + 40, 3 * 81 - 1]) {
        const text = written([UNIQUE, UNIQUE, UNIQUE]);
        text[at] = byte;
        expect(kernel.inputText(text, 3)).toBe(digitOrDot);
        expect(readDigitBytes(text, at - (at % 81), cells, 0)).toBe(cell ? -1 : at % 81);
      }
    }
    expect(readDigitBytes(written([UNIQUE]), 0, cells, 0)).toBe(-1);
  });
});
