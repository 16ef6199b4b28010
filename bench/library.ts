/**
 * `npm run library-bench`: what each path of the library (solveMany, a solve loop, a pool's solveMany and solveStream)
 * costs against the kernel's own rate K (batches of 4,096, puzzles already cells) on the same puzzles, in one process.
 * Beside each pool call: a 10 ms timer's worst lateness (the event loop held), the cores kept busy (a loaded machine
 * against the pool's own work), the main thread's busy share (the records it makes), and K on every thread at once just
 * before it: the pool's ceiling, which virtual cores that share a physical one put well below threads × K. Rounds alternate
 * the paths; each ratio is the median of per-round ratios with its range, per CPU second for one thread's paths (the
 * machine's other load left out), per wall second for the pool. Figures, no verdicts.
 */
import { createReadStream, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { type PoolBenchOptions, loadAverage, machineLine, parseToolOptions, poolBenchRows, runTool, scratchFolder } from "./tool.js";
import { createSolver } from "../src/index.js";
import { CELLS } from "../src/model/shape.js";
import { POOL_BATCH_SIZE, createPool } from "../src/pool/solver-pool.js";
import { type ReadBatch, type SolveRecord, SolutionWriter, orderedRecords } from "../src/solvers/solver.js";
import { WasmKernel } from "../src/kernel/wasm.js";
import { DIGITS, readDigits } from "../src/model/puzzle.js";
import { relabelledPuzzles } from "./corpus.js";
import { solveInBatches } from "./measure/kernel.js";
import { kernelsAtOnce } from "./measure/kernels-at-once.js";
import { PIN_ROWS, choosePin, onPinnedCore, pinText } from "./measure/pin.js";
import { rate } from "./measure/reference.js";
import { figure, ratioCell } from "./bulk-table.js";
import { alignRows, column } from "./report/format.js";
import { median } from "../src/model/quantile.js";
import { counted } from "../src/model/whole-number.js";

const LIMIT = 2;
const TIMER_MS = 10;

/** What a path did in a round: puzzles per second of wall time and per CPU second of the process. */
type Rate = Awaited<ReturnType<typeof rate>>;

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

/**
 * What `pool.solveMany` asks of the main thread alone: a record made and kept per line by the library's own record code,
 * a batch at a time, from one batch the kernel solved once (no solving, no workers). The run returns the records made.
 */
function recordsAlone(kernel: WasmKernel, cells: Uint8Array, count: number): () => number {
  const size = Math.min(POOL_BATCH_SIZE, cells.length / CELLS);
  kernel.input(size).set(cells.subarray(0, size * CELLS));
  const { counts, guesses, nodes, solutions } = kernel.run(size, LIMIT);
  const solved = { digits: { counts: counts.slice(), guesses: guesses.slice(), nodes: nodes.slice(), solutions: solutions.slice() }, puzzles: [] };
  const read: ReadBatch = {
    count: size,
    cells: cells.slice(0, size * CELLS),
    digitSlots: new Int32Array(0),
    digitCount: size,
    puzzles: [],
    puzzleSlots: [],
    records: [],
    recordSlots: [],
  };
  const writer = new SolutionWriter(DIGITS, size); // as solveMany's
  return () => {
    const records = new Array<SolveRecord>(count);
    for (let first = 0; first < count; first += size) {
      const record = orderedRecords(read, solved, true, writer, "pool"); // at pool.solveMany's literal (solver.ts RecordSite)
      for (let i = 0; i < size && first + i < count; i++) records[first + i] = record(i);
    }
    return records.length;
  };
}

async function main(): Promise<void> {
  const options = parseToolOptions<PoolBenchOptions & { core?: number; pin: boolean }>(
    "library-bench",
    "the library's paths (solveMany, a solve loop, the pool) against the kernel's own rate on the same puzzles",
    poolBenchRows({
      records: "lines of the pool's run",
      recordsDefault: 1_000_000,
      recordsMost: 50_000_000,
      sample: "lines of the kernel, solveMany and solve-loop runs",
      rounds: 5,
      seconds: "least wall time of each of K, solveMany and the solve loop per round",
      threads: "the pool's worker threads",
    }).concat(PIN_ROWS),
  );
  const pin = choosePin(options.pin && options.core);
  const source = relabelledPuzzles(Math.max(options.records, options.sample), 5).split("\n").slice(0, -1);
  const [lines, sample] = [source.slice(0, options.records), source.slice(0, options.sample)];
  const cells = new Uint8Array(sample.length * CELLS);
  sample.forEach((line, i) => readDigits(line, cells, i * CELLS));

  const kernel = await WasmKernel.create();
  const solver = await createSolver();
  const pool = await createPool({ threads: options.threads });
  await pool.solveMany(lines.slice(0, options.threads * POOL_BATCH_SIZE)); // its workers started and warm: their start is no round's CPU time
  console.log(machineLine("library-bench"));
  console.log(
    `generated easy puzzles (the bundled easy tier, relabelled): ${figure(sample.length)} lines for K, solveMany and the solve loop; ${figure(lines.length)} for the pool (${counted(options.threads, "thread")}); limit ${LIMIT}; ${counted(options.rounds, "round")}; ${pinText(pin)}`,
  );

  const kernelRun = () => solveInBatches(kernel, cells, LIMIT);
  const recordsRun = recordsAlone(kernel, cells, lines.length);
  const scratch = scratchFolder("sudoku-library-bench-");
  const linesFile = join(scratch, "lines.txt");
  writeFileSync(linesFile, `${lines.join("\n")}\n`);
  /** The records pool.solveStream gives for `source`, each read and let go. */
  const streamed = async (source: Parameters<typeof pool.solveStream>[0]) => {
    let records = 0;
    for await (const _record of pool.solveStream(source, { limit: LIMIT })) records++;
    return records;
  };
  const poolCall = (name: string, kept: string, run: () => Promise<number>) => ({
    name,
    kept,
    run,
    rates: [] as Rate[],
    lateness: [] as number[],
    /** The share of the wall time the main thread's event loop was busy. */
    mainBusy: [] as number[],
    /** K on every thread at once, just before each run: the host's speed can change from one second to the next. */
    ceilings: [] as number[],
  });
  const poolCalls = [
    poolCall("pool.solveMany", "every record kept", async () => (await pool.solveMany(lines, { limit: LIMIT })).length),
    poolCall("pool.solveStream", "each record read and let go", () => streamed(lines)),
    poolCall("pool.solveStream over a file stream", "the same lines from a file's bytes, each record let go", () => streamed(createReadStream(linesFile))),
    poolCall("pool.solveStream over readline", "the same lines from a file, each record let go", () =>
      streamed(createInterface({ input: createReadStream(linesFile) })),
    ),
  ];
  const k: Rate[] = [];
  const single = { solveMany: [] as Rate[], "solve loop": [] as Rate[] };
  const alone: Rate[] = [];
  for (let round = 0; round < options.rounds; round++) {
    // The one-thread paths on K's core; the pool's on every core.
    await onPinnedCore(pin, async () => {
      k.push(await rate(sample.length, options.seconds, kernelRun));
      single.solveMany.push(await rate(sample.length, options.seconds, () => solver.solveMany(sample, { limit: LIMIT })));
      single["solve loop"].push(await rate(sample.length, options.seconds, () => sample.forEach((line) => solver.solve(line, { limit: LIMIT }))));
      alone.push(await rate(lines.length, 0, recordsRun));
    });
    for (const call of round % 2 === 0 ? poolCalls : [...poolCalls].reverse()) {
      let records = 0;
      let poolRate: Rate = { wall: 0, cpu: 0 };
      call.ceilings.push(await kernelsAtOnce(options.threads, cells, LIMIT, Math.max(options.seconds, 1)));
      const loop = performance.eventLoopUtilization();
      call.lateness.push(await withTimer(async () => (poolRate = await rate(lines.length, 0, async () => (records = await call.run())))));
      call.mainBusy.push(performance.eventLoopUtilization(loop).utilization);
      if (records !== lines.length) throw new Error(`${call.name} gave ${records} records for ${lines.length} lines`);
      call.rates.push(poolRate);
    }
    process.stderr.write(`round ${round + 1} of ${options.rounds} done\n`);
  }
  await pool.close();

  const perK = (rates: Rate[], by: "wall" | "cpu") => ratioCell(rates.map((r, i) => r[by] / k[i][by]));
  /** A row's puzzles/s and per CPU s cells: the medians of `rates`. */
  const rateCells = (rates: Rate[]) => [figure(median(rates.map((r) => r.wall))), figure(median(rates.map((r) => r.cpu)))];
  const threads = counted(options.threads, "thread");
  const ceilings = poolCalls.flatMap((call) => call.ceilings);
  const rows = [
    ["K (kernel batch)", ...rateCells(k), "1", ""],
    [
      `K on ${threads} at once (a kernel each, no pool)`,
      figure(median(ceilings)),
      "",
      `${ratioCell(poolCalls.flatMap((call) => call.ceilings.map((r, i) => r / k[i].wall)))} of K's wall rate`,
      "1",
    ],
    ...Object.entries(single).map(([name, rates]) => [name, ...rateCells(rates), perK(rates, "cpu"), ""]),
    ["records alone (pool.solveMany's main thread: a record made and kept per line, no solving)", ...rateCells(alone), perK(alone, "cpu"), ""],
    ...poolCalls.map((call) => [
      `${call.name}, ${threads} (${call.kept})`,
      ...rateCells(call.rates),
      `${perK(call.rates, "wall")} of K's wall rate`,
      ratioCell(call.rates.map((r, i) => r.wall / call.ceilings[i])),
    ]),
  ];
  const columns = [column("path"), column("puzzles/s", "right"), column("per CPU s", "right"), column("÷ K (range)"), column("÷ K at once")];
  for (const line of alignRows(columns, rows)) console.log(line);
  const busy = (rates: Rate[]) => ratioCell(rates.map((r) => r.wall / r.cpu));
  console.log(`K: ${(1e6 / median(k.map((r) => r.cpu))).toFixed(2)} CPU s per 1M lines; its run kept ${busy(k)} cores busy`);
  for (const call of poolCalls) {
    console.log(
      `${call.name}: a ${TIMER_MS} ms timer's worst lateness ${median(call.lateness).toFixed(1)} ms (median of rounds; worst ${Math.max(...call.lateness).toFixed(1)} ms); the process kept ${busy(call.rates)} cores busy (CPU s ÷ wall s; of ${availableParallelism()}); the main thread was busy ${ratioCell(call.mainBusy)} of the wall time`,
    );
  }
  // The records and the workers' solving share the machine's cores: per line, 1/K of a core's second to solve and 1/R to make the record.
  const cores = availableParallelism();
  const ceiling = alone.map((r, i) => {
    const records = r.cpu / k[i].cpu;
    return Math.min(options.threads, records, cores / (1 + 1 / records));
  });
  console.log(
    `pool.solveMany can reach at most ${ratioCell(ceiling)} K here: its main thread makes the records while the workers solve, on ${counted(cores, "core")} (the least of the threads, records alone ÷ K, and cores ÷ (1 + K ÷ records alone), per CPU second; feeding the workers left out)`,
  );
  console.log(`load average now ${loadAverage()}`);
}

await runTool("library-bench", main);
