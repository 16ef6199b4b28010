/**
 * `csv` output: a header, then one row per record with the same columns as `jsonl`
 * (`index,file,line,puzzle,status,solution,count,guesses,error`; status as in jsonl, `timeout`
 * included); empty fields for null.
 * Fields holding a comma, a quote or a line end are quoted (RFC 4180). A text field that a
 * spreadsheet would evaluate as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) gets a leading `'` and quotes, as OWASP's CSV-injection advice says: the
 * spreadsheet shows the text and evaluates nothing (a puzzle with `-` empties reads `'-3-…`).
 */
import type { OutputFormat } from "./format.js";

const NEEDS_QUOTES = /[",\r\n]/;
/** First characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field; numbers are written as they are, text that could be a formula is defused. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  if (FORMULA_START.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The `csv` writer. */
export const csvOutput: OutputFormat = {
  name: "csv",
  header: "index,file,line,puzzle,status,solution,count,guesses,error\n",
  format: (record, result) =>
    [record.index, record.file, record.line, record.text, result.status, result.solution, result.count, result.guesses, result.error].map(csvField).join(",") +
    "\n",
};
