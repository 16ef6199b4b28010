/**
 * `node dist/bench/general.js`: N×N solvers on one dataset of 16×16 (or 4×4, 9×9, 25×25)
 * puzzles — the general WASM kernel, its TS twin and `@algorithm.ts/sudoku` — with a table of
 * puzzles/s, µs/puzzle, the slowest puzzle and guesses/puzzle.
 *
 * Per contender, in this order:
 *   1. verification pass   every puzzle solved once (warms the JIT); counts, solutions and
 *                          agreement with the other contenders checked — outside any timing.
 *   2. tinybench           times whole passes over the dataset (no further warm-up), at least
 *                          `iterations` of them and until `timeMs`; puzzles/s from the mean.
 *   3. per-puzzle passes   performance.now() around each puzzle, its fastest of 3 passes (1 for
 *                          passes over SLOW_PASS_MS): the median, 99th percentile and slowest puzzle.
 * Measuring returns records (measureGeneral); formatGeneralTable renders them, and the main
 * bench (runner.ts) turns them into rows of its own table for N×N datasets.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Command, Option } from "commander";
import { Bench } from "tinybench";
import { SudokuSolver } from "@algorithm.ts/sudoku";
import { GeneralKernel } from "../src/general.js";
import { type GeneralPuzzle, isValidGeneralSolution, parseGeneralPuzzle, shapeName } from "../src/puzzle-general.js";
import { GeneralTsEngine } from "../src/solvers/general-ts.js";
import { packageRoot } from "../src/paths.js";
import { quantile, seededSample } from "./sample.js";
import { wholeNumber } from "../src/cli/options.js";

// ── contenders ──────────────────────────────────────────────────────────────────────────────

/** One puzzle's answer: solutions found (up to the limit), the first one, guesses or null. */
export interface GeneralAnswer {
  count: number;
  solution: Uint8Array | null;
  guesses: number | null;
}

/** A contender ready to run on one set of puzzles (prepared outside any timing). */
export interface PreparedContender {
  /** Solves every puzzle; returns the total count (checked against the verified total). */
  solveAll(): number;
  /** Solves puzzle `index` alone and returns its answer. */
  solveOne(index: number): GeneralAnswer;
}

/** An N×N solver measured by this bench. */
export interface GeneralContender {
  id: string;
  /** The algorithm in one line. */
  description: string;
  /** False when it stops at the first solution (counts 0 or 1 whatever the limit). */
  countsToLimit: boolean;
  /** True when one call solves the whole set (the WASM kernel's batch), false for one call per puzzle. */
  batchCall: boolean;
  /** Sets the contender up for `puzzles` (all of one box size `box`), counting up to `limit`. */
  prepare(puzzles: readonly GeneralPuzzle[], box: number, limit: number): Promise<PreparedContender>;
}

/** The general WASM kernel: the whole set in one batch call. */
const wasmContender: GeneralContender = {
  id: "general-wasm",
  description: "general WASM kernel: u32 masks, naked/hidden singles, locked candidates, fewest-candidates branching; one batch call",
  countsToLimit: true,
  batchCall: true,
  async prepare(puzzles, box, limit) {
    const kernel = await GeneralKernel.create();
    const cells = box ** 4;
    const packed = new Uint8Array(puzzles.length * cells);
    puzzles.forEach((puzzle, i) => packed.set(puzzle.grid, i * cells));
    return {
      solveAll() {
        kernel.input(puzzles.length, box).set(packed);
        const { counts } = kernel.run(puzzles.length, box, limit);
        return counts.reduce((sum, count) => sum + count, 0);
      },
      solveOne(index) {
        const result = kernel.solveBatch(puzzles[index].grid, 1, box, limit);
        return { count: result.counts[0], solution: result.counts[0] > 0 ? result.solutions : null, guesses: result.guesses[0] };
      },
    };
  },
};

/** The kernel's TS twin, puzzle by puzzle. */
const tsContender: GeneralContender = {
  id: "general-ts",
  description: "the general kernel's algorithm in plain TypeScript over typed arrays (TS twin)",
  countsToLimit: true,
  batchCall: false,
  async prepare(puzzles, box, limit) {
    const engine = new GeneralTsEngine();
    const solution = new Uint8Array(box ** 4);
    const stats = { guesses: 0, timedOut: false };
    const solveOne = (index: number): GeneralAnswer => {
      const count = engine.countSolutions(puzzles[index].grid, box, limit, solution, stats);
      return { count, solution: count > 0 ? solution.slice() : null, guesses: stats.guesses };
    };
    return {
      solveAll: () => puzzles.reduce((sum, puzzle) => sum + engine.countSolutions(puzzle.grid, box, limit, solution, stats), 0),
      solveOne,
    };
  },
};

