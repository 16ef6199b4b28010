/**
 * Reading puzzle files for the bench, the profiler and kernel-vs (the CLI reads its input through
 * src/stream/input.ts). Lines are not parsed here: a bad line reaches the solver, whose record
 * names the cell and the reason, and `lines` says where it came from.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import { packageRoot } from "../kernel/paths.js";
import { catalog } from "./catalog.js";
import { cachedFileProblem, cachedPath, fetchCommand } from "./cache.js";
import { DatasetSpecError } from "./spec-error.js";

export { DatasetSpecError };

/** The puzzles of one file. */
export interface Dataset {
  /** The file name without `.txt`. */
  name: string;
  /** Absolute path of the file. */
  path: string;
  /** Puzzle lines, trimmed, in file order. */
  puzzles: string[];
  /** The 1-based line of each puzzle in the file. */
  lines: number[];
}

const EXTENSION = ".txt";

/** The folder of the bundled corpora. */
export function datasetsFolder(): string {
  return join(packageRoot(), "datasets");
}

/** One manifest entry, as far as the reader needs it (the generator writes the full record). */
interface ManifestOrderEntry {
  file: string;
  guesses?: { mean?: number };
}

/** Mean guesses per bundled file name from datasets/manifest.json (empty when it is missing). */
function recordedMeanGuesses(): Map<string, number> {
  const path = join(datasetsFolder(), "manifest.json");
  if (!existsSync(path)) return new Map();
  const manifest = JSON.parse(readFileSync(path, "utf8")) as { files?: ManifestOrderEntry[] };
  return new Map((manifest.files ?? []).map((entry) => [basename(entry.file, EXTENSION), entry.guesses?.mean ?? Infinity]));
}

/** Names of the files in datasets/ (without .txt), easiest first: by the manifest's mean guesses, unrecorded files last by name. */
export function bundledDatasets(): string[] {
  const folder = datasetsFolder();
  if (!existsSync(folder)) return [];
  const meanGuesses = recordedMeanGuesses();
  const difficulty = (name: string) => meanGuesses.get(name) ?? Infinity;
  return readdirSync(folder)
    .filter((file) => extname(file) === EXTENSION)
    .map((file) => basename(file, EXTENSION))
    .sort((a, b) => difficulty(a) - difficulty(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Reads one puzzle file, skipping blank lines and `#` comments. */
export function readDataset(path: string): Dataset {
  const puzzles: string[] = [];
  const lines: number[] = [];
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((raw, index) => {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) return;
      puzzles.push(line);
      lines.push(index + 1);
    });
  return { name: basename(path, EXTENSION), path: resolve(path), puzzles, lines };
}

/** Every .txt file in a folder, sorted by name. */
function readFolder(folder: string): Dataset[] {
  const files = readdirSync(folder)
    .filter((file) => extname(file) === EXTENSION)
    .sort();
  if (files.length === 0) throw new Error(`folder '${folder}' holds no ${EXTENSION} puzzle files`);
  return files.map((file) => readDataset(join(folder, file)));
}

/**
 * The datasets a spec names: a public set's name (`forum_hardest_1905_11plus`, from the cache
 * folder), a bundled name (`hard`), a file path, or a folder path (every .txt in it, sorted). A
 * public set not fetched yet, or an unknown spec, throws a {@link DatasetSpecError}: the first
 * gives the one command that fetches the set, the second lists the names.
 */
export function loadDatasets(spec: string): Dataset[] {
  const publicSet = catalog().find((set) => set.name === spec);
  if (publicSet !== undefined) {
    const path = cachedPath(publicSet.name);
    if (existsSync(path)) {
      // A cut or altered copy would be measured under the set's name and checked against its known counts, blaming the solver.
      const problem = cachedFileProblem(publicSet);
      if (problem === null) return [readDataset(path)];
      throw new DatasetSpecError(
        `dataset '${spec}': the cached file ${path} does not match the catalog (${problem}): ` + `run ${fetchCommand(publicSet.name)}, which fetches it again`,
      );
    }
    const how = publicSet.unavailable === undefined ? `run ${fetchCommand(publicSet.name)}` : `it cannot be fetched: ${publicSet.unavailable}`;
    throw new DatasetSpecError(`dataset '${spec}' is not fetched yet (no ${path}): ${how}`);
  }
  if (bundledDatasets().includes(spec)) return [readDataset(join(datasetsFolder(), spec + EXTENSION))];
  if (existsSync(spec)) return statSync(spec).isDirectory() ? readFolder(spec) : [readDataset(spec)];
  const known = bundledDatasets();
  throw new DatasetSpecError(
    `no dataset '${spec}': not a public set (npx sudoku-wasm datasets list), a bundled name (${known.length ? known.join(", ") : "none bundled"}) nor a file or folder`,
  );
}

/**
 * The datasets of several specs, in the order given. Runs tell datasets apart by name, so two of
 * one name (a file given twice, or two files named alike in other folders) are a {@link DatasetSpecError}.
 */
export function loadDatasetList(specs: string[]): Dataset[] {
  const datasets = specs.flatMap(loadDatasets);
  const byName = new Map<string, Dataset>();
  for (const dataset of datasets) {
    const before = byName.get(dataset.name);
    if (before !== undefined) {
      throw new DatasetSpecError(
        before.path === dataset.path
          ? `dataset '${dataset.name}' (${dataset.path}) is given twice: give each once`
          : `two datasets are named '${dataset.name}' (${before.path} and ${dataset.path}): results are told apart by file name, so rename one`,
      );
    }
    byName.set(dataset.name, dataset);
  }
  return datasets;
}
