/**
 * `npm run general-vs -- [options]`: today's N×N kernel (build/general.wasm) against the general
 * kernel of an earlier commit, in one process, on the same puzzles (one box size per file).
 *
 * The old kernel is built from git: `git show <commit>:assembly/general.ts` is compiled with this
 * checkout's `general` settings into build/ref/general-<commit>.wasm (gitignored, built once).
 * Both get the same batch in one `solveBatch` call, one thread; the rounds alternate which kernel
 * goes first, and each run is timed in process CPU time (the machine may be shared). Counts and
 * solutions are checked against each other outside the timed region.
 *
 * Prints per file: puzzles/s of each (median round), new ÷ old (median of the per-round ratios,
 * with its range), and exact guesses and nodes per puzzle of each.
 */
import { Command } from "commander";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseSymbols } from "../src/puzzle.js";
import { type BatchResult, kernelBudget } from "../src/solver.js";
import { instantiate as instantiateGeneralKernel } from "../build/general.js";
import { compileSource } from "../src/kernel-source.js";
import { batchViews, kernelUrl } from "../src/wasm.js";
import { buildKernelAtCommit, cpuSeconds } from "./measure/reference.js";
import { quantile } from "../src/quantile.js";
import { commaList, wholeNumber } from "../src/cli/options.js";

/**
 * The default old kernel: the last commit before triads, the root set up unit by unit and stride scans
 * (`git log 0287653.. -- assembly/general.ts` lists what changed since).
 */
const DEFAULT_REF = "0287653";
const DEFAULT_DATASETS = ["../shared/datasets/sudoku16_kr100.txt", "../shared/datasets/sudoku25_misc.txt"];

interface GeneralExports {
  memory: WebAssembly.Memory;
  reserve(count: number, box: number): number;
  /** Today's: the box size is the reserved batch's; before issue 22 it was passed here (5 parameters). */
  solveBatch(base: number, count: number, ...rest: number[]): number;
}

/** One instance of a general kernel build, holding one batch of puzzles. */
class Contender {
  private base = 0;
  private constructor(readonly name: string, private readonly exports: GeneralExports) {}

  static async load(name: string, kernel: URL): Promise<Contender> {
    return new Contender(name, (await instantiateGeneralKernel(await compileSource(kernel), { env: {} })) as GeneralExports);
  }

  /** Writes the puzzles (N² bytes each, all of box size `box`) into linear memory. */
  setPuzzles(packed: Uint8Array, count: number, box: number): void {
    this.base = this.exports.reserve(count, box);
    new Uint8Array(this.exports.memory.buffer, this.base, packed.length).set(packed);
  }

  /** Solves the batch written last; the views are valid until the next call. */
  run(count: number, box: number, limit: number): BatchResult {
    const budget = kernelBudget(Infinity);
    if (this.exports.solveBatch.length === 5) this.exports.solveBatch(this.base, count, box, limit, budget);
    else this.exports.solveBatch(this.base, count, limit, budget);
    return batchViews(this.exports.memory, this.base, count, box ** 4);
  }
}

function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

/** One file: both kernels' speed and exact search figures. */
interface GeneralVersusRecord {
  dataset: string;
  puzzles: number;
  box: number;
  perSecond: [number, number];
  guesses: [number, number];
  nodes: [number, number];
  ratio: number;
  ratioMin: number;
  ratioMax: number;
}

