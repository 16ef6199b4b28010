/**
 * Where the records of an output file end, read back as bytes: what `--resume` counts and
 * `merge` interleaves. Every delimiter is ASCII, so bytes are scanned as they are (UTF-8 is
 * never cut inside a character) and records are copied byte for byte.
 *
 *   line, jsonl   one record per line (JSON escapes its line ends)
 *   grid          a record ends with an empty line (N rows or one status line, then "\n")
 *   csv           a header line, then one record per line end outside double quotes (RFC 4180)
 *
 * No record is empty, so an empty line where a record would begin (in a grid file, one after no
 * rows) was not written by the CLI: the scan stops there with an error naming the line.
 */
import { type OutputFormatName, outputFormats } from "./format.js";
import type { RecordPlace } from "../record.js";
import { canonCsvHeader } from "./canon-csv.js";
import { shapeOfCells, shapeOfSide } from "../../model/shape.js";

const NEWLINE = 10;
const QUOTE = 34;

/** Finds the record ends of one output file, a chunk at a time. */
export class RecordEnds {
  /** Bytes scanned so far. */
  private offset = 0;
  private quoted = false;
  private lineStart = true;
  /** Line ends seen, inside csv quotes too: the file's line number of the last one. */
  private lines = 0;
  /** Rows of the grid record in progress. */
  private rows = 0;
  private headerLeft: boolean;
  /** Where the csv header ends, once it has (null before that, and for the other formats). */
  headerEnd: number | null = null;

  /** `name` introduces the file in an error (its path, or what the command says before it). */
  constructor(
    private readonly format: OutputFormatName,
    private readonly name: string,
  ) {
    this.headerLeft = format === "csv";
  }

  /** The file offsets just past each record that ends in `chunk`, in order. Throws at an empty line where a record would begin. */
  scan(chunk: Uint8Array): number[] {
    const ends: number[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === QUOTE && this.format === "csv") this.quoted = !this.quoted; // "" toggles twice
      if (byte !== NEWLINE) {
        this.lineStart = false;
        continue;
      }
      this.lines++;
      if (this.quoted) continue;
      const end = this.offset + i + 1;
      const empty = this.lineStart;
      this.lineStart = true;
      if (this.format === "grid") {
        if (!empty) {
          this.rows++;
          continue;
        }
        if (this.rows === 0) throw this.emptyLine("an empty line after no rows");
        ends.push(end); // an empty line closes the grid
        this.rows = 0;
      } else if (empty) {
        throw this.emptyLine("an empty line");
      } else if (this.headerLeft) {
        this.headerLeft = false;
        this.headerEnd = end;
      } else ends.push(end);
    }
    this.offset += chunk.length;
    return ends;
  }

  private emptyLine(what: string): Error {
    return new Error(
      `${this.name} line ${this.lines} is ${what}, which no ${this.format} output of sudoku-wasm holds: was the file edited? Remove that line and run again`,
    );
  }
}

/** The csv headers the CLI writes: solve's, and canon's with and without each optional column. */
export const KNOWN_CSV_HEADERS: readonly string[] = [
  outputFormats.csv.header,
  ...[false, true].flatMap((automorphisms) => [false, true].map((minimal) => canonCsvHeader({ automorphisms, minimal }))),
];

/**
 * The format of an output file told from its first bytes: csv by a known header, jsonl by '{', grid when its empty lines end
 * grid records and what follows the last is a grid begun, else line.
 */
export function outputFormatOf(text: string): OutputFormatName {
  if (KNOWN_CSV_HEADERS.some((header) => text.startsWith(header))) return "csv";
  if (text.startsWith("{")) return "jsonl";
  const lines = text.split("\n");
  lines.pop(); // after the last line end: a line cut off, or nothing
  const blocks: string[][] = [[]];
  for (const line of lines) {
    if (line === "") blocks.push([]);
    else blocks.at(-1)!.push(line);
  }
  const rest = blocks.pop()!; // the record begun after the last empty line
  const records = blocks.filter((block) => block.length > 0); // (an empty line after another is an edit, named when the records are counted)
  if (records.length === 0 || !records.every(isGridRecord)) return "line";
  const begun = shapeOfSide(rest[0]?.length ?? 0) !== undefined && rest.every((row) => row.length === rest[0].length) && rest.length < rest[0].length;
  return rest.length === 0 || begun || (rest.length === 1 && isGridRecord(rest)) ? "grid" : "line";
}

/** Whether `rows` are one grid record: N rows of N symbols, or a status line (not a line record's solution, nor `invalid` or `error` alone). */
function isGridRecord(rows: readonly string[]): boolean {
  if (rows.length > 1) return shapeOfSide(rows.length) !== undefined && rows.every((row) => row.length === rows.length);
  const [line] = rows;
  return (shapeOfCells(line.length) === undefined || /\s/.test(line)) && line !== "invalid" && line !== "error";
}

/** Where a csv header puts the fields of a {@link RecordPlace}: column numbers, from 0. */
export type PlaceColumns = Record<keyof RecordPlace, number>;

/** The columns of `index`, `file` and `line` under csv header `header`. */
export function placeColumns(header: string): PlaceColumns {
  const names = header.trimEnd().split(",");
  return { index: names.indexOf("index"), file: names.indexOf("file"), line: names.indexOf("line") };
}

/** The {@link RecordPlace} a jsonl or csv record carries (csv: in `columns`, a quoted file name as written); NaN and "" for what it lacks. */
export function recordPlace(record: Buffer, format: "jsonl" | "csv", columns: PlaceColumns): RecordPlace {
  const text = record.toString("utf8");
  if (format === "csv") {
    const fields = csvLeadingFields(text, Math.max(columns.index, columns.file, columns.line) + 1);
    return { index: Number(fields[columns.index]), file: fields[columns.file], line: Number(fields[columns.line]) };
  }
  try {
    const { index, file, line } = JSON.parse(text) as RecordPlace;
    return { index, file: String(file), line };
  } catch {
    return { index: NaN, file: "", line: NaN };
  }
}

/** The first `count` fields of csv row `text`, each as written (a quoted one with its quotes); "" for fields it lacks. */
function csvLeadingFields(text: string, count: number): string[] {
  const fields: string[] = [];
  let at = 0;
  while (fields.length < count) {
    let end = at;
    if (text[at] === '"') {
      for (end = at + 1; end < text.length; end++) {
        if (text[end] === '"' && text[++end] !== '"') break; // a closing quote; `""` is one quote inside
      }
    }
    end = text.indexOf(",", end);
    if (end < 0) end = text.length;
    fields.push(text.slice(at, end));
    at = end + 1;
  }
  return fields;
}

/** The field names of the jsonl record on the first line of `text`, joined by commas (a csv header's form); null when that line is no whole record. */
export function jsonlFields(text: string): string | null {
  const end = text.indexOf("\n");
  if (end < 0) return null;
  try {
    return Object.keys(JSON.parse(text.slice(0, end)) as object).join(",");
  } catch {
    return null;
  }
}

/** Why an output file whose first bytes are `text` cannot be read as this CLI's output (its first line ends with `\r\n`: converted for Windows), or null. */
export function foreignLineEnds(text: string): string | null {
  const end = text.indexOf("\n");
  return end > 0 && text[end - 1] === "\r" ? "has CRLF line ends (\\r\\n), not the \\n sudoku-wasm writes: convert it back first (e.g. dos2unix)" : null;
}
