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
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not JSON (${(error as Error).message})`);
  }
  const run = data as Partial<BenchRun> & { format?: string; version?: number };
  if (run?.format !== FORMAT || run.version !== VERSION || !Array.isArray(run.records) || typeof run.environment !== "object") {
    throw new Error(`${source}: not a ${FORMAT} v${VERSION} result file`);
  }
  return { environment: run.environment!, records: run.records };
}
