/**
 * The CSV writer: a header of every record field, then one line per record with raw
 * numbers (empty cells for n/a), RFC 4180 quoting.
 */
import type { BenchRecord } from "../records.js";

/** Record fields in column order. */
export const CSV_FIELDS: readonly (keyof BenchRecord)[] = [
  "dataset", "solver", "mode", "row", "datasetSize", "selected", "puzzles", "timeouts", "limit", "effectiveLimit",
  "batchCall", "samples", "puzzlesPerSecond", "meanMicros", "p50Micros", "p99Micros", "rmePercent",
  "guessesPerPuzzle", "noGuessPercent", "reference", "speedup", "comparedOn", "threads", "cpuPerWall",
];

/** One CSV cell: null is empty; text with a comma, quote or line break is quoted. */
function csvCell(value: BenchRecord[keyof BenchRecord]): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The records as CSV text. */
export function formatCsv(records: readonly BenchRecord[]): string {
  const lines = [CSV_FIELDS.join(","), ...records.map((record) => CSV_FIELDS.map((field) => csvCell(record[field])).join(","))];
  return lines.join("\n") + "\n";
}
