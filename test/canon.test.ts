import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { CanonKernel, REPEATED_CLUE } from "../src/canon/canon.js";
import { type CanonicalizeOptions, GEOMETRIC_MAPS, canonicalize } from "../src/index.js"; // the package exports both
import { readFileSync } from "node:fs";
import { relabelledPuzzles } from "../bench/corpus.js";
import { parsePuzzle } from "../src/model/puzzle.js";
import { kernelForms, lineOrders, referenceMinlex } from "./canon-reference.js";
import { describeWithPublicDatasets, publicNineByNine } from "./public-datasets.js";

/** The forms and automorphism counts of `puzzles` on the debug build (asserts on). */
let kernel: CanonKernel;
const canon = (puzzles: readonly string[]) => kernelForms(kernel, puzzles);

beforeAll(async () => {
  kernel = await CanonKernel.create("canon-debug");
});

const ORDERS = lineOrders();

/** A geometric map and relabelling: row order, column order (indexes into lineOrders), transposition, digit map. */
interface Transformation {
  transpose: boolean;
  rows: number;
  columns: number;
  digits: number[];
}

/** `puzzle` (81 characters, `.` or `0` empty) under `map`, as 81 characters with `0` for empty. */
function transform(puzzle: string, map: Transformation): string {
  const cells = parsePuzzle(puzzle);
  const rows = ORDERS[map.rows];
  const columns = ORDERS[map.columns];
  let text = "";
  for (let i = 0; i < 81; i++) {
    let row = rows[Math.floor(i / 9)];
    let column = columns[i % 9];
    if (map.transpose) [row, column] = [column, row];
    const digit = cells[row * 9 + column];
    text += digit === 0 ? "0" : String(map.digits[digit - 1]);
  }
  return text;
}

const transformation = fc.record({
  transpose: fc.boolean(),
  rows: fc.integer({ min: 0, max: ORDERS.length - 1 }),
  columns: fc.integer({ min: 0, max: ORDERS.length - 1 }),
  digits: fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9], { minLength: 9, maxLength: 9 }),
});

