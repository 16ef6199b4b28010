/**
 * The measuring core: solvers × datasets → records; nothing here prints. Per row (a solver driven
 * one way) on a dataset's seeded draw:
 *
 *   1. verification pass   countSolutions per puzzle, each answer checked; a solver's first row, warmed
 *                          up first, keeps the longest prefix of 10, 20, 40, … puzzles (or all) whose
 *                          calls took at most PASS_SHARE of `timeMs`: fewer, it is "sampled"
 *   2. batch check         engines with solveBatch: one checked batch call on that prefix
 *   3. tinybench           the batch timed in `rounds` rounds sharing `timeMs` (rounds.ts)
 *   4. per-puzzle pass     hrtime around each call, short puzzles retimed: the percentiles
 *
 * Answers are checked only outside the timed region, after every timed batch too. With a signal,
 * the event loop gets a turn between and within rows, so Ctrl-C is seen.
 */
import { inspect } from "node:util";
import type { Dataset } from "../src/datasets/read.js";
import type { Grid } from "../src/model/puzzle.js";
import { shapeName } from "../src/model/shape.js";
import { type SolverInfo, sizeNames, takesSize } from "../src/solvers/registry.js";
import { type BatchResult, type SearchStats, type SolverEngine, solvesBatches } from "../src/solvers/solver.js";
import {
  type AnswerCheck,
  type BatchAnswers,
  type KeptAnswers,
  type PassAnswers,
  type SameAnswerCheck,
  answerChecker,
  batchAnswers,
  batchViews,
  checkAnswers,
  checkSameAnswers,
  countingLoop,
  passAnswers,
  sameAsChecked,
  summarizeGuesses,
} from "./measure/check.js";
import { type Draw, datasetShape, drawPuzzles, pack, seededSample } from "./measure/draw.js";
import { type TimedElsewhere, TimingAborted, eventLoopTurns, yieldToEventLoop } from "./measure/batches.js";
import { TIMING_PASSES, microsSince, retimeFastest, retimes, sumOf } from "./measure/timing.js";
import { type MeasurePlan, type MeasureProgress, measureRows, silentProgress } from "./measure/rows.js";
import type { BenchRecord, RowMode } from "./records.js";
import { median, quantile } from "../src/model/quantile.js";
import { speedRatio } from "./statistics.js";
import { WrongAnswerError } from "./verify.js";
import { markSpeedShifts, mostlyTimedOut } from "./noise.js";
import { DEFAULT_ROUNDS, FRESH_WARMUP_MS, type RoundTiming, calibratedFields, timeRounds } from "./rounds.js";

/** Minimum timed batches per row (tinybench `iterations`). */
const MIN_SAMPLES = 5;
/** Share of `timeMs` a row's puzzles may take, solved once warm, before the row is sampled; keeps ≥ MIN_SAMPLES batches in budget. */
const PASS_SHARE = 1 / MIN_SAMPLES;
/** The longest warm-up on the first puzzles before the sampling decision (see warmUp); a solver whose passes over them steady sooner stops sooner. */
const SAMPLING_WARMUP_MS = 100;
/** How far past (or within) the budget a row's time must be now to leave the prefix an earlier run kept (see samplingRule). */
const SAMPLING_HYSTERESIS = 1.5;
/** A warm-up pass within this factor of the fastest counts as steady. */
const WARM_SPREAD = 1.25;
/** Share of `timeMs` spent warming up before timing. */
const WARMUP_SHARE = 0.2;
/** A sampled row still solves at least this many puzzles (or the whole selection). */
const MIN_SAMPLED_PUZZLES = 10;

