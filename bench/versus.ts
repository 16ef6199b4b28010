/** This checkout's WASM kernels against another commit's (`npm run kernel-vs`), through the measuring core: interleaved rounds of CPU time. */
import type { Dataset } from "../src/datasets/read.js";
import type { Shape } from "../src/model/shape.js";
import { type KernelBuild, WasmKernel } from "../src/kernel/wasm.js";
import { answerChecker, batchAnswers, checkAnswers, summarizeGuesses } from "./measure/check.js";
import { type Draw, drawPuzzles } from "./measure/draw.js";
import { type RoundRatio, roundRatio, timeInterleaved } from "./measure/interleaved.js";
import { median } from "../src/model/quantile.js";
import { type BatchKernel, kernelAtBox } from "./measure/kernel.js";
import { buildKernelAtCommit } from "./measure/reference.js";
import { type Column, formatNumber, markdownTable } from "./report/format.js";
import { datasetExpectation } from "./env.js";

/** CPU seconds each timed run lasts at least. */
const RUN_SECONDS = 0.3;

/** One kernel's figures on one dataset. */
export interface KernelFigures {
  puzzlesPerSecond: number;
  guessesMean: number;
  guessesMedian: number;
  /** Search nodes (states propagated) per puzzle. */
  nodesMean: number;
}

export interface VersusRecord {
  dataset: string;
  puzzles: number;
  /** Solutions counted up to this (--limit). */
  limit: number;
  old: KernelFigures;
  current: KernelFigures;
  /** new ÷ old puzzles/s: median of the rounds, and the range over rounds. */
  speedup: RoundRatio;
}

/** The old (`ref`) and this checkout's kernel for puzzles of a shape, built and loaded when first needed; `build` is this side's 9×9 build. */
export function kernelPairs(ref: string, build: KernelBuild): (shape: Shape) => Promise<[BatchKernel, BatchKernel]> {
  const pairs = new Map<number, Promise<[BatchKernel, BatchKernel]>>();
  return async (shape) => {
    if (!pairs.has(shape.box)) {
      const nine = shape.size === 9;
      const old = buildKernelAtCommit(ref, nine ? "assembly/index.ts" : "assembly/general.ts", nine ? "release" : "general", nine ? "" : "general-");
      const current = nine ? WasmKernel.create(undefined, build) : WasmKernel.create(undefined, "general", shape.box);
      pairs.set(shape.box, Promise.all([nine ? old.then((url) => WasmKernel.create(url)) : old.then((url) => kernelAtBox(url, shape.box)), current]));
    }
    return pairs.get(shape.box)!;
  };
}

/** One kernel's exact figures on the draw, from one checked, untimed call. */
function checkedFigures(kernel: BatchKernel, label: string, draw: Draw, limit: number): Omit<KernelFigures, "puzzlesPerSecond"> {
  const n = draw.grids.length;
  kernel.input(n).set(draw.packed);
  const result = kernel.run(n, limit);
  const answers = batchAnswers(result, n);
  checkAnswers(answers, n, answerChecker(draw, label, limit));
  const guesses = summarizeGuesses(answers.guesses, answers.timedOut)!;
  let nodes = 0;
  for (let i = 0; i < n; i++) nodes += Math.abs(result.nodes[i]);
  return { guessesMean: guesses.mean, guessesMedian: guesses.median, nodesMean: nodes / n };
}

/** Times both kernels on `draw`: answers checked first (and agreeing), then interleaved rounds. */
export function versus(
  [old, current]: readonly [BatchKernel, BatchKernel],
  labels: readonly [string, string],
  draw: Draw,
  options: { rounds: number; limit: number },
  runSeconds = RUN_SECONDS,
): VersusRecord {
  const n = draw.grids.length;
  const figures = [old, current].map((kernel, k) => checkedFigures(kernel, labels[k], draw, options.limit));
  // The puzzles stay in each kernel's input region: each timed call solves them again.
  const [oldSeconds, newSeconds] = timeInterleaved([() => old.run(n, options.limit), () => current.run(n, options.limit)], {
    rounds: options.rounds,
    runSeconds,
  });
  return {
    dataset: draw.dataset.name,
    puzzles: n,
    limit: options.limit,
    old: { puzzlesPerSecond: n / median(oldSeconds), ...figures[0] },
    current: { puzzlesPerSecond: n / median(newSeconds), ...figures[1] },
    speedup: roundRatio(oldSeconds, newSeconds),
  };
}

/** The first `puzzles` puzzles of `dataset` (all when 0), in file order; their counts must be what the bench expects of the file. */
export function firstPuzzles(dataset: Dataset, puzzles: number): Draw {
  const n = puzzles > 0 ? Math.min(puzzles, dataset.puzzles.length) : dataset.puzzles.length;
  return drawPuzzles(
    dataset,
    Array.from({ length: n }, (_, i) => i),
    datasetExpectation(dataset),
  );
}

/** The table's columns (the old kernel's named by its commit). */
function versusColumns(ref: string): Column<VersusRecord>[] {
  // (one round, or rounds that all agree, has no range to show)
  const ratio = ({ ratio: median, min, max }: RoundRatio) => `**${median.toFixed(2)}×**${min === max ? "" : ` (${min.toFixed(2)}–${max.toFixed(2)})`}`;
  const pair = (old: number, current: number, digits = 4) => `${formatNumber(old, digits)} → ${formatNumber(current, digits)}`;
  return [
    { header: "dataset", align: "left", cell: (r) => r.dataset },
    { header: "puzzles", align: "right", cell: (r) => formatNumber(r.puzzles) },
    { header: "limit", align: "right", cell: (r) => `${r.limit}` },
    { header: `${ref} puzzles/s`, align: "right", cell: (r) => formatNumber(r.old.puzzlesPerSecond) },
    { header: "new puzzles/s", align: "right", cell: (r) => formatNumber(r.current.puzzlesPerSecond) },
    { header: "new ÷ old (range)", align: "left", cell: (r) => ratio(r.speedup) },
    { header: "guesses/puzzle old → new", align: "left", cell: (r) => pair(r.old.guessesMean, r.current.guessesMean) },
    { header: "median guesses old → new", align: "left", cell: (r) => pair(r.old.guessesMedian, r.current.guessesMedian) },
    // every search propagates at least one state: none counted is a kernel that does not count them
    {
      header: "nodes/puzzle old → new",
      align: "left",
      cell: (r) => (r.old.nodesMean === 0 ? "n/a → " + formatNumber(r.current.nodesMean, 4) : pair(r.old.nodesMean, r.current.nodesMean)),
    },
  ];
}

export function versusTable(records: readonly VersusRecord[], ref: string): string {
  return markdownTable(versusColumns(ref), records).join("\n");
}
