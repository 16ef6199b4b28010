/**
 * `npm run canon-bench [-- FILE...]`: the minlex kernel's rate on one core, per set: puzzles per second of kernel time,
 * by the wall clock and by process CPU time (steadier on a shared machine, but a collector running beside it lowers it).
 */
import { Command } from "commander";
import { CanonKernel } from "../src/canon/canon.js";
import { bundledDatasets, loadDatasetList } from "../src/datasets/read.js";
import { rate } from "./measure/reference.js";
import { figure } from "./bulk-table.js";
import { machineLine, quietUsage, runTool, seconds } from "./tool.js";

const BATCH = 4096;

async function main(): Promise<void> {
  const command = quietUsage(new Command("npm run canon-bench --"))
    .description("the minlex kernel's puzzles per second on one core, per set (wall clock and CPU time)")
    .argument("[sets...]", "public set names, bundled names (the default: all of them), files or folders")
    .option("--seconds <s>", "least time measured per set, pass after pass", seconds, 1);
  const parsed = command.parse(process.argv.slice(2), { from: "user" });
  const specs = parsed.args;
  const least = parsed.opts<{ seconds: number }>().seconds;
  const sets = loadDatasetList(specs.length > 0 ? specs : bundledDatasets());
  console.log(machineLine("canon-bench"));
  const kernel = await CanonKernel.create();
  console.log("set                              puzzles   s/pass   puzzles/s (wall)   puzzles/s (CPU time)");
  for (const { name, puzzles: lines } of sets) {
    const puzzles = lines.filter((line) => line.length === 81).map((line) => Buffer.from(line, "latin1"));
    const others = lines.length - puzzles.length;
    const leftOut = others > 0 ? `  (${others} line${others === 1 ? "" : "s"} not of 81 characters left out)` : "";
    if (puzzles.length === 0) {
      console.log(`${name.padEnd(32)} no 9×9 puzzles to measure${leftOut}`);
      continue;
    }
    const run = (from: number, to: number) => {
      const input = kernel.input(to - from);
      for (let k = from; k < to; k++) input.set(puzzles[k], (k - from) * 81);
      kernel.run(to - from);
    };
    run(0, Math.min(BATCH, puzzles.length)); // warm-up
    const { wall, cpu } = await rate(puzzles.length, least, () => {
      for (let from = 0; from < puzzles.length; from += BATCH) run(from, Math.min(puzzles.length, from + BATCH));
    });
    const pass = (puzzles.length / wall).toFixed(3);
    console.log(
      `${name.padEnd(32)} ${String(puzzles.length).padStart(7)} ${pass.padStart(8)} ${figure(wall).padStart(18)} ${figure(cpu).padStart(22)}${leftOut}`,
    );
  }
}

await runTool("canon-bench", main);
