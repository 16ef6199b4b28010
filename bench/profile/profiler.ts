/**
 * The profiling core: kernel variants × datasets → records; nothing here prints. Per variant on a dataset:
 *
 *   1. warm-up        one untimed run() on the first WARMUP_PUZZLES puzzles
 *   2. check          one untimed run(n) on all puzzles, its answers checked
 *   3. batch timing   tinybench times run(n), puzzles written in again before each call; puzzles/s from the median call
 *   4. per puzzle     hrtime around run(1) on each puzzle alone after WARMUP_CALLS untimed calls; short puzzles and
 *                     spikes retimed, the fastest kept; alone, each puzzle must give the batch's count, guesses and nodes
 *
 * The first variant on the first dataset is measured twice and its first measurement dropped: V8 compiles the
 * measuring code meanwhile, on the same cores.
 */
import type { Grid } from "../../src/model/puzzle.js";
import { CELLS } from "../../src/model/shape.js";
import { answerChecker, batchAnswers, checkAnswers, summarizeGuesses } from "../measure/check.js";
import { type Draw, drawPuzzles, seededSample } from "../measure/draw.js";
import { timeBatches } from "../measure/batches.js";
import type { BatchKernel } from "../measure/kernel.js";
import { SHORT_PUZZLE_MICROS, TIMING_PASSES, microsSince, retimeFastest, sumOf } from "../measure/timing.js";
import { type MeasurePlan, type MeasureProgress, measureRows, silentProgress } from "../measure/rows.js";
import { quantile } from "../../src/model/quantile.js";
import type { HardPuzzle, PerPuzzle, ProfileRecord } from "../records.js";

/** Puzzles in the warm-up batch and in the untimed calls on puzzles alone. */
const WARMUP_PUZZLES = 64;
/** Untimed run(1) calls before a variant's per-puzzle timing ({@link warmUpAlone}). */
const WARMUP_CALLS = 4096;
/** Timed whole-batch calls per variant × dataset: at least MIN_BATCH_CALLS and MIN_BATCH_MS in all… */
const MIN_BATCH_CALLS = 3;
const MIN_BATCH_MS = 300;
/** …but fewer calls when MIN_BATCH_CALLS of them would take over BATCH_TIME_CAP_MS (at least one). */
const BATCH_TIME_CAP_MS = 2000;
/** Puzzles whose µs per search node is over this many times the median are retimed: nodes are exact, so that is a pause, not a hard puzzle. */
const SPIKE_FACTOR = 4;
export const HARDEST_COUNT = 10;

export interface ProfileVariant {
  /** Registry id: `wasm` or `wasm:<name>`. */
  id: string;
  /** Its idea in one line. */
  description: string;
  load(): Promise<BatchKernel>;
}

export interface ProfilePlan extends MeasurePlan {
  variants: readonly ProfileVariant[];
  /** Puzzles drawn per dataset (seeded); undefined for all of them. */
  sample?: number;
}

/** Profiles every variant on every dataset; one record each, datasets outermost. */
export async function profileVariants(plan: ProfilePlan, progress: MeasureProgress<ProfileRecord> = silentProgress): Promise<ProfileRecord[]> {
  const kernels = new Map<string, BatchKernel>();
  for (const variant of plan.variants) kernels.set(variant.id, await variant.load());
  let primed = false;
  return measureRows(
    plan.datasets.map((dataset) => [dataset, plan.variants] as const),
    (variant) => variant.id,
    (dataset) => {
      const size = dataset.puzzles.length;
      const all = plan.sample === undefined || plan.sample >= size;
      const picked = all ? Array.from({ length: size }, (_, i) => i) : seededSample(size, plan.sample!, plan.seed).sort((a, b) => a - b);
      return drawPuzzles(dataset, picked, plan.expectationOf?.(dataset));
    },
    async (variant, draw) => {
      const kernel = kernels.get(variant.id)!;
      if (!primed) await measureVariant(kernel, variant.id, draw, plan); // see the file comment
      primed = true;
      return summarise(variant, draw, plan, await measureVariant(kernel, variant.id, draw, plan));
    },
    progress,
    plan.signal,
  );
}

// ─── Measuring one variant ───────────────────────────────────────────────────

/** One variant's raw measurements on one dataset. */
interface Measured {
  /** ms of each timed whole-batch call, ascending. */
  batchMs: number[];
  medianMs: number;
  counts: Int32Array;
  guesses: Int32Array;
  nodes: Int32Array;
  micros: Float64Array;
}

/** Untimed run(1) calls on the first puzzles: V8 re-optimises the calling code for each new kernel instance, over some thousands of calls. */
function warmUpAlone(kernel: BatchKernel, draw: Draw, plan: ProfilePlan): void {
  const puzzles = Math.min(draw.grids.length, WARMUP_PUZZLES);
  for (let call = 0; call < WARMUP_CALLS; call++) {
    kernel.input(1).set(draw.grids[call % puzzles]);
    kernel.run(1, plan.limit, plan.budget);
  }
}

