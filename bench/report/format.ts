/**
 * The table's columns (a capability a solver lacks shows as `n/a`, never a made-up zero), the two table writers every
 * tool's tables go through (aligned for a terminal, Markdown), and the CSV writer (the CLI's `csv` field quoting).
 */
import { flagMarks, noiseFlags } from "../noise.js";
import type { BenchEnvironment, BenchRecord, BenchRun } from "../records.js";
import { escapeText } from "../../src/model/excerpt.js";
import { csvField } from "../../src/formats/output/format.js";
import { counted } from "../../src/model/whole-number.js";
import { type RatioEstimate, tukeyOutliers } from "../statistics.js";

/** One column of a table of records (the bench's by default; the profiler's too). */
export interface Column<R = BenchRecord> {
  header: string;
  align: "left" | "right";
  /** The cell of `record`; `first` is the first record of its table (for relative figures). */
  cell(record: R, first: R): string;
}

/** Report text with every control character but line breaks escaped: dataset names come from file names, which may hold escape sequences. */
export function terminalSafe(text: string): string {
  return text.split("\n").map(escapeText).join("\n");
}

/** A number with thousands separators and `digits` significant digits below 1000. */
export function formatNumber(value: number | null, digits = 3): string {
  if (value === null || !Number.isFinite(value)) return "n/a";
  if (Math.abs(value) >= 10 ** digits) return Math.round(value).toLocaleString("en-US");
  return Number(value.toPrecision(digits)).toLocaleString("en-US", { maximumFractionDigits: 20 });
}

/** "12.5%", or "n/a". */
export function formatPercent(value: number | null, digits = 1): string {
  return value === null || !Number.isFinite(value) ? "n/a" : `${value.toFixed(digits)}%`;
}

/**
 * "1.12× (1.01–1.16)": the ratio (below 1 its inverse, read "slower") and its 95% interval, which need not be centred on
 * it; the bounds get a digit more (two at most) where they would read the same.
 */
export function formatRatio(estimate: RatioEstimate): string {
  const shown = estimate.ratio >= 1 ? estimate : { ratio: 1 / estimate.ratio, low: 1 / estimate.high, high: 1 / estimate.low };
  const digits = shown.ratio < 10 ? 2 : shown.ratio < 100 ? 1 : 0;
  let bounds = digits;
  while (bounds < digits + 2 && shown.high > shown.low && shown.low.toFixed(bounds) === shown.high.toFixed(bounds)) bounds++;
  return `${shown.ratio.toFixed(digits)}× (${shown.low.toFixed(bounds)}–${shown.high.toFixed(bounds)})`;
}

/** {@link formatRatio} with the word for its direction: "1.55× (1.51–1.59) faster", "1.30× (1.27–1.33) slower". */
export function formatRatioWords(estimate: RatioEstimate): string {
  return `${formatRatio(estimate)} ${estimate.ratio >= 1 ? "faster" : "slower"}`;
}

/** A speed ratio in words, never below 1×: "5.20× faster", "1.30× slower"; 2 decimals under 10, 1 under 100. */
export function formatTimes(ratio: number, above = "faster", below = "slower"): string {
  const shown = ratio >= 1 ? ratio : 1 / ratio;
  const digits = shown < 10 ? 2 : shown < 100 ? 1 : 0;
  return `${shown.toFixed(digits)}× ${ratio >= 1 ? above : below}`;
}

/** "5.20× (5.09–5.31) faster than bitmask", "1.30× slower than bitmask" (no interval known), "reference", or "n/a". */
export function formatSpeedup(record: BenchRecord): string {
  if (record.speedup === null || record.reference === null) return "n/a";
  if (record.reference === record.row) return "reference";
  if (!record.speedupInterval) return `${formatTimes(record.speedup)} than ${record.reference}`;
  return `${formatRatioWords({ ratio: record.speedup, ...record.speedupInterval })} than ${record.reference}`;
}

