/**
 * `--compare OLD.json`: is each row faster, slower or unchanged against an earlier run (method: docs/bench.md)?
 * Rows are judged on calibrated rounds (each round's CPU µs per puzzle ÷ the calibration work's beside it, so what
 * slowed the whole machine drops out) by rankRatio's interval, which is ranks, not means: one stalled round cannot
 * widen it past a verdict. Rows that moved with every other solver ({@link movedTogether}) are not judged.
 */
import { type NoiseFlag, flagMarks, noiseFlags } from "../noise.js";
import type { BenchEnvironment, BenchRecord, BenchRun } from "../records.js";
import { type RatioEstimate, rankRatio, speedRatio, summarize, welchRatio } from "../statistics.js";
import { alignRows, column, cpuName, formatNumber, formatRatio, groupByDataset } from "./format.js";
import { counted } from "../../src/model/whole-number.js";

/** Within one run: changes smaller than this share (2%) are "no change" even when the interval excludes 1× (compact.ts's ties). */
export const NOISE_THRESHOLD = 0.02;

/** Between two runs: the least change `--compare` judges, half the 10% it must find (bench/verdict-rates.ts measures both). */
export const BETWEEN_RUNS_THRESHOLD = 0.05;

/** Between two `--fresh-rounds` runs, whose rounds already vary as separate processes do, so the interval holds more of what moves between runs. */
export const FRESH_ROUNDS_THRESHOLD = 0.04;

/** The least change `--compare` judges between these two runs when `--threshold` is not given. */
export function defaultThreshold(before: BenchRun, after: BenchRun): number {
  return before.environment.freshRounds && after.environment.freshRounds ? FRESH_ROUNDS_THRESHOLD : BETWEEN_RUNS_THRESHOLD;
}

/** With `--ref`: two commits timed interleaved in one process, where the load moves both sides of each ratio alike. */
export const REF_THRESHOLD = 0.03;

/** What a run was asked to measure, as far as comparing two runs needs it. */
type ComparedSettings = Pick<
  BenchEnvironment,
  "limit" | "budget" | "seed" | "buildFlags" | "cpu" | "vectorUnits" | "cpuFamily" | "cores" | "node" | "calibration" | "freshRounds" | "datasets"
> &
  Partial<Pick<BenchEnvironment, "timeMs">>;

export interface SettingDifference {
  setting: string;
  before: string;
  after: string;
  /** "refuse": the runs measured different experiments; "warn": same experiment, different build or machine. */
  severity: "refuse" | "warn";
}

/** Every setting in which `after` differs from `before`, for the datasets both runs read. */
export function settingDifferences(before: ComparedSettings, after: ComparedSettings): SettingDifference[] {
  const differences: SettingDifference[] = [];
  const check = (setting: string, a: unknown, b: unknown, severity: SettingDifference["severity"]) => {
    if (a !== undefined && b !== undefined && a !== b) differences.push({ setting, before: String(a), after: String(b), severity });
  };
  check("limit", before.limit, after.limit, "refuse");
  check("budget", before.budget, after.budget, "refuse");
  check("seed", before.seed, after.seed, "refuse");
  check("calibration work (bench/calibration.ts)", before.calibration, after.calibration, "refuse");
  const earlier = new Map((before.datasets ?? []).map((d) => [d.name, d]));
  for (const dataset of after.datasets ?? []) {
    const old = earlier.get(dataset.name);
    if (!old) continue;
    check(`puzzles drawn from ${dataset.name}`, old.drawn, dataset.drawn, "refuse");
    check(`content of ${dataset.name} (sha256)`, old.sha256, dataset.sha256, "refuse");
  }
  check("WASM build flags", before.buildFlags, after.buildFlags, "warn");
  check("CPU", before.cpu, after.cpu, "warn");
  check("CPU's vector instructions", before.vectorUnits, after.vectorUnits, "warn");
  check("CPU's family and model", before.cpuFamily, after.cpuFamily, "warn");
  check("cores", before.cores, after.cores, "warn");
  check("Node", before.node, after.node, "warn");
  const fresh = (settings: ComparedSettings) => (settings.freshRounds ? "each in a fresh worker thread" : "in the bench's process");
  check("timing rounds (--fresh-rounds)", fresh(before), fresh(after), "warn");
  check("time per row (--time, ms)", before.timeMs, after.timeMs, "warn");
  return differences;
}

