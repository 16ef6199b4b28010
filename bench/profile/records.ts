/** What a profile run returns: data only, no formatting; one record per dataset × kernel variant, datasets outermost. */
import type { BenchEnvironment, BenchRecord } from "../records.js";

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
