/**
 * `sudoku-wasm merge SHARD0 … SHARD(N-1)`: joins the outputs of `solve --shard K/N` or `canon
 * --shard K/N` into the one-run output, byte for byte: shard K holds records K, K+N, … in order, so
 * one record from each file in turn restores the run's order (a csv header once, the same in every
 * shard). The shards must be given in order, in one format; jsonl and csv records must carry the
 * index expected. Line and grid records carry none: their counts are checked (shard K of T records
 * holds ⌈(T−K)/N⌉), which finds a shard cut short but not one missing or reordered when the counts fit.
 */
import { chmodSync, closeSync, openSync, readSync, realpathSync, rmSync, statSync } from "node:fs";
import type { Writable } from "node:stream";
import type { Command } from "commander";
import { OUTPUT_FORMATS, type OutputFormatName, outputFormats } from "../formats/output/format.js";
import { KNOWN_CSV_HEADERS, RecordEnds, foreignLineEnds, jsonlFields, outputFormatOf, placeColumns, recordPlace } from "../formats/output/split.js";
import { InputReadError, stopBeforeStreamExit } from "../cli-kit/errors.js";
import { InterruptWatch } from "../cli-kit/progress.js";
import { type OptionRow, tableCommand } from "../cli-kit/options.js";
import { closeOutput, openOutput } from "../cli-kit/output.js";
import { isLocked, lockOutput } from "../cli-kit/output-lock.js";
import { checkOutputIsNoInput } from "../cli-kit/same-file.js";
import { headOf } from "../cli-kit/resume.js";
import { readRunRecord, removeRunRecord, shownRunRecordPath } from "../cli-kit/run-record.js";
import { commaGrouped, counted } from "../model/whole-number.js";
import { FILE_CHUNK_BYTES } from "../stream/lines.js";
import type { RecordPlace } from "../formats/record.js";

interface MergeFlags {
  output?: string;
  out: OutputFormatName | "auto";
}

const MERGE_OPTIONS: readonly OptionRow[] = [
  { flags: "-o, --output <file>", description: "write to FILE instead of standard output ('-o -' means standard output too)" },
  {
    flags: "--out <format>",
    description: "the --out format the shards were written in; auto tells csv by its header, jsonl by '{', grid by its empty lines, else line",
    default: "auto",
    choices: ["auto", ...OUTPUT_FORMATS],
  },
];

export function mergeCommand(): Command {
  const description = "join the outputs of `solve --shard K/N` or `canon --shard K/N` (given in shard order, K = 0 … N-1) into the output of one run";
  return tableCommand("merge", description, MERGE_OPTIONS)
    .argument("<shards...>", "the N shard outputs, shard 0 first")
    .action(async (files: string[], flags: MergeFlags) => runMerge(files, flags));
}

/** Bytes merged before they are written out. */
const WRITE_BYTES = 1 << 20;

/**
 * The records of a shard output, read a chunk at a time (a csv header left out); a cut-off last
 * record is an error. Each is a view of a chunk read for it, never reused, or, for a record
 * that spans chunks, of its own bytes, joined once when it ends.
 */
function* shardRecords(path: string, format: OutputFormatName): Generator<Buffer, void, undefined> {
  const fd = openShard(path);
  try {
    const ends = new RecordEnds(format, path);
    let position = 0; // the file offset of the chunk being read
    let recordStart = -1; // the file offset of the record in progress (-1: none ended yet)
    let held: Buffer[] = []; // its bytes, or before the first record all bytes, read in earlier chunks, from `heldStart`
    let heldStart = 0;
    for (
      let read: number, chunk: Buffer;
      (read = readSync(fd, (chunk = Buffer.allocUnsafe(FILE_CHUNK_BYTES)), 0, FILE_CHUNK_BYTES, position)) > 0;
      position += read
    ) {
      const bytes = chunk.subarray(0, read);
      for (const end of ends.scan(bytes)) {
        if (recordStart < 0) recordStart = ends.headerEnd ?? 0;
        if (recordStart >= position) yield bytes.subarray(recordStart - position, end - position);
        else yield Buffer.concat([...held, bytes.subarray(0, end - position)]).subarray(recordStart - heldStart);
        held = [];
        recordStart = end;
      }
      if (recordStart >= position) [held, heldStart] = [[bytes.subarray(recordStart - position)], recordStart];
      else if (held.length === 0) [held, heldStart] = [[bytes], position];
      else held.push(bytes);
    }
    if (position > Math.max(recordStart, ends.headerEnd ?? 0))
      throw new Error(`${path} ends with a cut-off record: finish that shard (solve --resume) before merging`);
  } finally {
    closeSync(fd);
  }
}

