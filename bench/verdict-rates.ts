/**
 * `npm run verdict-rates`: how far `--compare`'s verdicts hold on this machine (docs/bench.md). Pairs of bench runs in
 * separate processes, judged as `--compare` does; the second run of a pair plants a slowdown in one row (planted.ts) and
 * changes nothing else, so any other "faster" or "slower" is false, and the planted row's "slower" is a detection. Pairs
 * run idle and with the other core kept busy. The goal: at most 1 false verdict per 100 rows; a 10% slowdown found in
 * 9 of 10 idle pairs.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { loadAverage, parseToolOptions, quietUsage, runTool } from "./tool.js";
import { InvalidArgumentError } from "commander";
import { type OptionRow, commaList, wholeNumber } from "../src/cli-kit/options.js";
import { packagePath } from "../src/kernel/paths.js";
import { benchDatasets, collectEnvironment } from "./env.js";
import { resolveSolvers } from "./custom-solvers.js";
import { DEFAULT_ROUNDS } from "./rounds.js";
import { MOST_MS, MOST_PUZZLES, benchCommand, checkJudgeFlags, parseOptions as parseBenchOptions } from "./options.js";
import { checkRefRequest } from "./paired.js";
import { checkOutputRequests } from "./report/output.js";

/** The most pairs of runs of a kind: each is two whole bench runs. */
const MOST_PAIRS = 100;
import { MIN_JUDGED_ROUNDS, type Verdict, compareRuns } from "./report/compare.js";
import { readResultFile } from "./report/read-result.js";
import { cpuName } from "./report/format.js";
import { counted } from "../src/model/whole-number.js";
import { median } from "../src/model/quantile.js";
import { INTERRUPT_SIGNALS, type InterruptSignal, signalExitStatus } from "../src/cli-kit/progress.js";

interface RateOptions {
  pairs: number;
  plantedPairs: number;
  refPairs: number;
  slowdown: number;
  time: number;
  rounds: number;
  puzzles: number;
  solvers: string[];
  datasets: string[];
  busy: boolean;
  benchOptions: string;
  keep: boolean;
}

const OPTIONS: readonly OptionRow[] = [
  { flags: "--pairs <n>", description: "pairs of runs with the other core busy, and the least pairs idle", default: 5, parse: wholeNumber(0, MOST_PAIRS) },
  {
    flags: "--planted-pairs <n>",
    description: "pairs of runs idle, each with the planted slowdown in its second run",
    default: 10,
    parse: wholeNumber(0, MOST_PAIRS),
  },
  {
    flags: "--ref-pairs <n>",
    description: "runs of --ref HEAD (same commit, interleaved in one process), idle",
    default: 0,
    parse: wholeNumber(0, MOST_PAIRS),
  },
  { flags: "--slowdown <share>", description: "the planted slowdown (0.1: one call in ten made twice)", default: 0.1, parse: shareArgument },
  { flags: "--time <ms>", description: "the bench's --time per row (its default)", default: 500, parse: wholeNumber(1, MOST_MS) },
  { flags: "--rounds <n>", description: "the bench's --rounds", default: DEFAULT_ROUNDS, parse: judgedRounds },
  { flags: "--puzzles <n>", description: "the bench's --puzzles", default: 100, parse: wholeNumber(1, MOST_PUZZLES) },
  {
    flags: "--solvers <ids>",
    description: "the rows of the same-commit runs",
    default: ["wasm", "bitmask", "dlx"],
    defaultText: "wasm,bitmask,dlx",
    parse: commaList,
  },
  {
    flags: "--datasets <specs>",
    description: "the datasets of every run",
    default: ["easy", "medium", "hard"],
    defaultText: "easy,medium,hard",
    parse: commaList,
  },
  { flags: "--no-busy", description: "skip the runs with the other core busy" },
  {
    flags: "--bench-options <options>",
    description: 'more options for every run of the bench, e.g. "--fresh-rounds" (checked as the bench checks them, before the first run)',
    default: "",
  },
  { flags: "--keep", description: "keep the runs' JSON files (their folder is printed)", default: false },
];

