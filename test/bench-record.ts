/** A hand-made bench record for the report and statistics tests: an engine row of 50 puzzles drawn from 100, 20 timed batches; `overrides` set the rest. */
import type { BenchRecord } from "../bench/records.js";

export function benchRecord(dataset: string, row: string, puzzlesPerSecond: number, overrides: Partial<BenchRecord> = {}): BenchRecord {
  return {
    dataset,
    solver: row,
    mode: "engine",
    row,
    datasetSize: 100,
    selected: 50,
    puzzles: 50,
    timeouts: 0,
    limit: 2,
    effectiveLimit: 2,
    batchCall: false,
    samples: 20,
    puzzlesPerSecond,
    meanMicros: 1e6 / puzzlesPerSecond,
    p50Micros: 1e6 / puzzlesPerSecond / 2,
    p99Micros: 3e6 / puzzlesPerSecond,
    rmePercent: 1.5,
    guessesPerPuzzle: 4.25,
    noGuessPercent: 30,
    reference: null,
    speedup: null,
    comparedOn: null,
    threads: null,
    cpuPerWall: null,
    ...overrides,
  };
}
