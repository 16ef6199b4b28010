/**
 * The bench's options: one table makes both the help text and the defaults. The presets name selections of rows;
 * the default, `main`, answers the bench's question in well under a minute.
 */
import { type Command, InvalidArgumentError } from "commander";
import { availableParallelism } from "node:os";
import { bundledDatasets } from "../src/datasets/read.js";
import { type OptionRow, commaList, tableCommand, wholeNumber } from "../src/cli-kit/options.js";
import { solverHelpLines } from "../src/cli-kit/solver-help.js";
import type { SolverInfo } from "../src/solvers/registry.js";
import { BETWEEN_RUNS_THRESHOLD, FRESH_ROUNDS_THRESHOLD, REF_THRESHOLD } from "./report/compare.js";
import { DEFAULT_ROUNDS } from "./rounds.js";
import type { OutputRequests } from "./report/output.js";

export interface Preset {
  name: string;
  description: string;
  takes(info: SolverInfo, size: number): boolean;
  /** Adds the default kernel's once-per-puzzle row (what a boundary crossing costs). */
  boundaryRow: boolean;
  /** Adds the kernel's worker-thread row (`--threads` rows, unless --threads 0). */
  threadsRow: boolean;
}

/** Each kernel and its TS twin: the 9×9 one, and the N×N one for other sizes. */
const KERNEL_AND_TWIN: Readonly<Record<number, readonly string[]>> = { 9: ["wasm", "bitmask"] };
const GENERAL_AND_TWIN = ["general-wasm", "general-ts"];
/** The pure-TS baselines (9×9). */
const BASELINES = ["scan", "tables", "queue", "mrv", "dlx"];

/** The most a bench option takes: an hour of timing a row, ten million puzzles (a typo of more would run for days). */
export const MOST_MS = 3_600_000;
export const MOST_PUZZLES = 10_000_000;

export const PRESETS: readonly Preset[] = [
  {
    name: "main",
    description: "per grid size, the WASM kernel against its TS twin, the pure-TS baselines and the npm peers",
    takes: (info, size) =>
      info.peer !== undefined || (KERNEL_AND_TWIN[size] ?? GENERAL_AND_TWIN).includes(info.id) || (size === 9 && BASELINES.includes(info.id)),
    boundaryRow: false,
    threadsRow: false,
  },
  {
    name: "variants",
    description: "the 9×9 kernel's compile-time variants against the kernel, its TS twin and its once-per-puzzle row",
    takes: (info) => info.kernelBuild !== undefined || info.id === "bitmask",
    boundaryRow: true,
    threadsRow: false,
  },
  {
    name: "all",
    description: "every registered solver, the kernel's once-per-puzzle and worker-thread rows (--quick's default)",
    takes: () => true,
    boundaryRow: true,
    threadsRow: true,
  },
];

export function findPreset(name: string): Preset {
  const preset = PRESETS.find((p) => p.name === name);
  if (!preset) throw new Error(`unknown preset '${name}'; known: ${PRESETS.map((p) => p.name).join(", ")}`);
  return preset;
}

/** The parsed options of one run: each is described once, in {@link OPTION_TABLE}. */
export interface BenchOptions extends OutputRequests {
  solvers?: string[];
  datasets?: string[];
  time: number;
  solverTimeout: number;
  puzzles: number;
  limit: number;
  threads: number;
  budget: number;
  reference?: string;
  seed: number;
  quick: boolean;
  compare?: string;
  against?: string;
  compareAnyway: boolean;
  wide: boolean;
  preset: string;
  all: boolean;
  /** True when --threads was given (a threads row then runs whatever the preset). */
  threadsGiven: boolean;
  threshold?: number;
  rounds: number;
  freshRounds: boolean;
  ref?: string;
  /** A percentage, or true for the threshold; undefined: never fail. */
  failOnRegression?: number | true;
}

interface BenchOptionRow extends OptionRow {
  /** The value --quick gives this option when it is not set explicitly. */
  quick?: unknown;
}

