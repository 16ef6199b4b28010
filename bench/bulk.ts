/**
 * `npm run bulk-bench`: how close `sudoku-wasm solve` comes to the kernel on a large corpus, and what memory it takes.
 * K is the kernel's own rate on the same puzzles (one thread, batches of 4,096, puzzles already cells); each CLI run
 * is a child process timed wall to wall, start-up included, reporting its own peak RSS and CPU time as it exits.
 * Rounds alternate K and the CLI runs so both see the same moments of the machine; each ratio is the median of the
 * per-round ratios, with its range. K on 2 threads at once, just before `--threads 2`, is what two threads can reach
 * then: virtual cores that share a physical one put it well below 2 K. Figures, no verdicts; one that cannot be trusted
 * (two kernels on one core, a start-up-free figure of runs barely longer than the start-up) prints as "not measured" and why.
 */
import { markdownTable, tableLines } from "./report/format.js";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { machineLine, quietUsage, runTool, scratchFolder } from "./tool.js";
import { Command } from "commander";
import { DatasetSpecError, loadDatasets } from "../src/datasets/read.js";
import { packagePath } from "../src/kernel/paths.js";
import { CELLS } from "../src/model/shape.js";
import { readDigits } from "../src/model/puzzle.js";
import { WasmKernel } from "../src/kernel/wasm.js";
import { toOption, wholeNumber } from "../src/cli-kit/options.js";
import { type Pin, PIN_ROWS, choosePin, onPinnedCore, pinText, pinnedCommand } from "./measure/pin.js";
import { relabelledPuzzleBytes } from "./corpus.js";
import { solveInBatches } from "./measure/kernel.js";
import { kernelsAtOnce } from "./measure/kernels-at-once.js";
import { rate } from "./measure/reference.js";
import {
  BULK_COLUMNS,
  type BulkRow,
  SIZING_COLUMNS,
  figure,
  measuredCell,
  ratioCell,
  sizingRow,
  solvingRatios,
  startUpNote,
  twoAtOnceProblem,
  warmRate,
} from "./bulk-table.js";
import { median } from "../src/model/quantile.js";
import { counted } from "../src/model/whole-number.js";

const HARD_SET = "forum_hardest_1905_11plus";
/** K is timed over this many seconds or more (whole passes over the set), after as many untimed in the first round. */
const K_SECONDS = 0.25;

interface Options {
  core?: number;
  pin: boolean;
  records: number;
  small: number;
  hard: number;
  rounds: number;
  memory: boolean;
  sizing: boolean;
  markdown: boolean;
}

interface CliRun {
  wallSeconds: number;
  cpuSeconds: number;
  maxRssMb: number;
}

/**
 * Writes the peak RSS (KB) and CPU time of the process it is imported into to fd 3 as it exits. The peak is Linux's
 * VmHWM: getrusage's maxRSS also counts the parent's pages the child had between fork and exec (hundreds of MB here).
 */
const REPORTER = `import { readFileSync, writeSync } from "node:fs";
process.on("exit", () => {
  const u = process.resourceUsage();
  let rss = u.maxRSS;
  try { rss = Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]); } catch {}
  writeSync(3, JSON.stringify({ rss, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6 }));
});
`;

/** Runs `sudoku-wasm solve ...args` with output to /dev/null (on the core of `pin` when given); rejects unless it exits 0. */
function runCli(args: string[], reporter: string, { heapMb, pin }: { heapMb?: number; pin?: Pin } = {}): Promise<CliRun> {
  const node = heapMb ? [`--max-old-space-size=${heapMb}`] : [];
  const started = performance.now();
  const [command, ...rest] = pinnedCommand(pin, [
    process.execPath,
    ...node,
    "--import",
    reporter,
    packagePath("bin", "sudoku-wasm.mjs"),
    "solve",
    "--no-progress",
    ...args,
  ]);
  const child = spawn(command, rest, { stdio: ["ignore", "ignore", "pipe", "pipe"] });
  let stderr = "";
  let report = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
  (child.stdio[3] as NodeJS.ReadableStream).on("data", (chunk: Buffer) => (report += chunk));
  return new Promise((resolve, reject) =>
    child.on("close", (status) => {
      const wallSeconds = (performance.now() - started) / 1000;
      if (status !== 0) return reject(new Error(`solve ${args.join(" ")} exited ${status}: ${stderr.slice(-500)}`));
      const { rss, cpu } = JSON.parse(report) as { rss: number; cpu: number };
      resolve({ wallSeconds, cpuSeconds: cpu, maxRssMb: rss / 1024 });
    }),
  );
}