/** What the reader must know about a row's figures (sampling, timeouts, threads), each a whole phrase; `short`: the compact view's wording. */
export function rowNotes(record: BenchRecord, short = false): string[] {
  const notes: string[] = [];
  const { threads } = record;
  if (record.puzzles < record.selected) notes.push(`sampled ${record.puzzles}`);
  if (record.timeouts > 0) notes.push(`${record.timeouts} timeout${record.timeouts === 1 ? "" : "s"}`);
  if (record.effectiveLimit < record.limit) notes.push(short ? "stops at 1st" : "stops at 1st solution");
  if (threads !== null)
    notes.push(`${short ? "" : `${threads} thread${threads === 1 ? "" : "s"} via src/pool (text in/out), `}CPU/wall ${formatNumber(record.cpuPerWall, 2)}`);
  if (threads !== null && (record.puzzles / Math.max(threads, 1) < 100 || record.meanMicros * record.puzzles < 2000))
    notes.push(
      short ? "hand-off bound" : `a batch of ${record.puzzles} puzzles is too small to split: handing it to the threads, not solving, sets this speed`,
    );
  if (record.mode === "engine" && record.batchCall) notes.push("1 call/batch");
  const outliers = record.batchMs ? tukeyOutliers(record.batchMs).severe : 0; // (the flags' notes say what they are)
  if (outliers > 0) notes.push(counted(outliers, "outlier"));
  if (!short && record.comparedOn !== null && record.comparedOn < record.puzzles) notes.push(`compared on ${record.comparedOn}`);
  return notes;
}

export const formatNotes = (record: BenchRecord): string => rowNotes(record).join(", ");

export const COLUMNS: readonly Column[] = [
  { header: "solver", align: "left", cell: (r) => r.row },
  { header: "puzzles/s", align: "right", cell: (r) => formatNumber(r.puzzlesPerSecond) },
  { header: "µs mean", align: "right", cell: (r) => formatNumber(r.meanMicros) },
  { header: "µs p50", align: "right", cell: (r) => formatNumber(r.p50Micros) },
  { header: "µs p99", align: "right", cell: (r) => formatNumber(r.p99Micros) },
  { header: "±", align: "right", cell: (r) => formatPercent(r.rmePercent) },
  { header: "guesses/puzzle", align: "right", cell: (r) => formatNumber(r.guessesPerPuzzle) },
  { header: "no guess", align: "right", cell: (r) => formatPercent(r.noGuessPercent) },
  { header: "relative speed", align: "left", cell: formatSpeedup },
  { header: "flags", align: "left", cell: (r) => flagMarks(noiseFlags(r)) },
  { header: "notes", align: "left", cell: formatNotes },
];

/** "forum_hardest_1106: 300 of 375 puzzles (seed 1), limit 2". */
export function describeDataset(first: BenchRecord, seed: number): string {
  const size = (n: number) => n.toLocaleString("en-US");
  const drawn =
    first.selected < first.datasetSize ? `${size(first.selected)} of ${size(first.datasetSize)} puzzles (seed ${seed})` : `${size(first.selected)} puzzles`;
  return `${first.dataset}: ${drawn}, limit ${first.limit}`;
}

/** "AMD EPYC, AVX-512, family 26 model 2": the model name, vector instructions, family and model, as far as the run could tell them. */
export const cpuName = (env: Pick<BenchEnvironment, "cpu" | "vectorUnits" | "cpuFamily">): string =>
  [env.cpu, env.vectorUnits, env.cpuFamily].filter(Boolean).join(", ");

/** The machine and build part of the environment, as lines. */
export function describeMachine(env: Omit<BenchEnvironment, "timeMs" | "limit" | "budget">): string[] {
  return [
    `CPU: ${cpuName(env)} (${counted(env.cores, "core")})`,
    `Node ${env.node}, V8 ${env.v8}, tinybench ${env.tinybench}`,
    `WASM build: ${env.buildFlags}`,
    `commit ${env.commit}, ${env.date}, seed ${env.seed}`,
  ];
}

/** The environment as "label: value" lines, the method saying where each column comes from. */
export function describeEnvironment(env: BenchEnvironment): string[] {
  return [
    ...describeMachine(env),
    `method: ${env.timeMs} ms per row, budget ${formatNumber(env.budget)} nodes/puzzle for solvers that take one; ` +
      "puzzles/s, µs mean and ± (95% margin of the mean) come from tinybench's timed batches; " +
      "µs p50 and p99 from a separate pass that times each puzzle alone (fastest of 3 under 1 ms or over 50× the median)",
  ];
}

