/**
 * The run record `FILE.run.json` of a `solve` or `canon` run writing `-o FILE`: the command, the
 * options that shape its records, its shard and its inputs (each name as given, its real path,
 * size and a hash of its first and last 64 KiB). Who does what with it:
 *   - runStream (cli/solve.ts) writes it once FILE is emptied or cut to its resume point, and
 *     removes it once every record is written; on `--resume` it checks the one there first
 *     ({@link checkRunRecord}), so records of two runs are never mixed in one file;
 *   - openOutput (output.ts) removes it whenever it empties FILE (solve, canon, generate, judge
 *     mode, merge): a record left beside other bytes would vouch for them;
 *   - merge refuses a shard that still has one (its run stopped before its end).
 * It lives beside FILE's real file, as its lock does; FILE must exist when it is written or removed.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { normalize, resolve } from "node:path";
import { commaGrouped } from "../model/whole-number.js";
import { InputReadError, attempt } from "./errors.js";
import { replaceAtomically } from "./output-lock.js";
import type { Shard } from "./resume.js";

/** One input as a run saw it: its name as given (`-` for standard input), and for a regular file its real path, size and sample hash. */
interface InputMark {
  name: string;
  /** The file whatever the name (another working folder, an absolute path, a link): the same input. */
  real?: string;
  bytes?: number;
  sample?: string;
}

/** What `FILE.run.json` holds. */
export interface RunRecord {
  command: string;
  /** The options that shape the records, flag to value as they would be typed (`off` for an absent switch). */
  options: Record<string, string>;
  shard: string;
  inputs: InputMark[];
}

/** The run record of the output at `path` (beside its real file, as its lock is). */
export function runRecordPath(path: string): string {
  return `${realpathSync(path)}.run.json`;
}

/** {@link runRecordPath} as a message shows it: as `path` spells it, unless `path` is a link. */
export function shownRunRecordPath(path: string): string {
  return realpathSync(path) === resolve(path) ? `${path}.run.json` : runRecordPath(path);
}

/** Bytes read from each end of an input for its sample hash. */
const SAMPLE_BYTES = 1 << 16;

/** The mark of input `name`: a regular file's size and the SHA-256 of its first and last {@link SAMPLE_BYTES}. */
function markOf(name: string): InputMark {
  // A named pipe is not opened here: a reader that opened and closed it would end its writer (SIGPIPE) before the run reads it.
  if (name !== "-" && !statSync(name).isFile()) return { name };
  const fd = name === "-" ? 0 : openSync(name, "r");
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { name };
    const hash = createHash("sha256");
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const ends = [0, Math.max(0, stats.size - SAMPLE_BYTES)]; // its first and last bytes (all of a file of up to twice SAMPLE_BYTES)
    for (const at of ends) hash.update(buffer.subarray(0, readSync(fd, buffer, 0, SAMPLE_BYTES, at))); // positioned reads: standard input's offset stays
    return { name, real: name === "-" ? undefined : realpathSync(name), bytes: stats.size, sample: hash.digest("hex") };
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

/** The run record of a run of `command` with `options` over `inputs` (names as given; `-` is standard input) as `shard`. */
export function runRecordOf(command: string, options: Record<string, string>, shard: Shard, inputs: readonly string[]): RunRecord {
  return { command, options, shard: `${shard.index}/${shard.count}`, inputs: inputs.map((name) => markOf(name === "-" ? name : normalize(name))) };
}

/** Writes `record` beside output `path`, replacing any (through a temporary file: never half written). */
export function writeRunRecord(path: string, record: RunRecord): void {
  const target = runRecordPath(path);
  replaceAtomically(target, target, (temporary) => writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`));
}

/** Removes the run record of output `path`: its run has written every record. */
export function removeRunRecord(path: string): void {
  rmSync(runRecordPath(path), { force: true });
}

/** The run record beside output `path`, or null when there is none (a finished run, or no run of this tool). */
export function readRunRecord(path: string): RunRecord | null {
  if (!existsSync(path)) return null;
  const file = runRecordPath(path);
  if (!existsSync(file)) return null;
  const shown = shownRunRecordPath(path);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new InputReadError(shown, error); // a folder in its place, no permission: said as such
  }
  const record = attempt(() => JSON.parse(text) as RunRecord | null);
  const named = typeof record?.command === "string" && typeof record.shard === "string" && Array.isArray(record.inputs);
  if (named && typeof record.options === "object" && record.options !== null) return record;
  throw new Error(`${shown} is not a run record this tool wrote: remove it (a resume of its output then goes on without the checks it gives)`);
}

/**
 * Throws unless `now`, the run about to resume output `path`, is the run that `then` recorded: the
 * same command, shard, options and inputs (names, sizes and sample hashes), naming what differs.
 */
export function checkRunRecord(path: string, then: RunRecord, now: RunRecord): void {
  const file = shownRunRecordPath(path);
  // canon --unique cannot go on with --resume (the forms seen before its stop are not kept): the command that began it is refused too
  const next =
    then.options["--unique"] === "on"
      ? `a run with --unique cannot be resumed (the forms seen before its stop are not kept): start it again without --resume (${file} records its options)`
      : `resume with the command that began it (${file} records it), or start again without --resume`;
  const refuse = (what: string) => {
    throw new Error(`--resume: ${path} ${what}: ${next}`);
  };
  if (then.command !== now.command) refuse(`was begun by '${then.command}', not '${now.command}'`);
  const shard = (text: string) => (text === "0/1" ? "no --shard" : `--shard ${text}`);
  if (then.shard !== now.shard) refuse(`was begun with ${shard(then.shard)}; this run has ${shard(now.shard)}`);
  const flags = [...new Set([...Object.keys(then.options), ...Object.keys(now.options)])].filter((flag) => then.options[flag] !== now.options[flag]);
  if (flags.length > 0) {
    const said = (options: Record<string, string>) => flags.map((flag) => (options[flag] === undefined ? `no ${flag}` : `${flag} ${options[flag]}`)).join(", ");
    refuse(`was begun with ${said(then.options)}; this run has ${said(now.options)}`);
  }
  const names = (inputs: InputMark[]) => inputs.map((input) => input.name).join(" ");
  const same = (a: InputMark, b: InputMark | undefined) =>
    b !== undefined && (a.real !== undefined && b.real !== undefined ? a.real === b.real : a.name === b.name);
  if (then.inputs.length !== now.inputs.length || !then.inputs.every((input, i) => same(input, now.inputs[i]))) {
    refuse(`was begun on the inputs '${names(then.inputs)}'; this run reads '${names(now.inputs)}'`);
  }
  then.inputs.forEach((input, i) => {
    const current = now.inputs[i];
    if (input.bytes === undefined || current.bytes === undefined) return; // a pipe: its bytes cannot be checked
    const shown = input.name === "-" ? "standard input" : `'${input.name}'`;
    if (input.bytes !== current.bytes) refuse(`was begun on ${shown} of ${commaGrouped(input.bytes)} bytes; it has ${commaGrouped(current.bytes)} now`);
    if (input.sample !== current.sample) refuse(`was begun on ${shown} with other bytes (the same size, another start or end)`);
  });
}
