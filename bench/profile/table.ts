/** The profile's writers: for a terminal (per dataset a row per variant, then each variant's hardest puzzles), and Markdown. */
import {
  type Column,
  alignRows,
  column,
  cpuName,
  describeMachine,
  formatNumber,
  formatPercent,
  formatTimes,
  groupByDataset,
  markdownTable,
  tableLines,
} from "../report/format.js";
import { wrap } from "../report/compact.js";
import { counted } from "../../src/model/whole-number.js";
import type { HardPuzzle, ProfileEnvironment, ProfileRecord, ProfileRun } from "../records.js";

/** The width the profile is written for when standard output is no terminal. */
export const PIPED_WIDTH = 100;

/** "2.31× slower", "1.05× faster", "same" (within 0.5%), "=" (the first variant of the table). */
function formatRelative(record: ProfileRecord, first: ProfileRecord): string {
  const ratio = record.puzzlesPerSecond / first.puzzlesPerSecond;
  return record === first ? "=" : Math.max(ratio, 1 / ratio) < 1.005 ? "same" : formatTimes(ratio);
}

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

/**
 * Each dataset's variant table as Markdown, every column (the dataset's name above each when there are several), under a
 * line naming the CPU, the commit and the datasets (`datasets`, else those of the records), which every figure needs.
 */
export function formatProfileMarkdown(run: ProfileRun, datasets: readonly string[] = [...groupByDataset<ProfileRecord>(run.records).keys()]): string {
  const env = run.environment;
  const sample = env.sample === null ? "every puzzle" : `a seeded sample of ${formatNumber(env.sample)} puzzles (seed ${env.seed})`;
  const about =
    `CPU: ${cpuName(env)} (${counted(env.cores, "core")}), Node ${env.node}, commit ${env.commit}, ${env.date.slice(0, 10)}; ` +
    `${datasets.length === 1 ? "dataset" : "datasets"} ${datasets.join(", ") || "none"}: ${sample}, limit ${env.limit}, budget ${formatNumber(env.budget)} nodes/puzzle`;
  const groups = [...groupByDataset<ProfileRecord>(run.records)];
  return [about, ""]
    .concat(groups.flatMap(([dataset, records]) => [...(groups.length > 1 ? [`**${dataset}**`, ""] : []), ...markdownTable(PROFILE_COLUMNS, records), ""]))
    .join("\n");
}

/** Columns left out, in this order, while the variants' table is wider than the terminal (the JSON and Markdown exports keep them). */
const DROPPED_WHEN_NARROW = ["µs p90", "µs max", "nodes/puzzle"];

/** The variants' table in at most `width` columns, if leaving out {@link DROPPED_WHEN_NARROW} gets it there. */
function variantTable(records: readonly ProfileRecord[], width: number): string[] {
  let columns = PROFILE_COLUMNS;
  let lines = tableLines(columns, records);
  for (const header of DROPPED_WHEN_NARROW) {
    if (Math.max(...lines.map((line) => line.length)) <= width) break;
    columns = columns.filter((c) => c.header !== header);
    lines = tableLines(columns, records);
  }
  return lines;
}

/** The environment of a profile as lines: the bench's machine lines, then the method (wrapped to `width`); `records` name the datasets smaller than the sample. */
export function describeProfileEnvironment(env: ProfileEnvironment, width = Infinity, records: readonly ProfileRecord[] = []): string[] {
  const sizes = new Map(records.map((record) => [record.dataset, record.datasetSize]));
  const smaller = env.sample === null ? [] : [...sizes].filter(([, size]) => size < env.sample!);
  const whole =
    smaller.length === 0 ? "" : `, or every puzzle of a smaller one (${smaller.map(([name, size]) => `${name}: ${formatNumber(size)}`).join(", ")})`;
  const sample = env.sample === null ? "every puzzle" : `a seeded sample of ${formatNumber(env.sample)} puzzles per dataset (seed ${env.seed})${whole}`;
  const method =
    `method: ${sample}, limit ${env.limit}, budget ${formatNumber(env.budget)} nodes/puzzle; puzzles/s from the median ` +
    "of tinybench's whole-batch run(n) calls after a checked one (3+ calls over 300+ ms; fewer when 3 would pass 2 s); µs per puzzle from hrtime around run(1) " +
    "on each puzzle alone after a warm-up (fastest of 3 passes for puzzles under 1 ms or 4× the median µs/node)";
  return [...describeMachine(env), ...wrap(method, width, "  ")];
}

/** "line 1234: 812" with a `+` when the budget stopped the search (a lower bound for guesses). */
function hardCell(puzzle: HardPuzzle | undefined, value: (p: HardPuzzle) => number): string {
  if (!puzzle) return "";
  return `${puzzle.line}: ${formatNumber(value(puzzle))}${puzzle.timedOut ? "+" : ""}`;
}

/** A rank × variant table of one hardest-puzzles list. */
function hardestTable(records: readonly ProfileRecord[], list: (r: ProfileRecord) => HardPuzzle[], value: (p: HardPuzzle) => number): string[] {
  const columns = [column("#", "right"), ...records.map((r) => column(r.variant))];
  const ranks = Math.max(...records.map((r) => list(r).length));
  const rows = Array.from({ length: ranks }, (_, rank) => [`${rank + 1}`, ...records.map((r) => hardCell(list(r)[rank], value))]);
  return alignRows(columns, rows);
}

/** {@link hardestTable} in as many tables as it takes to fit `width`: as many variants each as fit, a blank line between (one variant that does not fit stays whole). */
function hardestTables(records: readonly ProfileRecord[], list: (r: ProfileRecord) => HardPuzzle[], value: (p: HardPuzzle) => number, width: number): string[] {
  const out: string[] = [];
  for (let first = 0; first < records.length; ) {
    let count = 1;
    while (
      first + count < records.length &&
      Math.max(...hardestTable(records.slice(first, first + count + 1), list, value).map((line) => line.length)) <= width
    )
      count++;
    if (out.length > 0) out.push("");
    out.push(...hardestTable(records.slice(first, first + count), list, value));
    first += count;
  }
  return out;
}

function datasetSection(records: readonly ProfileRecord[], width: number): string[] {
  const first = records[0];
  const size = (n: number) => n.toLocaleString("en-US");
  const drawn = first.puzzles < first.datasetSize ? `${size(first.puzzles)} of ${size(first.datasetSize)} puzzles` : `${size(first.puzzles)} puzzles`;
  const hardest = (title: string, list: (r: ProfileRecord) => HardPuzzle[], value: (p: HardPuzzle) => number) => [
    "",
    `${first.dataset}: ${title}`,
    ...hardestTables(records, list, value, width),
  ];
  return [
    "",
    `${first.dataset}: ${drawn}, limit ${first.limit}, budget ${size(first.budget)} nodes`,
    ...variantTable(records, width),
    ...hardest(
      "hardest by time (file line: µs alone; + = stopped by the budget)",
      (r) => r.hardestByTime,
      (p) => p.micros,
    ),
    ...hardest(
      "hardest by guesses (file line: guesses; + = at least, stopped by the budget)",
      (r) => r.hardestByGuesses,
      (p) => p.guesses,
    ),
  ];
}

/** The whole profile as text for a terminal of `width` columns. */
export function formatProfileTable(run: ProfileRun, width = PIPED_WIDTH): string {
  const out = describeProfileEnvironment(run.environment, width, run.records);
  for (const [, records] of groupByDataset(run.records)) out.push(...datasetSection(records, width));
  return out.join("\n") + "\n";
}
