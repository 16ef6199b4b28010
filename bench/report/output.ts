/**
 * Where the file outputs go and writing them: a given path, or
 * bench/results/<timestamp>.<ext> for a bare flag. The chart is always written: to --svg,
 * else beside the first other file (same name, .svg), else to bench/results/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
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

function writeText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Writes every requested output and the chart; returns the paths written, in order. */
export function writeReports(run: BenchRun, requests: OutputRequests, stamp: string, folder = resultsFolder()): string[] {
  const written: string[] = [];
  for (const { key, extension, write } of WRITERS) {
    const value = requests[key];
    if (value === undefined) continue;
    const path = outputPath(value, extension, stamp, folder);
    writeText(path, write(run));
    written.push(path);
  }
  const beside = written[0] ? written[0].slice(0, written[0].length - extname(written[0]).length) + ".svg" : null;
  const chart = requests.svg !== undefined ? outputPath(requests.svg, "svg", stamp, folder) : beside ?? join(folder, `${stamp}.svg`);
  writeText(chart, formatSvg(run.records));
  return [...written, chart];
}
