/**
 * The bench's CSV export (`--csv`): the records' columns (format.ts) and, on every line, what the JSON export holds once
 * for the run: the CPU, the commit measured, and whether the run was stopped before its end. A spreadsheet or CSV
 * reader then keeps them with each row, with no line that is not a record.
 */
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
  const values = [cpuName(run.environment), run.environment.commit, incompleteMark(run)].map((value) => (value === "" ? null : value));
  return formatCsv(run.records, { fields: RUN_CSV_FIELDS, values });
}