export const OPTION_TABLE: readonly BenchOptionRow[] = [
  {
    flags: "--solvers <ids>",
    description:
      "comma-separated registry ids (listed below with the grid sizes they take; each runs on the datasets of those sizes), solver modules (./path/solver.mjs) or wasm-abi:./solver.wasm (README: Bring your own solver)",
    defaultText: "the rows of --preset (main; all with --quick)",
    parse: commaList,
  },
  {
    flags: "--datasets <specs>",
    description: "comma-separated public set names (npx sudoku-wasm datasets list), bundled names, files or folders",
    defaultText: "all bundled",
    parse: commaList,
  },
  { flags: "--time <ms>", description: "tinybench time per row (after warm-up)", default: 500, quick: 100, parse: wholeNumber(1, MOST_MS) },
  {
    flags: "--puzzles <n>",
    description: "puzzles drawn per dataset (seeded); slow rows solve a prefix of them",
    default: 300,
    quick: 20,
    parse: wholeNumber(1, MOST_PUZZLES),
  },
  { flags: "--limit <n>", description: "count solutions up to 1 (find one) or 2 (prove uniqueness)", default: 2, parse: wholeNumber(1, 2) },
  {
    flags: "--threads <n>",
    description: "worker threads for the kernel's threads row (0: no threads row; given, the row runs whatever the preset)",
    default: availableParallelism(),
    parse: wholeNumber(0, 256),
  },
  {
    flags: "--budget <nodes>",
    description: "work cap per puzzle for solvers that take one (a capped puzzle counts as a timeout)",
    default: 100_000,
    quick: 20_000,
    parse: wholeNumber(1),
  },
  {
    flags: "--solver-timeout <ms>",
    description: "the longest one countSolutions call of a solver module or wasm-abi: file may run (they run in a worker thread the bench stops past it)",
    default: 10_000,
    parse: wholeNumber(1, MOST_MS),
  },
  { flags: "--reference <id>", description: "solver every row is compared with", defaultText: "the fastest pure-TS baseline of each dataset" },
  { flags: "--seed <n>", description: "seed of the puzzle draw", default: 1, parse: wholeNumber(0, 0xffffffff) },
  {
    flags: "--preset <name>",
    description: `the rows to measure: ${PRESETS.map((p) => `${p.name} (${p.description})`).join("; ")}; --solvers picks its own`,
    default: "main",
    quick: "all",
    choices: PRESETS.map((p) => p.name),
  },
  { flags: "--all", description: "every row: --preset all", default: false },
  { flags: "--quick", description: "smoke run (~30 s): few puzzles, short time, every row (--preset all) on every dataset", default: false },
  { flags: "--wide", description: "print the full table of each dataset (every column) instead of a compact line per row", default: false },
  {
    flags: "--json [file]",
    description: "write the results as JSON (docs/bench-result.schema.json; bare flag: bench/results/<timestamp>.json; -: standard output)",
  },
  { flags: "--markdown [file]", description: "write the results as a Markdown table (bare flag: bench/results/; -: standard output)" },
  { flags: "--csv [file]", description: "write the results as CSV (bare flag: bench/results/; -: standard output)" },
  { flags: "--chart <file>", description: "write the chart (SVG) here", defaultText: "beside the first file --json/--markdown/--csv writes; none without one" },
  { flags: "--no-chart", description: "write no chart (refused beside --chart)" },
  {
    flags: "--compare <old.json>",
    description:
      "judge each row faster, slower or unchanged against an earlier --json file (95% intervals from each row's rounds in CPU time relative to a calibration work)",
  },
  {
    flags: "--ref <commit>",
    description:
      "build COMMIT in a git worktree and time each row of it and of this checkout interleaved in this run, judging each pair (the verdict to trust on a busy machine and in CI)",
  },
  {
    flags: "--rounds <n>",
    description: "timing rounds per row, its --time shared between them; --compare and --ref judge with the spread between rounds",
    default: DEFAULT_ROUNDS,
    parse: wholeNumber(2, 100),
  },
  {
    flags: "--fresh-rounds",
    description:
      "time each round of each row in a fresh worker thread (its own compiled code and heap), so the rounds hold the spread between two runs that --compare judges",
    default: false,
  },
  { flags: "--against <new.json>", description: "with --compare: judge this --json file (a CLI run or the web page's export) instead of measuring" },
  {
    flags: "--compare-anyway",
    description: "compare even when the runs' settings differ (limit, budget, seed, puzzles, dataset content), and judge runs made on different CPUs",
    default: false,
  },
  {
    flags: "--threshold <pct>",
    description: "--compare, --ref: a change is judged only when its whole 95% interval lies beyond this many percent",
    defaultText: `${BETWEEN_RUNS_THRESHOLD * 100} with --compare, ${FRESH_ROUNDS_THRESHOLD * 100} when both runs used --fresh-rounds, ${REF_THRESHOLD * 100} with --ref`,
    parse: percentArgument,
  },
  {
    flags: "--fail-on-regression [pct]",
    description: "--compare, --ref: exit 1 when a row is judged slower by more than PCT percent (bare flag: the --threshold), for CI",
    parse: percentArgument,
  },
];

