/**
 * The public datasets of ../shared/datasets (beside the repository, never copied into it), for
 * the tests that read them. Where the folder is absent those tests are skipped with a test named
 * for why; .ci/run, which has the folder, sets SUDOKU_WASM_REQUIRE_SHARED_DATASETS=1, and then
 * a missing folder fails them instead.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "vitest";

/** The folder, as a URL ending in `/`. */
export const SHARED_DATASETS = new URL("../../shared/datasets/", import.meta.url);
export const hasSharedDatasets = existsSync(SHARED_DATASETS);
/** Set by .ci/run: there a missing folder fails the tests that need it instead of skipping them. */
export const sharedDatasetsRequired = process.env.SUDOKU_WASM_REQUIRE_SHARED_DATASETS === "1";

/** The first `count` 9×9 lines (81 characters) of the public dataset `name`. */
export function sharedNineByNine(name: string, count = Infinity): string[] {
  const lines = readFileSync(new URL(name, SHARED_DATASETS), "utf8")
    .split("\n")
    .filter((line) => line.length === 81);
  return lines.slice(0, count);
}

/**
 * A describe block of tests that read ../shared/datasets: run when the folder is there; when it
 * is not, one skipped test that says so, or (SUDOKU_WASM_REQUIRE_SHARED_DATASETS=1) one failing
 * test that says so beside the block's own tests.
 */
export function describeWithSharedDatasets(name: string, body: () => void): void {
  const path = SHARED_DATASETS.pathname;
  if (!hasSharedDatasets && !sharedDatasetsRequired) {
    describe(name, () => it.skip(`skipped: no ${path} (the public datasets beside the repository; .ci/run requires them)`, () => {}));
    return;
  }
  describe(name, () => {
    if (!hasSharedDatasets) {
      it(`finds ${path}`, () => {
        throw new Error(`${path} is missing and SUDOKU_WASM_REQUIRE_SHARED_DATASETS=1 requires it`);
      });
    }
    body();
  });
}
