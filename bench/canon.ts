/**
 * `npm run canon-bench [-- FILE...]`: the minlex kernel's rate on one core, per set (default: the
 * bundled sets): every 9×9 line canonicalised in batches of {@link BATCH} after a warm-up batch;
 * puzzles per second of kernel time (the copy in included), by the wall clock and by CPU time.
 */
import { Command } from "commander";
import { CanonKernel } from "../src/canon/canon.js";
import { bundledDatasets, loadDatasetList } from "../src/datasets/read.js";
import { machineLine, quietUsage, runTool } from "./tool.js";

/** Puzzles per kernel call. */
const BATCH = 4096;

/** One set's measurement. */
export interface CanonRate {
  set: string;
  puzzles: number;
  /** Wall-clock seconds of the timed pass. */
  seconds: number;
  /** Puzzles per wall-clock second on one core. */
  rate: number;
  /** Puzzles per second of this process's CPU time (user + system): steadier than `rate` on a shared machine. */
  cpuRate: number;
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
  const cpu = process.cpuUsage();
  for (let from = 0; from < puzzles.length; from += BATCH) run(from, Math.min(puzzles.length, from + BATCH));
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - began) / 1000;
  return { set, puzzles: puzzles.length, seconds, rate: puzzles.length / seconds, cpuRate: puzzles.length / ((used.user + used.system) / 1e6) };
}

async function main(): Promise<void> {
  const command = quietUsage(new Command("npm run canon-bench --"))
    .description("the minlex kernel's puzzles per second on one core, per set (wall clock and CPU time)")
    .argument("[sets...]", "public set names, bundled names (the default: all of them), files or folders");
  const specs = command.parse(process.argv.slice(2), { from: "user" }).args;
  const sets = loadDatasetList(specs.length > 0 ? specs : bundledDatasets());
  console.log(machineLine("canon-bench"));
  const kernel = await CanonKernel.create();
  console.log("set                              puzzles   seconds   puzzles/s (wall)   puzzles/s (CPU time)");
  for (const { name, puzzles: lines } of sets) {
    const { puzzles, seconds, rate, cpuRate } = measureCanon(kernel, name, puzzleBytes(lines));
    const grouped = (n: number, width: number) => Math.round(n).toLocaleString("en-US").padStart(width);
    console.log(`${name.padEnd(32)} ${String(puzzles).padStart(7)} ${seconds.toFixed(3).padStart(9)} ${grouped(rate, 18)} ${grouped(cpuRate, 22)}`);
  }
}

await runTool("canon-bench", main);
