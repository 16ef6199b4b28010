/**
 * The output formats (`--out`): what each writes. Records are written as bytes by the 9×9 kernel (assembly/text.ts
 * writeRecords) on the thread that solved them, so the main thread only concatenates.
 *
 *   line   per record the N² symbols of the solution when there is exactly one, else the status
 *          word alone (with `--limit 1` a solution is printed without proof that it is unique)
 *   jsonl  one JSON object per line, `index` (0-based in the run), `file`, `line` (1-based),
 *          `puzzle` (as read), `status`, `solution` (or null), `count`, `guesses` (or null) and
 *          `error` (or null): JSON.stringify's bytes for that object
 *   csv    a header, then one row per record with jsonl's columns, empty fields for null; fields
 *          holding a comma, a quote or a line end are quoted (RFC 4180); a text field a
 *          spreadsheet would evaluate as a formula (starting `=`, `+`, `-`, `@`, tab, CR) gets a
 *          leading `'` and quotes (OWASP's CSV-injection advice)
 *   grid   the solution as N lines of N symbols, then a blank line; without exactly one
 *          solution, the status word (for `invalid` and `error`, the reason, escaped) on one line, then the
 *          blank line, so a blank line always ends a record (`merge` and `--resume` count by them)
 */
import { escapeText } from "../../model/excerpt.js";

/** Output format names for `--out`. */
export const OUTPUT_FORMATS = ["line", "grid", "jsonl", "csv"] as const;
export type OutputFormatName = (typeof OUTPUT_FORMATS)[number];

/** What the kernel's writer is given for a format: the file's name and a host-worded record's fields, encoded as the format prints them. */
export interface KernelFormat {
  /** The file's name with what stands around it, between a record's index and its line. */
  piece(file: string): string;
  puzzle(text: string): string | null;
  solution(solution: string): string | null;
  /** A guess count that is not null. */
  guesses(guesses: number): string | null;
  error(error: string): string | null;
}

export interface OutputFormat {
  /** Written once before the first record ("" for none). */
  readonly header: string;
  /** What the kernel's writer is given for this format. */
  readonly kernel: KernelFormat;
}

const none = (): null => null;

const lineOutput: OutputFormat = {
  header: "",
  kernel: { piece: () => "", puzzle: none, solution: (solution) => solution, guesses: none, error: none },
};

const jsonlOutput: OutputFormat = {
  header: "",
  kernel: {
    piece: (file) => `,"file":${JSON.stringify(file)},"line":`,
    puzzle: (text) => JSON.stringify(text),
    solution: (solution) => JSON.stringify(solution),
    guesses: (guesses) => (Number.isFinite(guesses) ? String(guesses) : null), // JSON has no NaN
    error: (error) => JSON.stringify(error),
  },
};

const NEEDS_QUOTES = /[",\r\n]/;
/** First characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection). */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field; numbers are written as they are, text that could be a formula is defused. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  if (FORMULA_START.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const csvOutput: OutputFormat = {
  header: "index,file,line,puzzle,status,solution,count,guesses,error\n",
  kernel: {
    piece: (file) => `,${csvField(file)},`,
    puzzle: csvField,
    solution: csvField,
    guesses: String, // an empty field when null
    error: csvField,
  },
};

/** The N rows of a solution of N² symbols, each row's symbols joined by `separator`. */
export function solutionRows(solution: string, separator = ""): string[] {
  const size = Math.round(Math.sqrt(solution.length));
  return Array.from({ length: size }, (_, row) => [...solution.slice(row * size, (row + 1) * size)].join(separator));
}

const gridOutput: OutputFormat = {
  header: "",
  kernel: {
    piece: () => "",
    puzzle: none,
    solution: (solution) => solutionRows(solution).join("\n"), // the kernel ends the last row and adds the blank line
    guesses: none,
    error: (error) => `: ${escapeText(error)}`,
  },
};

export const outputFormats: Readonly<Record<OutputFormatName, OutputFormat>> = {
  line: lineOutput,
  grid: gridOutput,
  jsonl: jsonlOutput,
  csv: csvOutput,
};
