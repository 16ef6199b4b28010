/**
 * The JSON writer and reader of a profile: `{ format, version, environment, records }`, the
 * records exactly as the profiler returned them (per-puzzle arrays included).
 */
import type { ProfileRun } from "./records.js";

const FORMAT = "sudoku-wasm-profile";
const VERSION = 1;

/**
 * An array of numbers as JSON.stringify indents it, one number per line. The line breaks
 * keep it from matching inside a string value (JSON escapes them there).
 */
const NUMBER_ARRAY = /\[\n\s*(-?[\d.eE+-]+(?:,\n\s*-?[\d.eE+-]+)*)\n\s*\]/g;

/** The profile as indented JSON, each array of numbers (the per-puzzle columns) kept on one line. */
export function formatProfileJson(run: ProfileRun): string {
  const text = JSON.stringify({ format: FORMAT, version: VERSION, ...run }, null, 2);
  return text.replace(NUMBER_ARRAY, (_, items: string) => `[${items.replace(/\s+/g, "")}]`) + "\n";
}

/** Reads a profile written by {@link formatProfileJson}; throws naming `source` when the text is not one. */
export function parseProfileJson(text: string, source = "JSON"): ProfileRun {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not JSON (${(error as Error).message})`);
  }
  const run = data as Partial<ProfileRun> & { format?: string; version?: number };
  if (run?.format !== FORMAT || run.version !== VERSION || !Array.isArray(run.records) || typeof run.environment !== "object") {
    throw new Error(`${source}: not a ${FORMAT} v${VERSION} file`);
  }
  return { environment: run.environment!, records: run.records };
}
