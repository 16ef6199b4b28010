/**
 * `npm run kernel-vs -- [options]`: today's 9×9 kernel (build/release.wasm) against the kernel of
 * an earlier commit, in one process, on the same puzzles.
 *
 * The old kernel is built from git: `git show <commit>:assembly/index.ts` is compiled with this
 * checkout's release settings into build/ref/<commit>.wasm (gitignored, built once). Both kernels
 * get the same batch through `WasmKernel` `input(n)` / `run(n, limit)`, one thread; the rounds
 * alternate which kernel goes first, and each run is timed in process CPU time (the machine may be
 * shared). Answers are checked against each other outside the timed region.
 *
 * Prints per dataset: puzzles/s of each (median round), the ratio new ÷ old (median of the
 * per-round ratios, with its range), and exact guesses/puzzle (mean, median) of each.
 */
import { Command } from "commander";
import { loadDatasetList, datasetGrid, type Dataset } from "../src/datasets.js";
import { type KernelBuild, WasmKernel } from "../src/wasm.js";
import { summarizeGuesses } from "./measure/guesses.js";
import { buildKernelAtCommit, cpuSeconds } from "./measure/reference.js";
import { quantile } from "../src/quantile.js";
import { commaList, wholeNumber } from "../src/cli/options.js";

/**
 * The default old kernel: issue 21's baseline, the kernel before band-major masks (`git log
 * 3c51558.. -- assembly/index.ts` lists what changed since; 0287653 is the one before the triad
 * rule and configuration branching).
 */
const DEFAULT_REF = "3c51558";
const DEFAULT_DATASETS = [
  "forum_hardest_1905_11plus",
  "forum_hardest_1106",
  "magictour_top1465",
  "17_clue",
  "kaggle_bryanpark_10k",
].map((name) => `../shared/datasets/${name}.txt`);

/** One kernel's figures on one dataset. */
export interface KernelFigures {
  puzzlesPerSecond: number;
  guessesMean: number;
  guessesMedian: number;
}

/** Both kernels on one dataset. */
export interface VersusRecord {
  dataset: string;
  puzzles: number;
  old: KernelFigures;
  current: KernelFigures;
  /** new ÷ old puzzles/s: median of the rounds, and the range over rounds. */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
}

/** Builds the 9×9 kernel of `commit` into build/ref/<commit>.wasm unless it is there; returns the file's URL. */
export function buildReferenceKernel(commit: string): Promise<URL> {
  return buildKernelAtCommit(commit, "assembly/index.ts", "release");
}

/** Mean and median guesses (the measuring core's summary; a kernel always counts them). */
const guessFigures = (guesses: Int32Array) => summarizeGuesses(guesses)!;

/** Times both kernels on the first `options.puzzles` puzzles of `dataset` (all when 0). */
export function versus(old: WasmKernel, current: WasmKernel, dataset: Dataset, options: { puzzles: number; rounds: number; limit: number; runSeconds: number }): VersusRecord {
  const n = options.puzzles > 0 ? Math.min(options.puzzles, dataset.puzzles.length) : dataset.puzzles.length;
  for (const kernel of [old, current]) {
    const input = kernel.input(n);
    for (let i = 0; i < n; i++) input.set(datasetGrid(dataset, i), i * 81);
  }
  // Answers and guesses, untimed (and a warm-up).
  const a = old.run(n, options.limit);
  const oldCounts = a.counts.slice();
  const oldSolutions = a.solutions.slice();
  const oldGuesses = guessFigures(a.guesses);
  const b = current.run(n, options.limit);
  for (let i = 0; i < n; i++) {
    if (b.counts[i] !== oldCounts[i]) throw new Error(`${dataset.path} line ${dataset.lines[i]}: count ${b.counts[i]}, the old kernel says ${oldCounts[i]}`);
    if (b.counts[i] === 1 && !b.solutions.subarray(i * 81, i * 81 + 81).every((v, k) => v === oldSolutions[i * 81 + k])) {
      throw new Error(`${dataset.path} line ${dataset.lines[i]}: the kernels disagree on the solution`);
    }
  }
  const newGuesses = guessFigures(b.guesses);
  // Warm-up until V8 has tiered both kernels up, and enough repetitions per timed run that a
  // run lasts about `runSeconds` even on a small file.
  let slowest = 0;
  for (let warm = 0; warm < 3; warm++) {
    for (const kernel of [old, current]) {
      const start = cpuSeconds();
      kernel.run(n, options.limit);
      slowest = Math.max(slowest, cpuSeconds() - start);
    }
  }
  const repeats = Math.max(1, Math.ceil(options.runSeconds / Math.max(slowest, 1e-4)));
  const oldTimes: number[] = [];
  const newTimes: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? [old, current] : [current, old];
    const times = new Map<WasmKernel, number>();
    for (const kernel of order) {
      const start = cpuSeconds();
      for (let r = 0; r < repeats; r++) kernel.run(n, options.limit);
      times.set(kernel, (cpuSeconds() - start) / repeats);
    }
    oldTimes.push(times.get(old)!);
    newTimes.push(times.get(current)!);
    ratios.push(times.get(old)! / times.get(current)!);
  }
  const median = (values: number[]) => quantile(Float64Array.from(values).sort(), 0.5);
  return {
    dataset: dataset.name,
    puzzles: n,
    old: { puzzlesPerSecond: n / median(oldTimes), guessesMean: oldGuesses.mean, guessesMedian: oldGuesses.median },
    current: { puzzlesPerSecond: n / median(newTimes), guessesMean: newGuesses.mean, guessesMedian: newGuesses.median },
    ratio: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
  };
}

