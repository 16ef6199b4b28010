/**
 * Runs split over machines and runs that go on where they stopped: `--shard K/N` takes the records
 * whose index (over all inputs) is K mod N; `--resume -o FILE` counts FILE's complete records
 * ({@link resumePoint}; a cut-off last one is removed), skips as many and appends, the last jsonl or
 * csv record carrying the index expected; {@link resumeCommand} is the command that goes on.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { basename } from "node:path";
import { InvalidArgumentError } from "commander";
import { RecordEnds, foreignLineEnds, jsonlFields, outputFormatOf, placeColumns, recordPlace } from "../formats/output/split.js";
import { isWhole } from "../model/whole-number.js";
import { SHAPES } from "../model/shape.js";
import { FILE_CHUNK_BYTES } from "../stream/lines.js";
import { type OutputFormatName, csvField } from "../formats/output/format.js";
import type { RecordCheck } from "../pool/batch.js";

/** A `--resume` refused once the run is under way: the output's records are another run's (see {@link checkLastRecord}). */
export class ResumeRefused extends Error {}

/** A run's share of the records: index mod `count` = `index`. */
export interface Shard {
  index: number;
  count: number;
}

export const WHOLE_RUN: Shard = { index: 0, count: 1 };

/** A commander parser for `--shard K/N` (0 ≤ K < N). */
export function shardArgument(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || !isWhole(count, 1) || index >= count) {
    throw new InvalidArgumentError(`expected K/N with 0 ≤ K < N (e.g. 0/4 for the first of 4 shards), got '${text}'`);
  }
  return { index, count };
}

/** How far an earlier run got in its output file. */
export interface ResumePoint {
  /** Complete records in the file. */
  records: number;
  /** The bytes they take (with the csv header): the file is cut to this length. */
  bytes: number;
  /** The last complete record's text, or null. */
  last: string | null;
  /**
   * The bytes after them (a last record cut short, or none), which the resumed run cuts away: kept to be put back should
   * the resume be refused; null when over {@link CUT_KEPT} (no record is that long).
   */
  cut: Buffer | null;
}

/** The most bytes of a cut last record a {@link ResumePoint} keeps: a record is at most a line of a mebibyte, or a grid. */
const CUT_KEPT = 1 << 22;

/** The complete records of output file `path` in `format` (none when it is missing). */
export function resumePoint(path: string, format: OutputFormatName): ResumePoint {
  if (!existsSync(path)) return { records: 0, bytes: 0, last: null, cut: null };
  if (!statSync(path).isFile()) throw new Error(`--resume: ${path} is not a regular file`);
  const fd = openSync(path, "r");
  try {
    // its record ends, read a chunk at a time, keeping none
    const ends = new RecordEnds(format, `--resume: ${path}`);
    const buffer = Buffer.allocUnsafe(FILE_CHUNK_BYTES);
    let [records, lastStart, lastEnd, size] = [0, 0, 0, 0];
    for (let read: number; (read = readSync(fd, buffer, 0, FILE_CHUNK_BYTES, size)) > 0; size += read) {
      for (const end of ends.scan(buffer.subarray(0, read))) {
        [lastStart, lastEnd] = [records === 0 ? (ends.headerEnd ?? 0) : lastEnd, end];
        records++;
      }
    }
    const last = records === 0 ? null : Buffer.alloc(lastEnd - lastStart);
    if (last) readSync(fd, last, 0, last.length, lastStart);
    const bytes = records > 0 ? lastEnd : (ends.headerEnd ?? 0);
    const cut = size - bytes > CUT_KEPT ? null : Buffer.alloc(size - bytes);
    if (cut) readSync(fd, cut, 0, cut.length, bytes);
    return { records, bytes, last: last?.toString("utf8") ?? null, cut };
  } finally {
    closeSync(fd);
  }
}

/**
 * Throws unless output file `path` holds records of `format`, and in csv under this run's `header`: a
 * resumed run appends its own format and columns, which another's would have mixed into one file
 * (a header read as a record, rows of two widths, grid records counted as lines); jsonl records
 * must have this run's `fields` (its csv header's names). A missing or empty file passes.
 */
