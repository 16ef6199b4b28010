/**
 * `npm run bench`: every registered solver (or the modules given) across the bundled datasets
 * (or those given), timed by tinybench, answers checked outside the timed region. Prints the
 * table, writes the exports asked for, and with --compare judges each row against an earlier
 * run; progress on stderr. A wrong answer exits non-zero. Options: options.ts (`--help`).
 */
import { readFileSync } from "node:fs";
import { bundledDatasets, loadDatasetList } from "../src/datasets.js";
import { type SolverInfo, findSolver, solvers } from "../src/registry.js";
import { resolveSolvers } from "./custom-solvers.js";
import { collectEnvironment, datasetIdentity } from "./env.js";
import { type BenchOptions, parseOptions } from "./options.js";
import { progressBar } from "./progress.js";
import type { BenchRun } from "./records.js";
import { compareRuns, describeDifferences, formatComparison, settingDifferences, settingsOf } from "./report/compare.js";
import { parseJson } from "./report/json.js";
import { checkOutputRequests, timestamp, usesStdout, writeReports } from "./report/output.js";
import { formatTable } from "./report/table.js";
import { runBench } from "./runner.js";
import { poolRow } from "./threads.js";
import { expectationOf } from "./verify.js";

/** Every registry entry that can load here; a skipped one (a missing optional package) is said on stderr. */
function availableSolvers(): readonly SolverInfo[] {
  for (const info of solvers) if (info.unavailable) process.stderr.write(`skipping ${info.id}: ${info.unavailable}\n`);
  return solvers.filter((info) => !info.unavailable);
}

/** The selected solvers (registry ids, module paths, wasm-abi: modules); the reference must be one of them. */
async function selectSolvers(options: BenchOptions): Promise<readonly SolverInfo[]> {
  const selected = options.solvers ? await resolveSolvers(options.solvers) : availableSolvers();
  if (options.reference && !selected.some((info) => info.id === options.reference)) {
    findSolver(options.reference);
    throw new Error(`--reference ${options.reference} is not among the selected solvers (${selected.map((s) => s.id).join(", ")})`);
  }
  return selected;
}

async function main(argv: readonly string[]): Promise<void> {
  const options = parseOptions(argv);
  checkOutputRequests(options);
  const report = usesStdout(options) ? (text: string) => process.stderr.write(text) : (text: string) => process.stdout.write(text);
  const earlier = options.compare ? parseJson(readFileSync(options.compare, "utf8"), options.compare) : null;
  const bundled = bundledDatasets();
  const datasets = loadDatasetList(options.datasets ?? bundled);
  if (datasets.length === 0) throw new Error("no datasets: none are bundled in datasets/; pass --datasets FILE");
  const started = new Date();
  const environment = {
    ...collectEnvironment({ seed: options.seed, limit: options.limit, timeMs: options.time, budget: options.budget }, started),
    puzzles: options.puzzles,
    datasets: datasets.map((dataset) => datasetIdentity(dataset, options.puzzles)),
  };
  const differences = earlier ? settingDifferences(settingsOf(earlier), settingsOf({ environment, records: [] })) : [];
  const refusals = differences.filter((d) => d.severity === "refuse");
  if (refusals.length > 0 && !options.compareAnyway) {
    throw new Error(
      `--compare ${options.compare}: the runs measure different experiments (${describeDifferences(refusals).join("; ")}); ` +
        "run with the same settings, or add --compare-anyway",
    );
  }
  const records = await runBench(
    {
      solvers: await selectSolvers(options),
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
  report(formatTable(run));
  for (const path of writeReports(run, options, timestamp(started))) if (path !== "-") report(`wrote ${path}\n`);
  if (earlier) report("\n" + formatComparison(earlier, compareRuns(earlier, run), differences));
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`bench: ${error.message}\n`);
  process.exitCode = 1;
});
