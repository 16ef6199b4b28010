/**
 * The JSON writer and reader of a profile: `{ format, version, environment, records }`, the
 * records exactly as the profiler returned them (per-puzzle arrays included).
 */
import { parseTaggedRun, stringifyCompact } from "../report/json.js";
import type { ProfileRun } from "./records.js";

const FORMAT = "sudoku-wasm-profile";
const VERSION = 1;

/** The profile as indented JSON, each array of numbers (the per-puzzle columns) kept on one line. */
export function formatProfileJson(run: ProfileRun): string {
  return stringifyCompact({ format: FORMAT, version: VERSION, ...run });
}

/** Reads a profile written by {@link formatProfileJson}; throws naming `source` when the text is not one. */
export function parseProfileJson(text: string, source = "JSON"): ProfileRun {
  return parseTaggedRun<ProfileRun>(text, source, FORMAT, VERSION, "file");
}
