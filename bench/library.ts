/**
 * `npm run library-bench -- [options]`: what each path of the library costs, against the
 * kernel's own rate on the same puzzles in the same process, from one run.
 *
 *   K            WasmKernel input(n) / run(n, 2, Infinity), batches of 4,096, the puzzles already cells
 *   solveMany    createSolver() then solver.solveMany(lines, { limit: 2 }): lines in, records out
 *   solve loop   solver.solve(line, { limit: 2 }) for each line
 *   pool         createPool({ threads }) then await pool.solveMany(lines), on --records lines,
 *                with a 10 ms interval timer running: its worst lateness is the event loop's;
 *                with the main thread's time running and waiting for a CPU (Linux), which
 *                tells its own work from a machine whose cores the workers and others hold,
 *                and the cores the process kept busy (its CPU time ÷ wall time)
 *
 * K, solveMany and the solve loop run on the first --sample lines, each for at least --seconds
 * a round; the rounds alternate the paths, and each ratio is the median of the per-round ratios
 * (with its range): per CPU second of the process for the paths on one thread (so that what
 * other processes take of a shared machine does not count), per wall second for the pool. The puzzles:
 * the bundled easy tier with its digits relabelled per line (bench/corpus.ts, like
 * kaggle_bryanpark_10k: easy, unique, few guesses), or --file. Figures and ratios, no verdicts.
 */
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { quietUsage, runTool } from "./tool.js";
import { Command } from "commander";
import { createSolver } from "../src/index.js";
import { CELLS } from "../src/model/shape.js";
import { createPool } from "../src/pool/solver-pool.js";
import { WasmKernel } from "../src/kernel/wasm.js";
import { readDigits } from "../src/model/puzzle.js";
import { wholeNumber } from "../src/cli-kit/options.js";
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
  seconds: number;
  threads: number;
  file?: string;
}

/** What a path did in a round: puzzles per second of wall time and per CPU second of the process. */
interface Rate {
  wall: number;
  cpu: number;
}

/** Runs `run` (which solves `count` puzzles) again and again for at least `seconds` of wall time; its rates. */
async function rate(count: number, seconds: number, run: () => unknown): Promise<Rate> {
  const cpu = cpuSeconds();
  const started = performance.now();
  let solved = 0;
  do {
    await run();
    solved += count;
  } while (performance.now() - started < seconds * 1000);
  return { wall: solved / ((performance.now() - started) / 1000), cpu: solved / (cpuSeconds() - cpu) };
}

