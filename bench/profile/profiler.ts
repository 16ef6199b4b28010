/**
 * The profiling core: kernel variants × datasets → records. Nothing here prints.
 *
 * Per dataset, the puzzles (all, or a seeded sample kept in file order) are parsed once. Per
 * variant on that dataset:
 *
 *   1. warm-up        one untimed run() on the first WARMUP_PUZZLES puzzles, so V8 has
 *                     tiered the kernel up before anything is timed.
 *   2. batch timing   run(n) on all puzzles, timed alone with process.hrtime.bigint(); repeated
 *                     until there are MIN_BATCH_CALLS calls and MIN_BATCH_MS of them, stopping
 *                     early once they reach BATCH_TIME_CAP_MS; puzzles/s comes from the median
 *                     call. The first call's answers are checked after its timing (solution valid, count as
 *                     the dataset expects, every variant agreeing on every puzzle none timed
 *                     out on); each later call must give the same counts.
 *   3. per puzzle     each puzzle alone: input(1) written, then hrtime around run(1, limit,
 *                     budget). Puzzles under SHORT_PUZZLE_MICROS, or whose µs per node is over
 *                     SPIKE_FACTOR × the median, get more passes, the fastest kept, so a
 *                     scheduler pause on a loaded machine does not pass for a hard puzzle.
 *                     Alone, each puzzle must give the batch's count, guesses and nodes.
 *
 * A wrong or inconsistent answer throws (WrongAnswerError names the variant, dataset line
 * and reason): the run fails loudly rather than report figures of a broken variant.
 */
import { type Dataset, datasetGrid } from "../../src/datasets.js";
import { CELLS, type Grid } from "../../src/puzzle.js";
import type { WasmKernel } from "../../src/wasm.js";
import type { BenchProgress } from "../runner.js";
import { quantile, seededSample } from "../sample.js";
import { CountConsensus, type Expectation, WrongAnswerError, answerProblem, expectationOf } from "../verify.js";
import type { HardPuzzle, PerPuzzle, ProfileRecord } from "./records.js";

/** Puzzles in the warm-up batch. */
const WARMUP_PUZZLES = 64;
/** Timed whole-batch calls per variant × dataset: at least MIN_BATCH_CALLS and MIN_BATCH_MS in all… */
const MIN_BATCH_CALLS = 3;
const MIN_BATCH_MS = 300;
/** …but none after the calls so far took BATCH_TIME_CAP_MS (slow variants run once), and at most MAX_BATCH_CALLS. */
const BATCH_TIME_CAP_MS = 2000;
const MAX_BATCH_CALLS = 100;
/** Passes of the per-puzzle timing; a puzzle retimed in a later pass keeps its fastest time. */
const TIMING_PASSES = 3;
/** Puzzles faster than this are always retimed (a pause of a few ms would swamp them). */
const SHORT_PUZZLE_MICROS = 1000;
/**
 * Slower puzzles are retimed when their µs per search node is over this many times the
 * variant's median: nodes are exact, so such a time is a pause of the machine, not a hard puzzle.
 */
const SPIKE_FACTOR = 4;
/** Length of each hardest-puzzles list. */
export const HARDEST_COUNT = 10;

/** The part of a kernel the profiler drives: write puzzles in, run a batch. */
export type ProfiledKernel = Pick<WasmKernel, "input" | "run">;

/** A kernel variant to profile. */
export interface ProfileVariant {
  /** Registry id: `wasm` or `wasm:<name>`. */
  id: string;
  /** Its idea in one line. */
  description: string;
  load(): Promise<ProfiledKernel>;
}

/** What to profile and how. */
export interface ProfilePlan {
  variants: readonly ProfileVariant[];
  datasets: readonly Dataset[];
  /** Count solutions up to this (1 or 2). */
  limit: number;
  /** Node budget per puzzle. */
  budget: number;
  /** Seed of the sample draw. */
  seed: number;
  /** Puzzles drawn per dataset (seeded); undefined for all of them. */
  sample?: number;
  /** Expected counts of a dataset; default {@link expectationOf} its name. */
  expectationOf?(dataset: Dataset): Expectation;
}

const silentProgress: BenchProgress = { begin() {}, row() {}, end() {} };

/** Profiles every variant on every dataset; one record each, datasets outermost. */
export async function profileVariants(plan: ProfilePlan, progress: BenchProgress = silentProgress): Promise<ProfileRecord[]> {
  const kernels = new Map<string, ProfiledKernel>();
  for (const variant of plan.variants) kernels.set(variant.id, await variant.load());
  const records: ProfileRecord[] = [];
  progress.begin(plan.variants.length * plan.datasets.length);
  try {
    for (const dataset of plan.datasets) {
      const draw = drawPuzzles(dataset, plan);
      for (const variant of plan.variants) {
        progress.row(`${dataset.name} · ${variant.id}`);
        const measured = measureVariant(kernels.get(variant.id)!, variant.id, draw, plan);
        records.push(summarise(variant, draw, plan, measured));
      }
    }
  } finally {
    progress.end();
  }
  return records;
}

