/**
 * The terminal writer: the environment header, then one aligned table per dataset
 * (columns from format.ts), as plain text.
 */
import type { BenchRun } from "../records.js";
import { COLUMNS, type Column, describeDataset, describeEnvironment, groupByDataset } from "./format.js";

/** Pads every cell of a column to the column's widest cell; the first line is the headers. */
export function alignRows(columns: readonly Pick<Column, "header" | "align">[], rows: string[][]): string[] {
  const widths = columns.map((column, i) => Math.max(column.header.length, ...rows.map((row) => row[i].length)));
  const pad = (text: string, i: number) => (columns[i].align === "right" ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  return [columns.map((c) => c.header), ...rows].map((row) => row.map(pad).join("  ").trimEnd());
}

/** The whole run as a text table for the terminal. */
export function formatTable(run: BenchRun): string {
  const out = describeEnvironment(run.environment);
  for (const [, records] of groupByDataset(run.records)) {
    out.push("", describeDataset(records[0], run.environment.seed));
    out.push(...alignRows(COLUMNS, records.map((record) => COLUMNS.map((column) => column.cell(record)))));
  }
  return out.join("\n") + "\n";
}
