/**
 * `npm run bench`: every registered solver across the bundled datasets (or those given),
 * timed by tinybench, answers checked outside the timed region. Prints the table on stdout,
 * progress on stderr, writes the chart and any requested files; a wrong answer exits non-zero.
 * Options: options.ts (`npm run bench -- --help`).
 */
import { readFileSync } from "node:fs";
import { bundledDatasets, loadDatasetList } from "../src/datasets.js";
import { type SolverInfo, findSolver, solvers } from "../src/registry.js";
import { collectEnvironment } from "./env.js";
import { type BenchOptions, parseOptions } from "./options.js";
import { progressBar } from "./progress.js";
import type { BenchRun } from "./records.js";
import { compareRuns, formatComparison } from "./report/compare.js";
import { parseJson } from "./report/json.js";
import { timestamp, writeReports } from "./report/output.js";
import { formatTable } from "./report/table.js";
import { runBench } from "./runner.js";
import { poolRow } from "./threads.js";
import { expectationOf } from "./verify.js";

/** Every registry entry that can load here; a skipped one (a missing optional package) is said on stderr. */
function availableSolvers(): readonly SolverInfo[] {
  for (const info of solvers) if (info.unavailable) process.stderr.write(`skipping ${info.id}: ${info.unavailable}\n`);
  return solvers.filter((info) => !info.unavailable);
}

/** The selected registry entries; the reference must be one of them. */
function selectSolvers(options: BenchOptions): readonly SolverInfo[] {
  const selected = options.solvers ? options.solvers.map(findSolver) : availableSolvers();
  if (options.reference && !selected.some((info) => info.id === options.reference)) {
    findSolver(options.reference);
    throw new Error(`--reference ${options.reference} is not among the selected solvers (${selected.map((s) => s.id).join(", ")})`);
  }
  return selected;
}

async function main(argv: readonly string[]): Promise<void> {
  const options = parseOptions(argv);
  const earlier = options.compare ? parseJson(readFileSync(options.compare, "utf8"), options.compare) : null;
  const bundled = bundledDatasets();
  const datasets = loadDatasetList(options.datasets ?? bundled);
  if (datasets.length === 0) throw new Error("no datasets: none are bundled in datasets/; pass --datasets FILE");
  const started = new Date();
  const environment = collectEnvironment({ seed: options.seed, limit: options.limit, timeMs: options.time, budget: options.budget }, started);
  const records = await runBench(
    {
      solvers: selectSolvers(options),
      datasets,
      limit: options.limit,
      timeMs: options.time,
      budget: options.budget,
      seed: options.seed,
      maxPuzzles: options.puzzles,
      reference: options.reference,
      extraRows: options.threads > 0 ? [poolRow(options.threads)] : [],
      expectationOf: (dataset) => expectationOf(dataset.name, new Set(bundled)),
    },
    progressBar(),
  );
  const run: BenchRun = { environment, records };
  process.stdout.write(formatTable(run));
  for (const path of writeReports(run, options, timestamp(started))) process.stdout.write(`wrote ${path}\n`);
  if (earlier) process.stdout.write("\n" + formatComparison(earlier, compareRuns(earlier, run)));
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`bench: ${error.message}\n`);
  process.exitCode = 1;
});