/** A parser of --rounds: from the rounds a judgement needs a side (fewer judge no row) to 100. */
function judgedRounds(text: string): number {
  try {
    return wholeNumber(MIN_JUDGED_ROUNDS, 100)(text);
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}: a verdict needs ${MIN_JUDGED_ROUNDS} rounds a side, so fewer would judge no row`);
  }
}

/** A parser of a slowdown share: a number above 0 and below 10. */
function shareArgument(text: string): number {
  const value = Number(text);
  if (!(value > 0 && value < 10)) throw new InvalidArgumentError(`expected a share above 0 and below 10 (0.1 for 10% slower), got '${text}'`);
  return value;
}

const BENCH = packagePath("dist", "bench", "bench.js");
const PLANTED = packagePath("dist", "bench", "planted.js");
const SLOWDOWN_VARIABLE = "SUDOKU_WASM_PLANTED_SLOWDOWN";
/** The planted module's row label (planted.ts `id`). */
const PLANTED_ROW = "planted";

/**
 * The busy loop that keeps the other core busy, in slices of 20 ms: between them it sees its standard input, a pipe
 * from this process, end when this process has gone (killed outright too, which leaves no chance to end it), and ends.
 */
const SPINNER =
  "process.stdin.on('end', () => process.exit(0)).resume(); " +
  "const spin = () => { for (const end = Date.now() + 20; Date.now() < end; ); setImmediate(spin); }; spin();";

/** The child processes running now (a bench run, the spinner): a SIGINT or SIGTERM ends them with this tool. */
const children = new Set<ChildProcess>();
/** True once a signal is ending this tool. */
let stopping = false;

/** Runs the bench with `args` (and `env` added); its stdout, or an Error with the last line of its stderr. */
function runBench(args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [BENCH, ...args], { env: { ...process.env, ...env }, maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      children.delete(child);
      if (stopping) return; // ended by a signal of this tool's: the tool exits, not this run's error
      if (!error) return resolve(stdout);
      reject(new Error(`bench ${args.join(" ")} exited ${(error as { code?: number }).code}: ${stderr.trim().split("\n").pop()}`));
    });
    children.add(child);
  });
}

type Tally = Record<Verdict, number> & { rows: number };

function emptyTally(): Tally {
  return { rows: 0, faster: 0, slower: 0, "no change": 0, "not judged": 0, undecided: 0, "not run before": 0, "not run now": 0 };
}

const percent = (part: number, whole: number): string => (whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(1)}`);

/** "60 rows: 0 faster, 1 slower (1.7 per 100 rows), 40 no change, 19 not judged". */
function describeSame(t: Tally): string {
  const wrong = t.faster + t.slower;
  const rate = `${wrong} false verdicts = ${percent(wrong, t.rows)} per 100 rows (${t.faster} faster, ${t.slower} slower)`;
  return `${t.rows} rows: ${rate}; ${t["no change"]} no change, ${t["not judged"] + t.undecided} not judged`;
}

async function main(argv: readonly string[]): Promise<void> {
  const description = "false verdicts of --compare on one commit, and the share of a planted slowdown it finds";
  const options = parseToolOptions<RateOptions>("npm run verdict-rates --", description, OPTIONS, argv);
  // The runs' datasets and solvers, checked up front: a bad one would fail only in the first bench run, after it had started.
  benchDatasets(options.datasets);
  await resolveSolvers(options.solvers);
  await checkBenchOptions(options);
  measuring = true;
  const folder = mkdtempSync(join(tmpdir(), "verdict-rates-"));
  // A signal ends the runs under way and the spinner, and removes the runs' files (unless --keep), rather than leave them: once
  // the runs have ended (5 s at most), since a bench run stops on SIGTERM by writing its incomplete export into the folder.
  const stop = (signal: InterruptSignal) => {
    stopping = true;
    const ended = [...children].map(
      (child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once("exit", resolve))),
    );
    for (const child of children) child.kill();
    void Promise.race([Promise.all(ended), new Promise((resolve) => setTimeout(resolve, 5000))]).then(() => {
      if (!options.keep) rmSync(folder, { recursive: true, force: true });
      process.exit(signalExitStatus(signal));
    });
  };
  for (const signal of INTERRUPT_SIGNALS) process.once(signal, stop);
  try {
    await measure(options, folder);
  } finally {
    if (!options.keep) rmSync(folder, { recursive: true, force: true });
  }
}

