/**
 * `npm run profile`: every WASM kernel variant on every dataset, puzzle by puzzle: what each propagation level and cell
 * order buys, down to the hardest puzzle. Options, help and the run; the measuring is profiler.ts's.
 */
import { type Command, InvalidArgumentError } from "commander";
import { Session } from "node:inspector/promises";
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { datasetShape } from "../measure/draw.js";
import { CELLS } from "../../src/model/shape.js";
import { type SolverInfo, findSolver, solvers } from "../../src/solvers/registry.js";
import { WasmKernel } from "../../src/kernel/wasm.js";
import { InterruptWatch } from "../../src/cli-kit/progress.js";
import { benchDatasets, collectEnvironment, datasetExpectation } from "../env.js";
import { LiveReport } from "../progress.js";
import { stringifyCompact } from "../report/json.js";
import { outputPath, resultsFolder, timestamp, whyUnwritable, writeText } from "../report/output.js";
import { DatasetSpecError, bundledDatasets } from "../../src/datasets/read.js";
import { type OptionRow, commaList, tableCommand, wholeNumber } from "../../src/cli-kit/options.js";
import { solverHelpLines } from "../../src/cli-kit/solver-help.js";
import { type ProfileVariant, profileVariants } from "./profiler.js";
import type { ProfileRun } from "../records.js";
import { describeProfileEnvironment, formatProfileMarkdown, formatProfileTable } from "./table.js";

/** The parsed options of one profile run, each described in {@link PROFILE_OPTIONS}. */
export interface ProfileOptions {
  variants?: string[];
  datasets?: string[];
  json?: string | true;
  /** Print the variants' tables as Markdown, under a line naming the CPU, commit and datasets, instead of the terminal report (the paths written go to stderr). */
  markdown?: boolean;
  limit: number;
  budget: number;
  sample?: number;
  seed: number;
  cpuProf: boolean;
  out: string;
}

/** Every 9×9 WASM kernel variant in the registry, the default first. */
export function kernelVariantInfos(): SolverInfo[] {
  return solvers.filter((info) => info.kernelBuild !== undefined);
}

/** The variants `ids` names (every kernel variant when undefined); an id that is not one throws, listing them. */
export function selectVariants(ids?: readonly string[]): ProfileVariant[] {
  if (ids?.length === 0) throw new InvalidArgumentError("no variants: --variants names none");
  const twice = ids?.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw new InvalidArgumentError(`--variants: '${twice}' is given twice`);
  const known = (id: string) => {
    try {
      return findSolver(id);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message); // a usage error, as commander's
    }
  };
  const infos = ids ? ids.map(known) : kernelVariantInfos();
  const other = infos.find((info) => info.kernelBuild === undefined);
  const variants = kernelVariantInfos().map((i) => i.id);
  if (other) throw new InvalidArgumentError(`'${other.id}' is not a WASM kernel variant; profile one of: ${variants.join(", ")}`);
  const load = async (info: SolverInfo) => {
    const engine = await info.load(9);
    if (!(engine instanceof WasmKernel)) throw new Error(`${info.id}: the registry did not load a WASM kernel`);
    return engine;
  };
  return infos.map((info) => ({ id: info.id, description: info.description, load: () => load(info) }));
}

/** The profile as indented JSON, each array of numbers (the per-puzzle columns) kept on one line. */
export function formatProfileJson(run: ProfileRun): string {
  return stringifyCompact({ format: "sudoku-wasm-profile", version: 1, ...run });
}

/** Runs `work` under the V8 CPU profiler (sampling every 100 µs; V8's default is 1000) and writes the profile to `path`, even when `work` throws. */
async function withCpuProfile<T>(path: string, work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 100 });
    await session.post("Profiler.start");
    try {
      return await work();
    } finally {
      const { profile } = await session.post("Profiler.stop");
      writeText(path, JSON.stringify(profile));
    }
  } finally {
    session.disconnect();
  }
}