export type Verdict = "faster" | "slower" | "no change" | "not judged" | "undecided" | "not run before" | "not run now";

/** One dataset × row of either run. */
export interface Change {
  dataset: string;
  row: string;
  /** puzzles/s; null on the side that did not run the row. */
  before: number | null;
  after: number | null;
  /** now / before puzzles/s with its interval (above 1: faster now); null when a side is missing. */
  estimate: RatioEstimate | null;
  verdict: Verdict;
  /** The row's noise flags in each run (empty on a side that did not run it); any flag makes it "not judged". */
  flags: { before: NoiseFlag[]; after: NoiseFlag[] };
  /** Why a row with an estimate is "not judged" other than its flags, e.g. "timed 300 → 24 puzzles". */
  reason?: string;
  /** How the two sides' work differed (puzzles timed, limit), when it did: the row is then not judged. */
  mismatch?: string;
  /** The least change this row is judged on (a share: 0.05 for 5%). */
  floor?: number;
}

const keyOf = (r: Pick<BenchRecord, "dataset" | "row">) => `${r.dataset}\u0000${r.row}`;

export type CalibratedFigures = Pick<BenchRecord, "roundCpuMicros" | "calibrationMicros">;

/** A row's rounds in calibration units; null unless it has at least two, all positive. */
export function calibratedRounds(record: CalibratedFigures): number[] | null {
  const rounds = record.roundCpuMicros;
  const calibration = record.calibrationMicros;
  if (!rounds || !calibration || rounds.length !== calibration.length || rounds.length < 2) return null;
  const values = rounds.map((micros, round) => micros / calibration[round]);
  return values.every((value) => value > 0 && Number.isFinite(value)) ? values : null;
}

/** The least calibrated rounds a side for a 95% rank interval when both sides have as many. */
export const MIN_JUDGED_ROUNDS = 4;

/** now / before speed with a 95% interval: rankRatio on calibrated rounds (the one judged); else, for display, Welch's on round means or batches. */
export function changeEstimate(before: BenchRecord, after: BenchRecord): RatioEstimate | null {
  const [a, b] = [calibratedRounds(before), calibratedRounds(after)];
  // Judged only with MIN_JUDGED_ROUNDS a side: rankRatio alone would give 2 rounds against 100 (or 3 against 5) an interval.
  const ranked = a && b && Math.min(a.length, b.length) >= MIN_JUDGED_ROUNDS ? rankRatio(a, b) : null;
  if (ranked) return ranked;
  const [ra, rb] = [before.roundMicros, after.roundMicros];
  return ra && rb && ra.length >= 2 && rb.length >= 2 ? welchRatio(summarize(ra), summarize(rb)) : speedRatio(before, after);
}

/** How `before` and `after` timed different work (puzzles, limit), which keeps them from being judged; null when they did not. */
export function workDifference(before: BenchRecord, after: BenchRecord): string | null {
  const differences: string[] = [];
  if (before.puzzles !== after.puzzles) {
    const sampled = after.puzzles < after.selected || before.puzzles < before.selected;
    differences.push(`timed ${before.puzzles} → ${after.puzzles} puzzles${sampled ? " (sampled)" : ""}`);
  } else if (before.selected !== after.selected) differences.push(`drew ${before.selected} → ${after.selected} puzzles`);
  if (before.effectiveLimit !== after.effectiveLimit || before.limit !== after.limit) {
    differences.push(`limit ${before.effectiveLimit} → ${after.effectiveLimit}`);
  }
  return differences.length > 0 ? differences.join(", ") : null;
}

/** The flags that keep a row from being judged; pre-empted is not one, since CPU time leaves pre-emption out. */
const JUDGING_FLAGS: readonly NoiseFlag[] = ["noisy", "disagree", "timeouts"];

/**
 * The verdict between runs: {@link verdictOf}'s faster or slower, "no change" only where the whole interval lies within `floor`
 * on both sides, else "not judged" (the interval too wide to tell a change of that size, or crossing it: 1.04–1.07 against 5%).
 */
export function betweenRunsVerdict(estimate: RatioEstimate, floor: number): "faster" | "slower" | "no change" | "not judged" {
  const judged = verdictOf(estimate, floor);
  if (judged !== "no change") return judged;
  return estimate.low >= 1 - floor && estimate.high <= 1 + floor ? "no change" : "not judged";
}

