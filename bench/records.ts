/** What a benchmark run returns: data only, no formatting; every writer in bench/report/ turns it into one output. */

import type { RatioEstimate } from "./statistics.js";

/**
 * How a row drives its solver: "engine" (solveBatch when it has one, else countSolutions in a
 * loop), "per-puzzle" (countSolutions once per puzzle on an engine that also batches) or "threads".
 */
export type RowMode = "engine" | "per-puzzle" | "threads";

/** One measured row: a solver, driven one way, on one dataset. */
export interface BenchRecord {
  /** Dataset name (file name without extension). */
  dataset: string;
  /** Registry id of the solver. */
  solver: string;
  mode: RowMode;
  /** Label shown in tables and the chart, unique within a dataset ("wasm", "wasm per puzzle"). */
  row: string;
  /** Puzzles in the dataset file. */
  datasetSize: number;
  /** Puzzles drawn from the dataset (seeded) for every row of this dataset. */
  selected: number;
  /** Puzzles this row solved per timed batch; fewer than `selected` when the row was sampled. */
  puzzles: number;
  /** Puzzles of the batch that hit the work budget (counted as solved work, not verified). */
  timeouts: number;
  /** The run's limit: solutions counted up to this. */
  limit: number;
  /** What this solver counts up to: `limit`, or 1 for solvers that stop at the first solution. */
  effectiveLimit: number;
  /** One call solves the whole batch (solveBatch, or a batch per worker) rather than one call per puzzle. */
  batchCall: boolean;
  /** Timed batches tinybench collected. */
  samples: number;
  /** Puzzles per second: batch size / mean batch latency. */
  puzzlesPerSecond: number;
  /** Mean microseconds per puzzle: mean batch latency / batch size. */
  meanMicros: number;
  /** Median microseconds per puzzle from the per-puzzle pass; null where there is none (threads). */
  p50Micros: number | null;
  /** 99th percentile microseconds per puzzle from the per-puzzle pass; null where there is none. */
  p99Micros: number | null;
  /** Relative margin of error of the mean batch latency (95%), in percent. */
  rmePercent: number;
  /** Mean guesses per puzzle; null when the solver cannot report guesses. */
  guessesPerPuzzle: number | null;
  /** Share of puzzles solved without a guess, in percent; null when guesses are not reported. */
  noGuessPercent: number | null;
  /** Row label of the reference this row is compared with, or null when there is none. */
  reference: string | null;
  /** Reference µs/puzzle ÷ this row's on the first `comparedOn` puzzles (above 1: faster); null without a reference. */
  speedup: number | null;
  /** Puzzles both this row and the reference solved (fewer than `puzzles` when either was sampled). */
  comparedOn: number | null;
  /** Worker threads used (threads rows only). */
  threads: number | null;
  /** Process CPU time / wall time while timing (threads rows only); near `threads` when they all ran. */
  cpuPerWall: number | null;
  /** Latency of every timed batch in ms (tinybench's samples, ascending). */
  batchMs?: number[];
  /** Mean µs per puzzle of each timing round (rounds.ts), in the order they ran. */
  roundMicros?: number[];
  /** How busy the machine's other cores were while the row was timed (0–1, this process's time left out); null on one core. */
  otherCoresBusy?: number | null;
  /** Process CPU µs per puzzle of each timing round; absent where there is no CPU clock (the web page). */
  roundCpuMicros?: number[];
  /** CPU µs per unit of the calibration work (calibration.ts) beside each round: `--compare` judges roundCpuMicros ÷ this. */
  calibrationMicros?: number[];
  /** Mean µs per puzzle of the per-puzzle pass (the pass behind p50/p99); null where there is none. */
  passMeanMicros?: number | null;
  /** Peak resident memory of the bench process when the row ended, in MB (it never falls: a row's need is the rise over the row before). */
  peakRssMb?: number;
  /** The 95% interval of `speedup` and how it was found; null when there is no reference. */
  speedupInterval?: { low: number; high: number; method: RatioEstimate["method"] } | null;
}

/** Which file a dataset's puzzles came from, so that two runs can tell they read the same puzzles. */
export interface DatasetIdentity {
  name: string;
  /** First 16 hex digits of the SHA-256 of the file's bytes. */
  sha256: string;
  /** Puzzles in the file. */
  size: number;
  /** Puzzles drawn from it for this run. */
  drawn: number;
}

/** Where and how a run was made; recorded with every result. */
export interface BenchEnvironment {
  cpu: string;
  cores: number;
  node: string;
  v8: string;
  /** The release target's compiler flags from asconfig.json. */
  buildFlags: string;
  /** Git commit, or "unknown". */
  commit: string;
  /** ISO date and time the run started. */
  date: string;
  seed: number;
  limit: number;
  /** tinybench time budget per row, in ms. */
  timeMs: number;
  /** Work cap per puzzle for solvers that honour one (engine-defined search nodes). */
  budget: number;
  tinybench: string;
  /** Puzzles drawn per dataset (--puzzles). */
  puzzles?: number;
  /** The datasets read, with their content hashes. */
  datasets?: DatasetIdentity[];
  /** The calibration work's name and source hash (bench/calibration.ts); absent where no row was calibrated (the web page). */
  calibration?: string;
  /** True when each timing round of each row ran in a fresh worker thread (--fresh-rounds); absent otherwise. */
  freshRounds?: boolean;
}

/** A whole run: the environment and the records. */
export interface BenchRun {
  environment: BenchEnvironment;
  records: BenchRecord[];
  /** Present when the run was interrupted: its records are the rows finished by then. */
  incomplete?: { signal: string; rowsPlanned: number };
}
