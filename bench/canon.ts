/**
 * `npm run canon-bench [-- FILE...]`: the minlex kernel's rate on one core, per set: every 9×9
 * line of each set (files, folders or bundled names; default: the bundled sets) canonicalised in batches of {@link BATCH}
 * through one CanonKernel on the main thread, after a warm-up pass over the first batch; the
 * rate is puzzles per second of kernel time (the copy into its memory included). Prints the
 * CPU, Node and load average first: figures from a shared machine are marked by its load.
 */
import { cpus, loadavg } from "node:os";
import { CanonKernel } from "../src/canon.js";
import { bundledDatasets, loadDatasetList } from "../src/datasets.js";

/** Puzzles per kernel call. */
const BATCH = 4096;

/** One set's measurement. */
export interface CanonRate {
  set: string;
  puzzles: number;
  seconds: number;
  /** Puzzles per second on one core. */
  rate: number;
}

/** The 9×9 puzzles of a set, as 81 bytes each. */
const puzzleBytes = (puzzles: readonly string[]): Uint8Array[] => puzzles.filter((line) => line.length === 81).map((line) => Buffer.from(line, "latin1"));

/** Times `kernel` over `puzzles` (after one warm-up batch). */
export function measureCanon(kernel: CanonKernel, set: string, puzzles: readonly Uint8Array[]): CanonRate {
  const run = (from: number, to: number) => {
    const input = kernel.input(to - from);
    for (let k = from; k < to; k++) input.set(puzzles[k], (k - from) * 81);
    kernel.run(to - from);
  };
  run(0, Math.min(BATCH, puzzles.length));
  const began = performance.now();
  for (let from = 0; from < puzzles.length; from += BATCH) run(from, Math.min(puzzles.length, from + BATCH));
  const seconds = (performance.now() - began) / 1000;
  return { set, puzzles: puzzles.length, seconds, rate: puzzles.length / seconds };
}

async function main(): Promise<void> {
  const specs = process.argv.slice(2);
  const sets = loadDatasetList(specs.length > 0 ? specs : bundledDatasets());
  console.log(`canon-bench: ${cpus()[0]?.model.trim() ?? "unknown CPU"}, Node ${process.version}, one core, load average ${loadavg().map((n) => n.toFixed(1)).join(" ")}`);
  const kernel = await CanonKernel.create();
  console.log("set                              puzzles   seconds   puzzles/s per core");
  for (const { name, puzzles: lines } of sets) {
    const { puzzles, seconds, rate } = measureCanon(kernel, name, puzzleBytes(lines));
    console.log(`${name.padEnd(32)} ${String(puzzles).padStart(7)} ${seconds.toFixed(3).padStart(9)} ${Math.round(rate).toLocaleString("en-US").padStart(20)}`);
  }
}

await main();