/** `@algorithm.ts/sudoku` (DLX): boards of -1 (empty) and 0..N-1; stops at the first solution. */
const algorithmTsContender: GeneralContender = {
  id: "npm:@algorithm.ts/sudoku",
  description: "@algorithm.ts/sudoku@4.0.3 SudokuSolver (DLX); stops at the first solution, no guesses",
  countsToLimit: false,
  batchCall: false,
  async prepare(puzzles, box) {
    const solver = new SudokuSolver({ childMatrixWidth: box });
    const boards = puzzles.map((puzzle) => Array.from(puzzle.grid, (symbol) => symbol - 1));
    const answer: number[] = new Array<number>(box ** 4).fill(-1);
    return {
      solveAll: () => boards.reduce((sum, board) => sum + (solver.solve(board, answer) ? 1 : 0), 0),
      solveOne(index) {
        const found = solver.solve(boards[index], answer);
        return { count: found ? 1 : 0, solution: found ? Uint8Array.from(answer, (symbol) => symbol + 1) : null, guesses: null };
      },
    };
  },
};

/** Every contender, the reference (`@algorithm.ts/sudoku`) last. */
export const generalContenders: readonly GeneralContender[] = [wasmContender, tsContender, algorithmTsContender];

/** The contender with id `id`, or a RangeError listing the known ids. */
export function findContender(id: string): GeneralContender {
  const found = generalContenders.find((c) => c.id === id);
  if (!found) throw new RangeError(`unknown solver '${id}'; known: ${generalContenders.map((c) => c.id).join(", ")}`);
  return found;
}

// ── measuring ───────────────────────────────────────────────────────────────────────────────

/** What to measure. */
export interface GeneralBenchOptions {
  /** Path of the puzzle file (one puzzle per line, any one N×N size). */
  dataset: string;
  /** Count solutions up to this. @default 2 */
  limit?: number;
  /** tinybench time budget per contender, ms. @default 2000 */
  timeMs?: number;
  /** Minimum timed passes per contender. @default 3 */
  iterations?: number;
  /** Contender ids to run. @default all of {@link generalContenders} */
  contenders?: readonly string[];
  /** At most this many puzzles, drawn in a seeded order (all of them, in file order, when absent). @default Infinity */
  maxPuzzles?: number;
  /** Seed of that draw. @default 1 */
  seed?: number;
}

/** One contender's figures on one dataset. */
export interface GeneralBenchRecord {
  contender: string;
  dataset: string;
  /** "16×16". */
  shape: string;
  puzzles: number;
  limit: number;
  countsToLimit: boolean;
  /** Mean ms per pass over the whole dataset (tinybench). */
  meanMs: number;
  /** Relative margin of error of the mean, %. */
  rmePercent: number;
  samples: number;
  puzzlesPerSecond: number;
  microsPerPuzzle: number;
  batchCall: boolean;
  /** Puzzles in the file (`puzzles` of them were drawn). */
  datasetSize: number;
  /** Median and 99th percentile µs per puzzle of the per-puzzle passes. */
  p50Micros: number;
  p99Micros: number;
  /** The slowest puzzle of the per-puzzle pass: 1-based line and ms. */
  slowest: { line: number; ms: number };
  /** Mean guesses per puzzle, or null when the contender cannot tell. */
  guessesPerPuzzle: number | null;
  /** Share of puzzles solved without a guess, %, or null when the contender cannot tell. */
  noGuessPercent: number | null;
}

/** A contender whose pass over the dataset takes longer than this gets one per-puzzle pass, not three. */
const SLOW_PASS_MS = 1000;

/** The puzzles drawn from one file, with the 1-based line of each. */
interface LoadedPuzzles {
  puzzles: GeneralPuzzle[];
  lines: number[];
  /** Puzzle lines in the file. */
  total: number;
}