/** Opens a shard output for reading; a failure names the file. */
function openShard(path: string): number {
  try {
    return openSync(path, "r");
  } catch (error) {
    throw new InputReadError(path, error);
  }
}

/** The first 64 KiB of a shard output, as text; a failure names the file. */
function shardHead(path: string): string {
  try {
    return headOf(path).toString("utf8");
  } catch (error) {
    throw new InputReadError(path, error);
  }
}

/**
 * The one format of the shards and their header: `given` (unless auto) and the first bytes of each
 * non-empty shard must agree, and csv shards start with the same header; an Error naming the first that differs.
 */
export function shardFormat(paths: readonly string[], given: OutputFormatName | "auto"): { format: OutputFormatName; header: string } {
  const heads = paths.map(shardHead);
  let format: OutputFormatName | null = given === "auto" ? null : given;
  let from = "--out";
  for (const [i, text] of heads.entries()) {
    if (text === "") continue;
    const foreign = text.startsWith("\uFEFF") ? "starts with a byte order mark, which sudoku-wasm does not write: remove it first" : foreignLineEnds(text);
    if (foreign !== null) throw new Error(`${paths[i]} ${foreign}`);
    const found = outputFormatOf(text);
    if (format !== null && found !== format) {
      throw new Error(
        `${paths[i]} holds ${found} records, but ${from === "--out" ? "--out says" : `${from} holds`} ${format}: give the N shards of one run, all written with the same --out`,
      );
    }
    if (format === null) [format, from] = [found, paths[i]];
  }
  if (format === "jsonl") {
    // one run's records have one set of fields: solve's and canon's differ, and canon's by its options
    let fields: string | null = null;
    for (const [i, text] of heads.entries()) {
      const found = jsonlFields(text);
      if (found === null) continue;
      if (fields !== null && found !== fields) {
        throw new Error(
          `${paths[i]} holds jsonl records of the fields ${found}, but ${from} holds ${fields}: give the N shards of one run, all written with the same options`,
        );
      }
      if (fields === null) [fields, from] = [found, paths[i]];
    }
  }
  if (format !== "csv") return { format: format ?? "line", header: outputFormats[format ?? "line"].header };
  let header: string | undefined;
  for (const [i, text] of heads.entries()) {
    const found = KNOWN_CSV_HEADERS.find((known) => text.startsWith(known)); // none for an empty shard: every other one is csv
    if (found === undefined) continue;
    if (header !== undefined && found !== header) {
      throw new Error(
        `${paths[i]} has the csv header ${JSON.stringify(found.trimEnd())}, but ${from} has ${JSON.stringify(header.trimEnd())}: give the N shards of one run, all written with the same options`,
      );
    }
    if (header === undefined) [header, from] = [found, paths[i]];
  }
  return { format, header: header ?? outputFormats.csv.header };
}

/**
 * The check, in merged order, that jsonl or csv records are one run's: each carries the index expected and follows the one
 * before in its input (a later line) or starts a reading of an input. It throws, naming the shard and its record, unless
 * `place` is the record at `index` of the run the records so far come from.
 */
function runOrder(paths: readonly string[]): (place: RecordPlace, index: number) => void {
  let previous: RecordPlace | undefined;
  const firstLines = new Map<string, number>(); // the first line of each input seen
  return (place, index) => {
    const n = paths.length;
    const where = () => `${paths[index % n]}: record ${Math.floor(index / n) + 1}`; // made only for an error
    const advice = "give the N shards of one run, shard 0 first";
    if (!Number.isSafeInteger(place.index) || !Number.isSafeInteger(place.line) || place.line < 1) {
      throw new Error(`${where()} is not a record sudoku-wasm writes (it carries no index, or no line of an input): was the file edited? ${advice}`);
    }
    if (place.index !== index) throw new Error(`${where()} has index ${place.index}, expected ${index}: ${advice}`);
    const before = previous;
    previous = place;
    if (before !== undefined && place.file === before.file && place.line > before.line) return;
    const first = firstLines.get(place.file);
    if (first === undefined) return void firstLines.set(place.file, place.line);
    if (place.line === first) return;
    throw new Error(
      `${where()} (index ${index}) is line ${place.line} of input ${place.file}, but the record before it is line ${before!.line} of ${before!.file}: ` +
        `not one run's records (shards of runs over other inputs?); ${advice}`,
    );
  };
}

