/**
 * `csv` output: a header, then one row per record with jsonl's columns, empty fields for null.
 * Fields holding a comma, a quote or a line end are quoted (RFC 4180); a text field a spreadsheet
 * would evaluate as a formula (starting `=`, `+`, `-`, `@`, tab, CR) gets a leading `'` and quotes
 * (OWASP's CSV-injection advice).
 */
import { type ByteOutput, NINE_CELLS, type OutputRecord, STATUS_WORDS, Piece } from "./bytes.js";
import { type RecordWriter, outputFormat } from "./format.js";

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

/** True for the first byte of a field that {@link FORMULA_START} defuses. */
function formulaStart(byte: number): boolean {
  return byte === 61 || byte === 43 || byte === 45 || byte === 64 || byte === 9 || byte === 13; // = + - @ tab CR
}

const COMMA = 44;
const QUOTE = 34;
const APOSTROPHE = 39;
const LINE_END = 10;
/** The most bytes a row writes between two pieces of text: commas, numbers, 81 cells defused, 81 digits. */
const ROOM = 256;

/** The file's name of a row as csv writes it, with the commas around it (also what the 9×9 kernel is given to write its rows). */
export function csvFilePiece(file: string): string {
  return `,${csvField(file)},`;
}

class CsvWriter implements RecordWriter {
  /** `,NAME,`, made once. */
  private readonly file: Piece;

  constructor(file: string) {
    this.file = new Piece(csvFilePiece(file));
  }

  write(out: ByteOutput, record: OutputRecord): void {
    out.room(ROOM + this.file.bytes.length);
    out.number(record.index);
    out.put(this.file);
    out.number(record.line);
    out.byte(COMMA);
    if (record.puzzle === null) {
      const defused = formulaStart(record.puzzleBytes[record.puzzleAt]);
      if (defused) {
        out.byte(QUOTE);
        out.byte(APOSTROPHE);
      }
      out.copy(record.puzzleBytes, record.puzzleAt, NINE_CELLS);
      if (defused) out.byte(QUOTE);
    } else {
      out.text(csvField(record.puzzle));
      out.room(ROOM);
    }
    out.byte(COMMA);
    out.put(STATUS_WORDS[record.status]);
    out.byte(COMMA);
    if (record.solutionBytes !== null) out.copy(record.solutionBytes, record.solutionAt, NINE_CELLS);
    else if (record.solution !== null) {
      out.text(csvField(record.solution));
      out.room(ROOM);
    }
    out.byte(COMMA);
    out.number(record.count);
    out.byte(COMMA);
    if (record.guesses !== null) out.number(record.guesses);
    out.byte(COMMA);
    if (record.error !== null) {
      out.text(csvField(record.error));
      out.room(1);
    }
    out.byte(LINE_END);
  }
}

export const csvOutput = outputFormat("csv", "index,file,line,puzzle,status,solution,count,guesses,error\n", (file) => new CsvWriter(file));
