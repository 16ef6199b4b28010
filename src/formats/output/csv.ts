/**
 * `csv` output: a header, then one row per record with the same columns as `jsonl`
 * (`index,file,line,puzzle,status,solution,count,guesses,error`; status as in jsonl, `timeout`
 * included); empty fields for null.
 * Fields holding a comma, a quote or a line end are quoted (RFC 4180).
 */
import type { OutputFormat } from "./format.js";

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field. */
function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The `csv` writer. */
export const csvOutput: OutputFormat = {
  name: "csv",
  header: "index,file,line,puzzle,status,solution,count,guesses,error\n",
  format: (record, result) =>
    [record.index, record.file, record.line, record.text, result.status, result.solution, result.count, result.guesses, result.error]
      .map(csvField)
      .join(",") + "\n",
};
