/**
 * `csv` output: a header, then one row per record with jsonl's columns, empty fields for null.
 * Fields holding a comma, a quote or a line end are quoted (RFC 4180); a text field a spreadsheet
 * would evaluate as a formula (starting `=`, `+`, `-`, `@`, tab, CR) gets a leading `'` and quotes
 * (OWASP's CSV-injection advice). The 9×9 kernel writes the rows (assembly/text.ts); this is what
 * it is given for a file and for a record the host words.
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

export const csvOutput: OutputFormat = {
  name: "csv",
  header: "index,file,line,puzzle,status,solution,count,guesses,error\n",
  kernel: {
    piece: (file) => `,${csvField(file)},`,
    puzzle: csvField,
    solution: csvField,
    guesses: String, // an empty field when null
    error: csvField,
  },
};
