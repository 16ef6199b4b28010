/**
 * `npm run profile`: every WASM kernel variant on every dataset, puzzle by puzzle: what each
 * propagation level and cell order buys, down to the hardest puzzle.
 */
import { Command } from "commander";
import { kernelVariantInfos, runProfile, type ProfileOptions } from "./run.js";
import { resultsFolder } from "../report/output.js";
import { bundledDatasets } from "../../src/datasets/read.js";
import { type OptionRow, commaList, toOption, wholeNumber } from "../../src/cli-kit/options.js";
import { solverHelpLines } from "../../src/cli-kit/solver-help.js";

/** Every option of `profile`, once: flags, help, defaults and parsers. */
const PROFILE_OPTIONS: readonly OptionRow[] = [
  { flags: "--variants <ids>", description: "comma-separated kernel variant ids (listed below)", defaultText: "every wasm variant", parse: commaList },
  {
    flags: "--datasets <specs>",
    description: "comma-separated public set names (npx sudoku-wasm datasets list), bundled names, puzzle files or folders",
    defaultText: "every bundled dataset",
    parse: commaList,
  },
  { flags: "--limit <n>", description: "count solutions up to 1 (find one) or 2 (prove uniqueness)", default: 2, parse: wholeNumber(1, 2) },
  {
    flags: "--budget <nodes>",
    description: "search nodes per puzzle before it counts as a timeout (shown, never dropped)",
    default: 200_000,
    parse: wholeNumber(1, 0x7fffffff),
  },
  {
    flags: "--sample <n>",
    description: "profile at most this many puzzles per dataset, drawn with --seed",
    defaultText: "every puzzle",
    parse: wholeNumber(1),
  },
  { flags: "--seed <n>", description: "seed of the --sample draw", default: 1, parse: wholeNumber(0, 0xffffffff) },
  { flags: "--json [file]", description: "write every record (per-puzzle arrays included) as JSON (bare flag: <out>/profile-<time>.json)" },
  { flags: "--markdown", description: "print each dataset's variant table as Markdown (every column) instead of the terminal report", default: false },
  {
    flags: "--out <dir>",
    description: "folder of the pictures (two SVGs per dataset) and the CPU profile",
    default: resultsFolder(),
    defaultText: "bench/results/",
  },
  { flags: "--cpu-prof", description: "also write a V8 CPU profile of the run to <out>/profile-<time>.cpuprofile", default: false },
];

/** The help after the options: variants, bundled datasets, how to read the outputs. */
function helpAfter(): string {
  return [
    "",
    "Kernel variants (id, grid sizes, algorithm):",
    ...solverHelpLines(kernelVariantInfos()),
    "",
    `Bundled datasets (easiest first): ${bundledDatasets().join(", ") || "none"}`,
    "",
    "Output: a table per dataset (puzzles/s from whole-batch calls; guesses, nodes and µs percentiles",
    "per puzzle solved alone; the 10 hardest puzzles by time and by guesses as file lines), then per",
    "dataset two SVGs in --out: the time CDF of each variant and guesses against time. Every variant",
    "must count the same solutions on every puzzle none timed out on, or the run fails.",
    "",
    "--cpu-prof: open the .cpuprofile in Chrome DevTools (Performance panel → Load profile, or",
    "chrome://inspect → Open dedicated DevTools for Node → Profiler → Load) or in VS Code (open the",
    "file: flame chart view).",
  ].join("\n");
}

/** The `profile` subcommand, ready to be added to the main program. */
export function profileCommand(): Command {
  const command = new Command("profile").description(
    "profile the WASM kernel variants per dataset and per puzzle: speed, guesses, search nodes, hardest puzzles, pictures",
  );
  PROFILE_OPTIONS.forEach((row) => command.addOption(toOption(row)));
  command.addHelpText("after", helpAfter);
  return command.action(async (options: ProfileOptions) => {
    await runProfile(options);
  });
}
