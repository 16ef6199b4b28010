/**
 * The minlex kernel (debug build) against the exhaustive reference, which tries all 3,359,232
 * geometric maps of each puzzle (test/canon-reference.ts; about a second a puzzle): the slow half
 * of test/canon.test.ts, left out of `npm run test:fast`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CanonKernel } from "../src/canon/canon.js";
import { parsePuzzle } from "../src/model/puzzle.js";
import { kernelForms, referenceMinlex } from "./canon-reference.js";
import { describeWithPublicDatasets, publicNineByNine } from "./public-datasets.js";

let kernel: CanonKernel;
const canon = (puzzles: readonly string[]) => kernelForms(kernel, puzzles);

beforeAll(async () => {
  kernel = await CanonKernel.create("canon-debug");
});

describe("minlex kernel against the reference", () => {
  // The reference tries all 3,359,232 maps of each. These puzzles take the level search's rarer paths.
  it("agrees with the reference where columns and stacks stay interchangeable, and on a full grid (too many candidates: searched by column orders)", () => {
    const puzzles = [
      "123456789" + "0".repeat(72), // every stack order and column order ties until the full row comes last
      "123000000456000000789" + "0".repeat(60), // one box: empty stacks and bands to the end
      ("1" + "0".repeat(17) + "2" + "0".repeat(20) + "3").padEnd(81, "0"), // three clues, no two in a line
      "123456789456789123789123456214365897365897214897214365531642978642978531978531642", // a solution grid
    ];
    expect(canon(puzzles)).toEqual(puzzles.map((puzzle) => referenceMinlex(parsePuzzle(puzzle))));
  });
});

describeWithPublicDatasets("minlex kernel against the reference on the public sets", () => {
  // The reference tries every map (well under a second each here): 16 puzzles, from 3 clues to 35, with 1, many and no solution.
  const unsolvable = "12345678........9" + ".".repeat(64); // row 1 leaves cell 9 only 9, column 9 forbids it
  const diagonal = Array.from({ length: 81 }, (_, i) => (i % 10 === 0 && i % 30 === 0 ? "1" : ".")).join(""); // 1 at r1c1, r4c4, r7c7
  const corners = "5" + ".".repeat(7) + "3" + ".".repeat(63) + "3" + ".".repeat(7) + "5"; // symmetric under a half turn
  const cases = () => [
    ...publicNineByNine("17_clue.txt", 3),
    ...publicNineByNine("forum_hardest_1905_11plus.txt", 3),
    ...publicNineByNine("kaggle_bryanpark_10k.txt", 3),
    ...publicNineByNine("serg_benchmark.txt", 3), // many solutions each
    ...publicNineByNine("unbiased_1k.txt", 1),
    unsolvable,
    diagonal,
    corners,
  ];

  it("agrees with the reference (all 3,359,232 maps each) on 16 puzzles: form and automorphism count", () => {
    const puzzles = cases();
    const expected = puzzles.map((puzzle) => referenceMinlex(parsePuzzle(puzzle)));
    expect(canon(puzzles)).toEqual(expected);
    expect(new Set(expected.map((result) => result.form)).size).toBe(puzzles.length); // all different: non-equivalent puzzles differ
    expect(expected.filter((result) => result.automorphisms > 1).length).toBeGreaterThanOrEqual(2); // and some with symmetry
  });
});
