/** What a benchmark run returns: data only, each writer in bench/report/ turns it into one output. Fields: docs/bench-result.schema.json. */

import type { RatioEstimate } from "./statistics.js";

/** "engine": solveBatch when it has one, else countSolutions in a loop; "per-puzzle": countSolutions on an engine that also batches. */
export type RowMode = "engine" | "per-puzzle" | "threads";

/** One measured row: a solver, driven one way, on one dataset. */
export interface BenchRecord {
  dataset: string;
  solver: string;
  mode: RowMode;
  row: string;
  datasetSize: number;
  selected: number;
  puzzles: number;
  timeouts: number;
  limit: number;
  effectiveLimit: number;
  batchCall: boolean;
  samples: number;
  puzzlesPerSecond: number;
  meanMicros: number;
  p50Micros: number | null;
  p99Micros: number | null;
  rmePercent: number;
  guessesPerPuzzle: number | null;
  noGuessPercent: number | null;
  reference: string | null;
  speedup: number | null;
  comparedOn: number | null;
  threads: number | null;
  cpuPerWall: number | null;
  batchMs?: number[];
  roundMicros?: number[];
  roundCpuMicros?: number[];
  calibrationMicros?: number[];
  speedShift?: number | null;
  passMeanMicros?: number | null;
  peakRssMb?: number;
  speedupInterval?: { low: number; high: number; method: RatioEstimate["method"] } | null;
}

/** Which file a dataset's puzzles came from (SHA-256 prefix), so that two runs can tell they read the same puzzles. */
export interface DatasetIdentity {
  name: string;
  sha256: string;
  size: number;
  drawn: number;
}

export interface BenchEnvironment {
  cpu: string;
  /** The widest vector instructions the CPU reports (bench/tool.ts vectorUnits), where it can be told. */
  vectorUnits?: string;
  /** The CPU's family and model numbers (bench/tool.ts cpuFamily), where they can be told. */
  cpuFamily?: string;
  cores: number;
  node: string;
  v8: string;
  buildFlags: string;
  /** The commit measured (12 hex digits), `-dirty` after it when tracked files differed from it (as `git describe --dirty` marks it). */
  commit: string;
  date: string;
  seed: number;
  limit: number;
  timeMs: number;
  budget: number;
  tinybench: string;
  puzzles?: number;
  datasets?: DatasetIdentity[];
  calibration?: string;
  freshRounds?: boolean;
}

export interface BenchRun {
  environment: BenchEnvironment;
  records: BenchRecord[];
  incomplete?: { signal: string; rowsPlanned: number };
}

// ─── The profiler's: one record per dataset × kernel variant ───

/** One puzzle of a hardest-puzzles list. */
export interface HardPuzzle {
  /** 1-based line of the puzzle in its dataset file. */
  line: number;
  /** µs to solve it alone. */
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
  counts: number[];
  guesses: number[];
  /** Search nodes, negative where the node budget stopped the search (as the kernel reports them). */
  nodes: number[];
}

/** One kernel variant on one dataset (the dataset, its size and the limit as the bench's records have them). */
export interface ProfileRecord extends Pick<BenchRecord, "dataset" | "datasetSize" | "limit"> {
  /** Registry id of the variant: `wasm` or `wasm:<name>`. */
  variant: string;
  /** The variant's idea in one line. */
  description: string;
  /** Puzzles profiled (all of them, or a seeded sample in file order). */
  puzzles: number;
  budget: number;
  /** Whole-batch run(n) calls timed; `batchMs` and puzzles/s come from their median. */
  batchCalls: number;
  batchMs: number;
  puzzlesPerSecond: number;
  /** Mean guesses per puzzle (timed-out puzzles count the guesses made before the budget ran out). */
  guessesPerPuzzle: number;
  /** Mean search nodes per puzzle (timed-out puzzles count the budget they spent). */
  nodesPerPuzzle: number;
  /** Share of puzzles solved without a guess (and not timed out), in percent. */
  noGuessPercent: number;
  /** Puzzles the node budget stopped; their counts are not checked, never dropped. */
  timeouts: number;
  micros: { p50: number; p90: number; p99: number; max: number };
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

export interface ProfileRun {
  environment: ProfileEnvironment;
  records: ProfileRecord[];
}