export interface BenchPlan extends MeasurePlan {
  solvers: readonly SolverInfo[];
  /** tinybench time budget per row, in ms. */
  timeMs: number;
  /** Rounds each row's timing is split into (rounds.ts), for --compare's between-round spread. @default DEFAULT_ROUNDS */
  rounds?: number;
  maxPuzzles: number;
  /** Solver id every row is compared with; default: the fastest pure-TS baseline of each dataset. */
  reference?: string;
  /** Extra rows that need more than one engine (the kernel on worker threads); see threads.ts. */
  extraRows?: readonly ExtraRow[];
  /** The row that measures `info` in place of its engine row, where one is given (outside solvers in a worker: isolated.ts). */
  isolate?(info: SolverInfo): ExtraRow | undefined;
  /** Where an engine row's timing rounds run when not in this thread (`--fresh-rounds`, isolated.ts); its checked passes stay here. */
  timeElsewhere?(info: SolverInfo, batch: boolean): ExtraRow["open"];
  /** Whether a solver is measured on grids of side `size` (a preset, options.ts); default: every size it takes. */
  takes?(info: SolverInfo, size: number): boolean;
  /** Adds the default kernel's once-per-puzzle row. @default true */
  boundaryRow?: boolean;
  /** The puzzles an earlier run (--compare's) timed a solver's rows on in a dataset: a row near the sampling budget keeps them (samplingRule). */
  sampledBefore?(dataset: string, solver: string): number | undefined;
}

/** A row driven by something other than one engine in this thread (e.g. a worker pool). */
export interface ExtraRow {
  /** Registry id of the solver whose answers it gives; the row follows that solver's rows. */
  solver: string;
  mode: RowMode;
  label: string;
  /** Worker threads of the row; null for a row of one solver in one worker (not a threads row). */
  threads: number | null;
  /** Prepares to solve `grids` again and again, each capped at `budget` nodes; released by `close`. */
  open(grids: readonly Grid[], limit: number, budget: number): Promise<BatchRunner>;
}

/** Solves one prepared batch per call; `close` frees what `open` took. */
export interface BatchRunner {
  /** One untimed call that returns every answer, for checking. */
  answers(): BatchAnswers | Promise<BatchAnswers>;
  /** One timed call; returns the total solution count (and, when timed where it ran, the ms it took there). */
  solve(): number | TimedElsewhere | Promise<number | TimedElsewhere>;
  /** The answers of the last timed call, where the runner can hold them against the checked ones. */
  lastAnswers?(): KeptAnswers | null;
  /** After the last call's answers were checked: a runner that reuses its buffers clears them here. */
  afterCheck?(): void;
  /** Before each timing round: a runner whose rounds each run in a fresh worker thread starts it here. */
  beginRound?(): Promise<void>;
  close(): Promise<void>;
}

/** Runs every row of `plan` on every dataset and returns one record each, in order (`progress` sees each before its reference fields are filled). */
export async function runBench(plan: BenchPlan, progress: MeasureProgress<BenchRecord> = silentProgress): Promise<BenchRecord[]> {
  const engines = new Map<string, SolverEngine>();
  const rows = planRows(plan);
  const micros = new Map<BenchRecord, Float64Array>();
  const records = await measureRows(
    plan.datasets.map((dataset) => [dataset, rowsForShape(rows, plan.solvers, dataset, plan.takes)] as const),
    (row) => row.label,
    (dataset): PuzzleDraw => {
      const picked = seededSample(dataset.puzzles.length, plan.maxPuzzles, plan.seed);
      return { ...drawPuzzles(dataset, picked, plan.expectationOf?.(dataset)), sampleSizes: new Map(), solverMicros: new Map() };
    },
    async (row, draw) => {
      const measured = await measureRow(row, draw, plan, engines).catch((error: unknown) => {
        const name = `${draw.dataset.name} · ${row.label}`;
        throw error instanceof TimingAborted || error instanceof WrongAnswerError ? error : new RowFailure(name, error);
      });
      micros.set(measured.record, measured.micros);
      return measured.record;
    },
    progress,
    plan.signal,
  );
  return markSpeedShifts(applyReference(records, plan.solvers, plan.reference, micros));
}

