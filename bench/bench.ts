/** `npm run bench` (docs/bench.md): measures the plan (runner.ts), prints and writes the report; --compare and --ref (paired.ts) judge. */
import { isSameFile } from "../src/cli-kit/same-file.js";
import type { Dataset } from "../src/datasets/read.js";
import { InterruptWatch } from "../src/cli-kit/progress.js";
import { type SolverInfo, VARIANT_NOT_HERE, findSolver, solvers } from "../src/solvers/registry.js";
import { isOutsideSolver, resolveSolvers } from "./custom-solvers.js";
import { openWorkerRow } from "./isolated.js";
import { benchDatasets, collectEnvironment, datasetExpectation, datasetIdentity } from "./env.js";
import { type BenchOptions, type Preset, benchCommand, checkJudgeFlags, findPreset, parseOptions } from "./options.js";
import { LiveReport } from "./progress.js";
import type { BenchRun } from "./records.js";
import { COMPACT_WIDTH, formatFlagNotes, formatSummary, wrap } from "./report/compact.js";
import { describeEnvironment, describeMachine, formatTables, terminalSafe } from "./report/format.js";
import { quietUsage, runTool } from "./tool.js";
import {
  type SettingDifference,
  compareHeading,
  compareRuns,
  defaultThreshold,
  formatComparison,
  regressionLine,
  settingDifferences,
} from "./report/compare.js";
import { readResultFile } from "./report/read-result.js";
import { checkRefRequest, judgeAgainstCommit } from "./paired.js";
import { checkOutputRequests, fileExportFlags, timestamp, usesStdout, withStdoutAliases, writeReports } from "./report/output.js";
import { type BenchPlan, isPureTsBaseline, planRows, plannedRows, runBench } from "./runner.js";
import { poolRow } from "./threads.js";

/** The selected solvers (`--solvers`, else the preset's, a skipped one said on stderr); the reference must be one of them. */
async function selectSolvers(options: BenchOptions, preset: Preset): Promise<readonly SolverInfo[]> {
  if (options.solvers?.length === 0) throw new Error("--solvers names none: give registry ids, solver modules or wasm-abi: files");
  for (const info of options.solvers ? [] : solvers) {
    if (info.unavailable && info.unavailable !== VARIANT_NOT_HERE) process.stderr.write(`skipping ${info.id}: ${info.unavailable}\n`);
  }
  const selected = options.solvers
    ? await resolveSolvers(options.solvers)
    : solvers.filter((info) => !info.unavailable && info.sizes.some((size) => preset.takes(info, size)));
  if (options.reference && !selected.some((info) => info.id === options.reference)) {
    findSolver(options.reference);
    throw new Error(`--reference ${options.reference} is not among the selected solvers (${selected.map((s) => s.id).join(", ")})`);
  }
  return selected;
}

/** Exit status of a row that failed while measuring, or of a judged regression; what is refused before measuring is a usage error (2). */
const FAILED_STATUS = 1;
/** True once measuring began: an error from then on is a failed run, not a usage error. */
let measuring = false;

/** How `later`'s settings differ from `earlier`'s; throws when they measure different experiments (unless --compare-anyway). */
function checkedDifferences(earlier: BenchRun, later: BenchRun, options: BenchOptions): SettingDifference[] {
  const differences = settingDifferences(earlier.environment, later.environment);
  const refusals = differences.filter((d) => d.severity === "refuse");
  if (refusals.length > 0 && !options.compareAnyway) {
    throw new Error(
      `--compare ${options.compare}: the runs measure different experiments (${refusals.map((d) => `${d.setting}: ${d.before} → ${d.after}`).join("; ")}); ` +
        "run with the same settings, or add --compare-anyway",
    );
  }
  return differences;
}

/** Throws when `earlier` holds none of `datasets` (this run's, or `--against`'s): nothing would be compared. */
function checkSharedDatasets(earlier: BenchRun, datasets: readonly { name: string }[], options: BenchOptions, whose = "this run's"): void {
  const before = [...new Set([...(earlier.environment.datasets ?? []).map((d) => d.name), ...earlier.records.map((r) => r.dataset)])];
  const now = datasets.map((d) => d.name);
  if (now.some((name) => before.includes(name))) return;
  throw new Error(
    `--compare ${options.compare}: none of ${whose} datasets (${now.join(", ")}) is in it (${before.join(", ") || "none"}), so nothing would be compared; ` +
      (whose === "this run's" ? "give --datasets of that run" : "judge two runs of the same datasets"),
  );
}

