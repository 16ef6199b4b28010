/**
 * The npm peers on every grid size their encodings take: `npm:dancing-links` builds the exact
 * cover of any side (4×4 to 25×25), so the bench's N×N rows show the strongest npm peer. Each
 * size's engine must be the package's own (not a default that stands in) and count the
 * fixture's puzzles of that size as the fixture says, up to 2.
 */
import { describe, expect, it } from "vitest";
import { createSolver, findSolver } from "../src/index.js";
import { isValidSolution, readPuzzle } from "../src/model/puzzle.js";
import { loadFixture } from "./fixture.js";

const peer = findSolver("npm:dancing-links");

describe.skipIf(peer.unavailable !== undefined)("npm:dancing-links on every size", () => {
  it.for([4, 16, 25])("side %i: the package's engine counts the fixture's puzzles", async (size) => {
    expect(peer.sizes).toContain(size);
    const solver = await createSolver({ solver: "npm:dancing-links" });
    expect(solver.engines.get(size)?.id).toBe("npm:dancing-links");
    const cases = loadFixture(size).filter((c) => c.count !== "invalid");
    expect(cases.length).toBeGreaterThan(0);
    for (const fixture of cases) {
      const record = solver.solve(fixture.puzzle, { limit: 2 });
      expect(record.count, `fixture line ${fixture.line}`).toBe(fixture.count);
      if (record.solution) expect(isValidSolution(readPuzzle(fixture.puzzle).grid, readPuzzle(record.solution).grid)).toBe(true);
    }
  });
});