function versus(kernels: [Contender, Contender], path: string, options: { rounds: number; limit: number; runSeconds: number }): GeneralVersusRecord {
  const puzzles = readFileSync(path, "utf8").split(/\r?\n/).filter((line) => line.trim() !== "" && !line.startsWith("#")).map((line) => parseSymbols(line));
  const box = puzzles[0].shape.box;
  if (puzzles.some((p) => p.shape.box !== box)) throw new Error(`${path}: mixes grid sizes`);
  const cells = box ** 4;
  const n = puzzles.length;
  const packed = new Uint8Array(n * cells);
  puzzles.forEach((p, i) => packed.set(p.grid, i * cells));
  for (const kernel of kernels) kernel.setPuzzles(packed, n, box);
  // Answers and exact figures, untimed (and a first warm-up).
  const [a, b] = kernels.map((kernel) => {
    const { counts, guesses, nodes, solutions } = kernel.run(n, box, options.limit);
    return { counts: counts.slice(), guesses: mean(guesses), nodes: mean(nodes!.map(Math.abs)), solutions: solutions.slice() };
  });
  for (let i = 0; i < n; i++) {
    if (a.counts[i] !== b.counts[i]) throw new Error(`${path} puzzle ${i + 1}: count ${b.counts[i]}, the old kernel says ${a.counts[i]}`);
    if (a.counts[i] === 1 && !b.solutions.subarray(i * cells, (i + 1) * cells).every((v, k) => v === a.solutions[i * cells + k])) {
      throw new Error(`${path} puzzle ${i + 1}: the kernels disagree on the solution`);
    }
  }
  let slowest = 0;
  for (let warm = 0; warm < 3; warm++) {
    for (const kernel of kernels) {
      const start = cpuSeconds();
      kernel.run(n, box, options.limit);
      slowest = Math.max(slowest, cpuSeconds() - start);
    }
  }
  const repeats = Math.max(1, Math.ceil(options.runSeconds / Math.max(slowest, 1e-4)));
  const times: [number[], number[]] = [[], []];
  const ratios: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    const took = [0, 0];
    for (const k of order) {
      const start = cpuSeconds();
      for (let r = 0; r < repeats; r++) kernels[k].run(n, box, options.limit);
      took[k] = (cpuSeconds() - start) / repeats;
    }
    times[0].push(took[0]);
    times[1].push(took[1]);
    ratios.push(took[0] / took[1]);
  }
  const median = (values: number[]) => quantile(Float64Array.from(values).sort(), 0.5);
  return {
    dataset: basename(path, ".txt"),
    puzzles: n,
    box,
    perSecond: [n / median(times[0]), n / median(times[1])],
    guesses: [a.guesses, b.guesses],
    nodes: [a.nodes, b.nodes],
    ratio: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
  };
}

function table(records: GeneralVersusRecord[], ref: string): string {
  const fixed = (x: number, digits = 1) => x.toFixed(digits);
  const lines = [
    `| dataset | puzzles | ${ref} puzzles/s | new puzzles/s | new ÷ old (range) | guesses/puzzle old → new | nodes/puzzle old → new |`,
    "|:---|---:|---:|---:|:---|:---|:---|",
  ];
  for (const r of records) {
    lines.push(
      `| ${r.dataset} | ${r.puzzles} | ${fixed(r.perSecond[0])} | ${fixed(r.perSecond[1])} | **${fixed(r.ratio, 2)}×** (${fixed(r.ratioMin, 2)}–${fixed(r.ratioMax, 2)}) | ` +
        `${fixed(r.guesses[0])} → ${fixed(r.guesses[1])} | ${fixed(r.nodes[0])} → ${fixed(r.nodes[1])} |`,
    );
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const program = new Command("npm run general-vs --")
    .description("today's N×N kernel (build/general.wasm) against the general kernel of an earlier commit, same process, same puzzles")
    .option("--ref <commit>", "the commit whose assembly/general.ts is the old kernel", DEFAULT_REF)
    .option("--datasets <list>", "comma-separated files, each of one grid size", commaList, DEFAULT_DATASETS)
    .option("--rounds <n>", "timed runs of each kernel per file, alternating which goes first", wholeNumber(1), 5)
    .option("--limit <n>", "count solutions up to this", wholeNumber(1), 2)
    .parse(process.argv.slice(2), { from: "user" });
  const options = { ...program.opts<{ ref: string; datasets: string[]; rounds: number; limit: number }>(), runSeconds: 0.5 };
  const kernels: [Contender, Contender] = [
    await Contender.load(options.ref, await buildKernelAtCommit(options.ref, "assembly/general.ts", "general", "general-")),
    await Contender.load("new", kernelUrl("general")),
  ];
  const records = options.datasets.map((path) => {
    const record = versus(kernels, path, options);
    process.stderr.write(`${record.dataset}: ${record.ratio.toFixed(2)}×\n`);
    return record;
  });
  process.stdout.write(table(records, options.ref) + "\n");
}

await main().catch((error: Error) => {
  process.stderr.write(`general-vs: ${error.message}\n`);
  process.exitCode = 1;
});
