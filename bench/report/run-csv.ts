/**
 * The bench's CSV export (`--csv`): the records' columns (format.ts) and, on every line, what the JSON export holds once
 * for the run: the CPU, the commit measured, and whether the run was stopped before its end. A spreadsheet or CSV
 * reader then keeps them with each row, with no line that is not a record.
 */
import { csvField } from "../../src/formats/output/format.js";
import type { BenchRun } from "../records.js";
import { cpuName, formatCsv } from "./format.js";

/** The columns added after the records' own (format.ts's CSV_FIELDS). */
export const RUN_CSV_FIELDS = ["cpu", "commit", "incomplete"] as const;

/** "SIGINT: 3 of 10 rows" for a run stopped before its end; empty for a whole run. */
export function incompleteMark(run: BenchRun): string {
  return run.incomplete ? `${run.incomplete.signal}: ${run.records.length} of ${run.incomplete.rowsPlanned} rows` : "";
}

/** The run as CSV: a header, then one line a record, each ending with the run's CPU, commit and incomplete mark. */
export function formatRunCsv(run: BenchRun): string {
  const header = formatCsv([]).replace(/\n$/, "");
  const extra = "," + [cpuName(run.environment), run.environment.commit, incompleteMark(run)].map((value) => csvField(value === "" ? null : value)).join(",");
  // each record alone, so that a quoted field holding a line break stays whole: its line is what follows the header
  const lines = run.records.map(
    (record) =>
      formatCsv([record])
        .slice(header.length + 1)
        .replace(/\n$/, "") + extra,
  );
  return [`${header},${RUN_CSV_FIELDS.join(",")}`, ...lines].join("\n") + "\n";
}