/** The main thread's time on a CPU and waiting in the run queue for one so far, in seconds (Linux's schedstat); null elsewhere. */
function mainThreadSchedule(): { ran: number; waited: number } | null {
  try {
    const [ran, waited] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "latin1").split(" ").map(Number);
    return Number.isFinite(ran) && Number.isFinite(waited) ? { ran: ran / 1e9, waited: waited / 1e9 } : null;
  } catch {
    return null;
  }
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
  const program = quietUsage(new Command("library-bench"))
    .description("the library's paths (solveMany, a solve loop, the pool) against the kernel's own rate on the same puzzles")
    .option("--records <n>", "lines of the pool's run", wholeNumber(1000, 50_000_000), 1_000_000)
    .option("--sample <n>", "lines of the kernel, solveMany and solve-loop runs", wholeNumber(100, 10_000_000), 10_000)
    .option("--rounds <n>", "rounds", wholeNumber(1, 100), 5)
    .option("--seconds <s>", "least wall time of each of K, solveMany and the solve loop per round", Number, 0.5)
    .option("--threads <n>", "the pool's worker threads", wholeNumber(1, 1024), availableParallelism())
    .option("--file <path>", "81-character lines to use instead of the generated easy puzzles (repeated up to --records)")
    .parse(argv);
  const options = program.opts<Options>();
  const source = options.file
    ? readFileSync(options.file, "latin1")
        .split(/\r?\n/)
        .filter((line) => line.length === CELLS)
    : relabelledPuzzles(Math.max(options.records, options.sample), 5).split("\n").slice(0, -1);
  if (source.length === 0) throw new Error(`${options.file}: no 81-character lines`);
  const lines = Array.from({ length: options.records }, (_, i) => source[i % source.length]);
  const sample = Array.from({ length: options.sample }, (_, i) => source[i % source.length]);
  const cells = new Uint8Array(sample.length * CELLS);
  sample.forEach((line, i) => readDigits(line, cells, i * CELLS));

  const kernel = await WasmKernel.create();
  const solver = await createSolver();
  const pool = await createPool({ threads: options.threads });
  console.log(
    `library-bench: ${cpus()[0]?.model.trim() ?? "unknown CPU"}, ${cpus().length} cores, Node ${process.version}, load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    `${options.file ?? "generated easy puzzles (the bundled easy tier, relabelled)"}: ${figure(sample.length)} lines for K, solveMany and the solve loop; ${figure(lines.length)} for the pool (${options.threads} threads); limit ${LIMIT}; ${options.rounds} rounds`,
  );

  const kernelRun = () => {
    for (let first = 0; first < sample.length; first += KERNEL_BATCH) {
      const n = Math.min(KERNEL_BATCH, sample.length - first);
      kernel.input(n).set(cells.subarray(first * CELLS, (first + n) * CELLS));
      kernel.run(n, LIMIT, Infinity);
    }
  };
  const k: Rate[] = [];
  const single = { solveMany: [] as Rate[], "solve loop": [] as Rate[] };
  const pooled: Rate[] = [];
  const lateness: number[] = [];
  const schedule: { ran: number; waited: number }[] = [];
  for (let round = 0; round < options.rounds; round++) {
    k.push(await rate(sample.length, options.seconds, kernelRun));
    single.solveMany.push(await rate(sample.length, options.seconds, () => solver.solveMany(sample, { limit: LIMIT })));
    single["solve loop"].push(await rate(sample.length, options.seconds, () => sample.forEach((line) => solver.solve(line, { limit: LIMIT }))));
    let records = 0;
    let poolRate: Rate = { wall: 0, cpu: 0 };
    const before = mainThreadSchedule();
    lateness.push(
      await withTimer(async () => (poolRate = await rate(lines.length, 0, async () => (records = (await pool.solveMany(lines, { limit: LIMIT })).length)))),
    );
    const after = mainThreadSchedule();
    if (before && after) schedule.push({ ran: after.ran - before.ran, waited: after.waited - before.waited });
    if (records !== lines.length) throw new Error(`the pool gave ${records} records for ${lines.length} lines`);
    pooled.push(poolRate);
    process.stderr.write(`round ${round + 1} of ${options.rounds} done\n`);
  }
  await pool.close();

  // One thread's paths against K per CPU second (what the machine's other load takes does not count), the pool per wall second.
  const perK = (rates: Rate[], by: "wall" | "cpu") => ratioCell(rates.map((r, i) => r[by] / k[i][by]));
  const rows = [
    ["K (kernel batch)", figure(median(k.map((r) => r.wall))), figure(median(k.map((r) => r.cpu))), "1"],
    ...Object.entries(single).map(([name, rates]) => [
      name,
      figure(median(rates.map((r) => r.wall))),
      figure(median(rates.map((r) => r.cpu))),
      perK(rates, "cpu"),
    ]),
    [
      `pool, ${options.threads} threads`,
      figure(median(pooled.map((r) => r.wall))),
      figure(median(pooled.map((r) => r.cpu))),
      `${perK(pooled, "wall")} of K's wall rate`,
    ],
  ];
  const header = ["path", "puzzles/s", "per CPU s", "÷ K (range)"];
  const width = [header, ...rows].reduce((w, row) => w.map((n, c) => Math.max(n, row[c].length)), [0, 0, 0, 0]);
  for (const row of [header, ...rows]) console.log([row[0].padEnd(width[0]), row[1].padStart(width[1]), row[2].padStart(width[2]), row[3]].join("  "));
  console.log(
    `pool: a ${TIMER_MS} ms timer's worst lateness ${median(lateness).toFixed(1)} ms (median of rounds; worst ${Math.max(...lateness).toFixed(1)} ms)`,
  );
  // Cores the whole process kept busy while the pool ran, and while K ran on one thread: on a machine that other
  // processes load, the share of the cores the process gets bounds the pool against K, whatever the pool does.
  const busy = (rates: Rate[]) => ratioCell(rates.map((r) => r.wall / r.cpu));
  console.log(
    `pool: the process kept ${busy(pooled)} cores busy, K's run ${busy(k)} (CPU s ÷ wall s; of ${cpus().length}, load average now ${loadavg()[0].toFixed(1)})`,
  );
  if (schedule.length > 0) {
    // What makes the timer late: the main thread's own work, or waiting for a CPU that the workers (and other processes) hold.
    const perMillion = (seconds: number) => ((seconds * 1e6) / lines.length).toFixed(2);
    console.log(
      `pool: the main thread ran ${perMillion(median(schedule.map((s) => s.ran)))} s and waited ${perMillion(median(schedule.map((s) => s.waited)))} s for a CPU per 1M lines (median of rounds; Linux schedstat)`,
    );
  }
}

await runTool("library-bench", main);
