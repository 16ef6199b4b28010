/**
 * `--compare OLD.json`: is each row faster, slower or unchanged against an earlier run?
 *
 * 1. Settings. Two runs measure the same experiment only when they drew the same puzzles
 *    (seed, puzzles per dataset, the same dataset bytes) and asked the same question
 *    (limit, budget). {@link settingDifferences} names every difference: those are reasons to
 *    refuse the comparison; a different build, CPU or Node is reported as a warning (often
 *    it is the point of comparing).
 * 2. Rows are matched by dataset name and row label. Each match gets the ratio of puzzles/s
 *    (now / before) with a 95% confidence interval: a percentile bootstrap over both runs'
 *    timed batches when both files carry them (v2; Welch on their n, mean and σ past
 *    BOOTSTRAP_MAX_SAMPLES batches), else Welch's method from their summaries (n, mean,
 *    margin of error). A row flagged in either run (noisy, passes disagree, pre-empted:
 *    noise.ts) is "not judged": its figures are shown with the flags, and no verdict. Any
 *    other row is "faster" or "slower" only when its whole interval lies beyond the threshold
 *    (NOISE_THRESHOLD, after Criterion.rs, unless `--threshold`), else "no change".
 *    A row only one run has is "not run" on the other side; one with under two timed batches
 *    on a side is "undecided".
 *
 * The interval covers the timing noise inside each run, not run-to-run drift of a busy machine:
 * the flags are what catch a run that another process disturbed.
 */
import { type NoiseFlag, flagMarks, noiseFlags } from "../noise.js";
import type { BenchEnvironment, BenchRecord, BenchRun } from "../records.js";
import { speedRatio } from "../ratios.js";
import { BOOTSTRAP_MAX_SAMPLES, type RatioEstimate } from "../statistics.js";
import { alignRows } from "./table.js";
import { formatNumber, formatRatio, groupByDataset } from "./format.js";

/** Changes smaller than this share (2%) are "no change" even when the interval excludes 1×. */
export const NOISE_THRESHOLD = 0.02;

/** What a run was asked to measure, as far as comparing two runs needs it. */
export interface ComparedSettings extends Pick<BenchEnvironment, "limit" | "budget" | "seed" | "buildFlags" | "cpu" | "cores" | "node"> {
  /** Per dataset: puzzles drawn, and the content hash when the run recorded one. */
  datasets: { name: string; drawn: number; sha256?: string }[];
}

/** The settings of a finished run; for files written before v2, the datasets come from the records, without hashes. */
export function settingsOf(run: BenchRun): ComparedSettings {
  const datasets =
    run.environment.datasets ?? [...groupByDataset(run.records)].map(([name, records]) => ({ name, drawn: records[0].selected }));
  return { ...run.environment, datasets };
}

/** One setting that differs between two runs. */
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
  const earlier = new Map(before.datasets.map((d) => [d.name, d]));
  let unhashed = 0;
  for (const dataset of after.datasets) {
    const old = earlier.get(dataset.name);
    if (!old) continue;
    check(`puzzles drawn from ${dataset.name}`, old.drawn, dataset.drawn, "refuse");
    check(`content of ${dataset.name} (sha256)`, old.sha256, dataset.sha256, "refuse");
    if (old.sha256 === undefined || dataset.sha256 === undefined) unhashed++;
  }
  if (unhashed > 0) differences.push({ setting: "dataset content", before: "not recorded", after: "cannot be checked", severity: "warn" });
  check("WASM build flags", before.buildFlags, after.buildFlags, "warn");
  check("CPU", before.cpu, after.cpu, "warn");
  check("cores", before.cores, after.cores, "warn");
  check("Node", before.node, after.node, "warn");
  return differences;
}

/** The differences as lines for a message: "limit: 2 → 1". */
export function describeDifferences(differences: readonly SettingDifference[]): string[] {
  return differences.map((d) => `${d.setting}: ${d.before} → ${d.after}`);
}

export type Verdict = "faster" | "slower" | "no change" | "not judged" | "undecided" | "not run before" | "not run now";

/** One dataset × row of either run. */
export interface Change {
  dataset: string;
  row: string;
  /** puzzles/s before and now; null on the side that did not run the row. */
  before: number | null;
  after: number | null;
  /** now / before puzzles/s with its interval (above 1: faster now); null when a side is missing. */
  estimate: RatioEstimate | null;
  verdict: Verdict;
  /** The row's noise flags in each run (empty on a side that did not run it); any flag makes it "not judged". */
  flags: { before: NoiseFlag[]; after: NoiseFlag[] };
}

const keyOf = (r: BenchRecord) => `${r.dataset}\u0000${r.row}`;

/** now / before puzzles/s with a 95% interval (bootstrap over both sides' batches when both have them, else Welch). */
export function changeEstimate(before: BenchRecord, after: BenchRecord): RatioEstimate | null {
  return speedRatio(before, after);
}

