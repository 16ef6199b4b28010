/**
 * `npm run kernel-vs`: this checkout's WASM kernels against another commit's, compiled with this checkout's release
 * settings, in one process on the same puzzles (versus.ts). A 9×9 file goes to the 9×9 kernel, other sizes to the N×N one.
 */
import { type OptionRow, commaList, wholeNumber } from "../src/cli-kit/options.js";
import { MOST_PUZZLES } from "./options.js";
import { type VersusRecord, firstPuzzles, kernelPairs, versus, versusTable } from "./versus.js";
import { InvalidArgumentError } from "commander";
import { type KernelBuild, compileKernel, kernelVariants, variantBuild } from "../src/kernel/wasm.js";
import { resolveCommit } from "./measure/reference.js";
import { machineLine, parseToolOptions, runTool } from "./tool.js";
import { benchDatasets } from "./env.js";
import { counted } from "../src/model/whole-number.js";

/** The default old kernel: the 9×9 kernel before band-major masks. */
const DEFAULT_REF = "3c51558";
/** The default datasets: five public 9×9 sets. */
const DEFAULT_DATASETS = ["forum_hardest_1905_11plus", "forum_hardest_1106", "magictour_top1465", "17_clue", "kaggle_bryanpark_10k"];

interface VersusOptions {
  ref: string;
  build: KernelBuild;
  datasets: string[];
  puzzles: number;
  rounds: number;
  limit: number;
}

const OPTIONS: readonly OptionRow[] = [
  { flags: "--ref <commit>", description: "the commit whose kernels (assembly/index.ts, assembly/general.ts) are the old side", default: DEFAULT_REF },
  { flags: "--build <stem>", description: "the build of today's 9×9 kernel: release or variants/<name>", default: "release" },
  {
    flags: "--datasets <list>",
    description: "comma-separated public set names, bundled names or files, each of one grid size",
    default: DEFAULT_DATASETS,
    defaultText: DEFAULT_DATASETS.join(","),
    parse: commaList,
  },
  { flags: "--puzzles <n>", description: "the first n puzzles of each file (0: all)", default: 10000, parse: wholeNumber(0, MOST_PUZZLES) },
  { flags: "--rounds <n>", description: "timed rounds per dataset, the kernels taking turns of about 2 ms in each", default: 5, parse: wholeNumber(1, 100) },
  // (the kernels take the limit as an i32: src/solvers/solver.ts checks it to 2^31-1, after the header had printed)
  { flags: "--limit <n>", description: "count solutions up to this", default: 2, parse: wholeNumber(1, 0x7fffffff) },
];

async function main(): Promise<void> {
  const options = parseToolOptions<VersusOptions>(
    "npm run kernel-vs --",
    "today's WASM kernels against the kernels of an earlier commit, same process, same puzzles, every grid size",
    OPTIONS,
  );
  // the datasets and both sides checked before any is built: a commit git does not know, a build that does not exist (usage errors)
  const datasets = benchDatasets(options.datasets);
  const variants = kernelVariants().slice(1); // the first is the default, built as "release"
  const builds = ["release", "debug", ...variants.map((variant) => variantBuild(variant.name))];
  if (!builds.includes(options.build)) throw new InvalidArgumentError(`--build ${options.build}: no such build of the 9×9 kernel; one of ${builds.join(", ")}`);
  try {
    resolveCommit(options.ref);
    await compileKernel(options.build);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  const machine = `${machineLine("kernel-vs")}\n--ref ${options.ref}, build ${options.build}, limit ${options.limit} (solutions counted up to it), ${counted(options.rounds, "round")}`;
  process.stderr.write(`${machine}\n`); // and with the table: a file of it names its CPU, commit and limit
  const kernelsFor = kernelPairs(options.ref, options.build);
  const records: VersusRecord[] = [];
  for (const dataset of datasets) {
    const draw = firstPuzzles(dataset, options.puzzles);
    const record = versus(await kernelsFor(draw.shape), [options.ref, "today's kernel"], draw, options);
    records.push(record);
    process.stderr.write(`${dataset.name}: ${record.speedup.ratio.toFixed(2)}×\n`);
  }
  // the old kernel's column by its commit, also when given as a name (HEAD~3, a branch) that means another commit tomorrow
  const named = resolveCommit(options.ref).startsWith(options.ref) ? options.ref : `${options.ref} (${resolveCommit(options.ref)})`;
  process.stdout.write(`${machine}\n\n${versusTable(records, named)}\n`);
}

await runTool("kernel-vs", main);
