/** The environment recorded with every run (machine, build, commit, date), and the datasets' identities and expected counts. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { join, resolve } from "node:path";
import { buildFacts } from "../build/facts.js";
import { calibrationIdentity } from "./calibration.js";
import { type Dataset, DatasetSpecError, bundledDatasets, datasetsFolder, loadDatasetList } from "../src/datasets/read.js";
import { cachedFileProblem, cachedPath } from "../src/datasets/cache.js";
import { catalog } from "../src/datasets/catalog.js";
import { checkedShape } from "./measure/draw.js";
import { packageVersion } from "./measure/reference.js";
import { type Expectation, expectationOf } from "./verify.js";
import { cpuFamily, gitCommit, vectorUnits } from "./tool.js";
import type { BenchEnvironment, DatasetIdentity } from "./records.js";

export type RunSettings = Pick<BenchEnvironment, "seed" | "limit" | "timeMs" | "budget">;

/** Describes this machine and build; `now` fixes the date (tests). */
export function collectEnvironment(settings: RunSettings, now = new Date()): BenchEnvironment {
  const vector = vectorUnits();
  const family = cpuFamily();
  return {
    cpu: cpus()[0]?.model.trim() || "unknown",
    ...(vector === undefined ? {} : { vectorUnits: vector }),
    ...(family === undefined ? {} : { cpuFamily: family }),
    cores: availableParallelism(),
    node: process.version,
    v8: process.versions.v8,
    buildFlags: buildFacts.flags.release ?? "unknown", // recorded by scripts/build-facts.mjs
    commit: gitCommit(),
    date: now.toISOString(),
    ...settings,
    tinybench: packageVersion("tinybench"),
    calibration: calibrationIdentity(),
  };
}

/** A dataset's name, content hash (SHA-256 prefix) and size, with the puzzles drawn from it. */
export function datasetIdentity(dataset: Dataset, maxPuzzles: number): DatasetIdentity {
  const sha256 = createHash("sha256").update(readFileSync(dataset.path)).digest("hex").slice(0, 16);
  return { name: dataset.name, sha256, size: dataset.puzzles.length, drawn: Math.min(maxPuzzles, dataset.puzzles.length) };
}

/** The datasets `specs` name (every bundled one when none), refused before anything runs when there are none or one holds no puzzle of a grid size. */
export function benchDatasets(specs: string[] | undefined): Dataset[] {
  const datasets = loadDatasetList(specs ?? bundledDatasets());
  if (datasets.length === 0)
    throw new DatasetSpecError(specs === undefined ? "no datasets: none are bundled in datasets/; pass --datasets FILE" : "no datasets: --datasets names none");
  for (const dataset of datasets) {
    if (dataset.puzzles.length === 0) throw new DatasetSpecError(`${dataset.path}: holds no puzzles`);
    checkedShape(dataset);
  }
  return datasets;
}

/**
 * What a dataset's solution counts must be (verify.ts): a public set's or bundled tier's only when the file is that
 * set's (cached as the catalog has it, or bundled); any other file, whatever its name, is "unknown".
 */
export function datasetExpectation(dataset: Pick<Dataset, "name" | "path">): Expectation {
  const at = resolve(dataset.path);
  const set = catalog().find((entry) => entry.name === dataset.name);
  const cached = set !== undefined && resolve(cachedPath(dataset.name)) === at && cachedFileProblem(set) === null;
  const own = cached || resolve(join(datasetsFolder(), `${dataset.name}.txt`)) === at;
  return own ? expectationOf(dataset.name, new Set(bundledDatasets())) : "unknown";
}
