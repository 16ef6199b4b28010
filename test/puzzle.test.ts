// The puzzle model: parsing the one-line format with errors that name the cell and the reason.
import { describe, expect, it } from "vitest";
import { findConflict, formatPuzzle, isValidSolution, parsePuzzle, PuzzleError } from "../src/model/puzzle.js";
import { loadFixture } from "./fixture.js";

const fixture = loadFixture();
const unique = fixture.find((c) => c.count === 1)!;

function errorOf(text: string): PuzzleError {
  try {
    parsePuzzle(text);
  } catch (error) {
    if (error instanceof PuzzleError) return error;
    throw error;
  }
  throw new Error("parsed without error: " + text);
}

describe("parsePuzzle", () => {
  it("reads digits, '.' and '0' as 81 bytes and round-trips", () => {
    const grid = parsePuzzle(unique.puzzle.replaceAll(".", "0"));
    expect(grid).toHaveLength(81);
    expect(formatPuzzle(grid)).toBe(unique.puzzle);
    expect(parsePuzzle(`  ${unique.puzzle}\r\n`)).toEqual(grid);
  });

  it("rejects a wrong length", () => {
    const error = errorOf(unique.puzzle.slice(1));
    expect(error.reason).toBe("length");
    expect(error.message).toBe("expected 81 characters, got 80");
  });

  it("names the cell of a bad character", () => {
    const error = errorOf(unique.puzzle.slice(0, 16) + "y" + unique.puzzle.slice(17));
    expect(error.reason).toBe("character");
    expect(error.cell).toBe(16);
    expect(error.message).toBe("cell 17 (row 2, column 8) contains invalid character 'y'");
  });

  it("says what '\uFFFD' stands for: bytes that were not UTF-8 where the text was read", () => {
    const error = errorOf(`\uFFFD${unique.puzzle.slice(1)}`);
    expect(error.message).toBe("cell 1 (row 1, column 1) contains invalid character '\uFFFD' (U+FFFD, which stands for bytes that are not UTF-8)");
  });

  it.each([
    ["row", 0, "row 1"],
    ["column", 9, "column 1"],
    ["box", 10, "box 1"],
  ] as const)("names a clue repeated in its %s", (unit, cell, where) => {
    const grid = ".".repeat(81).split("");
    grid[0] = "5";
    grid[unit === "row" ? 1 : cell] = "5";
    const error = errorOf(grid.join(""));
    expect(error.reason).toBe("conflict");
    expect(error.message).toContain(`digit 5 is repeated in ${where}`);
    expect(error.message).toContain("cell 1 (row 1, column 1)");
  });

  it("rejects every invalid fixture line and accepts the others", () => {
    for (const c of fixture) {
      if (c.count === "invalid") expect(() => parsePuzzle(c.puzzle), `line ${c.line}`).toThrow(PuzzleError);
      else expect(() => parsePuzzle(c.puzzle), `line ${c.line}`).not.toThrow();
    }
  });
});

describe("solution checks", () => {
  it("accepts a solution that keeps the clues and rejects one that does not", () => {
    const puzzle = parsePuzzle(unique.puzzle);
    const solution = parsePuzzle(unique.solution!);
    expect(findConflict(solution)).toBeNull();
    expect(isValidSolution(puzzle, solution)).toBe(true);
    const swapped = solution.slice();
    [swapped[0], swapped[1]] = [swapped[1], swapped[0]];
    expect(isValidSolution(puzzle, swapped)).toBe(false);
    const incomplete = solution.slice();
    incomplete[80] = 0;
    expect(isValidSolution(puzzle, incomplete)).toBe(false);
  });
});
