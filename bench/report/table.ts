/**
 * The terminal writer: the environment header, then one aligned table per dataset
 * (columns from format.ts), as plain text. Its table writer (tableLines, alignRows) also
 * writes the profiler's tables (profile/table.ts).
 */
import type { BenchRecord } from "../records.js";
import { COLUMNS, type Column, describeDataset, groupByDataset } from "./format.js";

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