describe("minlex kernel", () => {
  it("gives the empty grid its one form, fixed by every map", () => {
    expect(canon(["0".repeat(81)])).toEqual([{ form: "0".repeat(81), automorphisms: GEOMETRIC_MAPS }]);
  });

  it("sends one clue to the last cell, relabelled 1, fixed by the maps that keep its cell", () => {
    const [result] = canon(["0".repeat(40) + "7" + "0".repeat(40)]);
    expect(result).toEqual({ form: "0".repeat(80) + "1", automorphisms: GEOMETRIC_MAPS / 81 });
  });

  it("marks a digit repeated in a row, column or box, and still serves the puzzles around it", () => {
    const repeated = "11" + "0".repeat(79);
    const inBox = "1" + "0".repeat(9) + "1" + "0".repeat(70);
    const input = kernel.input(3);
    input.set(new TextEncoder().encode(repeated + "0".repeat(80) + "5" + inBox));
    const { automorphisms, forms } = kernel.run(3);
    expect([...automorphisms]).toEqual([REPEATED_CLUE, GEOMETRIC_MAPS / 81, REPEATED_CLUE]);
    expect(new TextDecoder().decode(forms.subarray(81, 162))).toBe("0".repeat(80) + "1");
  });

  it("finds a digit repeated in any of the 27 units, 9 as well as 1–8, and no repeat in a full grid or across units", () => {
    /** A puzzle with `digit` in the cells at (row, column) pairs `at`, the rest empty. */
    const puzzle = (digit: number, ...at: number[]) => {
      const text = Array<string>(81).fill("0");
      for (let k = 0; k < at.length; k += 2) text[at[k] * 9 + at[k + 1]] = String(digit);
      return text.join("");
    };
    const repeats: string[] = [];
    for (let unit = 0; unit < 9; unit++) {
      const digit = 1 + ((unit * 4) % 9); // each digit once among the rows, once among the columns, once among the boxes
      const [band, stack] = [Math.floor(unit / 3), unit % 3];
      repeats.push(puzzle(digit, unit, 1, unit, 7)); // row `unit`
      repeats.push(puzzle(digit, 2, unit, 6, unit)); // column `unit`
      repeats.push(puzzle(digit, 3 * band, 3 * stack + 2, 3 * band + 2, 3 * stack)); // box `unit`, no line shared
    }
    const apart = [
      "123456789456789123789123456214365897365897214897214365531642978642978531978531642", // every unit holds 1–9 once
      puzzle(9, 0, 0, 1, 3, 2, 6, 3, 1, 4, 4, 5, 7, 6, 2, 7, 5, 8, 8), // nine 9s, one per row, column and box
    ];
    // Straight into the kernel's memory: the host's reader refuses repeated digits itself.
    const input = kernel.input(repeats.length + apart.length);
    input.set(new TextEncoder().encode([...repeats, ...apart].join("")));
    const { automorphisms } = kernel.run(repeats.length + apart.length);
    expect([...automorphisms.subarray(0, repeats.length)]).toEqual(repeats.map(() => REPEATED_CLUE));
    for (const count of automorphisms.subarray(repeats.length)) expect(count).toBeGreaterThan(0);
  });

  it("gives every transformation of a sparse puzzle the same form and count (runs and stacks that split late)", () => {
    // 0–12 clues, drawn cell by cell and kept when no unit repeats a digit.
    const sparse = fc.array(fc.record({ cell: fc.integer({ min: 0, max: 80 }), digit: fc.integer({ min: 1, max: 9 }) }), { maxLength: 12 }).map((clues) => {
      const cells = Array<number>(81).fill(0);
      for (const { cell, digit } of clues) {
        const row = Math.floor(cell / 9);
        const col = cell % 9;
        const clash = cells.some(
          (d, i) =>
            d === digit &&
            (Math.floor(i / 9) === row || i % 9 === col || (Math.floor(i / 27) === Math.floor(row / 3) && Math.floor((i % 9) / 3) === Math.floor(col / 3))),
        );
        if (!clash) cells[cell] = digit;
      }
      return cells.join("");
    });
    fc.assert(
      fc.property(sparse, fc.array(transformation, { minLength: 3, maxLength: 3 }), (puzzle, maps) => {
        const results = canon([puzzle, ...maps.map((map) => transform(puzzle, map))]);
        for (const result of results.slice(1)) expect(result).toEqual(results[0]);
        expect(GEOMETRIC_MAPS % results[0].automorphisms).toBe(0); // a coset of the puzzle's stabiliser: its size divides the group's
      }),
      { numRuns: 300, seed: 81 },
    );
  });

  it("reads digits and their characters alike (any other byte is empty)", () => {
    const puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const input = kernel.input(2);
    input.set(parsePuzzle(puzzle), 0);
    input.set(new TextEncoder().encode(puzzle), 81);
    const { forms } = kernel.run(2);
    expect(new TextDecoder().decode(forms.subarray(0, 81))).toBe(new TextDecoder().decode(forms.subarray(81, 162)));
  });

  it("matches the library's canonicalize (release build), which names the puzzles it cannot read", async () => {
    const puzzles = ["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", "0".repeat(81)];
    const results = await canonicalize([puzzles[0], "y".repeat(81), "11" + ".".repeat(79), ".".repeat(16), puzzles[1]]);
    expect(results[0]).toEqual(canon([puzzles[0]])[0]);
    expect(results[4]).toEqual(canon([puzzles[1]])[0]);
    expect(results[1].error).toMatch(/cell/);
    expect(results[2].error).toMatch(/repeated/);
    expect(results[3].error).toMatch(/9×9/);
    expect(results[1].form).toBeNull();
  });

  it("canonicalize takes the kernel given (kept for later calls), refuses a module that is not it, and keeps no failed load", async () => {
    const puzzles = relabelledPuzzles(20).split("\n").slice(0, 20);
    const expected = await canonicalize(puzzles);
    const bytes = readFileSync(new URL("../build/canon.wasm", import.meta.url));
    expect(await canonicalize(puzzles, { kernels: { canon: bytes } })).toEqual(expected);
    expect(await canonicalize(puzzles, { kernels: { canon: await WebAssembly.compile(bytes) } })).toEqual(expected);
    const release = readFileSync(new URL("../build/release.wasm", import.meta.url));
    await expect(canonicalize(puzzles, { kernels: { canon: release } })).rejects.toThrow(
      new TypeError("the module is not the minlex kernel: it does not export canonBatch"),
    );
    await expect(canonicalize(puzzles, { kernels: { canon: new Uint8Array([0, 97, 115, 109, 9, 9]) } })).rejects.toThrow(/kernels\.canon could not be loaded/);
    expect(await canonicalize(puzzles, { kernels: null })).toEqual(expected);
  });

  it("canonicalize refuses options it does not have and puzzles that are no array, and answers past one kernel call's batch in order", async () => {
    const given = (puzzles: unknown, options?: unknown) => canonicalize(puzzles as string[], options as CanonicalizeOptions);
    await expect(given(["1"], { kernel: "x" })).rejects.toThrow(new TypeError("sudoku-wasm: canonicalize has no option 'kernel'; its options are kernels"));
    await expect(given(".".repeat(81))).rejects.toThrow(/canonicalize takes an array of puzzles, not one string/);
    await expect(given(new Set(["1"]))).rejects.toThrow("canonicalize takes an array of puzzles, got object");
    // 65,536 puzzles a kernel call: the puzzles either side of that boundary keep their places
    const lines = relabelledPuzzles(1000).split("\n").slice(0, 1000);
    const many = Array.from({ length: 65_536 + 500 }, (_, i) => lines[i % 1000]);
    many[65_535] = "bad";
    const results = await canonicalize(many);
    const forms = await canonicalize(lines);
    expect(results.length).toBe(many.length);
    expect(results[65_535].error).toMatch(/./);
    for (const i of [0, 999, 65_534, 65_536, 65_536 + 499]) expect(results[i]).toEqual(forms[i % 1000]);
  });
});