/** What {@link mergeShards} throws when its `stop` signal aborts (SIGINT or SIGTERM). */
class MergeStopped extends Error {}

/** Merges the shard outputs `paths` (shard 0 first) into `out`; csv shards share `header` (see {@link shardFormat}). */
export async function mergeShards(paths: readonly string[], out: Writable, format: OutputFormatName, header: string, stop?: AbortSignal): Promise<number> {
  const files = paths.map((path) => shardRecords(path, format));
  const columns = placeColumns(header);
  const pieces: Buffer[] = [Buffer.from(header)];
  let pending = 0;
  let index = 0;
  const checkOrder = runOrder(paths);
  const flush = async (): Promise<void> => {
    const text = Buffer.concat(pieces);
    pieces.length = 0;
    pending = 0;
    if (text.length > 0 && !out.write(text)) await new Promise((resolve) => out.once("drain", resolve));
  };
  try {
    for (let next: IteratorResult<Buffer>; !(next = files[index % files.length].next()).done; index++) {
      if (stop?.aborted) throw new MergeStopped();
      const record: Buffer = next.value;
      if (format === "jsonl" || format === "csv") checkOrder(recordPlace(record, format, columns), index);
      pieces.push(record);
      pending += record.length;
      if (pending >= WRITE_BYTES) await flush();
    }
    // shard `ended` ran out: a shard with a record left holds more than its place beside it allows (or `ended` was cut short)
    const ended = index % files.length;
    const longer = files.findIndex((file) => !file.next().done);
    if (longer >= 0) {
      throw new Error(
        `${paths[ended]} ends after ${commaGrouped(Math.floor(index / files.length))} records, but ${paths[longer]} has more than its place beside it allows ` +
          `(shard K of N holds ⌈(T−K)/N⌉ of T records): one was cut short, or these are not the N shards of one run; give the N shards of one run, shard 0 first`,
      );
    }
    await flush();
    return index;
  } finally {
    for (const file of files) file.return();
  }
}