/** Reads the dataset (every line must parse, all of one size) and draws `maxPuzzles` of them in a seeded order. */
function loadPuzzles(path: string, maxPuzzles: number, seed: number): LoadedPuzzles {
  const entries = readFileSync(path, "utf8")
    .split("\n")
    .map((raw, i) => ({ text: raw.trim(), line: i + 1 }))
    .filter(({ text }) => text !== "" && !text.startsWith("#"));
  if (entries.length === 0) throw new Error(`${path}: no puzzles`);
  const picked = Number.isFinite(maxPuzzles) ? seededSample(entries.length, maxPuzzles, seed).map((i) => entries[i]) : entries;
  const puzzles = picked.map(({ text, line }) => {
    try {
      return parseGeneralPuzzle(text);
    } catch (error) {
      throw new Error(`${path}: line ${line}: ${(error as Error).message}`);
    }
  });
  const box = puzzles[0].shape.box;
  const other = puzzles.findIndex((puzzle) => puzzle.shape.box !== box);
  if (other >= 0) throw new Error(`${path}: line ${picked[other].line} is not ${shapeName(puzzles[0].shape)} like line ${picked[0].line}`);
  return { puzzles, lines: picked.map((entry) => entry.line), total: entries.length };
}

/** Checks one pass of answers: valid solutions keeping the clues, counts agreeing with `reference` where comparable. */
function verify(contender: GeneralContender, puzzles: readonly GeneralPuzzle[], lines: readonly number[], answers: GeneralAnswer[], reference: GeneralAnswer[] | null): void {
  answers.forEach((answer, i) => {
    const where = `${contender.id}, line ${lines[i]}`;
    if (answer.count < 0) throw new Error(`${where}: the solver rejected the puzzle`);
    if (answer.count > 0 && !isValidGeneralSolution(puzzles[i].grid, answer.solution!, puzzles[i].shape)) {
      throw new Error(`${where}: the solution is not valid or drops a clue`);
    }
    if (!reference) return;
    const expected = contender.countsToLimit ? reference[i].count : Math.min(reference[i].count, 1);
    if (answer.count !== expected) throw new Error(`${where}: counted ${answer.count}, another solver ${reference[i].count}`);
  });
}

/** Times whole passes with tinybench; each pass's total must equal `expectedTotal`. */
async function timePasses(id: string, prepared: PreparedContender, expectedTotal: number, timeMs: number, iterations: number) {
  let wrongTotals = 0;
  const bench = new Bench({ time: timeMs, iterations, warmup: false, throws: true });
  bench.add(id, () => {
    if (prepared.solveAll() !== expectedTotal) wrongTotals++;
  });
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state === "errored") throw result.error;
  if (result.state !== "completed") throw new Error(`${id}: tinybench ended in state ${result.state}`);
  if (wrongTotals > 0) throw new Error(`${id}: ${wrongTotals} timed pass(es) counted a different total than verified`);
  return { meanMs: result.latency.mean, rmePercent: result.latency.rme, samples: result.latency.samplesCount };
}

/**
 * Times each puzzle alone (warm by now) and returns its ms. Each puzzle keeps its fastest of
 * `passes` whole passes, so that a scheduler pause on a loaded machine does not make a
 * puzzle look slow.
 */
function timeEachPuzzle(prepared: PreparedContender, count: number, passes: number): Float64Array {
  const fastest = new Float64Array(count).fill(Infinity);
  for (let pass = 0; pass < passes; pass++) {
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      prepared.solveOne(i);
      fastest[i] = Math.min(fastest[i], performance.now() - start);
    }
  }
  return fastest;
}

/** Median, 99th percentile (µs) and the slowest puzzle (its line and ms) of per-puzzle times. */
function summarizeTimes(millis: Float64Array, lines: readonly number[]) {
  const slowestAt = millis.indexOf(Math.max(...millis));
  const sorted = Float64Array.from(millis).sort();
  return {
    p50Micros: quantile(sorted, 0.5) * 1000,
    p99Micros: quantile(sorted, 0.99) * 1000,
    slowest: { line: lines[slowestAt], ms: millis[slowestAt] },
  };
}

/** Mean guesses per puzzle and the share solved without one, or nulls when any answer lacks them. */
function summarizeGuesses(answers: readonly GeneralAnswer[]): { guessesPerPuzzle: number | null; noGuessPercent: number | null } {
  if (!answers.every((a) => a.guesses !== null)) return { guessesPerPuzzle: null, noGuessPercent: null };
  const total = answers.reduce((sum, a) => sum + a.guesses!, 0);
  const none = answers.filter((a) => a.guesses === 0).length;
  return { guessesPerPuzzle: total / answers.length, noGuessPercent: (100 * none) / answers.length };
}