/** Why {@link betweenRunsVerdict} did not judge `estimate`: its interval is wider than `floor`, or crosses it. */
export function notJudgedReason(estimate: RatioEstimate, floor: number, percent: string): string {
  const relativeHalfWidth = (estimate.high - estimate.low) / 2 / estimate.ratio;
  return relativeHalfWidth > floor ? `± wider than the ${percent}% it would judge` : `its interval crosses the ${percent}% it would judge`;
}

/** "faster" or "slower" when the whole interval lies beyond the noise threshold on that side, else "no change". */
export function verdictOf(estimate: RatioEstimate, noiseThreshold = NOISE_THRESHOLD): "faster" | "slower" | "no change" {
  if (estimate.low > 1 + noiseThreshold) return "faster";
  if (estimate.high < 1 - noiseThreshold) return "slower";
  return "no change";
}

/** The reason given on each row of a pair of runs that moved as a whole ({@link movedTogether}). */
export const WHOLE_RUN_REASON = "every solver moved";

/** The least rows with an estimate, of two solvers or more, in which the whole run is looked at for a common move. */
export const WHOLE_RUN_ROWS = 6;

/** The least solvers of one dataset's rows for that dataset alone to be looked at for a common move. */
export const DATASET_SOLVERS = 3;

/** The median of positive ratios (the geometric mean of the middle two for an even count). */
function medianRatio(ratios: readonly number[]): number {
  const sorted = [...ratios].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1 ? sorted[Math.floor(middle)] : Math.sqrt(sorted[middle - 1] * sorted[middle]);
}

/**
 * The median change when `changes` moved together (at least `minRows` calibrated rows of `minSolvers` solvers or more,
 * every solver's median ratio beyond half of `floor` on one side): the machine's state, not one solver's change; else null.
 */
export function movedTogether(
  changes: readonly Change[],
  solverOf: (change: Change) => string,
  floor: number,
  { minRows = WHOLE_RUN_ROWS, minSolvers = 2 }: { minRows?: number; minSolvers?: number } = {},
): number | null {
  const rows = changes.filter((c) => c.estimate?.method === "calibrated" && !c.mismatch);
  const bySolver = new Map<string, number[]>();
  for (const change of rows) bySolver.set(solverOf(change), [...(bySolver.get(solverOf(change)) ?? []), change.estimate!.ratio]);
  if (rows.length < minRows || bySolver.size < Math.max(2, minSolvers)) return null;
  const medians = [...bySolver.values()].map(medianRatio);
  const slower = medians.every((m) => m < 1 - floor / 2);
  const faster = medians.every((m) => m > 1 + floor / 2);
  return slower || faster ? medianRatio(rows.map((c) => c.estimate!.ratio)) : null;
}

/** Sets aside as "not judged", with `reason`, the rows of `rows` that had a verdict. */
function setAside(rows: readonly Change[], reason: string): void {
  for (const change of rows) {
    if (change.verdict !== "faster" && change.verdict !== "slower" && change.verdict !== "no change") continue;
    change.verdict = "not judged";
    change.reason = reason;
  }
}

/** Sets aside as "not judged" the rows that moved together: the whole run's, else each dataset's of DATASET_SOLVERS solvers or more. */
function setAsideCommonMoves(changes: Change[], solverOf: (change: Change) => string, floor: number): void {
  const whole = movedTogether(changes, solverOf, floor);
  if (whole !== null) return setAside(changes, `${WHOLE_RUN_REASON}, median ${formatNumber(whole)}×`);
  for (const [dataset, rows] of groupByDataset(changes)) {
    const moved = movedTogether(rows, solverOf, floor, { minRows: DATASET_SOLVERS, minSolvers: DATASET_SOLVERS });
    if (moved !== null) setAside(rows, `${WHOLE_RUN_REASON} on ${dataset}, median ${formatNumber(moved)}×`);
  }
}

/** Why two rows have no calibrated estimate: a side without calibrated rounds, or too few of them. */
function unjudgedRounds(before: BenchRecord, after: BenchRecord): string {
  const a = calibratedRounds(before);
  const b = calibratedRounds(after);
  if (!a || !b) return `no calibrated rounds in the ${a ? "later" : "earlier"} run`;
  const fewer =
    a.length === b.length
      ? `${counted(a.length, "round")} a side`
      : `${counted(Math.min(a.length, b.length), "round")} in the ${a.length < b.length ? "earlier" : "later"} run`;
  return `${fewer}, fewer than the ${MIN_JUDGED_ROUNDS} a judgement needs`;
}