/** The options every bench run gets: the datasets, time, rounds and puzzles of `options`, no threads row and no chart. */
function commonArgs(options: RateOptions): string[] {
  const common = ["--datasets", options.datasets.join(","), "--time", `${options.time}`, "--rounds", `${options.rounds}`, "--puzzles", `${options.puzzles}`];
  return [...common, "--threads", "0", "--no-chart"];
}

/** --bench-options as words. */
const benchWords = (options: RateOptions): string[] => options.benchOptions.split(" ").filter((word) => word !== "");

/**
 * Throws, before any run, where the bench would refuse a run's options (--bench-options with a typo, or an option that
 * the runs' own contradict): the bench's parser and its checks made before measuring, on each kind of run's command line.
 */
async function checkBenchOptions(options: RateOptions): Promise<void> {
  const words = benchWords(options);
  if (words.length === 0) return;
  const head = ["--solvers", options.solvers.join(","), ...commonArgs(options), ...words];
  const runs = [[...head, "--json", join(tmpdir(), "verdict-rates-check.json")], ...(options.refPairs > 0 ? [[...head, "--ref", "HEAD"]] : [])];
  for (const args of runs) {
    try {
      const parsed = parseBenchOptions(args, quietUsage(benchCommand()));
      checkJudgeFlags(parsed);
      if (parsed.ref) checkRefRequest(parsed);
      else checkOutputRequests(parsed);
      // --datasets or --solvers among them take the place of the runs' own
      benchDatasets(parsed.datasets);
      await resolveSolvers(parsed.solvers ?? []);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).replace(/^error: /, "");
      throw new InvalidArgumentError(`--bench-options "${options.benchOptions}": ${reason.replace(/\s*\n\s*/g, " ")}`);
    }
  }
}

