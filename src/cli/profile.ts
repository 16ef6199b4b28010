/**
 * `sudoku-wasm profile` (and `npm run profile`): every WASM kernel variant on every dataset,
 * puzzle by puzzle — what each propagation level and cell order buys, down to the hardest
 * puzzle. The options table below makes both the help text and the defaults; the measuring
 * and writing live in bench/profile/.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { kernelVariantInfos, runProfile, type ProfileOptions } from "../../bench/profile/run.js";
import { resultsFolder } from "../../bench/report/output.js";
import { bundledDatasets } from "../datasets.js";

/** A commander parser for whole numbers from `min` to `max`. */
function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < min || value > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return value;
  };
}

const list = (text: string): string[] => text.split(",").map((item) => item.trim()).filter((item) => item !== "");

interface OptionRow {
  flags: string;
  description: string;
  defaultValue?: unknown;
  /** How the default reads in --help when it is not a plain value. */
  defaultText?: string;
  parse?: (text: string) => unknown;
}

/** Every option of `profile`, once: flags, help, defaults and parsers. */
const PROFILE_OPTIONS: readonly OptionRow[] = [
  { flags: "--variants <ids>", description: "comma-separated kernel variant ids (listed below)", defaultText: "every wasm variant", parse: list },
  { flags: "--datasets <specs>", description: "comma-separated bundled names, puzzle files or folders", defaultText: "every bundled dataset", parse: list },
  { flags: "--limit <n>", description: "count solutions up to 1 (find one) or 2 (prove uniqueness)", defaultValue: 2, parse: wholeNumber(1, 2) },
  { flags: "--budget <nodes>", description: "search nodes per puzzle before it counts as a timeout (shown, never dropped)", defaultValue: 200_000, parse: wholeNumber(1, 0x7fffffff) },
  { flags: "--sample <n>", description: "profile at most this many puzzles per dataset, drawn with --seed", defaultText: "every puzzle", parse: wholeNumber(1) },
  { flags: "--seed <n>", description: "seed of the --sample draw", defaultValue: 1, parse: wholeNumber(0, 0xffffffff) },
  { flags: "--json [file]", description: "write every record (per-puzzle arrays included) as JSON (bare flag: <out>/profile-<time>.json)" },
  { flags: "--out <dir>", description: "folder of the pictures (two SVGs per dataset) and the CPU profile", defaultValue: resultsFolder(), defaultText: "bench/results/" },
  { flags: "--cpu-prof", description: "also write a V8 CPU profile of the run to <out>/profile-<time>.cpuprofile", defaultValue: false },
];

function toOption(row: OptionRow): Option {
  const description = row.defaultValue === undefined && row.defaultText ? `${row.description} (default: ${row.defaultText})` : row.description;
  const option = new Option(row.flags, description);
  if (row.defaultValue !== undefined) option.default(row.defaultValue, row.defaultText);
  return row.parse ? option.argParser(row.parse) : option;
}

/** The help after the options: variants, bundled datasets, how to read the outputs. */
function helpAfter(): string {
  const variants = kernelVariantInfos().map((info) => `  ${info.id.padEnd(18)} ${info.description}`);
  return [
    "",
    "Kernel variants:",
    ...variants,
    "",
    `Bundled datasets (easiest first): ${bundledDatasets().join(", ") || "none"}`,
    "",
    "Output: a table per dataset (puzzles/s from whole-batch calls; guesses, nodes and µs percentiles per puzzle",
    "solved alone; the 10 hardest puzzles by time and by guesses as file lines), then per dataset two SVGs in",
    "--out: the time CDF of each variant and guesses against time. Every variant must count the same solutions",
    "on every puzzle none timed out on, or the run fails.",
    "",
    "--cpu-prof: open the .cpuprofile in Chrome DevTools (Performance panel → Load profile, or chrome://inspect →",
    "Open dedicated DevTools for Node → Profiler → Load) or in VS Code (open the file: flame chart view).",
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