/** The reason on every row of two runs made on different CPUs ({@link otherCpus}), which are not judged unless asked. */
export const OTHER_CPU_REASON = "measured on another CPU";

/** Whether two runs' CPUs differ (model name, vector instructions, or family and model), as far as both runs tell. */
function otherCpus(before: ComparedSettings, after: ComparedSettings): boolean {
  return (["cpu", "vectorUnits", "cpuFamily"] as const).some((key) => before[key] !== undefined && after[key] !== undefined && before[key] !== after[key]);
}

/**
 * The changes from `before` to `after`: rows of `after` in order, then rows only `before` had. Runs on different CPUs
 * are not judged unless `acrossCpus`: a kernel's ratio to the calibration work need not carry across microarchitectures.
 */
export function compareRuns(before: BenchRun, after: BenchRun, floor = defaultThreshold(before, after), { acrossCpus = false } = {}): Change[] {
  const old = new Map(before.records.map((r) => [keyOf(r), r]));
  const solvers = new Map(after.records.map((r) => [keyOf(r), r.solver]));
  const change = (earlier: BenchRecord | undefined, later: BenchRecord | undefined, verdict: Verdict): Change => ({
    dataset: (later ?? earlier)!.dataset,
    row: (later ?? earlier)!.row,
    before: earlier?.puzzlesPerSecond ?? null,
    after: later?.puzzlesPerSecond ?? null,
    estimate: null,
    verdict,
    flags: { before: earlier ? noiseFlags(earlier) : [], after: later ? noiseFlags(later) : [] },
  });
  const changes: Change[] = after.records.map((r) => {
    const earlier = old.get(keyOf(r));
    old.delete(keyOf(r));
    if (!earlier) return change(undefined, r, "not run before");
    const estimate = changeEstimate(earlier, r);
    const judged = { ...change(earlier, r, "not judged"), estimate, floor };
    const flagged = [...judged.flags.before, ...judged.flags.after].some((flag) => JUDGING_FLAGS.includes(flag));
    const different = workDifference(earlier, r);
    if (!estimate) judged.verdict = "undecided";
    else if (different) judged.reason = judged.mismatch = different;
    else if (flagged) judged.verdict = "not judged";
    else if (estimate.method !== "calibrated") judged.reason = unjudgedRounds(earlier, r);
    else judged.verdict = betweenRunsVerdict(estimate, floor);
    if (judged.verdict === "not judged" && !judged.reason && !flagged) judged.reason = notJudgedReason(estimate!, floor, formatNumber(floor * 100));
    return judged;
  });
  setAsideCommonMoves(changes, (c) => solvers.get(keyOf(c)) ?? c.row, floor);
  if (!acrossCpus && otherCpus(before.environment, after.environment)) setAside(changes, OTHER_CPU_REASON);
  for (const r of old.values()) changes.push(change(r, undefined, "not run now"));
  return changes;
}

/** The rows judged slower by more than `percent` percent (their whole interval below 1 − percent/100). */
export function regressions(changes: readonly Change[], percent: number): Change[] {
  return changes.filter((c) => c.verdict === "slower" && c.estimate !== null && c.estimate.high < 1 - percent / 100);
}

/** The change cell: "1.50× (1.47–1.53) faster", "no change: 1.01× (0.99–1.03) faster", "not judged (flags N P → none): …", "not run now". */
function describeChange(change: Change): string {
  if (!change.estimate) return change.verdict === "undecided" ? "undecided (under 2 timed batches)" : change.verdict;
  const shown = formatRatio(change.estimate);
  const direction = shown.startsWith("1.00") ? "" : change.estimate.ratio >= 1 ? " faster" : " slower"; // "1.00× (0.99–1.01)" is neither
  const marks = (list: readonly NoiseFlag[]) => flagMarks(list) || "none";
  const why = change.reason ?? `flags ${marks(change.flags.before)} → ${marks(change.flags.after)}`;
  if (change.verdict === "not judged") return `not judged (${why}): ${shown}${direction}`;
  if (change.verdict === "no change") return `no change: ${shown}${direction}`;
  return `${shown} ${change.verdict}`;
}

