/**
 * The Markdown writer: the environment as a list, then one table with a row per record
 * (a dataset column, then the columns of format.ts).
 */
import type { BenchRun } from "../records.js";
import { COLUMNS, type Column, describeEnvironment } from "./format.js";

const MARKDOWN_COLUMNS: readonly Column[] = [
  { header: "dataset", align: "left", cell: (r) => r.dataset },
  { header: "puzzles", align: "right", cell: (r) => `${r.puzzles}` },
  ...COLUMNS,
];

/** Escapes the characters that would break a table cell. */
function escapeCell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|");
}

/** The whole run as a Markdown document. */
export function formatMarkdown(run: BenchRun): string {
  const header = `| ${MARKDOWN_COLUMNS.map((c) => c.header).join(" | ")} |`;
  const rule = `|${MARKDOWN_COLUMNS.map((c) => (c.align === "right" ? "---:" : ":---")).join("|")}|`;
  const rows = run.records.map((record) => `| ${MARKDOWN_COLUMNS.map((c) => escapeCell(c.cell(record, run.records[0]))).join(" | ")} |`);
  const environment = describeEnvironment(run.environment).map((line) => `- ${line}`);
  const incomplete = run.incomplete
    ? [`**Incomplete:** interrupted by ${run.incomplete.signal} after ${run.records.length} of ${run.incomplete.rowsPlanned} rows.`, ""]
    : [];
  return ["# sudoku-wasm benchmark", "", ...incomplete, ...environment, "", header, rule, ...rows, ""].join("\n");
}