/** A row that failed for another reason than a wrong answer: names the row and what was thrown. */
export class RowFailure extends Error {
  constructor(row: string, thrown: unknown) {
    let said = describeThrown(thrown);
    if (said.startsWith(`${row}: `)) said = said.slice(row.length + 2);
    const opening = said.slice(0, Math.max(0, said.indexOf(": ")));
    if (opening !== "" && row.endsWith(opening)) said = said.slice(opening.length + 2);
    super(`${row}: ${said}`, { cause: thrown });
    this.name = "RowFailure";
  }
}

/** What a solver threw, for a message: an Error's message, anything else as a value (`"x"`, `null`, `42`). */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  const shown = typeof thrown === "string" ? JSON.stringify(thrown) : inspect(thrown, { depth: 1, breakLength: Infinity });
  return `threw ${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown} (not an Error)`;
}

// ─── Rows ────────────────────────────────────────────────────────────────────

export interface Row {
  info: SolverInfo;
  mode: RowMode;
  label: string;
  extra?: ExtraRow;
}

/** The kernel that also gets a once-per-puzzle row, to show what a boundary crossing costs. */
const BOUNDARY_SOLVER = "wasm";

/** Each solver's own row, the default kernel's once-per-puzzle row, then any extra rows. */
export function planRows(plan: Pick<BenchPlan, "solvers" | "extraRows" | "boundaryRow" | "isolate">): Row[] {
  const rows: Row[] = [];
  for (const info of plan.solvers) {
    const isolated = plan.isolate?.(info);
    rows.push(isolated ? { info, mode: "engine", label: isolated.label, extra: isolated } : { info, mode: "engine", label: info.id });
    if (isolated) continue;
    if (info.id === BOUNDARY_SOLVER && plan.boundaryRow !== false) rows.push({ info, mode: "per-puzzle", label: `${info.id} (1 call/puzzle)` });
    for (const extra of plan.extraRows ?? []) {
      if (extra.solver === info.id) rows.push({ info, mode: extra.mode, label: extra.label, extra });
    }
  }
  return rows;
}

/** The rows of `plan` that run on `dataset` (its grid size); an Error when none does. */
export function plannedRows(plan: BenchPlan, dataset: Dataset): Row[] {
  return rowsForShape(planRows(plan), plan.solvers, dataset, plan.takes);
}

/** The rows whose solver takes the dataset's grid size (and that `chosen` keeps); an Error when none does. */
function rowsForShape(rows: readonly Row[], solvers: readonly SolverInfo[], dataset: Dataset, chosen: BenchPlan["takes"] = () => true): Row[] {
  const shape = datasetShape(dataset.puzzles, dataset.path);
  const taking = rows.filter((row) => takesSize(row.info, shape.size) && chosen(row.info, shape.size));
  if (taking.length === 0) {
    const takes = solvers.map((info) => `${info.id} takes ${sizeNames(info)}`).join("; ");
    throw new Error(`${dataset.name} holds ${shapeName(shape)} puzzles, which no selected solver takes (${takes})`);
  }
  return taking;
}

/** The highest count a solver can return under `limit` (1 for solvers that stop at the first solution). */
export function effectiveLimit(info: SolverInfo, limit: number): number {
  return info.capabilities.uniqueness === false ? 1 : limit;
}

/** The puzzles of one dataset that every row solves (a prefix of them when sampled). */
interface PuzzleDraw extends Draw {
  /** Puzzles each solver's first row kept (the prefix every later row of that solver uses). */
  sampleSizes: Map<string, number>;
  /** Per-puzzle µs of each solver's first row, for rows that time no single puzzle (threads). */
  solverMicros: Map<string, Float64Array>;
}

// ─── Verification and per-puzzle timing ──────────────────────────────────────

/** What a per-puzzle pass saw: the µs of each puzzle it finished (the first `solved`), and their answers. */
interface PassResult {
  solved: number;
  micros: Float64Array;
  answers: PassAnswers;
  timeouts: number;
}

/**
 * Whether a pass goes on after `solved` puzzles, given the µs their calls took by the clock and the
 * µs of CPU time the pass has used; it is asked before each puzzle and once after the last.
 */
type GoOn = (solved: number, spentMicros: number, cpuMicros: () => number) => boolean;

