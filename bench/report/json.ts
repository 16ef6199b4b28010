/**
 * The JSON writer and reader: `{ format, version, environment, records }`, records exactly
 * as the runner returned them (n/a is null). `--compare` reads files written here.
 */
import type { BenchRun } from "../records.js";

const FORMAT = "sudoku-wasm-bench";
const VERSION = 1;

/** The run as pretty-printed JSON. */
export function formatJson(run: BenchRun): string {
  return JSON.stringify({ format: FORMAT, version: VERSION, ...run }, null, 2) + "\n";
}

/** Reads a run written by {@link formatJson}; throws naming `source` when the text is not one. */
export function parseJson(text: string, source = "JSON"): BenchRun {
  return parseTaggedRun<BenchRun>(text, source, FORMAT, VERSION, "result file");
}

/**
 * Reads `{ format, version, environment, records }` JSON of the given format and version (the
 * bench's runs and the profiler's); throws naming `source` and what it expected otherwise.
 */
export function parseTaggedRun<Run extends { environment: unknown; records: unknown[] }>(
  text: string,
  source: string,
  format: string,
  version: number,
  what: string,
): Run {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not JSON (${(error as Error).message})`);
  }
  const run = data as Partial<Run> & { format?: string; version?: number };
  if (run?.format !== format || run.version !== version || !Array.isArray(run.records) || typeof run.environment !== "object") {
    throw new Error(`${source}: not a ${format} v${version} ${what}`);
  }
  return { environment: run.environment, records: run.records } as Run;
}