/** Records grouped by dataset, datasets in first-seen order. */
export function groupByDataset<R extends { dataset: string } = BenchRecord>(records: readonly R[]): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const record of records) {
    const group = groups.get(record.dataset) ?? [];
    group.push(record);
    groups.set(record.dataset, group);
  }
  return groups;
}

/** A column of {@link alignRows}: its header and alignment. */
export const column = (header: string, align: Column["align"] = "left"): Pick<Column, "header" | "align"> => ({ header, align });

/** Pads every cell of a column to the column's widest cell; the first line is the headers. */
export function alignRows(columns: readonly Pick<Column, "header" | "align">[], rows: string[][]): string[] {
  const widths = columns.map((column, i) => Math.max(column.header.length, ...rows.map((row) => row[i].length)));
  const pad = (text: string, i: number) => (columns[i].align === "right" ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  return [columns.map((c) => c.header), ...rows].map((row) => row.map(pad).join("  ").trimEnd());
}

/** A table of `records`: the header line, then one line per record, every column aligned. */
export function tableLines<R>(columns: readonly Column<R>[], records: readonly R[]): string[] {
  return alignRows(
    columns,
    records.map((record) => columns.map((column) => column.cell(record, records[0]))),
  );
}

/** One full table per dataset (the --wide view), each headed by its dataset line. */
export function formatTables(records: readonly BenchRecord[], seed: number): string[] {
  const out: string[] = [];
  for (const [, group] of groupByDataset(records)) {
    out.push("", describeDataset(group[0], seed));
    out.push(...tableLines(COLUMNS, group));
  }
  return out;
}

export const MARKDOWN_COLUMNS: readonly Column[] = [
  { header: "dataset", align: "left", cell: (r) => r.dataset },
  { header: "puzzles", align: "right", cell: (r) => `${r.puzzles}` },
  ...COLUMNS,
];

function escapeCell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|");
}

/** A Markdown table of `records`, one line per record. */
export function markdownTable<R>(columns: readonly Column<R>[], records: readonly R[]): string[] {
  const header = `| ${columns.map((c) => escapeCell(c.header)).join(" | ")} |`;
  const rule = `|${columns.map((c) => (c.align === "right" ? "---:" : ":---")).join("|")}|`;
  return [header, rule, ...records.map((record) => `| ${columns.map((c) => escapeCell(c.cell(record, records[0]))).join(" | ")} |`)];
}

export function formatMarkdown(run: BenchRun): string {
  const environment = describeEnvironment(run.environment).map((line) => `- ${line}`);
  const incomplete = run.incomplete
    ? [`**Incomplete:** interrupted by ${run.incomplete.signal} after ${run.records.length} of ${run.incomplete.rowsPlanned} rows.`, ""]
    : [];
  return ["# sudoku-wasm benchmark", "", ...incomplete, ...environment, "", ...markdownTable(MARKDOWN_COLUMNS, run.records), ""].join("\n");
}

export const CSV_FIELDS: readonly (keyof BenchRecord)[] = [
  "dataset",
  "solver",
  "mode",
  "row",
  "datasetSize",
  "selected",
  "puzzles",
  "timeouts",
  "limit",
  "effectiveLimit",
  "batchCall",
  "samples",
  "puzzlesPerSecond",
  "meanMicros",
  "p50Micros",
  "p99Micros",
  "rmePercent",
  "guessesPerPuzzle",
  "noGuessPercent",
  "reference",
  "speedup",
  "comparedOn",
  "threads",
  "cpuPerWall",
  "peakRssMb",
];

/** The records as CSV (CSV_FIELDS), each line ending with `extra`'s values under its fields (the run's, the same on every line). */
export function formatCsv(
  records: readonly BenchRecord[],
  extra: { fields: readonly string[]; values: readonly (string | null)[] } = { fields: [], values: [] },
): string {
  const cell = (value: BenchRecord[keyof BenchRecord]) =>
    csvField(value === undefined || value === null || typeof value === "number" ? (value ?? null) : String(value));
  const after = extra.values.map((value) => csvField(value));
  const header = [...CSV_FIELDS, ...extra.fields].join(",");
  return [header, ...records.map((record) => [...CSV_FIELDS.map((field) => cell(record[field])), ...after].join(","))].join("\n") + "\n";
}