/**
 * Calls countSolutions once per puzzle, timing each call alone; each answer goes to `check` after
 * its timing. Stops when `goOn` says so (by default, after every puzzle); `solved` is then what `goOn` kept.
 */
async function perPuzzlePass(
  engine: SolverEngine,
  grids: readonly Grid[],
  limit: number,
  budget: number,
  check: AnswerCheck,
  signal?: AbortSignal,
  goOn?: GoOn & { kept(): number },
): Promise<PassResult> {
  const answers = passAnswers(grids.length, grids[0]?.length ?? 0);
  const stats: SearchStats = { guesses: 0, timedOut: false };
  const micros = new Float64Array(grids.length);
  if (grids.length > 0) engine.countSolutions(grids[0], limit, new Uint8Array(grids[0].length), stats, budget); // warm-up
  let spentMicros = 0;
  let timeouts = 0;
  let solved = 0;
  const cpuStart = process.cpuUsage();
  const cpuMicros = (): number => {
    const { user, system } = process.cpuUsage(cpuStart);
    return user + system;
  };
  // the sampling decision's retimes (withoutSpike): their answers go to scratch buffers, the checked ones stay
  const recent: number[] = [];
  const scratch = new Uint8Array(grids[0]?.length ?? 0);
  const scratchStats: SearchStats = { guesses: 0, timedOut: false };
  const turn = eventLoopTurns();
  while (solved < grids.length && (!goOn || goOn(solved, spentMicros, cpuMicros))) {
    if (signal) await turn();
    if (signal?.aborted) throw new TimingAborted("per-puzzle pass");
    const start = process.hrtime.bigint();
    const count = engine.countSolutions(grids[solved], limit, answers.views[solved], stats, budget);
    micros[solved] = microsSince(start); // before the answer is stored: only the call is timed
    if (goOn) micros[solved] = withoutSpike(micros[solved], recent, () => engine.countSolutions(grids[solved], limit, scratch, scratchStats, budget));
    answers.counts[solved] = count;
    answers.guesses[solved] = stats.guesses;
    answers.stopped[solved] = stats.timedOut ? 1 : 0;
    spentMicros += micros[solved];
    if (stats.timedOut) timeouts++;
    check(solved, { count, solution: answers.views[solved], timedOut: stats.timedOut });
    solved++;
  }
  if (goOn && solved === grids.length) goOn(solved, spentMicros, cpuMicros);
  const kept = goOn ? goOn.kept() : solved;
  for (let i = kept; i < solved; i++) if (answers.stopped[i]) timeouts--;
  return { solved: kept, micros: micros.subarray(0, kept), answers, timeouts };
}

/** A call this many times the median of the calls before it, and over SPIKE_FLOOR_MICROS, is made again (see {@link withoutSpike}). */
const SPIKE_FACTOR = 4;
const SPIKE_FLOOR_MICROS = 50;
/** The calls before it whose median a call is held against. */
const SPIKE_WINDOW = 9;

/**
 * A call's µs for the sampling decision: when it took over SPIKE_FACTOR× the median of the `recent` calls, the fastest
 * of it and two more calls of the same puzzle; a single call stalled by a collection, or by the compiler's thread on the
 * one core the process has, then does not decide the sample. Adds the result to `recent`.
 */
function withoutSpike(micros: number, recent: number[], again: () => void): number {
  let fastest = micros;
  if (recent.length > 0 && micros > SPIKE_FLOOR_MICROS && micros > SPIKE_FACTOR * median(recent)) {
    for (let i = 0; i < 2; i++) {
      const start = process.hrtime.bigint();
      again();
      fastest = Math.min(fastest, microsSince(start));
    }
  }
  recent.push(fastest);
  if (recent.length > SPIKE_WINDOW) recent.shift();
  return fastest;
}

/** The prefixes a solver's first row may keep: MIN_SAMPLED_PUZZLES, doubled while below `count`, then all `count`. */
export function samplingSteps(count: number): number[] {
  const steps: number[] = [];
  for (let step = MIN_SAMPLED_PUZZLES; step < count; step *= 2) steps.push(step);
  steps.push(count);
  return steps;
}

