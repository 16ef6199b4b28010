/**
 * `--ref COMMIT`: each row of an earlier commit (built in a git worktree) and of this checkout, timed interleaved in one
 * process on the bench's draw: one checked call a side; a prefix of the draw, the same on both sides, when a batch of the
 * slower side takes over BATCH_SHARE of a round; rounds in turns of a few ms of CPU time (measure/interleaved.ts). Each
 * round's old ÷ new time is one sample, so load that changes between rounds drops out; Student's t over their logs. The
 * once-per-puzzle and threads rows are not paired.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Grid } from "../src/model/puzzle.js";
import type { SolverInfo } from "../src/solvers/registry.js";
import { packageRoot } from "../src/kernel/paths.js";
import { type SolverEngine, solvesBatches } from "../src/solvers/solver.js";
import { type MeasurePlan, measureRows, silentProgress } from "./measure/rows.js";
import { answerChecker, checkAnswers, checkSameAnswers, sameAsChecked } from "./measure/check.js";
import { type Draw, datasetShape, drawPuzzles, seededSample } from "./measure/draw.js";
import { timeInterleaved } from "./measure/interleaved.js";
import { BuildInterrupted, builtWorktree, resolveCommit } from "./measure/reference.js";
import type { BenchOptions } from "./options.js";
import type { BenchRun } from "./records.js";
import { effectiveLimit, localRunner } from "./runner.js";
import { type Change, REF_THRESHOLD, betweenRunsVerdict, formatComparison, notJudgedReason, regressionLine } from "./report/compare.js";
import { formatNumber, formatRatioWords } from "./report/format.js";
import { fileExportFlags } from "./report/output.js";
import { type RatioEstimate, studentT95, summarize } from "./statistics.js";
import { counted } from "../src/model/whole-number.js";

/** A sampled pair still solves at least this many puzzles (or the whole draw). */
const MIN_PUZZLES = 10;
/** Share of a round's time one batch of the slower side may take before the pair is sampled. */
const BATCH_SHARE = 1 / 4;

export interface PairedPlan extends MeasurePlan {
  /** This checkout's solvers, in row order. */
  solvers: readonly SolverInfo[];
  /** The earlier commit's solvers by id. */
  before: ReadonlyMap<string, Pick<SolverInfo, "id" | "sizes" | "load">>;
  maxPuzzles: number;
  /** tinybench time per side per row, shared by the rounds. */
  timeMs: number;
  rounds: number;
  /** The least change judged, as a share. */
  threshold: number;
  /** Whether a solver is measured on grids of side `size` (the preset); default: every size it takes. */
  takes?(info: SolverInfo, size: number): boolean;
}

/** Where a built commit's registry is (the second in older commits). */
const REGISTRY_FILES = ["dist/src/solvers/registry.js", "dist/src/registry.js"];

/** The first commit whose registry gives each solver its grid sizes (`sizes`), by which --ref pairs the rows. */
const SIZES_COMMIT = "79fd0ebc3f8381a3ab49c73816d6b952a7fe53c8";

const tooOld = (commit: string, registry: string) =>
  new Error(
    `commit ${commit} is too old for --ref: ${registry} gives its solvers no grid sizes (they came in ${SIZES_COMMIT.slice(0, 12)}); give a later commit`,
  );

/**
 * Throws when `commit` comes before the registry gave its solvers their sizes, so that it is refused before a build of
 * minutes; a clone without that commit (shallow) is left to {@link solversIn}'s check after the build.
 */
export function checkRefAge(commit: string): void {
  const hash = resolveCommit(commit);
  const before = spawnSync("git", ["merge-base", "--is-ancestor", SIZES_COMMIT, hash], { cwd: packageRoot(), stdio: "ignore" });
  if (before.status === 1) throw tooOld(commit, "its solver registry");
}

/** The solvers of the built worktree in `folder`, by id. */
export async function solversIn(folder: string, commit: string): Promise<Map<string, Pick<SolverInfo, "id" | "sizes" | "load">>> {
  const file = REGISTRY_FILES.find((path) => existsSync(join(folder, path))) ?? REGISTRY_FILES[0];
  const module = (await import(pathToFileURL(join(folder, file)).href)) as { solvers?: unknown };
  const list = module.solvers;
  if (!Array.isArray(list) || !list.every((s) => typeof s?.id === "string" && typeof s?.load === "function")) {
    throw new Error(`--ref ${commit}: its ${file} exports no list of solvers to time (too old for --ref)`);
  }
  if (!list.every((s) => Array.isArray(s.sizes))) throw tooOld(commit, `its ${file}`);
  return new Map((list as SolverInfo[]).filter((info) => !info.unavailable).map((info) => [info.id, info]));
}

