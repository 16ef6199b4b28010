/**
 * The JSON writer and reader. Schema: docs/bench-result.schema.json (version 3):
 *
 *   { format: "sudoku-wasm-bench", version: 3, schema, incomplete?,
 *     settings:    limit, budget, seed, timeMs, puzzles, datasets[] (name, sha256, size, drawn)
 *     environment: cpu, cores, node, v8, tinybench, buildFlags, commit, date
 *     records[]:   every BenchRecord field (n/a is null), the timed batches' latencies
 *                  (batchMs), each timing round's mean µs per puzzle (roundMicros; optional,
 *                  absent in files written before rounds and in the web page's), each round's
 *                  CPU µs per puzzle and the calibration's CPU µs beside it (roundCpuMicros,
 *                  calibrationMicros: new in version 3, absent in the web page's), their
 *                  per-puzzle summary (perPuzzleMicros: n, mean, sd, min, max, p50, p75, p99),
 *                  their outliers (Tukey's fences: mild, severe), the process's peak memory
 *                  (peakRssMb) and the row's noise flags }
 *
 * This reader takes version 3 files and the version 2 and 1 files written before them (version 1:
 * no samples, no dataset hashes, settings inside environment); `--compare` reads through
 * report/read-result.ts, which checks a file against the schema first and refuses versions 1 and
 * 2 (no calibrated rounds to judge by).
 */
import { noiseFlags } from "../noise.js";
import type { BenchEnvironment, BenchRecord, BenchRun } from "../records.js";
import { summarize, tukeyOutliers } from "../statistics.js";

const FORMAT = "sudoku-wasm-bench";
const VERSION = 3;
/** Where the schema lives, relative to the package root. */
export const SCHEMA_PATH = "docs/bench-result.schema.json";

/** The environment fields that are settings of the run rather than facts about the machine. */
const SETTING_KEYS = ["limit", "budget", "seed", "timeMs", "puzzles", "datasets", "freshRounds"] as const;

/**
 * An array of numbers as JSON.stringify indents it, one number per line. The line breaks
 * keep it from matching inside a string value (JSON escapes them there).
 */
const NUMBER_ARRAY = /\[\n\s*(-?[\d.eE+-]+(?:,\n\s*-?[\d.eE+-]+)*)\n\s*\]/g;

/** `value` as indented JSON with every array of numbers kept on one line. */
export function stringifyCompact(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  return text.replace(NUMBER_ARRAY, (_, items: string) => `[${items.replace(/\s+/g, "")}]`) + "\n";
}

/** A record as written: its fields, the per-puzzle summary of its timed batches, their outliers and its noise flags. */
function exportRecord(record: BenchRecord): Record<string, unknown> {
  const perPuzzle = record.batchMs && record.batchMs.length > 0 ? summarize(record.batchMs.map((ms) => (ms * 1000) / record.puzzles)) : null;
  return { ...record, perPuzzleMicros: perPuzzle, outliers: record.batchMs ? tukeyOutliers(record.batchMs) : null, flags: noiseFlags(record) };
}

/** The run as JSON (schema version 3). */
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
    throw new Error(`${source}: not JSON (${(error as Error).message})`);
  }
}

/** Reads a run written by {@link formatJson} (its text, or that parsed), or a version 2 or 1 file; throws naming `source` when it is neither. */
export function parseJson(text: string | object, source = "JSON"): BenchRun {
  const data = (typeof text === "string" ? readJson(text, source) : text) as BenchRun & {
    format?: string;
    version?: number;
    settings?: Partial<BenchEnvironment>;
  };
  if (data?.format !== FORMAT || ![1, 2, VERSION].includes(data.version!) || !Array.isArray(data.records) || typeof data.environment !== "object") {
    throw new Error(`${source}: not a ${FORMAT} v1/v2/v${VERSION} result file`);
  }
  const records = data.records.map((record) => {
    const {
      perPuzzleMicros: _summary,
      outliers: _outliers,
      flags: _flags,
      ...fields
    } = record as BenchRecord & { perPuzzleMicros?: unknown; outliers?: unknown; flags?: unknown };
    return fields as BenchRecord;
  });
  const run: BenchRun = { environment: { ...data.environment, ...data.settings }, records };
  if (data.incomplete) run.incomplete = data.incomplete;
  return run;
}