/** The opening lines of --compare's report: what is compared (each run's date, commit and CPU; `after`'s when given) and how it is judged. */
export function compareHeading(before: BenchRun, noiseThreshold: number, after?: BenchRun): string[] {
  const side = ({ environment }: BenchRun) => `${environment.date} (commit ${environment.commit}; ${cpuName(environment)})`;
  return [
    `Compared with ${side(before)}: puzzles/s before → now${after ? `, now ${side(after)}` : ""}`,
    "the change is the ratio of each row's rounds in CPU time relative to the calibration work timed between its calls " +
      `(what slowed the whole machine drops out), its 95% interval in brackets; faster or slower only when the whole interval lies beyond ` +
      `${formatNumber(noiseThreshold * 100)}%, else "no change"`,
    `"not judged": an interval too wide to tell ${formatNumber(noiseThreshold * 100)}%, a noisy (N), disagree (D) or timed-out (T) flag in either run, ` +
      "rows that timed different work, a run without calibrated rounds (the web page's export), every solver moved alike, " +
      "or runs on different CPUs (unless --compare-anyway); " +
      "--ref COMMIT times both commits interleaved in one run, the verdict for CI",
  ];
}

/** The line --fail-on-regression prints when rows are judged slower by more than `percent`, or null when none is. */
export function regressionLine(changes: readonly Change[], percent: number): string | null {
  const slower = regressions(changes, percent);
  if (slower.length === 0) return null;
  const rows = slower.map((c) => `${c.dataset} · ${c.row}`).join(", ");
  return `--fail-on-regression ${percent}: ${slower.length} row${slower.length === 1 ? "" : "s"} judged slower by more than ${percent}%: ${rows}`;
}

/** The comparison as text: a heading (--compare's unless given), any setting differences, then one aligned block per dataset. */
export function formatComparison(
  before: BenchRun,
  changes: readonly Change[],
  differences: readonly SettingDifference[] = [],
  noiseThreshold = BETWEEN_RUNS_THRESHOLD,
  heading = compareHeading(before, noiseThreshold),
  after?: BenchRun,
): string {
  const out = [...heading];
  for (const d of differences) out.push(`${d.severity === "refuse" ? "WARNING, different experiment" : "note"}: ${d.setting} ${d.before} → ${d.after}`);
  for (const [side, run] of [
    ["earlier", before],
    ["later", after],
  ] as const) {
    const cut = run?.incomplete;
    if (cut)
      out.push(`note: the ${side} run was interrupted by ${cut.signal} (${run.records.length} of ${cut.rowsPlanned} rows): the rest are "not run" on its side`);
  }
  if (changes.length > 0 && changes.every((c) => c.before === null || c.after === null)) {
    out.push("WARNING, no row was run in both runs (other solvers or datasets): nothing is compared");
  }
  const different = changes.filter((c) => c.mismatch);
  if (different.length > 0) {
    out.push(`WARNING, rows that timed different work are not judged: ${different.map((c) => `${c.dataset} · ${c.row} (${c.mismatch})`).join("; ")}`);
  }
  const together = [...new Set(changes.filter((c) => c.reason?.startsWith(WHOLE_RUN_REASON)).map((c) => c.dataset))];
  if (together.length > 0) {
    const where = changes.some((c) => c.reason?.startsWith(`${WHOLE_RUN_REASON},`)) ? "" : ` on ${together.join(", ")}`;
    out.push(
      `WARNING, every solver's rows${where} moved the same way: what moves every solver alike is the machine or code they share, ` +
        `not one solver's change, so ${where ? "those rows are not judged" : "no row is judged"}; --ref COMMIT times both commits in one run and tells them apart`,
    );
  }
  const columns = [column("solver"), column("before", "right"), column("now", "right"), column("change")];
  for (const [dataset, group] of groupByDataset(changes)) {
    out.push("", dataset);
    const rows = group.map((c) => [c.row, formatNumber(c.before), formatNumber(c.after), describeChange(c)]);
    out.push(...alignRows(columns, rows).map((line) => `  ${line}`));
  }
  const tally = (verdict: Verdict) => changes.filter((c) => c.verdict === verdict).length;
  out.push(
    "",
    `${tally("faster")} faster, ${tally("slower")} slower, ${tally("no change")} no change, ${tally("not judged")} not judged, ` +
      `${tally("undecided")} undecided, ${tally("not run before") + tally("not run now")} not run on one side`,
  );
  return out.join("\n") + "\n";
}
