/**
 * `npm run bench:library -- [options]`: what each path of the library costs, against the
 * kernel's own rate on the same puzzles in the same process, from one run.
 *
 *   K            WasmKernel input(n) / run(n, 2, Infinity), batches of 4,096, the puzzles already cells
 *   solveMany    createSolver() then solver.solveMany(lines, { limit: 2 }): lines in, records out
 *   solve loop   solver.solve(line, { limit: 2 }) for each line
 *   pool         createPool({ threads }) then await pool.solveMany(lines), on --records lines,
 *                with a 10 ms interval timer running: its worst lateness is the event loop's
 *
 * K, solveMany and the solve loop run on the first --sample lines; the rounds alternate the
 * paths, and each ratio is the median of the per-round ratios (with its range). The puzzles:
 * the bundled easy tier with its digits relabelled per line (bench/corpus.ts, like
 * kaggle_bryanpark_10k: easy, unique, few guesses), or --file. Figures and ratios, no verdicts.
 */
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { Command } from "commander";
import { createSolver } from "../src/index.js";
import { CELLS } from "../src/shape.js";
import { createPool } from "../src/solver-pool.js";
import { WasmKernel } from "../src/wasm.js";
import { readDigits } from "../src/puzzle.js";
import { wholeNumber } from "../src/cli/options.js";
import { relabelledPuzzles } from "./corpus.js";
import { cpuSeconds } from "./measure/reference.js";
import { figure, median, ratioCell } from "./bulk-table.js";

const KERNEL_BATCH = 4096;
const LIMIT = 2;
const TIMER_MS = 10;

interface Options {
  records: number;
  sample: number;
  rounds: number;
  threads: number;
  file?: string;
}

/** Puzzles per second of `run`, which solves `count` puzzles. */
async function rate(count: number, run: () => unknown): Promise<number> {
  const started = performance.now();
  await run();
  return count / ((performance.now() - started) / 1000);
}

/** Runs `run` with a timer set every {@link TIMER_MS} ms; returns the worst lateness of its calls, in ms. */
async function withTimer(run: () => Promise<unknown>): Promise<number> {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - TIMER_MS);
    last = now;
  }, TIMER_MS);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  return Math.max(worst, performance.now() - last - TIMER_MS);
}

async function main(argv = process.argv): Promise<void> {
  const program = new Command("bench:library")
    .description("the library's paths (solveMany, a solve loop, the pool) against the kernel's own rate on the same puzzles")
    .option("--records <n>", "lines of the pool's run", wholeNumber(1000, 50_000_000), 1_000_000)
    .option("--sample <n>", "lines of the kernel, solveMany and solve-loop runs", wholeNumber(100, 10_000_000), 10_000)
    .option("--rounds <n>", "rounds", wholeNumber(1, 100), 5)
    .option("--threads <n>", "the pool's worker threads", wholeNumber(1, 1024), availableParallelism())
    .option("--file <path>", "81-character lines to use instead of the generated easy puzzles (repeated up to --records)")
    .parse(argv);
  const options = program.opts<Options>();
  const source = options.file
    ? readFileSync(options.file, "latin1").split(/\r?\n/).filter((line) => line.length === CELLS)
    : relabelledPuzzles(Math.max(options.records, options.sample), 5).split("\n").slice(0, -1);
  if (source.length === 0) throw new Error(`${options.file}: no 81-character lines`);
  const lines = Array.from({ length: options.records }, (_, i) => source[i % source.length]);
  const sample = Array.from({ length: options.sample }, (_, i) => source[i % source.length]);
  const cells = new Uint8Array(sample.length * CELLS);
  sample.forEach((line, i) => readDigits(line, cells, i * CELLS));

  const kernel = await WasmKernel.create();
  const solver = await createSolver();
  const pool = await createPool({ threads: options.threads });
  console.log(`bench:library: ${cpus()[0]?.model.trim() ?? "unknown CPU"}, ${cpus().length} cores, Node ${process.version}, load average ${loadavg().map((n) => n.toFixed(1)).join(" ")}`);
  console.log(`${options.file ?? "generated easy puzzles (the bundled easy tier, relabelled)"}: ${figure(sample.length)} lines for K, solveMany and the solve loop; ${figure(lines.length)} for the pool (${options.threads} threads); limit ${LIMIT}; ${options.rounds} rounds`);

  const kernelRun = () => {
    for (let first = 0; first < sample.length; first += KERNEL_BATCH) {
      const n = Math.min(KERNEL_BATCH, sample.length - first);
      kernel.input(n).set(cells.subarray(first * CELLS, (first + n) * CELLS));
      kernel.run(n, LIMIT, Infinity);
    }
  };
  const k: number[] = [];
  const paths = { solveMany: [] as number[], "solve loop": [] as number[], pool: [] as number[] };
  const lateness: number[] = [];
  const poolCpu: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    k.push(await rate(sample.length, kernelRun));
    paths.solveMany.push(await rate(sample.length, () => solver.solveMany(sample, { limit: LIMIT })));
    paths["solve loop"].push(await rate(sample.length, () => sample.forEach((line) => solver.solve(line, { limit: LIMIT }))));
    const cpu = cpuSeconds();
    const started = performance.now();
    let records = 0;
    lateness.push(await withTimer(async () => (records = (await pool.solveMany(lines, { limit: LIMIT })).length)));
    const seconds = (performance.now() - started) / 1000;
    if (records !== lines.length) throw new Error(`the pool gave ${records} records for ${lines.length} lines`);
    paths.pool.push(lines.length / seconds);
    poolCpu.push((cpuSeconds() - cpu) / seconds);
    process.stderr.write(`round ${round + 1} of ${options.rounds} done\n`);
  }
  await pool.close();

  const rows = [
    ["K (kernel batch)", figure(median(k)), "1"],
    ...Object.entries(paths).map(([name, rates]) => [name, figure(median(rates)), ratioCell(rates.map((r, i) => r / k[i]))]),
  ];
  const width = rows.reduce((w, row) => w.map((n, c) => Math.max(n, row[c].length)), [0, 0, 0]);
  console.log(["path".padEnd(width[0]), "puzzles/s".padStart(width[1]), "÷ K (range)"].join("  "));
  for (const row of rows) console.log([row[0].padEnd(width[0]), row[1].padStart(width[1]), row[2]].join("  "));
  console.log(`pool: process CPU ÷ wall ${median(poolCpu).toFixed(2)}; a ${TIMER_MS} ms timer's worst lateness ${median(lateness).toFixed(1)} ms (median of rounds; worst ${Math.max(...lateness).toFixed(1)} ms)`);
}

await main();
