/**
 * The terminal writer of a profile: the environment header (the bench's), then per dataset
 * one row per variant, and the 10 hardest puzzles of each variant by time and by guesses
 * as file lines (a rank per row, a variant per column).
 */
import { type Column, describeMachine, formatNumber, formatPercent, groupByDataset } from "../report/format.js";
import { alignRows, tableLines } from "../report/table.js";
import type { HardPuzzle, ProfileEnvironment, ProfileRecord, ProfileRun } from "./records.js";

/** "2.31× slower", "1.05× faster", "=" (the first variant of the table). */
function formatRelative(record: ProfileRecord, first: ProfileRecord): string {
  if (record === first) return "=";
  const ratio = record.puzzlesPerSecond / first.puzzlesPerSecond;
  const shown = ratio >= 1 ? ratio : 1 / ratio;
  return `${formatNumber(shown)}× ${ratio >= 1 ? "faster" : "slower"}`;
}

/** The per-variant table's columns, in order. */
export const PROFILE_COLUMNS: readonly Column<ProfileRecord>[] = [
  { header: "variant", align: "left", cell: (r) => r.variant },
  { header: "puzzles/s", align: "right", cell: (r) => formatNumber(r.puzzlesPerSecond) },
  { header: "vs first", align: "right", cell: formatRelative },
  { header: "guesses/puzzle", align: "right", cell: (r) => formatNumber(r.guessesPerPuzzle) },
  { header: "nodes/puzzle", align: "right", cell: (r) => formatNumber(r.nodesPerPuzzle) },
  { header: "no guess", align: "right", cell: (r) => formatPercent(r.noGuessPercent) },
  { header: "µs p50", align: "right", cell: (r) => formatNumber(r.micros.p50) },
  { header: "µs p90", align: "right", cell: (r) => formatNumber(r.micros.p90) },
  { header: "µs p99", align: "right", cell: (r) => formatNumber(r.micros.p99) },
  { header: "µs max", align: "right", cell: (r) => formatNumber(r.micros.max) },
  { header: "timeouts", align: "right", cell: (r) => `${r.timeouts}` },
];

/** The environment of a profile as lines: the bench's machine lines, then the method. */
export function describeProfileEnvironment(env: ProfileEnvironment): string[] {
  const sample = env.sample === null ? "every puzzle" : `a seeded sample of ${formatNumber(env.sample)} puzzles per dataset (seed ${env.seed})`;
  return [
    ...describeMachine(env),
    `method: ${sample}, limit ${env.limit}, budget ${formatNumber(env.budget)} nodes/puzzle; puzzles/s from the median ` +
      "of tinybench's whole-batch run(n) calls after a checked one (3+ calls over 300+ ms; fewer when 3 would pass 2 s); µs per puzzle from hrtime around run(1) " +
      "on each puzzle alone after a warm-up (fastest of 3 passes for puzzles under 1 ms or 4× the median µs/node)",
  ];
}

/** "line 1234: 812" with a `+` when the budget stopped the search (a lower bound for guesses). */
function hardCell(puzzle: HardPuzzle | undefined, value: (p: HardPuzzle) => number): string {
  if (!puzzle) return "";
  return `${puzzle.line}: ${formatNumber(value(puzzle))}${puzzle.timedOut ? "+" : ""}`;
}

/** A rank × variant table of one hardest-puzzles list. */
function hardestTable(records: readonly ProfileRecord[], list: (r: ProfileRecord) => HardPuzzle[], value: (p: HardPuzzle) => number): string[] {
  const columns = [{ header: "#", align: "right" as const }, ...records.map((r) => ({ header: r.variant, align: "left" as const }))];
  const ranks = Math.max(...records.map((r) => list(r).length));
  const rows = Array.from({ length: ranks }, (_, rank) => [`${rank + 1}`, ...records.map((r) => hardCell(list(r)[rank], value))]);
  return alignRows(columns, rows);
}

/** One dataset's tables. */
function datasetSection(records: readonly ProfileRecord[]): string[] {
  const first = records[0];
  const size = (n: number) => n.toLocaleString("en-US");
  const drawn = first.puzzles < first.datasetSize ? `${size(first.puzzles)} of ${size(first.datasetSize)} puzzles` : `${size(first.puzzles)} puzzles`;
  return [
    "",
    `${first.dataset}: ${drawn}, limit ${first.limit}, budget ${size(first.budget)} nodes`,
    ...tableLines(PROFILE_COLUMNS, records),
    "",
    `${first.dataset}: hardest by time (file line: µs alone; + = stopped by the budget)`,
    ...hardestTable(records, (r) => r.hardestByTime, (p) => p.micros),
    "",
    `${first.dataset}: hardest by guesses (file line: guesses; + = at least, stopped by the budget)`,
    ...hardestTable(records, (r) => r.hardestByGuesses, (p) => p.guesses),
  ];
}

/** The whole profile as text for the terminal. */
export function formatProfileTable(run: ProfileRun): string {
  const out = describeProfileEnvironment(run.environment);
  for (const [, records] of groupByDataset(run.records)) out.push(...datasetSection(records));
  return out.join("\n") + "\n";
}
