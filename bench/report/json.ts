/** The JSON writer and reader (docs/bench-result.schema.json); `--compare` reads through read-result.ts, which checks the schema first. */
import { escapeText } from "../../src/model/excerpt.js";
import { noiseFlags } from "../noise.js";
import type { BenchEnvironment, BenchRecord, BenchRun } from "../records.js";
import { summarize, tukeyOutliers } from "../statistics.js";

const FORMAT = "sudoku-wasm-bench";
const VERSION = 3;
export const SCHEMA_PATH = "docs/bench-result.schema.json";

/** The environment fields that are settings of the run rather than facts about the machine. */
const SETTING_KEYS = ["limit", "budget", "seed", "timeMs", "puzzles", "datasets", "freshRounds"] as const;

/** An array of numbers as JSON.stringify indents it; the line breaks keep it from matching inside a string. */
const NUMBER_ARRAY = /\[\n\s*(-?[\d.eE+-]+(?:,\n\s*-?[\d.eE+-]+)*)\n\s*\]/g;

/** `value` as indented JSON with every array of numbers kept on one line. */
export function stringifyCompact(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  return text.replace(NUMBER_ARRAY, (_, items: string) => `[${items.replace(/\s+/g, "")}]`) + "\n";
}

/** What exportRecord writes besides a record's own fields (parseJson leaves them out). */
const DERIVED = new Set(["perPuzzleMicros", "outliers", "flags"]);

/** A record as written: its fields, the per-puzzle summary of its timed batches, their outliers and its noise flags. */
function exportRecord(record: BenchRecord): Record<string, unknown> {
  const perPuzzle = record.batchMs && record.batchMs.length > 0 ? summarize(record.batchMs.map((ms) => (ms * 1000) / record.puzzles)) : null;
  return { ...record, perPuzzleMicros: perPuzzle, outliers: record.batchMs ? tukeyOutliers(record.batchMs) : null, flags: noiseFlags(record) };
}

export function formatJson(run: BenchRun): string {
  const settings: Record<string, unknown> = {};
  const environment: Record<string, unknown> = { ...run.environment };
  for (const key of SETTING_KEYS) {
    if (run.environment[key] !== undefined) settings[key] = run.environment[key];
    delete environment[key];
  }
  return stringifyCompact({
    format: FORMAT,
    version: VERSION,
    schema: SCHEMA_PATH,
    ...(run.incomplete ? { incomplete: run.incomplete } : {}),
    settings,
    environment,
    records: run.records.map(exportRecord),
  });
}

/** `text` parsed as JSON; throws naming `source` when it is not JSON. */
export function readJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8's message quotes the start of the text, line breaks and all: escaped, so that the error is one line
    throw new Error(`${source}: not JSON (${escapeText((error as Error).message)})`);
  }
}

/** Reads a run written by {@link formatJson} (its text, or that parsed); throws naming `source` when it is not one. */
export function parseJson(text: string | object, source = "JSON"): BenchRun {
  const data = (typeof text === "string" ? readJson(text, source) : text) as BenchRun & {
    format?: string;
    version?: number;
    settings?: Partial<BenchEnvironment>;
  };
  if (data?.format !== FORMAT || data.version !== VERSION || !Array.isArray(data.records) || typeof data.environment !== "object") {
    throw new Error(`${source}: not a ${FORMAT} v${VERSION} result file`);
  }
  const records = data.records.map((record) => Object.fromEntries(Object.entries(record).filter(([key]) => !DERIVED.has(key))) as unknown as BenchRecord);
  const seen = new Set<string>();
  for (const { dataset, row } of records) {
    // one record per dataset and row: a second would silently replace the first in a comparison
    if (seen.has(`${dataset}\u0000${row}`))
      throw new Error(`${source}: the row '${row}' on '${dataset}' appears twice; a result file has one record per row and dataset`);
    seen.add(`${dataset}\u0000${row}`);
  }
  const run: BenchRun = { environment: { ...data.environment, ...data.settings }, records };
  if (data.incomplete) run.incomplete = data.incomplete;
  return run;
}