// ─── Puzzles ─────────────────────────────────────────────────────────────────

/** The parsed puzzles of one dataset that every variant solves, and what their counts must be. */
interface PuzzleDraw {
  dataset: Dataset;
  grids: Grid[];
  /** 1-based file line of each grid. */
  lines: number[];
  /** Every grid, back to back (n × 81 bytes). */
  packed: Uint8Array;
  expectation: Expectation;
  /** Counts seen so far on each puzzle, so that every variant must agree. */
  consensus: CountConsensus;
}

/** The puzzle indices to profile: all, or a seeded sample put back in file order. */
function pickPuzzles(size: number, sample: number | undefined, seed: number): number[] {
  if (sample === undefined || sample >= size) return Array.from({ length: size }, (_, i) => i);
  return seededSample(size, sample, seed).sort((a, b) => a - b);
}

function drawPuzzles(dataset: Dataset, plan: ProfilePlan): PuzzleDraw {
  const picked = pickPuzzles(dataset.puzzles.length, plan.sample, plan.seed);
  if (picked.length === 0) throw new Error(`${dataset.path}: no puzzles`);
  const lines = picked.map((i) => dataset.lines[i]);
  const grids = picked.map((i) => datasetGrid(dataset, i));
  const packed = new Uint8Array(grids.length * CELLS);
  grids.forEach((grid, i) => packed.set(grid, i * CELLS));
  const expectation = plan.expectationOf?.(dataset) ?? expectationOf(dataset.name);
  return { dataset, grids, lines, packed, expectation, consensus: new CountConsensus() };
}

// ─── Measuring one variant ───────────────────────────────────────────────────

/** One variant's raw measurements on one dataset. */
interface Measured {
  /** ms of each timed whole-batch call. */
  batchMs: number[];
  counts: Int32Array;
  guesses: Int32Array;
  nodes: Int32Array;
  /** µs of each puzzle alone. */
  micros: Float64Array;
}

function measureVariant(kernel: ProfiledKernel, variant: string, draw: PuzzleDraw, plan: ProfilePlan): Measured {
  const count = draw.grids.length;
  const warmup = Math.min(count, WARMUP_PUZZLES);
  kernel.input(warmup).set(draw.packed.subarray(0, warmup * CELLS));
  kernel.run(warmup, plan.limit, plan.budget);
  const batch = timeBatch(kernel, variant, draw, plan);
  const micros = timeEachPuzzle(kernel, draw.grids, plan, batch.nodes, (index, alone) => {
    const inBatch = [batch.counts[index], batch.guesses[index], batch.nodes[index]];
    if (alone.some((value, k) => value !== inBatch[k])) {
      throw new Error(
        `${variant} on ${draw.dataset.name} line ${draw.lines[index]}: alone it gave count/guesses/nodes ` +
          `${alone.join("/")}, in the batch ${inBatch.join("/")}`,
      );
    }
  });
  return { ...batch, micros };
}

/** Times whole-batch run(n) calls; returns their ms and the first call's (checked) answers. */
function timeBatch(kernel: ProfiledKernel, variant: string, draw: PuzzleDraw, plan: ProfilePlan): Omit<Measured, "micros"> {
  const count = draw.grids.length;
  const batchMs: number[] = [];
  let answers: Omit<Measured, "micros" | "batchMs"> | null = null;
  while (wantsAnotherBatch(batchMs)) {
    kernel.input(count).set(draw.packed); // run(1) below and earlier variants' calls overwrite the region
    const start = process.hrtime.bigint();
    const result = kernel.run(count, plan.limit, plan.budget);
    batchMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (answers === null) {
      checkAnswers(result, variant, draw, plan.limit);
      answers = { counts: result.counts.slice(), guesses: result.guesses.slice(), nodes: result.nodes!.slice() };
    } else if (!sameValues(result.counts, answers.counts)) {
      throw new Error(`${variant} on ${draw.dataset.name}: timed batch ${batchMs.length} counted differently from the first`);
    }
  }
  return { batchMs, ...answers! };
}

/** Checks every answer of a batch: solution and count, and agreement with the variants before. */
function checkAnswers(result: ReturnType<ProfiledKernel["run"]>, variant: string, draw: PuzzleDraw, limit: number): void {
  for (let i = 0; i < draw.grids.length; i++) {
    const count = result.counts[i];
    const timedOut = result.nodes![i] < 0;
    const solution = result.solutions.subarray(i * CELLS, (i + 1) * CELLS);
    const problem =
      answerProblem(draw.grids[i], { count, solution, timedOut }, draw.expectation, limit) ??
      (timedOut ? null : draw.consensus.check(i, count, limit, variant));
    if (problem) throw new WrongAnswerError(variant, draw.dataset.name, draw.lines[i], draw.grids[i], problem);
  }
}

