/**
 * The CSV writer: a header of every record field, then one line per record with raw
 * numbers (empty cells for n/a), RFC 4180 quoting; text a spreadsheet would read as a formula
 * (a dataset named `=x.txt`) is defused as in the CLI's `csv` output.
 */
import { csvField } from "../../src/formats/output/csv.js";
import type { BenchRecord } from "../records.js";

/** Record fields in column order. */
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

/** One CSV cell, written as the CLI's `csv` output writes a field; null is empty, other values as text. */
function csvCell(value: BenchRecord[keyof BenchRecord]): string {
  if (value === undefined) return csvField(null);
  return csvField(value === null || typeof value === "number" ? value : String(value));
}

/** The records as CSV text. */
export function formatCsv(records: readonly BenchRecord[]): string {
  const lines = [CSV_FIELDS.join(","), ...records.map((record) => CSV_FIELDS.map((field) => csvCell(record[field])).join(","))];
  return lines.join("\n") + "\n";
}
