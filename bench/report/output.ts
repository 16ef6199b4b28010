/** Where the exports go: a given path, `-` (or a path naming standard output), or bench/results/<timestamp>.<ext> for a bare flag. */
import { formatMarkdown } from "./format.js";
import { formatRunCsv } from "./run-csv.js";
import { accessSync, chownSync, constants, existsSync, fstatSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { OutputWriteError } from "../../src/cli-kit/errors.js";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { BenchRun } from "../records.js";
import { formatJson } from "./json.js";
import { formatSvg } from "./svg.js";

/** The export flags: a path, `-` for standard output, or true for the default path. */
export interface OutputRequests {
  json?: string | true;
  markdown?: string | true;
  csv?: string | true;
  /** A path, or false for no chart; undefined: beside the first file written. */
  chart?: string | false;
}

export const STDOUT = "-";

/** The export flags of `requests` that ask for files (`--chart FILE`, not `--no-chart`), as typed: `--json`, `--chart`, … */
export function fileExportFlags(requests: OutputRequests): string[] {
  return exportsOf(requests)
    .filter(({ flag, value }) => (flag === "chart" ? typeof value === "string" : value !== undefined))
    .map(({ flag }) => `--${flag}`);
}

/** bench/results/ under the working folder (in the repo, the gitignored one), never inside an installed package. */
export function resultsFolder(): string {
  return resolve("bench", "results");
}

/** "2025-11-30T08-41-07" (a file-name-safe UTC time). */
export function timestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/:/g, "-");
}

/** The path a flag value means: the path itself (from the working folder), or `<folder>/<stamp>.<ext>`. */
export function outputPath(value: string | true, extension: string, stamp: string, folder = resultsFolder()): string {
  return value === true ? join(folder, `${stamp}.${extension}`) : resolve(value);
}

/** Each export flag with its value and writer; the chart's writer is also the one beside the first file. */
const exportsOf = (requests: OutputRequests) =>
  [
    { flag: "json", value: requests.json, extension: "json", write: formatJson },
    { flag: "markdown", value: requests.markdown, extension: "md", write: formatMarkdown },
    { flag: "csv", value: requests.csv, extension: "csv", write: formatRunCsv },
    { flag: "chart", value: requests.chart, extension: "svg", write: formatSvg },
  ] as const;

/** True when `path` is the file standard output (`fd`) already writes to (/dev/stdout, or the file the shell redirected it to). */
export function namesStandardOutput(path: string, fd = 1): boolean {
  try {
    const output = fstatSync(fd);
    const target = statSync(path);
    return output.dev === target.dev && output.ino === target.ino;
  } catch {
    return false;
  }
}

/** The requests with every path that {@link namesStandardOutput} replaced by `-`, which sends the report to stderr. */
export function withStdoutAliases<R extends OutputRequests>(requests: R, fd = 1): R {
  const aliased: OutputRequests = { ...requests };
  for (const { flag, value } of exportsOf(requests)) {
    if (typeof value === "string" && value !== STDOUT && namesStandardOutput(value, fd)) aliased[flag] = STDOUT;
  }
  return aliased as R;
}

/** True when some export goes to standard output (the human-readable report then goes to stderr). */
export function usesStdout(requests: OutputRequests): boolean {
  return exportsOf(requests).some(({ value }) => value === STDOUT);
}

/** Throws when more than one export asks for standard output, or two name the same file. */
export function checkOutputRequests(requests: OutputRequests): void {
  const flags = exportsOf(requests);
  const toStdout = flags.filter(({ value }) => value === STDOUT).map(({ flag }) => `--${flag} -`);
  if (toStdout.length > 1)
    throw new Error(`only one export can go to standard output (- or a path naming it, such as /dev/stdout), got ${toStdout.join(" and ")}`);
  const flagOf = new Map<string, string>();
  for (const { flag, value } of flags) {
    if (typeof value !== "string" || value === STDOUT) continue;
    const earlier = flagOf.get(resolve(value));
    if (earlier !== undefined) throw new Error(`--${earlier} and --${flag} would both write ${resolve(value)}; give them different files`);
    flagOf.set(resolve(value), flag);
    const unwritable = whyUnwritable(resolve(value));
    if (unwritable) throw new Error(`--${flag} ${value}: cannot write it (${unwritable})`);
  }
}

/** Why `path` cannot be written, found before a run rather than after it; null when it looks writable. */
export function whyUnwritable(path: string): string | null {
  // undefined where nothing is (ENOENT), or where a file stands in the way (ENOTDIR: found on the walk up).
  const stat = (at: string) => {
    try {
      return statSync(at);
    } catch {
      return undefined;
    }
  };
  const found = stat(path);
  if (found?.isDirectory()) return "a folder, not a file";
  if (found?.isFile() && found.nlink > 1) return manyNames(found.nlink);
  let folder = dirname(path);
  while (!stat(folder) && dirname(folder) !== folder) folder = dirname(folder);
  if (!stat(folder)?.isDirectory()) return `${folder} is not a folder`;
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    return `${folder} is not writable`;
  }
  return null;
}