/** Measures each selected contender on the dataset; `onProgress` hears which one starts. */
export async function measureGeneral(options: GeneralBenchOptions, onProgress: (message: string) => void = () => {}): Promise<GeneralBenchRecord[]> {
  const limit = options.limit ?? 2;
  const { puzzles, lines, total: datasetSize } = loadPuzzles(options.dataset, options.maxPuzzles ?? Infinity, options.seed ?? 1);
  const shape = puzzles[0].shape;
  const selected = options.contenders ? options.contenders.map(findContender) : generalContenders;
  let reference: GeneralAnswer[] | null = null;
  const records: GeneralBenchRecord[] = [];
  for (const contender of selected) {
    onProgress(`${contender.id}: ${puzzles.length} ${shapeName(shape)} puzzles`);
    const prepared = await contender.prepare(puzzles, shape.box, limit);
    const answers = puzzles.map((_, i) => prepared.solveOne(i));
    verify(contender, puzzles, lines, answers, reference);
    if (contender.countsToLimit && !reference) reference = answers;
    const total = answers.reduce((sum, answer) => sum + answer.count, 0);
    const timing = await timePasses(contender.id, prepared, total, options.timeMs ?? 2000, options.iterations ?? 3);
    const millis = timeEachPuzzle(prepared, puzzles.length, timing.meanMs < SLOW_PASS_MS ? 3 : 1);
    records.push({
      contender: contender.id,
      dataset: options.dataset,
      shape: shapeName(shape),
      puzzles: puzzles.length,
      limit,
      countsToLimit: contender.countsToLimit,
      batchCall: contender.batchCall,
      datasetSize,
      ...timing,
      puzzlesPerSecond: (puzzles.length * 1000) / timing.meanMs,
      microsPerPuzzle: (timing.meanMs * 1000) / puzzles.length,
      ...summarizeTimes(millis, lines),
      ...summarizeGuesses(answers),
    });
  }
  return records;
}

// ── reporting ───────────────────────────────────────────────────────────────────────────────

/** A plain-text table of records, with each row's speed relative to the last record (the reference). */
export function formatGeneralTable(records: readonly GeneralBenchRecord[]): string {
  const reference = records.at(-1);
  const header = ["solver", "puzzles/s", "µs/puzzle", "±%", "passes", "slowest puzzle", "guesses/p", `× ${reference?.contender ?? ""}`];
  const rows = records.map((r) => [
    r.contender + (r.countsToLimit ? "" : " (limit 1)"),
    r.puzzlesPerSecond.toFixed(1),
    r.microsPerPuzzle.toFixed(0),
    r.rmePercent.toFixed(1),
    String(r.samples),
    `${r.slowest.ms.toFixed(2)} ms (#${r.slowest.line})`,
    r.guessesPerPuzzle === null ? "n/a" : r.guessesPerPuzzle.toFixed(1),
    reference ? `${(r.puzzlesPerSecond / reference.puzzlesPerSecond).toFixed(1)}×` : "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  const first = records[0];
  const title = first ? `${first.dataset}: ${first.puzzles} ${first.shape} puzzles, limit ${first.limit}` : "no records";
  return [title, line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

// ── command line ────────────────────────────────────────────────────────────────────────────

/** The command's options, defaults and help in one place. */
function command(): Command {
  return new Command("general")
    .description("N×N solvers (general WASM kernel, TS twin, @algorithm.ts/sudoku) on one dataset")
    .addOption(new Option("--dataset <path>", "puzzle file, one N×N puzzle per line").default(join(packageRoot(), "..", "shared", "datasets", "sudoku16_kr100.txt")))
    .addOption(new Option("--limit <n>", "count solutions up to n").default(2).argParser(wholeNumber(1)))
    .addOption(new Option("--time <ms>", "tinybench time budget per solver").default(2000).argParser(wholeNumber(1)))
    .addOption(new Option("--iterations <n>", "minimum timed passes per solver").default(3).argParser(wholeNumber(1)))
    .addOption(new Option("--solvers <ids>", `comma-separated, from ${generalContenders.map((c) => c.id).join(", ")}`).argParser((v) => v.split(",")));
}

async function main(argv: readonly string[]): Promise<void> {
  const options = command().parse(argv as string[]).opts<{ dataset: string; limit: number; time: number; iterations: number; solvers?: string[] }>();
  const records = await measureGeneral(
    { dataset: options.dataset, limit: options.limit, timeMs: options.time, iterations: options.iterations, contenders: options.solvers },
    (message) => process.stderr.write(`${message}\n`),
  );
  process.stdout.write(formatGeneralTable(records) + "\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv).catch((error) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  });
}
