/**
 * `--compare OLD.json`: the change in puzzles/s per dataset × row against an earlier run.
 * Rows are matched by dataset name and row label; rows in only one run are listed as such.
 */
import type { BenchRecord, BenchRun } from "../records.js";
import { formatNumber } from "./format.js";

/** One dataset × row in either run; a side is null when that run did not have the row. */
export interface Change {
  dataset: string;
  row: string;
  before: number | null;
  after: number | null;
  /** after / before puzzles/s (above 1: faster now), or null when a side is missing. */
  ratio: number | null;
}

const keyOf = (r: BenchRecord) => `${r.dataset}\u0000${r.row}`;

/** The changes from `before` to `after`: rows of `after` in order, then rows only `before` had. */
export function compareRuns(before: BenchRun, after: BenchRun): Change[] {
  const old = new Map(before.records.map((r) => [keyOf(r), r]));
  const changes: Change[] = after.records.map((r) => {
    const earlier = old.get(keyOf(r));
    old.delete(keyOf(r));
    const ratio = earlier ? r.puzzlesPerSecond / earlier.puzzlesPerSecond : null;
    return { dataset: r.dataset, row: r.row, before: earlier?.puzzlesPerSecond ?? null, after: r.puzzlesPerSecond, ratio };
  });
  for (const r of old.values()) {
    changes.push({ dataset: r.dataset, row: r.row, before: r.puzzlesPerSecond, after: null, ratio: null });
  }
  return changes;
}

/** "1.25× faster", "1.10× slower", "new", "gone". */
function describeRatio(change: Change): string {
  if (change.before === null) return "new";
  if (change.after === null) return "gone";
  const ratio = change.ratio!;
  if (ratio >= 1) return `${ratio.toFixed(2)}× faster`;
  return `${(1 / ratio).toFixed(2)}× slower`;
}

/** The changes as an aligned text table, headed by the earlier run's date and commit. */
export function formatComparison(before: BenchRun, changes: readonly Change[]): string {
  const heading = `Compared with ${before.environment.date} (commit ${before.environment.commit}): puzzles/s before → now`;
  const rows = changes.map((c) => [c.dataset, c.row, formatNumber(c.before), formatNumber(c.after), describeRatio(c)]);
  const all = [["dataset", "solver", "before", "now", "change"], ...rows];
  const widths = all[0].map((_, i) => Math.max(...all.map((row) => row[i].length)));
  const lines = all.map((row) => row.map((cell, i) => (i >= 2 && i <= 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join("  ").trimEnd());
  return [heading, ...lines].join("\n") + "\n";
}