/** The cells of 81-character lines, each with "\n" (`.` or `0` empty). */
function cellsOf(lines: Buffer): Uint8Array {
  const grids = new Uint8Array((lines.length / (CELLS + 1)) * CELLS);
  lines
    .toString("latin1")
    .split("\n", grids.length / CELLS)
    .forEach((line, k) => readDigits(line, grids, k * CELLS));
  return grids;
}

/** The first `count` 81-character lines of a dataset file, each with "\n". */
function datasetLines(path: string, count: number): Buffer {
  const lines = readFileSync(path, "latin1")
    .split(/\r?\n/)
    .filter((line) => line.length === CELLS)
    .slice(0, count);
  return Buffer.from(lines.map((line) => line + "\n").join(""), "latin1");
}

async function main(argv = process.argv): Promise<void> {
  const program = quietUsage(new Command("bulk-bench"))
    .description("sudoku-wasm solve against the kernel's own rate on the same puzzles, and its memory")
    .option("--records <n>", "generated easy records", wholeNumber(1000, 100_000_000), 3_000_000)
    .option("--small <n>", "records of the small file (start-up: default threads against --threads 0)", wholeNumber(1, 1_000_000), 1000)
    .option("--hard <n>", `first puzzles of ${HARD_SET} (0: none)`, wholeNumber(0, 1_000_000), 10_000)
    .option("--rounds <n>", "rounds", wholeNumber(1, 100), 3)
    .option("--no-memory", "skip the memory runs (1M records against the full count, and the capped heap)")
    .option("--markdown", "print the speed runs as one Markdown table (docs/where-it-stands.md's), not as text")
    .option("--sizing", "also print the sizing table of docs/where-it-stands.md: each bundled tier's rate with --threads 0 and 2");
  for (const row of PIN_ROWS) program.addOption(toOption(row));
  const options = program.parse(argv).opts<Options>();
  const pin = choosePin(options.pin && options.core); // a core it may not use stops the run here
  if (options.hard > 0 || options.sizing) publicSetPath(HARD_SET); // a set not fetched stops the run before any measuring
  const scratch = scratchFolder("sudoku-bulk-bench-");
  await measure(options, scratch, pin);
  if (options.sizing) await sizing(options, scratch);
}