/** A Markdown table of the records. */
export function versusTable(records: VersusRecord[], ref: string): string {
  const int = (x: number) => Math.round(x).toLocaleString("en-US");
  const fixed = (x: number, digits = 2) => x.toFixed(digits);
  const lines = [
    `| dataset | puzzles | ${ref} puzzles/s | new puzzles/s | new ÷ old (range) | guesses/puzzle old → new | median guesses old → new |`,
    "|:---|---:|---:|---:|:---|:---|:---|",
  ];
  for (const r of records) {
    lines.push(
      `| ${r.dataset} | ${int(r.puzzles)} | ${int(r.old.puzzlesPerSecond)} | ${int(r.current.puzzlesPerSecond)} | ` +
        `**${fixed(r.ratio)}×** (${fixed(r.ratioMin)}–${fixed(r.ratioMax)}) | ${fixed(r.old.guessesMean, 3)} → ${fixed(r.current.guessesMean, 3)} | ` +
        `${r.old.guessesMedian} → ${r.current.guessesMedian} |`,
    );
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const program = new Command("npm run kernel-vs --")
    .description("today's kernel (build/release.wasm) against the kernel of an earlier commit, same process, same puzzles")
    .option("--ref <commit>", "the commit whose assembly/index.ts is the old kernel", DEFAULT_REF)
    .option("--build <stem>", "the build of today's kernel: release or variants/<name>", "release")
    .option("--datasets <list>", "comma-separated files or bundled names", commaList, DEFAULT_DATASETS)
    .option("--puzzles <n>", "the first n puzzles of each file (0: all)", wholeNumber(0), 10000)
    .option("--rounds <n>", "timed runs of each kernel per dataset, alternating which goes first", wholeNumber(1), 5)
    .option("--limit <n>", "count solutions up to this", wholeNumber(1), 2)
    .parse(process.argv.slice(2), { from: "user" });
  const options = { ...program.opts<{ ref: string; build: string; datasets: string[]; puzzles: number; rounds: number; limit: number }>(), runSeconds: 0.3 };
  const old = await WasmKernel.create(await buildReferenceKernel(options.ref));
  const current = await WasmKernel.create(undefined, options.build as KernelBuild);
  const records: VersusRecord[] = [];
  for (const dataset of loadDatasetList(options.datasets)) {
    const record = versus(old, current, dataset, options);
    records.push(record);
    process.stderr.write(`${dataset.name}: ${record.ratio.toFixed(2)}×\n`);
  }
  process.stdout.write(versusTable(records, options.ref) + "\n");
}

await main().catch((error: Error) => {
  process.stderr.write(`kernel-vs: ${error.message}\n`);
  process.exitCode = 1;
});
