/**
 * Where the exports go: a given path, `-` (or a path naming standard output) for standard output,
 * or bench/results/<timestamp>.<ext> for a bare flag. The chart goes to --chart, else beside the
 * first export written to a regular file (.svg, or .chart.svg when that is an export's name).
 * {@link checkOutputRequests} refuses two outputs on one path before the bench runs.
 */
import { formatMarkdown } from "./format.js";
import { fstatSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import type { BenchRun } from "../records.js";
import { formatCsv } from "./csv.js";
import { formatJson } from "./json.js";
import { formatSvg } from "./svg.js";

/** The export flags: a path, `-` for standard output, or true for the default path. */
export interface OutputRequests {
  json?: string | true;
  markdown?: string | true;
  csv?: string | true;
  /** A path, or false for no chart; undefined: beside the first file written. */
  chart?: string | false;
  /** The old name of --chart; true for bench/results/<timestamp>.svg. */
  svg?: string | true;
}

/** The value that sends an export to standard output. */
export const STDOUT = "-";

/**
 * The default folder of result files: bench/results/ under the working folder (in the repo,
 * where npm scripts run, the gitignored one), never inside an installed package.
 */
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

const WRITERS = [
  { key: "json", extension: "json", write: formatJson },
  { key: "markdown", extension: "md", write: formatMarkdown },
  { key: "csv", extension: "csv", write: (run: BenchRun) => formatCsv(run.records) },
] as const;

/** Each export flag and its value; the chart's is --chart, else the old --svg, else undefined (beside the first file). */
const exportFlags = (requests: OutputRequests) =>
  Object.entries({ json: requests.json, markdown: requests.markdown, csv: requests.csv, chart: requests.chart ?? requests.svg });

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
  for (const key of ["json", "markdown", "csv", "chart", "svg"] as const) {
    const value = requests[key];
    if (typeof value === "string" && value !== STDOUT && namesStandardOutput(value, fd)) aliased[key] = STDOUT;
  }
  return aliased as R;
}

/** True when some export goes to standard output (the human-readable report then goes to stderr). */
export function usesStdout(requests: OutputRequests): boolean {
  return exportFlags(requests).some(([, value]) => value === STDOUT);
}

/** Throws when more than one export asks for standard output, or two name the same file. */
export function checkOutputRequests(requests: OutputRequests): void {
  const flags = exportFlags(requests);
  const toStdout = flags.filter(([, value]) => value === STDOUT).map(([flag]) => `--${flag} -`);
  if (toStdout.length > 1)
    throw new Error(`only one export can go to standard output (- or a path naming it, such as /dev/stdout), got ${toStdout.join(" and ")}`);
  const flagOf = new Map<string, string>();
  for (const [flag, value] of flags) {
    if (typeof value !== "string" || value === STDOUT) continue;
    const path = resolve(value);
    const earlier = flagOf.get(path);
    if (earlier !== undefined) throw new Error(`--${earlier} and --${flag} would both write ${path}; give them different files`);
    flagOf.set(path, flag);
  }
}

/** Writes `text` to `path`, making its folder; returns the path. */
export function writeText(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** True for a regular file (not /dev/stdout, a pipe or a terminal), beside which a chart may go. */
function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Writes every requested export and the chart; returns the paths written, in order (`-` for
 * standard output, written through `stdout`).
 */
export function writeReports(
  run: BenchRun,
  requests: OutputRequests,
  stamp: string,
  folder = resultsFolder(),
  stdout: (text: string) => void = (text) => process.stdout.write(text),
): string[] {
  checkOutputRequests(requests);
  const written: string[] = [];
  const emit = (value: string | true, extension: string, text: string) => {
    if (value === STDOUT) {
      stdout(text);
      written.push(STDOUT);
      return;
    }
    const path = outputPath(value, extension, stamp, folder);
    writeText(path, text);
    written.push(path);
  };
  for (const { key, extension, write } of WRITERS) {
    const value = requests[key];
    if (value !== undefined) emit(value, extension, write(run));
  }
  const chart = requests.chart ?? requests.svg;
  if (chart === false) return written;
  if (chart !== undefined) {
    emit(chart, "svg", formatSvg(run));
  } else {
    const file = written.find((path) => path !== STDOUT && isRegularFile(path));
    if (file) {
      const stem = file.slice(0, file.length - extname(file).length);
      emit(written.includes(stem + ".svg") ? stem + ".chart.svg" : stem + ".svg", "svg", formatSvg(run)); // never over an export
    }
  }
  return written;
}
