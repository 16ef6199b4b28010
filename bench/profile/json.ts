/**
 * The JSON writer of a profile: `{ format, version, environment, records }`, the
 * records exactly as the profiler returned them (per-puzzle arrays included).
 */
import { stringifyCompact } from "../report/json.js";
import type { ProfileRun } from "./records.js";

const FORMAT = "sudoku-wasm-profile";
const VERSION = 1;

/** The profile as indented JSON, each array of numbers (the per-puzzle columns) kept on one line. */
export function formatProfileJson(run: ProfileRun): string {
  return stringifyCompact({ format: FORMAT, version: VERSION, ...run });
}
