/**
 * One fixture, every solver, every size: each entry of the registry solves every line of
 * test/fixtures/puzzles.txt of the grid sizes it takes (registry `sizes`) with limit 2 through
 * `createSolver` + `solve`, and must give the line's count (or `invalid` with an error naming
 * the cell or the length), the line's solution when it has one, and only valid solutions that
 * keep the clues. The debug builds (asserts on) run it too, as the rows of their release builds:
 * both kernels' and every 9×9 variant's (build/variants-debug/<name>.wasm, which only the tests
 * use, loaded as the `wasm` row's kernel). The rows and their checks are in test/fixture-rows.ts;
 * the pure-TypeScript baselines' and the npm references' rows run in fixture-baselines.test.ts.
 */
import { describe, expect, it } from "vitest";
import { BASELINE_IDS, ROWS, debugVariants, describeRows } from "./fixture-rows.js";

describe("the debug rows", () => {
  const debugRows = ROWS.filter(([name]) => name.endsWith("(debug build)"));
  it("cover both kernels and every 9×9 variant", () => {
    expect(debugRows.map(([, info]) => info.id).sort()).toEqual(["general-wasm", "wasm", ...debugVariants.map((variant) => `wasm:${variant.name}`)].sort());
  });

  it.each(debugRows)("%s runs a debug build (a name section: asc's debug targets)", async (_name, _info, _id, kernels) => {
    const modules = Object.values((await kernels()) ?? {}) as WebAssembly.Module[];
    expect(modules).toHaveLength(1);
    expect(WebAssembly.Module.customSections(modules[0], "name")).toHaveLength(1);
  });
});

describeRows(ROWS.filter(([, info]) => !BASELINE_IDS.has(info.id)));