/**
 * µs of each puzzle solved alone: hrtime around run(1) (the puzzle is written first). Later
 * passes retime the short puzzles and the spikes (see SPIKE_FACTOR), keeping the fastest.
 * `check` sees each puzzle's first answer as [count, guesses, nodes], after its timing.
 */
function timeEachPuzzle(
  kernel: ProfiledKernel,
  grids: readonly Grid[],
  plan: ProfilePlan,
  nodes: Int32Array,
  check: (index: number, answer: number[]) => void,
): Float64Array {
  const micros = new Float64Array(grids.length).fill(Infinity);
  const nodesOf = (i: number) => Math.max(1, Math.abs(nodes[i]));
  let spikeMicrosPerNode = Infinity;
  for (let pass = 0; pass < TIMING_PASSES; pass++) {
    if (pass === 1) spikeMicrosPerNode = SPIKE_FACTOR * quantile(micros.map((m, i) => m / nodesOf(i)).sort(), 0.5);
    for (let i = 0; i < grids.length; i++) {
      if (pass > 0 && micros[i] >= SHORT_PUZZLE_MICROS && micros[i] <= spikeMicrosPerNode * nodesOf(i)) continue;
      kernel.input(1).set(grids[i]);
      const start = process.hrtime.bigint();
      const result = kernel.run(1, plan.limit, plan.budget);
      micros[i] = Math.min(micros[i], Number(process.hrtime.bigint() - start) / 1000);
      if (pass === 0) check(i, [result.counts[0], result.guesses[0], result.nodes![0]]);
    }
  }
  return micros;
}

/** True while the timed batch calls so far are too few or too short, and under the cap. */
function wantsAnotherBatch(batchMs: readonly number[]): boolean {
  if (batchMs.length === 0) return true;
  const total = sum(batchMs);
  if (total >= BATCH_TIME_CAP_MS || batchMs.length >= MAX_BATCH_CALLS) return false;
  return batchMs.length < MIN_BATCH_CALLS || total < MIN_BATCH_MS;
}

function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i];
  return total;
}

function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// ─── Records ─────────────────────────────────────────────────────────────────

function summarise(variant: ProfileVariant, draw: PuzzleDraw, plan: ProfilePlan, measured: Measured): ProfileRecord {
  const { counts, guesses, nodes, micros, batchMs } = measured;
  const puzzles = draw.grids.length;
  const sortedMicros = Float64Array.from(micros).sort();
  const sortedBatchMs = Float64Array.from(batchMs).sort();
  const medianBatchMs = quantile(sortedBatchMs, 0.5);
  const perPuzzle: PerPuzzle = {
    lines: [...draw.lines],
    micros: Array.from(micros),
    counts: Array.from(counts),
    guesses: Array.from(guesses),
    nodes: Array.from(nodes),
  };
  let timeouts = 0;
  let noGuess = 0;
  for (let i = 0; i < puzzles; i++) {
    if (nodes[i] < 0) timeouts++;
    else if (guesses[i] === 0) noGuess++;
  }
  return {
    dataset: draw.dataset.name,
    variant: variant.id,
    description: variant.description,
    datasetSize: draw.dataset.puzzles.length,
    puzzles,
    limit: plan.limit,
    budget: plan.budget,
    batchCalls: batchMs.length,
    batchMs: medianBatchMs,
    puzzlesPerSecond: (puzzles * 1000) / medianBatchMs,
    guessesPerPuzzle: sum(guesses) / puzzles,
    nodesPerPuzzle: sum(nodes.map(Math.abs)) / puzzles,
    noGuessPercent: (100 * noGuess) / puzzles,
    timeouts,
    micros: {
      p50: quantile(sortedMicros, 0.5),
      p90: quantile(sortedMicros, 0.9),
      p99: quantile(sortedMicros, 0.99),
      max: sortedMicros[puzzles - 1],
    },
    hardestByTime: hardest(perPuzzle, (a, b) => perPuzzle.micros[b] - perPuzzle.micros[a]),
    hardestByGuesses: hardest(perPuzzle, (a, b) => byGuesses(perPuzzle, a, b)),
    perPuzzle,
  };
}

/** Most guesses first; ties: more nodes, then slower. */
function byGuesses(perPuzzle: PerPuzzle, a: number, b: number): number {
  const { guesses, nodes, micros } = perPuzzle;
  return guesses[b] - guesses[a] || Math.abs(nodes[b]) - Math.abs(nodes[a]) || micros[b] - micros[a];
}

/** The first HARDEST_COUNT puzzles in `order`. */
function hardest(perPuzzle: PerPuzzle, order: (a: number, b: number) => number): HardPuzzle[] {
  const indices = perPuzzle.lines.map((_, i) => i).sort(order).slice(0, HARDEST_COUNT);
  return indices.map((i) => ({
    line: perPuzzle.lines[i],
    micros: perPuzzle.micros[i],
    guesses: perPuzzle.guesses[i],
    nodes: Math.abs(perPuzzle.nodes[i]),
    timedOut: perPuzzle.nodes[i] < 0,
  }));
}