export function checkResumeFormat(path: string, format: OutputFormatName, header: string, fields: string): void {
  if (!existsSync(path) || !statSync(path).isFile()) return;
  const head = headOf(path).toString("utf8");
  if (head === "") return;
  const foreign = foreignLineEnds(head);
  if (foreign !== null) throw new Error(`--resume: ${path} ${foreign}`);
  const found = outputFormatOf(head);
  const firstLine = head.slice(0, head.includes("\n") ? head.indexOf("\n") : head.length);
  // (a csv header cut off by a stop before its line end is this run's, begun)
  // (grid records show their empty line from the first whole one on, so a grid file cut inside its first may look like line)
  const same =
    format === "csv"
      ? head.startsWith(header) || header.startsWith(head)
      : format === "grid"
        ? found === "grid" || (found === "line" && mayBeGrid(head, statSync(path).size))
        : found === format;
  // jsonl: the fields of its first record are this run's (solve's and canon's differ, and canon's by its options)
  const foundFields = format === "jsonl" && same ? jsonlFields(head) : null;
  if (same && (foundFields === null || foundFields === fields)) return;
  const holds =
    found === "csv" ? `the csv header ${JSON.stringify(firstLine)}` : foundFields !== null ? `jsonl records of the fields ${foundFields}` : `${found} records`;
  const writes = format === "csv" ? `the csv header ${JSON.stringify(header.trimEnd())}` : foundFields !== null ? `the fields ${fields}` : `${format} records`;
  throw new Error(`--resume: ${path} holds ${holds}, but this run writes ${writes}: go on with the --out and options of the run that wrote it`);
}

/**
 * Whether an output read as line records may be a grid output: it has an empty line (grid records
 * end with one; line records are never empty), or it is all in `head` (`size` bytes) and cut inside
 * its first grid: at most one whole line, or whole lines of one grid width, no more than the width
 * (all its rows, cut before the empty line that ends it).
 */
function mayBeGrid(head: string, size: number): boolean {
  if (head.includes("\n\n")) return true;
  if (Buffer.byteLength(head) < size) return false;
  const rows = head.split("\n").slice(0, -1); // whole lines only
  const width = rows[0]?.length ?? 0;
  return rows.length <= 1 || (rows.every((row) => row.length === width) && SHAPES.some((shape) => shape.size === width) && rows.length <= width);
}

/**
 * Checks the last record of a jsonl or csv output (line and grid records carry no place) against
 * this run's record `index`, the run's for the output's record `point.records - 1`: throws unless
 * it carries that index (another input or shard); returns the check of the file and line it
 * carries, made as the run reads that record (another input of as many records).
 */
export function checkLastRecord(path: string, format: OutputFormatName, point: ResumePoint, header: string, index: number): RecordCheck | undefined {
  if (point.last === null || (format !== "jsonl" && format !== "csv")) return undefined;
  const last = recordPlace(Buffer.from(point.last), format, placeColumns(header));
  if (last.index !== index) {
    throw new Error(
      `--resume: ${path} ends with record index ${last.index}, but this run's record ${point.records - 1} has index ${index}; was it written with other inputs or another --shard?`,
    );
  }
  return {
    index,
    check(file, line) {
      const written = format === "csv" ? csvField(file) : file;
      if (written === last.file && line === last.line) return;
      throw new ResumeRefused(
        `--resume: ${path} ends with line ${last.line} of ${last.file}, but this run's record ${index} is line ${line} of ${written}: was it written with other inputs?`,
      );
    },
  };
}

/** The first 64 KiB of the file at `path`: enough to tell an output's format, header and first record, or a binary file. */
export function headOf(path: string): Buffer {
  const fd = openSync(path, "r");
  try {
    const bytes = Buffer.alloc(1 << 16);
    return bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0));
  } finally {
    closeSync(fd);
  }
}

/** A word as a POSIX shell reads it back: bare when it is safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The words that ran this command as typed: `npx sudoku-wasm` under npx, `sudoku-wasm` installed, else `node SCRIPT`. */
export function invocation(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): string[] {
  const script = argv[1] ?? "";
  if (basename(script) !== "sudoku-wasm") return ["node", script];
  return env.npm_command === "exec" ? ["npx", "sudoku-wasm"] : ["sudoku-wasm"];
}

/** The command that goes on after an interrupt: the command as it was run ({@link invocation}) with the same arguments, plus `--resume`. */
export function resumeCommand(args: readonly string[], run: readonly string[] = invocation()): string {
  const words = args.includes("--resume") ? args : [...args, "--resume"];
  return [...run, ...words].map(shellWord).join(" ");
}