async function measureVariant(kernel: BatchKernel, variant: string, draw: Draw, plan: ProfilePlan): Promise<Measured> {
  const count = draw.grids.length;
  const warmup = Math.min(count, WARMUP_PUZZLES);
  kernel.input(warmup).set(draw.packed.subarray(0, warmup * CELLS));
  kernel.run(warmup, plan.limit, plan.budget);
  const batch = await timeBatch(kernel, variant, draw, plan);
  warmUpAlone(kernel, draw, plan);
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

/** Checks one whole-batch run(n) call, then times more; returns their ms and the checked answers. */
async function timeBatch(kernel: BatchKernel, variant: string, draw: Draw, plan: ProfilePlan): Promise<Omit<Measured, "micros">> {
  const count = draw.grids.length;
  // run(1) below and earlier variants' calls overwrite the input region
  const writePuzzles = () => kernel.input(count).set(draw.packed);
  writePuzzles();
  const start = process.hrtime.bigint();
  const result = kernel.run(count, plan.limit, plan.budget);
  const checkedMs = microsSince(start) / 1000;
  const total = checkAnswers(batchAnswers(result, count), count, answerChecker(draw, variant, plan.limit));
  const answers = { counts: result.counts.slice(), guesses: result.guesses.slice(), nodes: result.nodes.slice() };
  const minCalls = Math.max(1, Math.min(MIN_BATCH_CALLS, Math.floor(BATCH_TIME_CAP_MS / checkedMs)));
  const solveBatch = () => sumOf(kernel.run(count, plan.limit, plan.budget).counts);
  const timing = await timeBatches(`${variant} on ${draw.dataset.name}`, solveBatch, total, {
    timeMs: MIN_BATCH_MS,
    minCalls,
    warmupMs: 0, // the warm-up batch and the checked call came first
    beforeEach: writePuzzles,
    signal: plan.signal,
  });
  return { batchMs: timing.batchMs, medianMs: timing.medianMs, ...answers };
}

/** µs of each puzzle solved alone, short puzzles and spikes retimed; `check` sees each first answer as [count, guesses, nodes]. */
function timeEachPuzzle(
  kernel: BatchKernel,
  grids: readonly Grid[],
  plan: ProfilePlan,
  nodes: Int32Array,
  check: (index: number, answer: number[]) => void,
): Float64Array {
  const micros = new Float64Array(grids.length);
  const nodesOf = (i: number) => Math.max(1, Math.abs(nodes[i]));
  const solveOne = (i: number) => {
    kernel.input(1).set(grids[i]);
    return kernel.run(1, plan.limit, plan.budget);
  };
  for (let i = 0; i < grids.length; i++) {
    kernel.input(1).set(grids[i]);
    const start = process.hrtime.bigint();
    const result = kernel.run(1, plan.limit, plan.budget);
    micros[i] = microsSince(start);
    check(i, [result.counts[0], result.guesses[0], result.nodes[0]]);
  }
  const spikeMicrosPerNode = SPIKE_FACTOR * quantile(micros.map((m, i) => m / nodesOf(i)).sort(), 0.5);
  return retimeFastest(micros, TIMING_PASSES, (i, time) => time < SHORT_PUZZLE_MICROS || time > spikeMicrosPerNode * nodesOf(i), solveOne);
}

// ─── Records ─────────────────────────────────────────────────────────────────

function summarise(variant: ProfileVariant, draw: Draw, plan: ProfilePlan, measured: Measured): ProfileRecord {
  const { counts, guesses, nodes, micros, batchMs, medianMs: medianBatchMs } = measured;
  const puzzles = draw.grids.length;
  const sortedMicros = Float64Array.from(micros).sort();
  const perPuzzle: PerPuzzle = {
    lines: [...draw.lines],
    micros: Array.from(micros),
    counts: Array.from(counts),
    guesses: Array.from(guesses),
    nodes: Array.from(nodes),
  };
  const guessSummary = summarizeGuesses(guesses, (i) => nodes[i] < 0)!;
  const timeouts = nodes.filter((n) => n < 0).length;
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
    guessesPerPuzzle: guessSummary.mean,
    nodesPerPuzzle: sumOf(nodes.map(Math.abs)) / puzzles,
    noGuessPercent: guessSummary.noGuessPercent,
    timeouts,
    micros: {
      p50: quantile(sortedMicros, 0.5),
      p90: quantile(sortedMicros, 0.9),
      p99: quantile(sortedMicros, 0.99),
      max: sortedMicros[puzzles - 1],
    },
    hardestByTime: hardest(perPuzzle, (a, b) => perPuzzle.micros[b] - perPuzzle.micros[a]),
    hardestByGuesses: hardest(perPuzzle, (a, b) => guesses[b] - guesses[a] || Math.abs(nodes[b]) - Math.abs(nodes[a]) || micros[b] - micros[a]),
    perPuzzle,
  };
}

function hardest(perPuzzle: PerPuzzle, order: (a: number, b: number) => number): HardPuzzle[] {
  const indices = perPuzzle.lines
    .map((_, i) => i)
    .sort(order)
    .slice(0, HARDEST_COUNT);
  return indices.map((i) => ({
    line: perPuzzle.lines[i],
    micros: perPuzzle.micros[i],
    guesses: perPuzzle.guesses[i],
    nodes: Math.abs(perPuzzle.nodes[i]),
    timedOut: perPuzzle.nodes[i] < 0,
  }));
}