async function measure(options: Options, scratch: string, pin: Pin): Promise<void> {
  /** Writes `bytes` to `name` in the scratch folder; returns its path. */
  const file = (name: string, bytes: string | Uint8Array) => {
    writeFileSync(join(scratch, name), bytes);
    return join(scratch, name);
  };
  const reporter = file("report.mjs", REPORTER);
  const easyLines = relabelledPuzzleBytes(options.records, 3);
  const easy = file("easy.txt", easyLines);
  const one = file("one.txt", easyLines.subarray(0, CELLS + 1));
  const small = file("small.txt", easyLines.subarray(0, options.small * (CELLS + 1)));
  const easyGrids = cellsOf(easyLines);
  const hardLines = options.hard > 0 ? datasetLines(publicSetPath(HARD_SET), options.hard) : null;
  const hard = hardLines && file("hard.txt", hardLines);
  const hardGrids = hardLines && cellsOf(hardLines);
  const kernel = await WasmKernel.create();
  const limit = 2;
  const twoProblem = twoAtOnceProblem(availableParallelism());
  /** `solve NAME… file`; a `--threads 0` run on K's core. */
  const solve = (name: string, path: string) => runCli([...name.split(" "), path], reporter, name.startsWith("--threads 0") ? { pin } : {});

  console.log(machineLine("bulk-bench"));
  console.log(
    `${figure(options.records)} generated easy records; ${hardLines ? `${figure(hardGrids!.length / CELLS)} of ${HARD_SET}` : "no hard set"}; ${counted(options.rounds, "round")}; limit ${limit}; ${pinText(pin)}`,
  );

  const runsOf = (...names: string[]) => new Map(names.map((name) => [name, [] as CliRun[]]));
  const cli = runsOf("--threads 0", "--threads 1", "--threads 2", "--threads 0 --out jsonl");
  const hardRuns = runsOf("--threads 0", "--threads 1", "--threads 2");
  const [cliZero, hardZero] = [cli.get("--threads 0")!, hardRuns.get("--threads 0")!];
  const k: number[] = [];
  const kCpu: number[] = [];
  const kTwo: number[] = [];
  const twoSample = easyGrids.subarray(0, Math.min(easyGrids.length, 20_000 * CELLS));
  const kHard: number[] = [];
  const smallRuns: { zero: CliRun[]; auto: CliRun[] } = { zero: [], auto: [] };
  const startUps: CliRun[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const timeK = (grids: Uint8Array) => {
      const run = () => solveInBatches(kernel, grids, limit);
      return onPinnedCore(pin, () => (round === 0 ? warmRate(grids.length / CELLS, K_SECONDS, K_SECONDS, run) : rate(grids.length / CELLS, K_SECONDS, run)));
    };
    const kernelRate = await timeK(easyGrids);
    k.push(kernelRate.wall);
    kCpu.push(kernelRate.cpu);
    for (const [name, list] of cli) {
      if (name === "--threads 2" && twoProblem === null) kTwo.push(await kernelsAtOnce(2, twoSample, limit, 1)); // just before the run it bounds
      list.push(await solve(name, easy));
    }
    if (hardGrids) {
      kHard.push((await timeK(hardGrids)).wall);
      for (const [name, list] of hardRuns) list.push(await solve(name, hard!));
    }
    startUps.push(await solve("--threads 0", one));
    smallRuns.zero.push(await runCli(["--threads", "0", small], reporter));
    smallRuns.auto.push(await runCli([small], reporter));
    process.stderr.write(`round ${round + 1} of ${options.rounds} done\n`);
  }

  const rows: BulkRow[] = [];
  const walls = (list: CliRun[]) => list.map((run) => run.wallSeconds);
  const wall = (list: CliRun[]) => median(walls(list));
  const cliRow = (run: string, list: CliRun[], count: number, kRates: number[], zero: CliRun[] | null): BulkRow => ({
    run,
    perSecond: count / wall(list),
    perK: list.map((one, i) => count / one.wallSeconds / kRates[i]),
    perZero: zero && list !== zero ? list.map((one, i) => zero[i].wallSeconds / one.wallSeconds) : null,
    cpuSeconds: median(list.map((one) => one.cpuSeconds)),
    rssMb: median(list.map((one) => one.maxRssMb)),
  });
  const kernelRow = (run: string, rates: number[]): BulkRow => ({ run, perSecond: median(rates), perK: null, perZero: null, cpuSeconds: null, rssMb: null });
  rows.push(kernelRow(`K, ${figure(options.records)} easy records`, k));
  for (const [name, list] of cli) rows.push(cliRow(`\`solve ${name}\``, list, options.records, k, name.includes("--out") ? null : cliZero));
  const hardCount = hardGrids ? hardGrids.length / CELLS : 0;
  if (hardGrids) {
    rows.push(kernelRow(`K, ${HARD_SET} (first ${figure(hardCount)})`, kHard));
    for (const [name, list] of hardRuns) rows.push(cliRow(`\`solve ${name}\`, hard`, list, hardCount, kHard, hardZero));
  }
  console.log("");
  console.log(`K (kernel in process, one thread): ${figure(median(k))} puzzles/s wall, ${figure(median(kCpu))} per CPU-second`);
  const two = cli.get("--threads 2")!.map((run) => options.records / run.wallSeconds);
  console.log(
    twoProblem === null
      ? `K on 2 threads at once (a kernel each, no pool; the first ${figure(twoSample.length / CELLS)} easy records): ${figure(median(kTwo))} puzzles/s, ${ratioCell(kTwo.map((r, i) => r / k[i]))} of K; \`solve --threads 2\` ÷ that: ${ratioCell(two.map((r, i) => r / kTwo[i]))}`
      : `K on 2 threads at once: not measured (${twoProblem})`,
  );
  console.log("");
  const plain = (text: string) => text.replace(/`/g, "");
  const textColumns = BULK_COLUMNS.map((column) => ({ ...column, header: plain(column.header), cell: (row: BulkRow) => plain(column.cell(row, rows[0])) }));
  for (const line of options.markdown ? markdownTable(BULK_COLUMNS, rows) : tableLines(textColumns, rows)) console.log(line);
  if (hardGrids) {
    console.log("");
    for (const [name, list] of hardRuns) {
      if (list === hardZero) continue;
      // Each round's start-up (a 1-record run) taken off both: the solving phases alone.
      const solving = solvingRatios(walls(list), walls(hardZero), walls(startUps));
      const busy = list.map((run) => run.cpuSeconds / run.wallSeconds);
      console.log(
        `hard, ${name} ÷ --threads 0 with the start-up (${median(walls(startUps)).toFixed(3)} s, a 1-record run) taken off both: ${measuredCell(solving)}; ${ratioCell(busy)} cores busy (CPU s ÷ wall s)`,
      );
    }
    // The most two threads could give, start-up included: --threads 0's solving halved, no worker start-up added.
    const ceiling = solvingRatios(walls(hardZero), walls(hardZero), walls(startUps));
    const bound =
      "ratios" in ceiling
        ? { ratios: hardZero.map((run, i) => run.wallSeconds / (startUps[i].wallSeconds + (run.wallSeconds - startUps[i].wallSeconds) / 2)) }
        : ceiling;
    console.log(`hard, the most 2 threads could give over --threads 0, start-up included (the solving halved, nothing added): ${measuredCell(bound)}`);
  }
  const smallRatio = smallRuns.auto.map((auto, i) => auto.wallSeconds / smallRuns.zero[i].wallSeconds);
  console.log(
    `small file (${figure(options.small)} records): default threads ${median(smallRuns.auto.map((r) => r.wallSeconds)).toFixed(3)} s, --threads 0 ${median(smallRuns.zero.map((r) => r.wallSeconds)).toFixed(3)} s: default ÷ --threads 0 wall ${ratioCell(smallRatio)}`,
  );
  console.log(
    `start-up (a 1-record run, --threads 0): ${median(startUps.map((r) => r.wallSeconds)).toFixed(3)} s wall, ${median(startUps.map((r) => r.cpuSeconds)).toFixed(3)} CPU s, peak RSS ${figure(median(startUps.map((r) => r.maxRssMb)))} MB`,
  );

  // a ÷ K of runs that are mostly start-up is true (start-up included) but says little of the solving
  for (const [records, zero, option] of [
    ["the easy records", cliZero, "--records"],
    [`the first ${figure(hardCount)} of ${HARD_SET}`, hardGrids ? hardZero : null, "--hard"],
  ] as const) {
    const note = zero && startUpNote(median(walls(startUps)) / wall(zero), records, option);
    if (note) console.log(note);
  }

  if (options.memory) {
    console.log("");
    const million = file("million.txt", easyLines.subarray(0, Math.min(options.records, 1_000_000) * (CELLS + 1)));
    const one = await runCli(["--threads", "2", million], reporter);
    const all = median(cli.get("--threads 2")!.map((run) => run.maxRssMb));
    console.log(
      `peak RSS, --threads 2: ${figure(one.maxRssMb)} MB on ${figure(Math.min(options.records, 1_000_000))} records, ${figure(all)} MB on ${figure(options.records)} (${((all / one.maxRssMb - 1) * 100).toFixed(0)}% more)`,
    );
    for (const out of ["line", "jsonl", "csv"]) {
      const capped = await runCli(["--threads", "2", "--out", out, easy], reporter, { heapMb: 64 });
      console.log(`--max-old-space-size=64, --out ${out}: ${figure(options.records)} records done, peak RSS ${figure(capped.maxRssMb)} MB`);
    }
  }
}

/** The cached file of a public set (a {@link DatasetSpecError} giving the fetch command when it is not fetched). */
const publicSetPath = (name: string): string => loadDatasets(name)[0].path;

/** The tiers of the sizing table: the bundled sets repeated to `records` lines, and the hard set's first ones. */
const SIZING_TIERS: readonly { name: string; path: string; records: number }[] = [
  // Seconds of work each, so that a 2-thread run's worker start is a small part of it.
  ...["easy", "medium"].map((name) => ({ name, path: packagePath("datasets", `${name}.txt`), records: 500_000 })),
  { name: "hard", path: packagePath("datasets", "hard.txt"), records: 200_000 },
  { name: "hardest", path: packagePath("datasets", "hardest.txt"), records: 50_000 },
  {
    name: `\`${HARD_SET}\``,
    get path() {
      return publicSetPath(HARD_SET);
    },
    records: 44_766,
  },
];

