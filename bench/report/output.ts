/**
 * Where the file outputs go and writing them: a given path, or
 * bench/results/<timestamp>.<ext> for a bare flag. The chart is always written: to --svg,
 * else beside the first other file (same name, .svg; `.chart.svg` when that name is itself
 * a requested file, e.g. `--json x.svg`), else to bench/results/. Two outputs never share a
 * path: the plan ({@link planReports}) refuses that before the bench runs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import { packageRoot } from "../../src/wasm.js";
import type { BenchRun } from "../records.js";
import { formatCsv } from "./csv.js";
import { formatJson } from "./json.js";
import { formatMarkdown } from "./markdown.js";
import { formatSvg } from "./svg.js";

/** The output flags: a path, or true for the default path. */
export interface OutputRequests {
  json?: string | true;
  markdown?: string | true;
  csv?: string | true;
  svg?: string | true;
}

/** The default folder of result files (gitignored). */
export function resultsFolder(): string {
  return join(packageRoot(), "bench", "results");
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

function writeText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** One file the bench will write: its path and the writer of its text. */
export interface PlannedReport {
  path: string;
  write: (run: BenchRun) => string;
}

/**
 * The files a run will write, in order, the chart last; a RangeError when two requested
 * outputs name the same file (checked before the bench runs, so no result is overwritten).
 */
export function planReports(requests: OutputRequests, stamp: string, folder = resultsFolder()): PlannedReport[] {
  const planned: PlannedReport[] = [];
  const flagOf = new Map<string, string>();
  const claim = (path: string, flag: string) => {
    const earlier = flagOf.get(path);
    if (earlier !== undefined) throw new RangeError(`--${earlier} and --${flag} would both write ${path}; give them different files`);
    flagOf.set(path, flag);
  };
  for (const { key, extension, write } of WRITERS) {
    const value = requests[key];
    if (value === undefined) continue;
    const path = outputPath(value, extension, stamp, folder);
    claim(path, key);
    planned.push({ path, write });
  }
  let chart: string;
  if (requests.svg !== undefined) chart = outputPath(requests.svg, "svg", stamp, folder);
  else if (planned.length > 0) {
    const stem = planned[0].path.slice(0, planned[0].path.length - extname(planned[0].path).length);
    chart = flagOf.has(stem + ".svg") ? stem + ".chart.svg" : stem + ".svg";
  } else chart = join(folder, `${stamp}.svg`);
  claim(chart, "svg");
  planned.push({ path: chart, write: (run) => formatSvg(run.records) });
  return planned;
}

/** Writes every requested output and the chart; returns the paths written, in order. */
export function writeReports(run: BenchRun, requests: OutputRequests, stamp: string, folder = resultsFolder()): string[] {
  const planned = planReports(requests, stamp, folder);
  for (const { path, write } of planned) writeText(path, write(run));
  return planned.map(({ path }) => path);
}