/**
 * The rule that samples a solver's first row: the pass stops at the first step of {@link samplingSteps}
 * whose puzzles took more than `budgetMs`, by the clock and by this process's CPU time alike (a busy
 * machine does not sample a row that a quiet one would not), and keeps the step before it (the first
 * is always kept); it also stops where the next step, at the mean so far, would not fit. The steps are
 * the same puzzles in every run, and the solver is warm (see {@link warmUp}), so a row sampled in one
 * run is sampled to the same prefix in the next, unless its time lies within noise of the budget.
 * `before`: the prefix an earlier run kept (--compare's), which is kept again unless this run's time is
 * more than SAMPLING_HYSTERESIS× past the budget or within it by as much (hysteresis: a row on a step's
 * edge stays on the earlier run's side, so the two runs time the same puzzles).
 */
export function samplingRule(count: number, budgetMs: number, before?: number): GoOn & { kept(): number } {
  const steps = samplingSteps(count);
  const hint = before !== undefined && steps.includes(before) ? before : undefined;
  const budget = budgetMs * 1000;
  // up to the earlier run's prefix, a step fits in the budget widened; past it, the next step needs it narrowed
  const fitsAt = (step: number) => (hint !== undefined && step <= hint ? budget * SAMPLING_HYSTERESIS : budget);
  let next = 0;
  let kept = Math.min(count, steps[0]);
  let stopped = false;
  const rule = (solved: number, spentMicros: number, cpuMicros: () => number): boolean => {
    if (stopped) return false;
    if (solved < steps[next]) return true;
    const taken = Math.min(spentMicros, cpuMicros());
    if (next > 0 && taken > fitsAt(solved)) return !(stopped = true);
    kept = solved;
    next++;
    if (next === steps.length) return false;
    const projected = (taken / solved) * steps[next];
    return !(stopped = projected > (solved === hint ? budget / SAMPLING_HYSTERESIS : fitsAt(steps[next])));
  };
  return Object.assign(rule, { kept: () => kept });
}

/**
 * Solves the first puzzles of `grids` over and over, unchecked, so that the sampling decision times compiled code: until
 * two passes over them in a row each took within WARM_SPREAD× of the fastest before (neither faster: still compiling,
 * nor slower: stalled), or for `ms` (at least one call).
 */
async function warmUp(engine: SolverEngine, grids: readonly Grid[], limit: number, budget: number, ms: number, signal?: AbortSignal): Promise<void> {
  const first = grids.slice(0, MIN_SAMPLED_PUZZLES);
  const solution = new Uint8Array(grids[0]?.length ?? 0);
  const stats: SearchStats = { guesses: 0, timedOut: false };
  const start = performance.now();
  const turn = eventLoopTurns();
  let fastest = Infinity;
  let steady = 0;
  while (first.length > 0 && steady < 2) {
    const pass = performance.now();
    for (const grid of first) {
      engine.countSolutions(grid, limit, solution, stats, budget);
      if (signal) await turn();
      if (signal?.aborted) throw new TimingAborted("warm-up");
      if (performance.now() - start >= ms) return;
    }
    const took = performance.now() - pass;
    steady = took >= fastest / WARM_SPREAD && took <= fastest * WARM_SPREAD ? steady + 1 : 0; // neither faster nor slower than the best so far
    fastest = Math.min(fastest, took);
  }
}

/** Runs the timed loop over `grids` here for FRESH_WARMUP_MS, so the per-puzzle pass after rounds timed elsewhere times compiled code. */
async function warmPerPuzzle(name: string, engine: SolverEngine, grids: readonly Grid[], limit: number, budget: number, signal?: AbortSignal): Promise<void> {
  const { call } = countingLoop(engine, grids, limit, budget);
  const start = performance.now();
  while (grids.length > 0 && performance.now() - start < FRESH_WARMUP_MS) {
    call();
    await yieldToEventLoop();
    if (signal?.aborted) throw new TimingAborted(name);
  }
}