/** Prints the comparison of `later` with `earlier`; with --fail-on-regression, a row judged slower by more than that sets exit status 1. */
function judge(earlier: BenchRun, later: BenchRun, differences: readonly SettingDifference[], options: BenchOptions, report: (text: string) => void): void {
  const threshold = options.threshold === undefined ? defaultThreshold(earlier, later) : options.threshold / 100;
  const changes = compareRuns(earlier, later, threshold, { acrossCpus: options.compareAnyway });
  report(formatComparison(earlier, changes, differences, threshold, compareHeading(earlier, threshold, later), later));
  const failAt = options.failOnRegression === true ? threshold * 100 : options.failOnRegression;
  const line = failAt === undefined ? null : regressionLine(changes, failAt);
  if (line === null) return;
  report(line + "\n");
  process.exitCode = FAILED_STATUS;
}

async function main(argv: readonly string[]): Promise<void> {
  const options = withStdoutAliases(parseOptions(argv, quietUsage(benchCommand())));
  checkOutputRequests(options);
  const toStderr = usesStdout(options);
  const stream = toStderr ? process.stderr : process.stdout;
  const report = (text: string) => stream.write(terminalSafe(text));
  const width = Math.min(stream.isTTY && stream.columns > 0 ? stream.columns : COMPACT_WIDTH.unknown, COMPACT_WIDTH.max);
  checkJudgeFlags(options);
  checkRefRequest(options);
  for (const flag of ["json", "markdown", "csv", "chart"] as const) {
    const path = options[flag];
    if (options.compare !== undefined && typeof path === "string" && isSameFile(path, options.compare)) {
      throw new Error(`--${flag} ${path} would write over the run that --compare reads: give the export another file`);
    }
  }
  const earlier = options.compare ? readResultFile(options.compare, "--compare") : null;
  const datasets = benchDatasets(options.datasets);
  const started = new Date();
  const environment = {
    ...collectEnvironment({ seed: options.seed, limit: options.limit, timeMs: options.time, budget: options.budget }, started),
    puzzles: options.puzzles,
    datasets: datasets.map((dataset) => datasetIdentity(dataset, options.puzzles)),
    ...(options.freshRounds ? { freshRounds: true } : {}),
  };
  if (options.against) {
    if (!earlier) throw new Error("--against needs --compare OLD.json: the run to judge it against");
    const exports = fileExportFlags(options);
    if (exports.length > 0) throw new Error(`--against compares two saved runs and measures nothing, so it writes no files: leave out ${exports.join(", ")}`);
    const later = readResultFile(options.against, "--against");
    const laterDatasets = new Set([...(later.environment.datasets ?? []).map((d) => d.name), ...later.records.map((r) => r.dataset)]);
    checkSharedDatasets(
      earlier,
      [...laterDatasets].map((name) => ({ name })),
      options,
      "--against's",
    );
    const differences = checkedDifferences(earlier, later, options);
    judge(earlier, later, differences, options, report);
    return;
  }
  if (earlier) checkSharedDatasets(earlier, environment.datasets, options);
  const differences = earlier ? checkedDifferences(earlier, { environment, records: [] }, options) : [];
  // --solvers picks the rows itself, with the kernel's once-per-puzzle and threads rows.
  const preset = options.solvers ? { ...findPreset("all"), name: "--solvers" } : findPreset(options.preset);
  const selected = await selectSolvers(options, preset);
  const threadsRow = options.threads > 0 && (preset.threadsRow || options.threadsGiven);
  const watch = new InterruptWatch();
  const workerRows = { timeoutMs: options.solverTimeout, freshRounds: options.freshRounds, signal: watch.aborted };
  const plan: BenchPlan = {
    solvers: selected,
    datasets,
    limit: options.limit,
    timeMs: options.time,
    budget: options.budget,
    seed: options.seed,
    rounds: options.rounds,
    maxPuzzles: options.puzzles,
    reference: options.reference,
    extraRows: threadsRow ? [poolRow(options.threads)] : [],
    // an outside solver's row runs in a worker thread
    isolate: (info: SolverInfo) =>
      isOutsideSolver(info)
        ? { solver: info.id, mode: "engine", label: info.id, threads: null, open: (...args) => openWorkerRow(info, ...args, workerRows) }
        : undefined,
    ...(options.freshRounds
      ? { timeElsewhere: (info: SolverInfo, batch: boolean) => (grids, limit, budget) => openWorkerRow(info, grids, limit, budget, { ...workerRows, batch }) }
      : {}),
    takes: preset.takes,
    boundaryRow: preset.boundaryRow,
    expectationOf: datasetExpectation,
    // a row on the edge of sampling times the puzzles it timed in the run it is compared with
    ...(earlier
      ? { sampledBefore: (dataset: string, solver: string) => earlier.records.find((r) => r.dataset === dataset && r.solver === solver)?.puzzles }
      : {}),
  };
  for (const dataset of datasets) plannedRows(plan, dataset); // a dataset no selected solver takes is a usage error, said before the run

  const quick =
    `--quick: a smoke run (${options.puzzles} puzzles per dataset, ${options.time} ms per row) that shows every row works; ` +
    "its figures are rough and rows close in speed can swap places (wasm and its 1 call/puzzle row among them): " +
    "measure with the default settings, or --time 2000";
  // (--ref times its rows its own way, which its verdicts' heading says: not the method line's tinybench batches and per-puzzle pass)
  const header = [...(options.ref ? describeMachine(environment) : describeEnvironment(environment)), ...(options.quick ? [quick] : [])];
  report(header.flatMap((line) => wrap(line, width, "  ")).join("\n") + "\n");
  if (options.ref) {
    measuring = true;
    const passed = await judgeAgainstCommit(options, { ...plan, signal: watch.aborted }, report);
    if (passed === false) process.exitCode = FAILED_STATUS;
    watch.close();
    if (watch.signal) {
      report(
        passed === null
          ? `interrupted by ${watch.signal} while building --ref ${options.ref}: its build was stopped, nothing was judged\n`
          : `interrupted by ${watch.signal}: the verdicts above are of the rows judged before it\n`,
      );
      process.exitCode = watch.exitStatus!;
    }
    return;
  }
  const live = new LiveReport(options.wide ? undefined : { write: report, labels: planRows(plan).map((row) => row.label), columns: width, seed: options.seed });
  watch.onForcedExit(() => live.end());
  measuring = true;
  const records = await runBench({ ...plan, signal: watch.aborted }, live).finally(() => live.end());
  const run: BenchRun = { environment, records };
  const out: string[] = [];
  if (watch.signal) {
    run.incomplete = { signal: watch.signal, rowsPlanned: live.totalRows };
    out.push("", `interrupted by ${watch.signal}: ${records.length} of ${live.totalRows} rows finished; the exports below hold them, marked incomplete`);
  }
  if (options.wide) out.push(...formatTables(records, options.seed));
  const flagNotes = formatFlagNotes(records, width, options.time, !options.wide, environment.cores);
  if (flagNotes.length > 0) out.push("", "Flags:", ...flagNotes);
  const infos = new Map(selected.map((info) => [info.id, info]));
  // a stopped run's datasets whose rows that could be the reference (--reference's, else a pure-TS engine row) were not measured;
  // a WASM kernel's own row solves batches, so is no pure-TS baseline (isPureTsBaseline)
  const wasmKernel = (info: SolverInfo) => info.kernelBuild !== undefined || info.id === "general-wasm";
  const couldRefer = (row: { info: SolverInfo; mode: string }) =>
    options.reference ? row.info.id === options.reference : !row.info.external && !wasmKernel(row.info) && row.mode === "engine";
  const measured = (dataset: string, row: string) => records.some((r) => r.dataset === dataset && r.row === row);
  const stopped = (dataset: Dataset) => plannedRows(plan, dataset).some((row) => couldRefer(row) && !measured(dataset.name, row.label));
  const unfinished = new Set(watch.signal ? datasets.filter(stopped).map((dataset) => dataset.name) : []);
  if (records.length > 0) out.push("", ...formatSummary(records, (r) => isPureTsBaseline(r, infos.get(r.solver)), width, unfinished));
  report(out.join("\n") + "\n");
  for (const path of writeReports(run, options, timestamp(started))) if (path !== "-") report(`wrote ${path}\n`);
  if (earlier) {
    report("\n");
    judge(earlier, run, differences, options, report);
  }
  watch.close();
  if (watch.exitStatus !== null) process.exitCode = watch.exitStatus;
}

await runTool(
  "bench",
  () => main(process.argv.slice(2)),
  () => !measuring,
);