/** Throws unless every shard is a regular file (merge reads some twice) named once (by device and inode). */
function checkDistinctShards(paths: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const path of paths) {
    if (path === "-") throw new Error("merge reads shards from files, not standard input ('-'): save that shard to a file and name the file");
    let key: string;
    try {
      const stats = statSync(path);
      if (stats.isDirectory()) throw new Error(`${path} is a directory, not a shard output`);
      if (!stats.isFile())
        throw new Error(`${path} is not a regular file (a pipe or a device): merge reads each shard by position, so save it to a file first`);
      key = `${stats.dev}:${stats.ino}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === undefined) throw error;
      throw new InputReadError(path, error);
    }
    const before = seen.get(key);
    if (before !== undefined) throw new Error(`${path} is the same file as ${before}: each of the N shards must be given once`);
    seen.set(key, path);
  }
}

/** The record count of shard `k` of `n` in a run of `total` records: ⌈(total − k) / n⌉. */
export const shardCount = (total: number, k: number, n: number): number => Math.max(0, Math.ceil((total - k) / n));

/** Refuses a shard whose output lock or run record is still there: its run is still writing it, or stopped before its end (its records end early). */
function checkShardsFinished(files: readonly string[]): void {
  const locked = files.find(isLocked);
  if (locked !== undefined) {
    throw new Error(
      `shard '${locked}' is locked (${locked}.lock): its run is still writing it, or was stopped or killed before its end; let it finish, or go on with --resume, then merge`,
    );
  }
  const unfinished = files.find((file) => readRunRecord(file) !== null);
  if (unfinished !== undefined) {
    throw new Error(
      `shard '${unfinished}' is unfinished (${shownRunRecordPath(unfinished)} is there): its run stopped before its last record; go on with --resume, then merge`,
    );
  }
}

/** Throws, before anything is written, unless the counts of line or grid shards are those of N shards of one run, naming them. */
function checkRoundRobinCounts(paths: readonly string[], format: OutputFormatName): void {
  const counts = paths.map((path) => {
    let records = 0;
    for (const _ of shardRecords(path, format)) records++;
    return records;
  });
  const total = counts.reduce((sum, n) => sum + n, 0);
  const wrong = counts.findIndex((count, k) => count !== shardCount(total, k, paths.length));
  if (wrong < 0) return;
  const expected = counts.map((_, k) => shardCount(total, k, paths.length));
  const [found, place] = [counts[wrong], expected[wrong]];
  throw new Error(
    `${paths[wrong]} holds ${counted(found, "record")}, ${found > place ? "more than its place allows" : "fewer than its place needs"} (${commaGrouped(place)}): ` +
      `${counted(paths.length, "shard")} of one run of ${counted(total, "record")} hold ${expected.map(commaGrouped).join(", ")} (shard K of N: ⌈(T−K)/N⌉), these hold ${counts.map(commaGrouped).join(", ")}; ` +
      `give the N shards of one run, shard 0 first, each whole`,
  );
}

async function runMerge(files: string[], flags: MergeFlags): Promise<void> {
  checkOutputIsNoInput(files, flags.output); // before the output is opened (and emptied)
  checkDistinctShards(files);
  checkShardsFinished(files);
  const { format, header } = shardFormat(files, flags.out);
  const indexless = format === "line" || format === "grid";
  if (indexless) checkRoundRobinCounts(files, format);
  const lock = await lockOutput(flags.output, { offersTakeOver: false, replaced: true }); // one writer per output file, as solve and canon take it
  // A regular file at -o is replaced whole or not at all: the merge is written to a temporary file beside it, put in its
  // place once every shard is merged, so a shard refused while merging (jsonl and csv are checked record by record) leaves
  // the file as it was. Standard output, a device or a pipe is written as the merge goes.
  const real = flags.output !== undefined && statSync(flags.output).isFile() ? realpathSync(flags.output) : undefined;
  const temporary = real === undefined ? undefined : `${real}.merge-${process.pid}.tmp`;
  let records = 0;
  let stopped = false;
  const interrupts = new InterruptWatch(); // Ctrl-C or SIGTERM stops the merge: a file at -o is left as it was
  // A write that fails (a full disk) ends the process from the output's guard: the temporary file goes first, and an output the lock made
  const unregister = stopBeforeStreamExit(async () => {
    if (temporary !== undefined) rmSync(temporary, { force: true });
    await lock.abandon();
  });
  try {
    const out = await openOutput(temporary ?? flags.output, undefined, flags.output);
    if (temporary !== undefined && real !== undefined) chmodSync(temporary, statSync(real).mode & 0o777);
    lock.guard(out);
    try {
      records = await mergeShards(files, out, format, header, interrupts.aborted);
      await closeOutput(out);
    } catch (error) {
      if (real !== undefined) out.destroy(); // (the temporary file's stream; standard output, a pipe or a device is left to the exit)
      await lock.abandon(); // no empty output left where there was none
      if (!(error instanceof MergeStopped)) throw error;
      stopped = true;
    }
    if (!stopped && real !== undefined && temporary !== undefined) {
      lock.replaceWith(temporary);
      removeRunRecord(real); // (a record left beside it by a stopped run no longer tells of its bytes)
    } else if (!stopped) lock.verify();
  } finally {
    unregister();
    interrupts.close();
    if (temporary !== undefined) rmSync(temporary, { force: true }); // (gone once it took the output's place)
    await lock.release();
  }
  if (interrupts.signal !== null) process.exitCode = interrupts.exitStatus!; // (a signal after the last record: the merge is done, the shell still sees it)
  if (stopped) {
    const left = real === undefined ? "" : lock.made ? `; no ${flags.output} is made` : `; ${flags.output} is left as it was`;
    process.stderr.write(`sudoku-wasm: merge stopped by ${interrupts.signal}${left}\n`);
    return;
  }
  process.stderr.write(`merged ${commaGrouped(records)} ${format} records from ${counted(files.length, "shard")}\n`);
  if (indexless && files.length > 1) {
    process.stderr.write(
      `note: ${format} records carry no index, so merge checked only their counts: not that these are the ${files.length} shards of one run, each once, in shard order (jsonl and csv output are checked record by record)\n`,
    );
  }
}
