/**
 * The JSON writer and reader of a profile: `{ format, version, environment, records }`, the
 * records exactly as the profiler returned them (per-puzzle arrays included).
 */
import { parseTaggedRun } from "../report/json.js";
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
  return parseTaggedRun<ProfileRun>(text, source, FORMAT, VERSION, "file");
}
