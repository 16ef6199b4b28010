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

// ─── The profiler's (npm run profile): one record per dataset × kernel variant, datasets outermost ───

/** One puzzle of a hardest-puzzles list. */
export interface HardPuzzle {
  /** 1-based line of the puzzle in its dataset file. */
  line: number;
  /** Time to solve it alone, in µs. */
  micros: number;
  guesses: number;
  /** Search nodes (states propagated), as a positive number even when the budget stopped it. */
  nodes: number;
  /** True when the node budget stopped the search: guesses and nodes are then lower bounds. */
  timedOut: boolean;
}

/** Per-puzzle results in parallel arrays, indexed by profiled puzzle (in file order). */
export interface PerPuzzle {
  /** 1-based line of each puzzle in the dataset file. */
  lines: number[];
  /** µs to solve the puzzle alone (run(1) after a warm-up; fastest of several passes when short). */
  micros: number[];
  /** Solutions counted, up to the limit. */
  counts: number[];
  guesses: number[];
  /** Search nodes, negative where the node budget stopped the search (as the kernel reports them). */
  nodes: number[];
}

/** One kernel variant on one dataset (the dataset, its size and the limit as the bench's records have them). */
export interface ProfileRecord extends Pick<BenchRecord, "dataset" | "datasetSize" | "limit"> {
  /** Registry id of the variant: `wasm` or `wasm:<name>`. */
  variant: string;
  /** The variant's idea in one line (from the registry). */
  description: string;
  /** Puzzles profiled (all of them, or a seeded sample in file order). */
  puzzles: number;
  /** Node budget per puzzle. */
  budget: number;
  /** Whole-batch run(n) calls timed; puzzles/s comes from their median. */
  batchCalls: number;
  /** Median ms of one whole-batch run(n) call. */
  batchMs: number;
  /** Puzzles per second: puzzles / median batch time. */
  puzzlesPerSecond: number;
  /** Mean guesses per puzzle (timed-out puzzles count the guesses made before the budget ran out). */
  guessesPerPuzzle: number;
  /** Mean search nodes per puzzle (timed-out puzzles count the budget they spent). */
  nodesPerPuzzle: number;
  /** Share of puzzles solved without a guess (and not timed out), in percent. */
  noGuessPercent: number;
  /** Puzzles the node budget stopped; their counts are not checked, never dropped. */
  timeouts: number;
  /** Per-puzzle µs: median, 90th and 99th percentiles, and the slowest. */
  micros: { p50: number; p90: number; p99: number; max: number };
  /** The slowest puzzles, slowest first. */
  hardestByTime: HardPuzzle[];
  /** The puzzles with the most guesses (ties: more nodes, then slower), most first. */
  hardestByGuesses: HardPuzzle[];
  perPuzzle: PerPuzzle;
}

/** Where and how a profile ran; the bench's environment without its tinybench time. */
export interface ProfileEnvironment extends Omit<BenchEnvironment, "timeMs"> {
  /** Puzzles drawn per dataset (seeded), or null for every puzzle. */
  sample: number | null;
}

/** A whole profile run. */
export interface ProfileRun {
  environment: ProfileEnvironment;
  records: ProfileRecord[];
}