function percentArgument(text: string): number {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(value >= 0 && value < 100))
    throw new InvalidArgumentError(`expected a percentage from 0 to below 100, got '${text}'`);
  return value;
}

/** The bench's command line, with the solvers and datasets in its help. */
export function benchCommand(): Command {
  const rows = OPTION_TABLE.map((row) =>
    row.quick === undefined ? row : { ...row, defaultText: `${row.defaultText ?? String(row.default)}; --quick: ${String(row.quick)}` },
  );
  const datasets = () => `Bundled datasets (easiest first): ${bundledDatasets().join(", ") || "none"}`;
  const help = () => ["", "Solvers (id, grid sizes, algorithm):", ...solverHelpLines(), "", datasets()].join("\n");
  return tableCommand("bench", "Compare every registered solver across puzzle datasets (tinybench).", rows).addHelpText("after", help);
}

/** Parses `argv` (without node and script); --quick fills the options that were not given. */
export function parseOptions(argv: readonly string[], command = benchCommand()): BenchOptions {
  // --chart FILE and --no-chart set one option, the later winning: given together, one of them would be dropped unsaid
  const chartFlags = new Set<string>();
  command.on("option:chart", () => chartFlags.add("--chart"));
  command.on("option:no-chart", () => chartFlags.add("--no-chart"));
  command.parse([...argv], { from: "user" });
  const options = command.opts<Record<string, unknown>>();
  if (chartFlags.size > 1) throw new InvalidArgumentError("--chart FILE and --no-chart ask for a chart and for none: give one of them");
  // An empty value (an unset variable in CI: --ref "$BASE") would otherwise run a whole bench that judges nothing.
  for (const [key, what] of [
    ["ref", "a commit"],
    ["compare", "an earlier --json file"],
    ["against", "a --json file"],
  ] as const) {
    if (options[key] === "") throw new InvalidArgumentError(`--${key} is empty (an unset variable?): give ${what}, or leave --${key} out`);
  }
  if (options.all) {
    if (command.getOptionValueSource("preset") === "cli" && options.preset !== "all")
      throw new InvalidArgumentError(`--all is --preset all, not --preset ${String(options.preset)}`);
    options.preset = "all";
  }
  if (options.quick) {
    for (const row of OPTION_TABLE) {
      const key = command.options.find((o) => o.flags === row.flags)!.attributeName();
      if (row.quick !== undefined && command.getOptionValueSource(key) === "default") options[key] = row.quick;
    }
  }
  if (options.freshRounds && options.ref) {
    throw new InvalidArgumentError("--fresh-rounds is for runs judged later with --compare; --ref times both commits in one process, turn by turn");
  }
  options.threadsGiven = command.getOptionValueSource("threads") === "cli";
  return options as unknown as BenchOptions;
}

/** Throws when a flag that judges (--fail-on-regression, --threshold, --compare-anyway) has nothing to judge against. */
export function checkJudgeFlags(options: BenchOptions): void {
  for (const [given, flag] of [
    [options.failOnRegression !== undefined, "--fail-on-regression"],
    [options.threshold !== undefined, "--threshold"],
    [options.compareAnyway, "--compare-anyway"],
  ] as const) {
    if (given && !options.compare && !options.ref) throw new Error(`${flag} needs --compare OLD.json or --ref COMMIT: what to judge against`);
  }
}