/** Profiles, prints the table through `print`, writes the JSON and CPU profile asked for; returns the run and every path written. */
export async function runProfile(
  options: ProfileOptions,
  print: (text: string) => void = (text) => process.stdout.write(text),
): Promise<{ run: ProfileRun; written: string[] }> {
  const out = resolve(options.out);
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new InvalidArgumentError(`--out ${options.out} is a file, not a folder: name a folder (made when missing)`);
  // `--json -`: the JSON alone on standard output, the report on standard error (as the bench does)
  const jsonToStdout = options.json === "-";
  if (jsonToStdout && options.markdown) throw new InvalidArgumentError("--json - and --markdown both write to standard output: give --json a file");
  if (typeof options.json === "string" && !jsonToStdout) {
    const unwritable = whyUnwritable(resolve(options.json)); // before measuring, not after
    if (unwritable) throw new InvalidArgumentError(`--json ${options.json}: cannot write it (${unwritable})`);
  }
  const report = jsonToStdout ? (text: string) => void process.stderr.write(text) : print;
  const datasets = benchDatasets(options.datasets);
  for (const { puzzles, path } of datasets) {
    const { size, cells } = datasetShape(puzzles, path);
    const why = "the profiler runs the 9×9 kernel's variants only (npm run bench measures every size)";
    if (cells !== CELLS) throw new DatasetSpecError(`${path} holds ${size}×${size} puzzles, but ${why}`);
  }
  const variants = selectVariants(options.variants);
  const started = new Date();
  const stamp = timestamp(started);
  const { timeMs: _tinybenchTime, ...machine } = collectEnvironment({ seed: options.seed, limit: options.limit, timeMs: 0, budget: options.budget }, started);
  const plan = {
    variants,
    datasets,
    limit: options.limit,
    budget: options.budget,
    seed: options.seed,
    sample: options.sample,
    expectationOf: datasetExpectation,
  };
  // Ctrl-C drops the variant being measured; what finished is printed and written (status 130); a second one ends the process.
  const watch = new InterruptWatch();
  const progress = new LiveReport();
  watch.onForcedExit(() => progress.end());
  const measure = () => profileVariants({ ...plan, signal: watch.aborted }, progress);
  const cpuProfile = options.cpuProf ? join(resolve(options.out), `profile-${stamp}.cpuprofile`) : null;
  const records = await (cpuProfile ? withCpuProfile(cpuProfile, measure) : measure()).finally(() => {
    progress.end();
    watch.close();
  });
  const run: ProfileRun = { environment: { ...machine, sample: options.sample ?? null }, records };
  if (watch.signal) {
    const planned = variants.length * datasets.length;
    process.stderr.write(`interrupted by ${watch.signal}: ${records.length} of ${planned} variant rows finished; what follows holds them\n`);
    process.exitCode = watch.exitStatus!;
  }
  if (options.markdown) {
    // standard output holds the tables under one line naming the CPU, commit and datasets (docs:tables takes the table lines); the whole environment goes here
    const datasetsLine = `datasets: ${datasets.map((dataset) => dataset.name).join(", ")}`;
    process.stderr.write([...describeProfileEnvironment(run.environment, Infinity, run.records), datasetsLine].join("\n") + "\n");
  }
  const names = datasets.map((dataset) => dataset.name);
  report(options.markdown ? formatProfileMarkdown(run, names) : formatProfileTable(run, process.stdout.isTTY ? process.stdout.columns : undefined));
  if (jsonToStdout) process.stdout.write(formatProfileJson(run));
  const json = options.json === undefined || jsonToStdout ? [] : [writeText(outputPath(options.json, "json", `profile-${stamp}`, out), formatProfileJson(run))];
  const written = [...json, ...(cpuProfile ? [cpuProfile] : [])];
  const note = options.markdown ? (text: string) => process.stderr.write(text) : report;
  for (const path of written) note(`wrote ${path}\n`);
  return { run, written };
}

const PROFILE_OPTIONS: readonly OptionRow[] = [
  { flags: "--variants <ids>", description: "comma-separated kernel variant ids (listed below)", defaultText: "every wasm variant", parse: commaList },
  {
    flags: "--datasets <specs>",
    description: "comma-separated public set names (npx sudoku-wasm datasets list), bundled names, puzzle files or folders",
    defaultText: "every bundled dataset",
    parse: commaList,
  },
  { flags: "--limit <n>", description: "count solutions up to 1 (find one) or 2 (prove uniqueness)", default: 2, parse: wholeNumber(1, 2) },
  {
    flags: "--budget <nodes>",
    description: "search nodes per puzzle before it counts as a timeout (shown, never dropped)",
    default: 200_000,
    parse: wholeNumber(1, 0x7fffffff),
  },
  {
    flags: "--sample <n>",
    description: "profile at most this many puzzles per dataset, drawn with --seed",
    defaultText: "every puzzle",
    parse: wholeNumber(1),
  },
  { flags: "--seed <n>", description: "seed of the --sample draw", default: 1, parse: wholeNumber(0, 0xffffffff) },
  {
    flags: "--json [file]",
    description:
      "write every record (per-puzzle arrays included) as JSON (bare flag: <out>/profile-<time>.json; -: standard output, the report then on standard error)",
  },
  {
    flags: "--markdown",
    description:
      "print each dataset's variant table as Markdown (every column), under a line naming the CPU, commit and datasets, instead of the terminal report",
    default: false,
  },
  {
    flags: "--out <dir>",
    description: "folder of a bare --json's file and the CPU profile",
    default: resultsFolder(),
    defaultText: "bench/results/",
  },
  { flags: "--cpu-prof", description: "also write a V8 CPU profile of the run to <out>/profile-<time>.cpuprofile", default: false },
];

/** The help after the options: variants, bundled datasets, how to read the outputs. */
function helpAfter(): string {
  return [
    "",
    "Kernel variants (id, grid sizes, algorithm):",
    ...solverHelpLines(kernelVariantInfos()),
    "",
    `Bundled datasets (easiest first): ${bundledDatasets().join(", ") || "none"}`,
    "",
    "Output: a table per dataset (puzzles/s from whole-batch calls; guesses, nodes and µs percentiles",
    "per puzzle solved alone; the 10 hardest puzzles by time and by guesses as file lines). Every",
    "variant must count the same solutions on every puzzle none timed out on, or the run fails.",
    "",
    "--cpu-prof: open the .cpuprofile in Chrome DevTools (Performance panel → Load profile, or",
    "chrome://inspect → Open dedicated DevTools for Node → Profiler → Load) or in VS Code (open the",
    "file: flame chart view).",
  ].join("\n");
}

/** The `profile` subcommand, ready to be added to the main program. */
export function profileCommand(): Command {
  const description = "profile the WASM kernel variants per dataset and per puzzle: speed, guesses, search nodes, hardest puzzles";
  const command = tableCommand("profile", description, PROFILE_OPTIONS).addHelpText("after", helpAfter);
  return command.action(async (options: ProfileOptions) => {
    await runProfile(options);
  });
}