/** Per-puzzle µs for the percentiles: one checked pass, then more passes over the short puzzles and the spikes ({@link retimes}), each puzzle's fastest kept. */
async function timePerPuzzle(
  engine: SolverEngine,
  grids: readonly Grid[],
  limit: number,
  budget: number,
  check: AnswerCheck,
  same: SameAnswerCheck,
  signal?: AbortSignal,
): Promise<Float64Array> {
  const first = (i: number, answer: Parameters<AnswerCheck>[1]) => (check(i, answer), same(i, answer, "the per-puzzle timing pass"));
  const micros = (await perPuzzlePass(engine, grids, limit, budget, first, signal)).micros;
  const solution = new Uint8Array(grids[0]?.length ?? 0);
  const stats: SearchStats = { guesses: 0, timedOut: false };
  let count = 0;
  const firstMedian = median(micros);
  return retimeFastest(
    micros,
    TIMING_PASSES,
    (_, time) => retimes(time, firstMedian),
    (i) => void (count = engine.countSolutions(grids[i], limit, solution, stats, budget)),
    (i, pass) => {
      same(i, { count, solution, timedOut: stats.timedOut }, `retiming pass ${pass + 1}`);
      solution.fill(0); // the next call must write its solution, not leave this one standing
    },
  );
}

// ─── Measuring one row ───────────────────────────────────────────────────────

/** One row: its answers checked, its batches timed in rounds, and an engine's puzzles timed one by one; its record, and the per-puzzle µs of its puzzles (for comparing on shared puzzles). */
async function measureRow(
  row: Row,
  draw: PuzzleDraw,
  plan: BenchPlan,
  engines: Map<string, SolverEngine>,
): Promise<{ record: BenchRecord; micros: Float64Array }> {
  const limit = effectiveLimit(row.info, plan.limit);
  const budget = row.info.capabilities.budget ? plan.budget : Infinity;
  const check = answerChecker(draw, row.label, limit);
  const name = `${draw.dataset.name} · ${row.label}`;
  const decided = draw.sampleSizes.get(row.info.id);
  let grids = decided === undefined ? draw.grids : draw.grids.slice(0, decided);
  let runner: BatchRunner;
  let checked: BatchAnswers;
  let total: number;
  let batchCall: boolean;
  let timeouts = 0;
  let timePuzzles = async (): Promise<Float64Array | null> => null;
  if (row.extra) {
    runner = await row.extra.open(grids, limit, budget);
    try {
      checked = await runner.answers();
      total = checkAnswers(checked, grids.length, check); // a wrong answer must close the row's worker too, or it keeps the process alive
    } catch (error) {
      await runner.close();
      throw error;
    }
    for (let i = 0; i < grids.length; i++) if (checked.timedOut(i)) timeouts++;
    batchCall = row.extra.threads !== null;
  } else {
    const key = `${row.info.id} ${draw.shape.size}`;
    if (!engines.has(key)) engines.set(key, await row.info.load(draw.shape.size));
    const engine = engines.get(key)!;
    let rule: ReturnType<typeof samplingRule> | undefined;
    if (decided === undefined) {
      const passMs = plan.timeMs * PASS_SHARE;
      await warmUp(engine, grids, limit, budget, SAMPLING_WARMUP_MS, plan.signal);
      rule = samplingRule(grids.length, passMs, plan.sampledBefore?.(draw.dataset.name, row.info.id));
    }
    const pass = await perPuzzlePass(engine, grids, limit, budget, check, plan.signal, rule);
    grids = grids.slice(0, pass.solved);
    timeouts = pass.timeouts;
    batchCall = row.mode === "engine" && solvesBatches(engine);
    const local = localRunner(engine, grids, limit, budget, batchCall);
    // A batch engine's own row is checked by one batch call too: its later calls are held against that.
    checked = batchCall ? local.answers() : { ...pass.answers, guesses: pass.answers.guesses.subarray(0, pass.solved) };
    total = batchCall ? checkAnswers(checked, grids.length, check) : sumOf(pass.answers.counts, pass.solved);
    const elsewhere = plan.timeElsewhere?.(row.info, batchCall);
    runner = elsewhere ? await elsewhere(grids, limit, budget) : local;
    timePuzzles = async () => {
      if (elsewhere) await warmPerPuzzle(name, engine, grids, limit, budget, plan.signal);
      return timePerPuzzle(engine, grids, limit, budget, check, sameAsChecked(draw, row.label, limit, pass.answers), plan.signal);
    };
  }
  const timing = await timeRunner(runner, name, grids.length, total, sameAsChecked(draw, row.label, limit, checked), plan);
  const timed = await timePuzzles();
  if (timed && decided === undefined) draw.solverMicros.set(row.info.id, timed);
  draw.sampleSizes.set(row.info.id, grids.length);
  const record = toRecord(row, draw, plan, { puzzles: grids.length, timeouts, batchCall }, timing, timed, checked);
  return { record, micros: timed ?? draw.solverMicros.get(row.info.id)! };
}

