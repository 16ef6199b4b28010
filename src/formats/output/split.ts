/**
 * Where the records of an output file end, read back as bytes, and the place a jsonl or csv record
 * carries: what `--resume` counts and checks and `merge` interleaves and checks. Every delimiter is ASCII, so bytes are scanned as they are (UTF-8 is
 * never cut inside a character) and records are copied byte for byte.
 *
 *   line, jsonl   one record per line (JSON escapes its line ends)
 *   grid          a record ends with an empty line (N rows or one status line, then "\n")
 *   csv           a header line, then one record per line end outside double quotes (RFC 4180)
 */
import { readSync } from "node:fs";
import type { OutputFormatName } from "./format.js";
import type { RecordPlace } from "../record.js";

const NEWLINE = 10;
const QUOTE = 34;
const CHUNK_BYTES = 1 << 20;

/** Reads the records of one output file, a chunk at a time. */
export class OutputRecordReader {
  /** Bytes read so far. */
  size = 0;
  /** The offset just past the last complete record read, or past the csv header before any (0 before either). */
  complete = 0;
  private quoted = false;
  private lineStart = true;
  private headerLeft: boolean;

  constructor(private readonly format: OutputFormatName) {
    this.headerLeft = format === "csv";
  }

  /**
   * The complete records of the open file `fd`, read from its start a chunk at a time (a csv header
   * left out): per chunk that ends some, a buffer, new for each, and `bounds`, where in it the first
   * record starts and each ends. Bytes past {@link complete} at the end are a cut-off record.
   */
  *chunks(fd: number): Generator<{ buffer: Buffer; bounds: number[] }, void, undefined> {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let rest = Buffer.alloc(0); // the bytes read past `complete`
    for (let read: number; (read = readSync(fd, chunk, 0, CHUNK_BYTES, this.size)) > 0; ) {
      const from = this.size - rest.length; // the file offset of buffer[0]
      const buffer = Buffer.concat([rest, chunk.subarray(0, read)]);
      const ends = this.scan(chunk.subarray(0, read));
      if (ends.length > 0) {
        yield { buffer, bounds: [this.complete, ...ends].map((offset) => offset - from) };
        this.complete = ends[ends.length - 1];
      }
      rest = buffer.subarray(this.complete - from);
    }
  }

  /** The offsets just past each record that ends in `chunk`, the next bytes of the file, in order (the csv header ends none: it sets {@link complete}). */
  private scan(chunk: Uint8Array): number[] {
    const ends: number[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === QUOTE && this.format === "csv") this.quoted = !this.quoted; // "" toggles twice
      if (byte !== NEWLINE) {
        this.lineStart = false;
        continue;
      }
      if (this.quoted) continue;
      const end = this.size + i + 1;
      if (this.format === "grid") {
        if (this.lineStart) ends.push(end); // an empty line closes the grid
        this.lineStart = true;
      } else if (this.headerLeft) {
        this.headerLeft = false;
        this.complete = end;
      } else ends.push(end);
    }
    this.size += chunk.length;
    return ends;
  }
}

/** Where a csv header puts the fields of a {@link RecordPlace}: column numbers, from 0. */
export type PlaceColumns = Record<keyof RecordPlace, number>;

/** The columns of `index`, `file` and `line` under csv header `header`. */
export function placeColumns(header: string): PlaceColumns {
  const names = header.trimEnd().split(",");
  return { index: names.indexOf("index"), file: names.indexOf("file"), line: names.indexOf("line") };
}

/** The {@link RecordPlace} jsonl or csv record `text` carries (csv: in `columns`, a quoted file name as written); NaN and "" for what it lacks. */
export function recordPlace(text: string, format: "jsonl" | "csv", columns: PlaceColumns): RecordPlace {
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
