/**
 * The Markdown writer: the bench's run (the environment as a list, then one table with a row per
 * record: a dataset column, then the columns of format.ts), and the table writer beneath it that
 * kernel-vs's table goes through too.
 */
import type { BenchRun } from "../records.js";
import { COLUMNS, type Column, describeEnvironment } from "./format.js";

/** The columns of the bench's Markdown table: the dataset and its puzzles, then the terminal table's. */
export const MARKDOWN_COLUMNS: readonly Column[] = [
  { header: "dataset", align: "left", cell: (r) => r.dataset },
  { header: "puzzles", align: "right", cell: (r) => `${r.puzzles}` },
  ...COLUMNS,
];

/** Escapes the characters that would break a table cell. */
function escapeCell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|");
}

/** A Markdown table of `records`: the header, the alignment rule, one line per record. */
export function markdownTable<R>(columns: readonly Column<R>[], records: readonly R[]): string[] {
  const header = `| ${columns.map((c) => escapeCell(c.header)).join(" | ")} |`;
  const rule = `|${columns.map((c) => (c.align === "right" ? "---:" : ":---")).join("|")}|`;
  return [header, rule, ...records.map((record) => `| ${columns.map((c) => escapeCell(c.cell(record, records[0]))).join(" | ")} |`)];
}

/** The whole run as a Markdown document. */
export function formatMarkdown(run: BenchRun): string {
  const environment = describeEnvironment(run.environment).map((line) => `- ${line}`);
  const incomplete = run.incomplete
    ? [`**Incomplete:** interrupted by ${run.incomplete.signal} after ${run.records.length} of ${run.incomplete.rowsPlanned} rows.`, ""]
    : [];
  return ["# sudoku-wasm benchmark", "", ...incomplete, ...environment, "", ...markdownTable(MARKDOWN_COLUMNS, run.records), ""].join("\n");
}