describeWithPublicDatasets("minlex kernel on the public sets", () => {
  it("agrees with the reference on a transformed puzzle and on a puzzle one clue away", () => {
    const [puzzle] = publicNineByNine("kaggle_bryanpark_10k.txt", 1);
    const moved = transform(puzzle, { transpose: true, rows: 700, columns: 95, digits: [3, 1, 4, 9, 5, 2, 6, 8, 7] });
    const fewer = puzzle.replace(/[1-9]/, ".");
    const [a, b, c] = canon([puzzle, moved, fewer]);
    expect(b).toEqual(a);
    expect(c).toEqual(referenceMinlex(parsePuzzle(fewer)));
    expect(c.form).not.toBe(a.form);
  });

  // Random puzzles of four sets, each under random transformations: the form and the count never change.
  const SETS = ["17_clue.txt", "forum_hardest_1905_11plus.txt", "kaggle_bryanpark_10k.txt", "serg_benchmark.txt"];
  const RUNS = 300;
  const MAPS_PER_RUN = 4;
  for (const set of SETS) {
    it(`gives every transformation the same form: ${RUNS} random puzzles of ${set} × ${MAPS_PER_RUN} random transformations`, () => {
      const puzzles = publicNineByNine(set);
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: puzzles.length - 1 }),
          fc.array(transformation, { minLength: MAPS_PER_RUN, maxLength: MAPS_PER_RUN }),
          (index, maps) => {
            const puzzle = puzzles[index];
            const results = canon([puzzle, ...maps.map((map) => transform(puzzle, map))]);
            for (const result of results.slice(1)) expect(result).toEqual(results[0]);
            expect(results[0].automorphisms).toBeGreaterThanOrEqual(1);
          },
        ),
        { numRuns: RUNS, seed: 36 },
      );
    });
  }
});