/** Student's t 95% interval of the geometric mean of `ratios` (each round's old ÷ new time). */
export function pairedRatio(ratios: readonly number[]): RatioEstimate {
  const { n, mean, sd } = summarize(ratios.map(Math.log));
  const spread = n > 1 ? (studentT95(n - 1) * sd) / Math.sqrt(n) : Infinity;
  return { ratio: Math.exp(mean), low: Math.exp(mean - spread), high: Math.exp(mean + spread), method: "paired" };
}

/** ms one call of `solve` takes (the fastest of two). */
function callMs(solve: () => number): number {
  let best = Infinity;
  for (let i = 0; i < 2; i++) {
    const start = performance.now();
    solve();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** One judged pair, and what each side's rounds measured. */
export interface PairedChange extends Change {
  /** Puzzles each batch solved (fewer than drawn when sampled). */
  puzzles: number;
  /** Each round's old ÷ new ms per batch. */
  roundRatios: number[];
}

/** Every row of `plan` on both sides, interleaved; a row whose solver the earlier commit lacks is "not run before". */
export async function runPaired(plan: PairedPlan, progress: (change: PairedChange) => void = () => {}): Promise<PairedChange[]> {
  const engines = new Map<string, SolverEngine>();
  const engineOf = async (side: string, info: Pick<SolverInfo, "id" | "load">, size: number) => {
    const key = `${side} ${info.id} ${size}`;
    if (!engines.has(key)) engines.set(key, await info.load(size));
    return engines.get(key)!;
  };
  return measureRows(
    plan.datasets.map((dataset) => {
      const { size } = datasetShape(dataset.puzzles, dataset.path);
      return [dataset, plan.solvers.filter((info) => info.sizes.includes(size) && (plan.takes?.(info, size) ?? true))] as const;
    }),
    (info) => info.id,
    (dataset) => drawPuzzles(dataset, seededSample(dataset.puzzles.length, plan.maxPuzzles, plan.seed), plan.expectationOf?.(dataset)),
    async (info, draw): Promise<PairedChange> => {
      const old = plan.before.get(info.id);
      const base = { dataset: draw.dataset.name, row: info.id, flags: { before: [], after: [] }, roundRatios: [] };
      if (!old?.sizes.includes(draw.shape.size)) return { ...base, before: null, after: null, estimate: null, verdict: "not run before", puzzles: 0 };
      const change = await timePair(info, old, draw, plan, engineOf, base);
      progress(change);
      return change;
    },
    silentProgress,
    plan.signal,
  );
}

async function timePair(
  info: SolverInfo,
  old: Pick<SolverInfo, "id" | "load">,
  draw: Draw,
  plan: PairedPlan,
  engineOf: (side: string, info: Pick<SolverInfo, "id" | "load">, size: number) => Promise<SolverEngine>,
  base: Pick<PairedChange, "dataset" | "row" | "flags" | "roundRatios">,
): Promise<PairedChange> {
  const limit = effectiveLimit(info, plan.limit);
  const budget = info.capabilities.budget ? plan.budget : Infinity;
  const engines = [await engineOf("before", old, draw.shape.size), await engineOf("now", info, draw.shape.size)];
  const labels = ["--ref", "now"].map((side) => `${info.id} (${side})`);
  let grids: Grid[] = draw.grids;
  const prepare = () =>
    engines.map((engine, k) => {
      const runner = localRunner(engine, grids, limit, budget, solvesBatches(engine));
      const checked = runner.answers();
      checkAnswers(checked, grids.length, answerChecker(draw, labels[k], limit));
      return { runner, checked };
    });
  let sides = prepare();
  const roundMs = plan.timeMs / plan.rounds;
  const slowest = Math.max(...sides.map((side) => callMs(side.runner.solve)));
  if (slowest > roundMs * BATCH_SHARE && grids.length > MIN_PUZZLES) {
    const keep = Math.max(MIN_PUZZLES, Math.floor((grids.length * roundMs * BATCH_SHARE) / slowest));
    grids = grids.slice(0, keep);
    sides = prepare();
  }
  const same = sides.map((side, k) => sameAsChecked(draw, labels[k], limit, side.checked));
  const made = [0, 0];
  const calls = sides.map((side) => () => side.runner.solve());
  const seconds = timeInterleaved(calls, {
    rounds: plan.rounds,
    runSeconds: roundMs / 1000,
    afterCall: (k) => {
      checkSameAnswers(sides[k].runner.lastAnswers()!, grids.length, same[k], `timed call ${++made[k]}`);
      sides[k].runner.afterCheck?.();
    },
  });
  const ratios = seconds[0].map((old, round) => old / seconds[1][round]);
  const estimate = pairedRatio(ratios);
  const perSecond = (side: number[]) => (grids.length * side.length) / side.reduce((sum, t) => sum + t, 0);
  const verdict = betweenRunsVerdict(estimate, plan.threshold);
  const change: PairedChange = {
    ...base,
    before: perSecond(seconds[0]),
    after: perSecond(seconds[1]),
    estimate,
    verdict,
    floor: plan.threshold,
    puzzles: grids.length,
    roundRatios: ratios,
  };
  if (verdict === "not judged") change.reason = notJudgedReason(estimate, plan.threshold, String(+(plan.threshold * 100).toFixed(2)));
  return change;
}

/** Throws the usage error of a --ref run asked for what it does not do (another comparison, exports, a chart file) or naming no commit git knows. */
export function checkRefRequest(options: Pick<BenchOptions, "ref" | "compare" | "against" | "json" | "markdown" | "csv" | "chart">): void {
  if (!options.ref) return;
  if (options.compare || options.against) throw new Error("--ref COMMIT judges against that commit: leave out --compare and --against");
  const exports = fileExportFlags(options);
  if (exports.length > 0) throw new Error(`--ref prints its verdicts and writes no files: leave out ${exports.join(", ")}`);
  checkRefAge(options.ref);
}

/**
 * `--ref COMMIT`: builds the commit, times every row against it and reports the verdicts; false when --fail-on-regression
 * found a row too slow, null when the plan's signal stopped the build (nothing judged).
 */
export async function judgeAgainstCommit(
  options: Pick<BenchOptions, "ref" | "rounds" | "threshold" | "failOnRegression">,
  bench: Omit<PairedPlan, "before" | "rounds" | "threshold">,
  report: (text: string) => void,
): Promise<boolean | null> {
  const ref = options.ref!;
  const percent = options.threshold ?? REF_THRESHOLD * 100;
  const plan = { ...bench, rounds: options.rounds, threshold: percent / 100 };
  let tree: string;
  try {
    tree = await builtWorktree(ref, (line) => process.stderr.write(`--ref: ${line}\n`), bench.signal);
  } catch (error) {
    if (error instanceof BuildInterrupted) return null;
    throw error;
  }
  const commit = resolveCommit(ref);
  const before = await solversIn(tree, ref);
  const changes = await runPaired({ ...plan, before }, (c) => {
    const said = c.estimate ? `${formatRatioWords(c.estimate)} (${c.verdict})` : c.verdict;
    process.stderr.write(`${c.dataset} · ${c.row}: ${said}\n`);
  });
  const threshold = formatNumber(plan.threshold * 100);
  const heading = [
    `Compared with commit ${commit} (--ref ${ref}, built in ${tree}), each row of both timed interleaved in this run: puzzles/s before → now`,
    `the bracketed range is the 95% interval of the ratio over ${counted(plan.rounds, "round")} (Student's t on each round's ratio, the sides taking turns of about 2 ms); ` +
      `faster or slower only when the whole interval lies beyond ${threshold}%, else "no change"; "not judged": an interval too wide to tell ${threshold}%`,
  ];
  const run = { environment: { date: new Date().toISOString(), commit } } as BenchRun;
  report(formatComparison(run, changes, [], plan.threshold, heading));
  if (options.failOnRegression === undefined) return true;
  const line = regressionLine(changes, options.failOnRegression === true ? percent : options.failOnRegression);
  if (line) report(line + "\n");
  return line === null;
}
