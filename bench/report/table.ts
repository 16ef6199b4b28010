/**
 * The terminal writer: the environment header, then one aligned table per dataset
 * (columns from format.ts), as plain text.
 */
import type { BenchRecord, BenchRun } from "../records.js";
import { COLUMNS, type Column, describeDataset, describeEnvironment, groupByDataset } from "./format.js";

/** Pads every cell of a column to the column's widest cell; the first line is the headers. */
export function alignRows(columns: readonly Pick<Column, "header" | "align">[], rows: string[][]): string[] {
  const widths = columns.map((column, i) => Math.max(column.header.length, ...rows.map((row) => row[i].length)));
  const pad = (text: string, i: number) => (columns[i].align === "right" ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  return [columns.map((c) => c.header), ...rows].map((row) => row.map(pad).join("  ").trimEnd());
}

/** One full table per dataset (the --wide view), each headed by its dataset line. */
export function formatTables(records: readonly BenchRecord[], seed: number): string[] {
  const out: string[] = [];
  for (const [, group] of groupByDataset(records)) {
    out.push("", describeDataset(group[0], seed));
    out.push(...alignRows(COLUMNS, group.map((record) => COLUMNS.map((column) => column.cell(record)))));
  }
  return out;
}

/** The whole run as a text table for the terminal. */
export function formatTable(run: BenchRun): string {
  return [...describeEnvironment(run.environment), ...formatTables(run.records, run.environment.seed)].join("\n") + "\n";
}
