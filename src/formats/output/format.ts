/**
 * The output formats (`--out`): what each writes, and the bytes they are written into. Records
 * are written as bytes, never to a stream, so workers write their own batches and the main thread
 * only concatenates: `line`, `jsonl` and `csv` by the 9×9 kernel (assembly/text.ts writeRecords),
 * from a batch's results and what each format's {@link KernelFormat} gives it for a file and for
 * a record the host words; `grid` by its {@link RecordWriter}, into a {@link ByteOutput}.
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
 *          solution, the status word (for `invalid`, the reason, escaped) on one line, then the
 *          blank line, so a blank line always ends a record (`merge` and `--resume` count by them)
 */
import { escapeText } from "../../model/excerpt.js";
import { CELLS, SIZE } from "../../model/shape.js";
import { STATUSES, type SolveRecord, type Status, grown } from "../../solvers/solver.js";

/** Output format names for `--out`. */
export const OUTPUT_FORMATS = ["line", "grid", "jsonl", "csv"] as const;
export type OutputFormatName = (typeof OUTPUT_FORMATS)[number];

/** Writes records in one format (`grid`). */
export interface RecordWriter {
  /** Writes `record` with its line end. */
  write(out: ByteOutput, record: OutputRecord): void;
}

/**
 * What the kernel's writer is given for a format: the file's name as the format writes it, and
 * the variable fields of a record the host solved or worded, encoded as the format prints them
 * (null: none, printed `null` in jsonl, an empty field in csv).
 */
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
  /** The kernel writes this format's records (line, jsonl, csv). */
  readonly kernel?: KernelFormat;
  /** The host's writer of its records (grid). */
  readonly writer?: RecordWriter;
}

/** Fills `into` with a record solved as `result`; returns it. */
export function fillRecord(into: OutputRecord, result: SolveRecord): OutputRecord {
  into.status = result.status;
  into.solution = result.solution;
  into.solutionBytes = null;
  into.error = result.error ?? null;
  return into;
}

/** One record to write, filled anew for each. The solution is text, or bytes when the text is null (fast 9×9 records). */
export interface OutputRecord {
  status: Status;
  /** The first solution found, as text, or null: its 81 digits in `solutionBytes` from `solutionAt`, or (that null too) none. */
  solution: string | null;
  solutionBytes: Uint8Array | null;
  solutionAt: number;
  /** Why the record is invalid or failed, or null. */
  error: string | null;
}

export function outputRecord(): OutputRecord {
  return { status: "solved", solution: null, solutionBytes: null, solutionAt: 0, error: null };
}

/**
 * The `count` 9×9 solutions of `cells` (81 cells each, 1–9) as their digits, in `into` when it
 * has room (else in a new array, returned): four cells at a time.
 */
export function solutionDigits(cells: Uint8Array, count: number, into: Uint8Array): Uint8Array {
  const length = count * CELLS;
  const room = Math.ceil(length / 4) * 4;
  const digits = into.length >= room && into.byteOffset % 4 === 0 ? into : new Uint8Array(room);
  digits.set(cells.subarray(0, length));
  // Each byte masked to 4 bits first (a cell is at most 9; the bytes of a puzzle without a solution are undefined): no carry.
  const words = new Uint32Array(digits.buffer, digits.byteOffset, room / 4);
  for (let w = 0; w < words.length; w++) words[w] = ((words[w] & 0x0f0f0f0f) + 0x30303030) >>> 0;
  return digits;
}

const encoder = new TextEncoder();

/** Bytes written one piece after another into a buffer that grows as needed ({@link room} for a record's fixed-size pieces at once). */
export class ByteOutput {
  /** Bytes written: `bytes[0 .. at)`. */
  at = 0;

  constructor(private buffer: Uint8Array = new Uint8Array(256)) {}

  /** Room for `n` more bytes. */
  room(n: number): void {
    if (this.at + n > this.buffer.length) this.buffer = grown(this.buffer, this.at + n);
  }

  /** The bytes written so far (a view). */
  written(): Uint8Array {
    return this.buffer.subarray(0, this.at);
  }

  /** One byte (room made first). */
  byte(value: number): void {
    this.buffer[this.at++] = value;
  }

  /** `length` bytes of `from` from `start` (room made first). */
  copy(from: Uint8Array, start: number, length: number): void {
    const buffer = this.buffer;
    for (let i = 0; i < length; i++) buffer[this.at + i] = from[start + i];
    this.at += length;
  }

  /** Text in UTF-8 (makes its own room). */
  text(text: string): void {
    this.room(text.length * 3);
    this.at += encoder.encodeInto(text, this.buffer.subarray(this.at)).written;
  }
}

/** The status words, in UTF-8. */
export const STATUS_WORDS = Object.fromEntries(STATUSES.map((status) => [status, encoder.encode(status)])) as Readonly<Record<Status, Uint8Array>>;

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
const FORMULA_START = /^[=+\-@\t\r]/;

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

const gridWriter: RecordWriter = {
  write(out: ByteOutput, record: OutputRecord): void {
    if (record.status !== "solved") {
      out.room(16);
      const word = STATUS_WORDS[record.status];
      out.copy(word, 0, word.length);
      if (record.error) out.text(": " + escapeText(record.error));
      out.room(1);
      out.byte(10);
    } else if (record.solutionBytes !== null) {
      out.room(SIZE * (SIZE + 1)); // a 9×9 solution given as digits, one row a line
      for (let row = 0; row < SIZE; row++) {
        out.copy(record.solutionBytes, record.solutionAt + row * SIZE, SIZE);
        out.byte(10);
      }
    } else {
      const solution = record.solution!;
      const size = Math.round(Math.sqrt(solution.length));
      let text = "";
      for (let row = 0; row < size; row++) text += solution.slice(row * size, (row + 1) * size) + "\n";
      out.text(text);
    }
    out.room(1);
    out.byte(10); // the blank line that ends every record
  },
};

const gridOutput: OutputFormat = { header: "", writer: gridWriter };

export const outputFormats: Readonly<Record<OutputFormatName, OutputFormat>> = {
  line: lineOutput,
  grid: gridOutput,
  jsonl: jsonlOutput,
  csv: csvOutput,
};