/**
 * The sizing table: per tier, puzzles per CPU-second of the whole `solve --threads 0` and per wall second of `--threads 2`
 * (one 2-core machine), a 1-record run's start-up taken off each; then what 10⁹ such puzzles take. Medians over rounds.
 */
async function sizing(options: Options, scratch: string): Promise<void> {
  const reporter = join(scratch, "report.mjs");
  const one = join(scratch, "one.txt");
  console.log("");
  console.log(`sizing (medians of ${counted(options.rounds, "round")}; start-up, a 1-record run, taken off each):`);
  console.log("");
  for (const line of markdownTable(SIZING_COLUMNS, [])) console.log(line); // the header and rule: the rows follow as they are measured
  for (const tier of SIZING_TIERS) {
    const lines = datasetLines(tier.path, Infinity);
    const have = lines.length / (CELLS + 1);
    const copies = Math.ceil(tier.records / have);
    const path = join(scratch, "tier.txt");
    writeFileSync(path, Buffer.concat(Array.from({ length: copies }, () => lines)).subarray(0, tier.records * (CELLS + 1)));
    const rounds = [];
    for (let round = 0; round < options.rounds; round++) {
      const start = await runCli(["--threads", "0", one], reporter);
      const zero = await runCli(["--threads", "0", path], reporter);
      rounds.push({ start, zero, two: await runCli(["--threads", "2", path], reporter) });
    }
    console.log(markdownTable(SIZING_COLUMNS, [sizingRow(tier.name, tier.records, rounds)])[2]);
  }
}

await runTool("bulk-bench", main);
