/**
 * The public datasets, for the tests that read them: the folder the CLI reads fetched sets from
 * ($SUDOKU_WASM_DATASETS, else the user's cache; `npx sudoku-wasm datasets where` names it, and
 * `npx sudoku-wasm datasets fetch --all` fills it), never copied into the repository. The tests
 * run when every set of the catalog is there; otherwise they are skipped with a test named for
 * why. .ci/run, which names its copy of the sets, sets SUDOKU_WASM_REQUIRE_SHARED_DATASETS=1, and
 * then a missing set fails them instead.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { describe, it } from "vitest";
import { cacheFolder, isCached } from "../src/datasets/cache.js";
import { PUBLIC_SETS } from "../src/datasets/catalog.js";

const folder = cacheFolder();
/** The folder's path. */
export const PUBLIC_DATASETS_FOLDER = folder;
/** The folder, as a URL ending in `/`. */
export const PUBLIC_DATASETS = pathToFileURL(folder.endsWith("/") ? folder : `${folder}/`);
/** The sets of the catalog not in the folder. */
const missing = PUBLIC_SETS.filter((set) => !isCached(set.name, folder)).map((set) => set.name);
export const hasPublicDatasets = missing.length === 0;
/** Set by .ci/run: there a missing set fails the tests that need it instead of skipping them. */
export const publicDatasetsRequired = process.env.SUDOKU_WASM_REQUIRE_SHARED_DATASETS === "1";

/** The first `count` 9×9 lines (81 characters) of the public dataset `name`. */
export function publicNineByNine(name: string, count = Infinity): string[] {
  const lines = readFileSync(new URL(name, PUBLIC_DATASETS), "utf8")
    .split("\n")
    .filter((line) => line.length === 81);
  return lines.slice(0, count);
}

/**
 * A describe block of tests that read the public datasets: run when every set is in the folder;
 * when one is not, one skipped test that says so, or (SUDOKU_WASM_REQUIRE_SHARED_DATASETS=1) one
 * failing test that says so beside the block's own tests.
 */
export function describeWithPublicDatasets(name: string, body: () => void): void {
  const what = `${missing.length} of the ${PUBLIC_SETS.length} public sets (${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""}) missing from ${folder}`;
  if (!hasPublicDatasets && !publicDatasetsRequired) {
    describe(name, () => it.skip(`skipped: ${what} (npx sudoku-wasm datasets fetch --all; .ci/run requires them)`, () => {}));
    return;
  }
  describe(name, () => {
    if (!hasPublicDatasets) {
      it(`finds the public sets in ${folder}`, () => {
        throw new Error(`${what}, and SUDOKU_WASM_REQUIRE_SHARED_DATASETS=1 requires them`);
      });
    }
    body();
  });
}