/** Why a file of `links` names is not replaced: the new file would have this name alone, the others the old content. */
const manyNames = (links: number) => `it has ${links} names (hard links), which would keep the old content: give a file of one name`;

/**
 * Writes `text` to `path` whole or not at all: into a temporary file beside it, then renamed into place, so a failed
 * write (a full disk) leaves no cut file there, and an earlier file stays as it was, as do its mode and, where the process
 * may keep it (root), its owner; a file of more than one name (hard links) is refused. A symbolic link is written
 * through (its target replaced); a device or FIFO (/dev/null, `<(…)`) is written as it is.
 */
export function writeText(path: string, text: string): string {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const target = existsSync(path) ? realpathSync(path) : path;
    const existing = statSync(target, { throwIfNoEntry: false });
    if (existing && !existing.isFile()) {
      writeFileSync(target, text);
      return path;
    }
    if (existing && existing.nlink > 1) throw new Error(manyNames(existing.nlink));
    const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
    try {
      writeFileSync(temporary, text, existing ? { mode: existing.mode & 0o777 } : {});
      try {
        if (existing) chownSync(temporary, existing.uid, existing.gid);
      } catch {
        // not allowed (not root, another owner): the new file is the writer's
      }
      renameSync(temporary, target);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  } catch (error) {
    throw new OutputWriteError(path, error);
  }
  return path;
}

/**
 * `stamp`, or `stamp-2`, `stamp-3`, … the first under which no file a bare flag of `requests` would write (nor its
 * chart) exists in `folder`, claimed by making its first file (exclusively: of two runs started in the same second, and
 * finishing together, each keeps its own files, not the later run's alone).
 */
function unusedStamp(requests: OutputRequests, stamp: string, folder: string): string {
  const extensions = exportsOf(requests)
    .filter(({ value }) => value === true)
    .map(({ extension }) => extension);
  if (extensions.length === 0) return stamp;
  const claimed = (candidate: string) => {
    if ([...extensions, "svg", "chart.svg"].some((extension) => existsSync(join(folder, `${candidate}.${extension}`)))) return false;
    try {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${candidate}.${extensions[0]}`), "", { flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false; // another run took it a moment ago
      // (any other failure is said when the export is written)
    }
    return true;
  };
  let candidate = stamp;
  for (let n = 2; !claimed(candidate); n++) candidate = `${stamp}-${n}`;
  return candidate;
}

/**
 * Writes every requested export and the chart; returns the paths written, in order (`-` for standard output). An export
 * that cannot be written leaves no file (see {@link writeText}); the others are still written, then an Error names each
 * export not written and why, and those written.
 */
export function writeReports(
  run: BenchRun,
  requests: OutputRequests,
  stamp: string,
  folder = resultsFolder(),
  stdout: (text: string) => void = (text) => process.stdout.write(text),
): string[] {
  checkOutputRequests(requests);
  const free = unusedStamp(requests, stamp, folder);
  const written: string[] = [];
  const failed: { flag: string; error: unknown }[] = [];
  const emit = (flag: string, value: string | true, extension: string, text: string) => {
    if (value === STDOUT) {
      stdout(text);
      written.push(STDOUT);
      return;
    }
    const path = outputPath(value, extension, free, folder);
    try {
      written.push(writeText(path, text));
    } catch (error) {
      failed.push({ flag, error });
      // the empty file that claimed a bare flag's name (unusedStamp) goes too
      if (value === true && statSync(path, { throwIfNoEntry: false })?.size === 0) rmSync(path, { force: true });
    }
  };
  for (const { flag, value, extension, write } of exportsOf(requests)) if (value !== undefined && value !== false) emit(flag, value, extension, write(run));
  if (requests.chart === undefined) {
    // No --chart: beside the first export written to a regular file (not /dev/stdout, a pipe or a terminal), never over an export.
    const file = written.find((path) => path !== STDOUT && statSync(path, { throwIfNoEntry: false })?.isFile());
    if (file) {
      const stem = file.slice(0, file.length - extname(file).length);
      emit("chart", written.includes(stem + ".svg") ? stem + ".chart.svg" : stem + ".svg", "svg", formatSvg(run));
    }
  }
  if (failed.length === 0) return written;
  const files = written.filter((path) => path !== STDOUT);
  throw new Error(
    `${failed.map(({ error }) => (error as Error).message).join("; ")}; not written: ${failed.map(({ flag }) => `--${flag}`).join(", ")}` +
      (files.length > 0 ? `; written: ${files.join(", ")}` : ""),
  );
}