/** A runner in this thread, whose calls return at once: `answers` gives buffers of their own, `lastAnswers` the last call's. */
export type LocalRunner = Omit<BatchRunner, "answers" | "solve" | "lastAnswers"> & {
  answers(): BatchAnswers;
  solve(): number;
  lastAnswers(): KeptAnswers | null;
};

/** An engine's row in this thread: one solveBatch call per timed call, or a countSolutions loop. */
export function localRunner(engine: SolverEngine, grids: readonly Grid[], limit: number, budget: number, batch: boolean): LocalRunner {
  const close = async () => {};
  if (batch && solvesBatches(engine)) {
    const packed = pack(grids);
    const solveBatch = engine.solveBatch.bind(engine);
    let last: BatchResult | null = null;
    return {
      answers: () => batchAnswers(solveBatch(packed, grids.length, limit, budget)), // copied: the timed calls reuse the kernel's regions
      solve: () => sumOf((last = solveBatch(packed, grids.length, limit, budget)).counts),
      lastAnswers: () => last && batchViews(last),
      close,
    };
  }
  const loop = countingLoop(engine, grids, limit, budget);
  return {
    answers: () => {
      const once = countingLoop(engine, grids, limit, budget);
      once.call();
      return once.answers;
    },
    solve: loop.call,
    lastAnswers: () => loop.answers,
    afterCheck: () => loop.answers.solutions.fill(0), // the next call must write its solutions, not leave these standing
    close,
  };
}

/** Times the calls of `runner` in rounds, each call's kept answers held against the checked ones outside its timing; closes the runner. */
async function timeRunner(runner: BatchRunner, name: string, count: number, total: number, same: SameAnswerCheck, plan: BenchPlan): Promise<RoundTiming> {
  let calls = 0;
  const afterEach = () => {
    const last = runner.lastAnswers?.();
    calls++;
    if (!last) return;
    checkSameAnswers(last, count, same, `timed batch ${calls}`);
    runner.afterCheck?.();
  };
  return timeRounds(name, () => runner.solve(), total, {
    timeMs: plan.timeMs,
    rounds: plan.rounds ?? DEFAULT_ROUNDS,
    minCalls: MIN_SAMPLES,
    warmupMs: plan.timeMs * WARMUP_SHARE,
    signal: plan.signal,
    afterEach,
    beforeRound: runner.beginRound,
  }).finally(() => runner.close());
}

// ─── Records ─────────────────────────────────────────────────────────────────