/** The pairs of runs, their rates and the goals, written to standard output; the runs' files go to `folder`. */
async function measure(options: RateOptions, folder: string): Promise<void> {
  const environment = collectEnvironment({ seed: 1, limit: 2, timeMs: options.time, budget: 100_000 }, new Date());
  const common = commonArgs(options);
  const benchOptions = benchWords(options);
  const started = performance.now();
  let runs = 0;
  const out = (line: string) => process.stdout.write(line + "\n");
  out(`verdict-rates: ${cpuName(environment)} (${counted(availableParallelism(), "core")}), Node ${environment.node}, commit ${environment.commit}`);
  out(
    `  rows: ${options.solvers.join(",")} and planted on ${options.datasets.join(",")}, --time ${options.time}, --rounds ${options.rounds}, ` +
      `--puzzles ${options.puzzles}${benchOptions.length > 0 ? ` ${benchOptions.join(" ")}` : ""}; --compare's defaults [load ${loadAverage()}]`,
  );
  const goals: string[] = [];

  /** Pairs of runs of `--solvers` and the planted row, the planted row slowed in each second run. */
  const part = async (condition: "idle" | "busy", pairs: number): Promise<void> => {
    const loadBefore = loadAverage();
    // the other core kept busy until killed
    const busy = condition === "busy" ? spawn(process.execPath, ["-e", SPINNER], { stdio: ["pipe", "ignore", "ignore"] }) : null;
    if (busy) children.add(busy);
    const same = emptyTally();
    const planted = emptyTally();
    const ratios: number[] = [];
    try {
      const args = ["--solvers", [...options.solvers, PLANTED].join(","), ...common, ...benchOptions];
      const plain = { [SLOWDOWN_VARIABLE]: "0" };
      const slowed = { [SLOWDOWN_VARIABLE]: String(options.slowdown) };
      for (let i = 0; i < pairs; i++) {
        const before = join(folder, `${condition}-${i}-a.json`);
        const after = join(folder, `${condition}-${i}-b.json`);
        await runBench([...args, "--json", before], plain);
        await runBench([...args, "--json", after], slowed);
        runs += 2;
        // judged as --compare judges them
        const changes = compareRuns(readResultFile(before, "--compare"), readResultFile(after, "--against"));
        for (const change of changes) {
          const into = change.row === PLANTED_ROW ? planted : same;
          into[change.verdict]++;
          into.rows++;
          if (change.row === PLANTED_ROW && change.estimate) ratios.push(change.estimate.ratio);
        }
      }
    } finally {
      busy?.kill();
      if (busy) children.delete(busy);
    }
    const what = `${condition}${busy ? " (the other core spinning)" : ""}, ${counted(pairs, "pair")}`;
    out(`${what}: same code, ${describeSame(same)}`);
    const found = planted.rows === 0 ? "n/a" : ((10 * planted.slower) / planted.rows).toFixed(1);
    const measured = ratios.length === 0 ? "n/a" : `${((1 / median(ratios) - 1) * 100).toFixed(1)}%`;
    out(
      `${what}: planted ${Math.round(options.slowdown * 100)}% slowdown judged slower in ${planted.slower} of ${planted.rows} pairs of rows ` +
        `(${found} in 10); ${planted["no change"]} no change, ${planted["not judged"] + planted.undecided} not judged, ${planted.faster} faster; ` +
        `the slowdown as measured: median ${measured} [load ${loadBefore} → ${loadAverage()}]`,
    );
    // a run that judged no row (every one noisy or moved together) found no false verdict, and measured nothing either
    const judged = same.faster + same.slower + same["no change"];
    goals.push(
      judged === 0
        ? `no row judged ${condition} (all ${same.rows} not judged): the false verdict rate is not measured; rerun on a quieter machine`
        : `${percent(same.faster + same.slower, same.rows)} false verdicts per 100 rows ${condition} (goal: at most 1)`,
    );
    if (condition === "idle") goals.push(`planted ${Math.round(options.slowdown * 100)}% found in ${found} of 10 pairs idle (goal: at least 9)`);
  };

  const idlePairs = Math.max(options.pairs, options.plantedPairs);
  if (idlePairs > 0) await part("idle", idlePairs);
  if (options.busy && options.pairs > 0) {
    const cores = availableParallelism();
    // one core (taskset, a 1-CPU machine): the spinner would share the bench's core, not keep another busy
    if (cores < 2) out(`busy: not run: ${counted(cores, "core")} available, no other core for the spinner to keep busy (--no-busy skips it)`);
    else await part("busy", options.pairs);
  }
  if (options.refPairs > 0) {
    const loadBefore = loadAverage();
    const t = emptyTally();
    for (let i = 0; i < options.refPairs; i++) {
      const text = await runBench(["--solvers", options.solvers.join(","), ...common, ...benchOptions, "--ref", "HEAD"]);
      runs++;
      const counts = /(\d+) faster, (\d+) slower, (\d+) no change, (\d+) not judged/.exec(text);
      if (!counts) throw new Error(`--ref HEAD printed no tally of verdicts:\n${text}`);
      (["faster", "slower", "no change", "not judged"] as const).forEach((verdict, k) => {
        t[verdict] += Number(counts[k + 1]);
        t.rows += Number(counts[k + 1]);
      });
    }
    out(`--ref HEAD (same commit, one process), idle: ${counted(options.refPairs, "run")}, ${describeSame(t)} [load ${loadBefore} → ${loadAverage()}]`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  out(`${runs} bench runs in ${seconds} s [load ${loadAverage()}]`);
  if (goals.length > 0) out(`rates: ${goals.join("; ")}`);
  if (options.keep) out(`runs kept in ${folder}`);
}

/** True once the runs began: an error from then on is a failed run, not a usage error. */
let measuring = false;

/** Exit status: 0 when every run finished; 2 for a usage error (said before any run); 1 when a run of the bench failed. */
await runTool(
  "verdict-rates",
  () => main(process.argv.slice(2)),
  () => !measuring,
);