/** "faster" or "slower" when the whole interval lies beyond the noise threshold on that side, else "no change". */
export function verdictOf(estimate: RatioEstimate, noiseThreshold = NOISE_THRESHOLD): "faster" | "slower" | "no change" {
  if (estimate.low > 1 + noiseThreshold) return "faster";
  if (estimate.high < 1 - noiseThreshold) return "slower";
  return "no change";
}

/** The changes from `before` to `after`: rows of `after` in order, then rows only `before` had. */
export function compareRuns(before: BenchRun, after: BenchRun, noiseThreshold = NOISE_THRESHOLD): Change[] {
  const old = new Map(before.records.map((r) => [keyOf(r), r]));
  const changes: Change[] = after.records.map((r) => {
    const earlier = old.get(keyOf(r));
    old.delete(keyOf(r));
    if (!earlier) {
      return { dataset: r.dataset, row: r.row, before: null, after: r.puzzlesPerSecond, estimate: null, verdict: "not run before", flags: { before: [], after: noiseFlags(r) } };
    }
    const estimate = changeEstimate(earlier, r);
    const flags = { before: noiseFlags(earlier), after: noiseFlags(r) };
    const flagged = flags.before.length > 0 || flags.after.length > 0;
    const verdict = !estimate ? "undecided" : flagged ? "not judged" : verdictOf(estimate, noiseThreshold);
    return { dataset: r.dataset, row: r.row, before: earlier.puzzlesPerSecond, after: r.puzzlesPerSecond, estimate, verdict, flags };
  });
  for (const r of old.values()) {
    changes.push({ dataset: r.dataset, row: r.row, before: r.puzzlesPerSecond, after: null, estimate: null, verdict: "not run now", flags: { before: noiseFlags(r), after: [] } });
  }
  return changes;
}

/** The rows judged slower by more than `percent` percent (their whole interval below 1 − percent/100). */
export function regressions(changes: readonly Change[], percent: number): Change[] {
  return changes.filter((c) => c.verdict === "slower" && c.estimate !== null && c.estimate.high < 1 - percent / 100);
}

/** "N P → none": a row's flags in both runs, by their marks. */
function describeFlags(flags: Change["flags"]): string {
  const marks = (list: readonly NoiseFlag[]) => flagMarks(list) || "none";
  return `flags ${marks(flags.before)} → ${marks(flags.after)}`;
}

/** The change cell: "1.50 ± 0.03× faster", "no change: 1.01 ± 0.02× faster", "not judged (flags N P → none): …", "not run now". */
function describeChange(change: Change): string {
  if (!change.estimate) return change.verdict === "undecided" ? "undecided (under 2 timed batches)" : change.verdict;
  const direction = change.estimate.ratio >= 1 ? "faster" : "slower";
  if (change.verdict === "not judged") return `not judged (${describeFlags(change.flags)}): ${formatRatio(change.estimate)} ${direction}`;
  if (change.verdict === "no change") return `no change: ${formatRatio(change.estimate)} ${direction}`;
  return `${formatRatio(change.estimate)} ${change.verdict}`;
}

/** The comparison as text: a heading, any setting differences, then one aligned block per dataset. */
export function formatComparison(before: BenchRun, changes: readonly Change[], differences: readonly SettingDifference[] = [], noiseThreshold = NOISE_THRESHOLD): string {
  const methods = new Set(changes.flatMap((c) => (c.estimate ? [c.estimate.method] : [])));
  const method = [...methods].map((m) => (m === "bootstrap" ? "bootstrap over both runs' timed batches" : `Welch from n, mean and σ for rows over ${BOOTSTRAP_MAX_SAMPLES} batches or files without them`)).join("; ");
  const out = [
    `Compared with ${before.environment.date} (commit ${before.environment.commit}): puzzles/s before → now`,
    `± is the 95% interval of the ratio (${method || "no rows in common"}); faster or slower only when the whole interval lies beyond ${formatNumber(noiseThreshold * 100)}%, else "no change"`,
    `"not judged": the row carries a noise flag in either run (its figures are not trusted: see Flags); rerun on a quieter machine or with more --time`,
  ];
  for (const d of differences) out.push(`${d.severity === "refuse" ? "WARNING, different experiment" : "note"}: ${d.setting} ${d.before} → ${d.after}`);
  const columns = [
    { header: "solver", align: "left" as const },
    { header: "before", align: "right" as const },
    { header: "now", align: "right" as const },
    { header: "change", align: "left" as const },
  ];
  for (const [dataset, group] of groupByDataset(changes)) {
    out.push("", dataset);
    const rows = group.map((c) => [c.row, formatNumber(c.before), formatNumber(c.after), describeChange(c)]);
    out.push(...alignRows(columns, rows).map((line) => `  ${line}`));
  }
  const tally = (verdict: Verdict) => changes.filter((c) => c.verdict === verdict).length;
  out.push(
    "",
    `${tally("faster")} faster, ${tally("slower")} slower, ${tally("no change")} no change, ${tally("not judged")} not judged (flagged), ` +
      `${tally("undecided")} undecided, ${tally("not run before") + tally("not run now")} not run on one side`,
  );
  return out.join("\n") + "\n";
}
