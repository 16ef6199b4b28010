/**
 * The page's run in the CLI's record shape (bench/records.ts), so that the bench's own writers
 * make its JSON (docs/bench-result.schema.json, which `npm run bench -- --compare` reads) and
 * its CSV. What a browser cannot measure is recorded as such: no per-puzzle pass (p50/p99 and
 * the pass mean are null), no CPU time (cpuPerWall null, so no row is flagged pre-empted).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { buildFacts } from "../build/facts.js";
import type { BenchEnvironment, BenchRecord, BenchRun, DatasetIdentity } from "../bench/records.js";
import { formatRunCsv } from "../bench/report/run-csv.js";
import { formatJson } from "../bench/report/json.js";
import { findSolver } from "../src/solvers/registry.js";
import type { WebBenchPlan, WebBenchRow } from "./bench.js";

/** What the page knows of where it ran. */
export interface PageEnvironment {
  /** The browser and its engine, "Chromium 150.0.7871.100 (V8)". */
  browser: string;
  /** navigator.hardwareConcurrency. */
  cores: number;
  /** When the run started. */
  started: Date;
  /** Each dataset's name, the first 16 hex digits of the SHA-256 of its file, and its puzzles. */
  datasets: Omit<DatasetIdentity, "drawn">[];
}

/** A page row as a bench record: the solver's natural entry point, its own label (as the CLI labels it). */
function toRecord(row: WebBenchRow, plan: WebBenchPlan): BenchRecord {
  const info = findSolver(row.solver);
  return {
    dataset: row.dataset,
    solver: row.solver,
    mode: "engine",
    row: row.solver,
    datasetSize: row.datasetSize,
    selected: row.puzzles,
    puzzles: row.puzzles,
    timeouts: row.timeouts,
    limit: plan.limit,
    effectiveLimit: info.capabilities.uniqueness === false ? 1 : plan.limit,
    batchCall: row.batchCall,
    samples: row.samples,
    puzzlesPerSecond: row.puzzlesPerSecond,
    meanMicros: row.meanMicros,
    p50Micros: null,
    p99Micros: null,
    rmePercent: row.rmePercent,
    guessesPerPuzzle: row.guessesPerPuzzle,
    noGuessPercent: null,
    reference: null,
    speedup: null,
    comparedOn: null,
    threads: null,
    cpuPerWall: null,
    batchMs: row.batchMs,
    passMeanMicros: null,
  };
}

/** The page's run as the CLI's BenchRun. */
export function pageRun(rows: readonly WebBenchRow[], plan: WebBenchPlan, page: PageEnvironment): BenchRun {
  const environment: BenchEnvironment = {
    cpu: `unknown (a browser page: ${page.browser})`,
    cores: page.cores,
    node: `none (${page.browser})`,
    v8: "n/a",
    buildFlags: buildFacts.flags.release ?? "unknown",
    commit: buildFacts.commit ?? "unknown",
    date: page.started.toISOString(),
    seed: plan.seed,
    limit: plan.limit,
    timeMs: plan.timeMs,
    budget: plan.budget,
    tinybench: "bundled (bench/measure/batches.ts, in the page's worker)",
    puzzles: plan.puzzles,
    datasets: page.datasets.map((d) => ({ ...d, drawn: Math.min(plan.puzzles, d.size) })),
  };
  return { environment, records: rows.map((row) => toRecord(row, plan)) };
}

/** The run as the bench's JSON file (`--json`). */
export const pageJson = (run: BenchRun): string => formatJson(run);
/** The run as the bench's CSV file (`--csv`). */
export const pageCsv = (run: BenchRun): string => formatRunCsv(run);

/** The first 16 hex digits of the SHA-256 of `bytes`, as the bench records a dataset (bench/env.ts). */
export async function contentHash(bytes: ArrayBuffer): Promise<string> {
  // crypto.subtle exists only in a secure context (https, or localhost): a page served over plain http from another host has none.
  const digest = globalThis.crypto?.subtle ? new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)) : sha256(new Uint8Array(bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, 16);
}
