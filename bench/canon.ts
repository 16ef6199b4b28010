/**
 * `npm run canon-bench [-- FILE...]`: the minlex kernel's rate on one core, per set (default: the
 * bundled sets): every 9×9 line canonicalised in batches of {@link BATCH} after a warm-up batch;
 * puzzles per second of kernel time (the copy in included), by the wall clock and by CPU time
 * (steadier on a shared machine).
 */
import { Command } from "commander";
import { CanonKernel } from "../src/canon/canon.js";
import { bundledDatasets, loadDatasetList } from "../src/datasets/read.js";
import { rate } from "./measure/reference.js";
import { figure } from "./bulk-table.js";
import { machineLine, quietUsage, runTool } from "./tool.js";

/** Puzzles per kernel call. */
const BATCH = 4096;

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
    const puzzles = lines.filter((line) => line.length === 81).map((line) => Buffer.from(line, "latin1"));
    const run = (from: number, to: number) => {
      const input = kernel.input(to - from);
      for (let k = from; k < to; k++) input.set(puzzles[k], (k - from) * 81);
      kernel.run(to - from);
    };
    run(0, Math.min(BATCH, puzzles.length)); // warm-up
    const { wall, cpu } = await rate(puzzles.length, 0, () => {
      for (let from = 0; from < puzzles.length; from += BATCH) run(from, Math.min(puzzles.length, from + BATCH));
    });
    const seconds = (puzzles.length / wall).toFixed(3);
    console.log(`${name.padEnd(32)} ${String(puzzles.length).padStart(7)} ${seconds.padStart(9)} ${figure(wall).padStart(18)} ${figure(cpu).padStart(22)}`);
  }
}

await runTool("canon-bench", main);