function toRecord(
  row: Row,
  draw: PuzzleDraw,
  plan: BenchPlan,
  { puzzles, timeouts, batchCall }: { puzzles: number; timeouts: number; batchCall: boolean },
  timing: RoundTiming,
  micros: Float64Array | null,
  guesses: Pick<BatchAnswers, "guesses" | "timedOut">,
): BenchRecord {
  const sorted = micros ? Float64Array.from(micros).sort() : null;
  const guessStats = row.info.capabilities.guesses ? summarizeGuesses(guesses.guesses, guesses.timedOut) : null;
  return {
    dataset: draw.dataset.name,
    solver: row.info.id,
    mode: row.mode,
    row: row.label,
    datasetSize: draw.dataset.puzzles.length,
    selected: draw.grids.length,
    puzzles,
    timeouts,
    limit: plan.limit,
    effectiveLimit: effectiveLimit(row.info, plan.limit),
    batchCall,
    samples: timing.samples,
    puzzlesPerSecond: (puzzles * 1000) / timing.meanMs,
    meanMicros: (timing.meanMs * 1000) / puzzles,
    p50Micros: sorted ? quantile(sorted, 0.5) : null,
    p99Micros: sorted ? quantile(sorted, 0.99) : null,
    rmePercent: timing.rmePercent,
    guessesPerPuzzle: guessStats?.mean ?? null,
    noGuessPercent: guessStats?.noGuessPercent ?? null,
    reference: null,
    speedup: null,
    comparedOn: null,
    threads: row.extra ? row.extra.threads : null,
    cpuPerWall: timing.cpuPerWall,
    batchMs: timing.batchMs,
    roundMicros: timing.roundMs.map((ms) => (ms * 1000) / puzzles),
    ...calibratedFields(timing, puzzles),
    passMeanMicros: micros && micros.length > 0 ? sumOf(micros) / micros.length : null,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

// ─── Reference ───────────────────────────────────────────────────────────────

/** A pure-TypeScript baseline's row: this project's code, one puzzle per call (not a WASM kernel, not an npm peer). */
export function isPureTsBaseline(record: BenchRecord, info: SolverInfo | undefined): boolean {
  return info !== undefined && !info.external && record.mode === "engine" && !record.batchCall;
}

/** A row's tinybench mean µs/puzzle, rescaled to its first `shared` puzzles by the per-puzzle pass's times. */
function meanMicrosOver(record: BenchRecord, shared: number, micros?: Float64Array): number {
  if (!micros || shared >= micros.length) return record.meanMicros;
  const prefixMean = sumOf(micros, shared) / shared;
  const fullMean = sumOf(micros) / micros.length;
  return fullMean > 0 ? (record.meanMicros * prefixMean) / fullMean : record.meanMicros;
}

/**
 * Fills every record's reference fields: against the `reference` solver's row in its dataset, or the fastest pure-TS baseline
 * there that did not mostly time out (flag T), on the puzzles both solved; `micros` rescales a sampled pair.
 */
export function applyReference(
  records: BenchRecord[],
  solvers: readonly SolverInfo[],
  reference?: string,
  micros = new Map<BenchRecord, Float64Array>(),
): BenchRecord[] {
  const infos = new Map(solvers.map((info) => [info.id, info]));
  for (const dataset of new Set(records.map((r) => r.dataset))) {
    const rows = records.filter((r) => r.dataset === dataset);
    const candidates = rows.filter(
      (r) => r.mode === "engine" && (reference ? r.solver === reference : isPureTsBaseline(r, infos.get(r.solver)) && !mostlyTimedOut(r)),
    );
    const best = candidates.reduce<BenchRecord | null>((a, r) => (!a || r.puzzlesPerSecond > a.puzzlesPerSecond ? r : a), null);
    for (const r of rows) {
      if (!best) continue;
      const shared = Math.min(r.puzzles, best.puzzles);
      r.reference = best.row;
      r.comparedOn = shared;
      r.speedup = meanMicrosOver(best, shared, micros.get(best)) / meanMicrosOver(r, shared, micros.get(r));
      // The interval of the rows' plain mean ratio, moved onto `speedup` (maybe rescaled to shared puzzles) by the same factor.
      const estimate = r === best ? null : speedRatio(best, r);
      const scale = estimate ? r.speedup / estimate.ratio : 0;
      r.speedupInterval = estimate && { low: estimate.low * scale, high: estimate.high * scale, method: estimate.method };
    }
  }
  return records;
}
