/**
 * What every bench tool shares: option parsing, the machine line (and the commit measured), and how it ends: a usage error is one line naming the
 * tool, status 2; any other failure one line, status 1; a standard output closed early (`… | head`) exits 0 quietly.
 */
import { type Command, CommanderError, InvalidArgumentError, type OptionValues } from "commander";
import { type OptionRow, tableCommand, wholeNumber } from "../src/cli-kit/options.js";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildFacts } from "../build/facts.js";
import { packageRoot } from "../src/kernel/paths.js";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { USAGE_ERROR_STATUS, describeError, guardStandardStreams } from "../src/cli-kit/errors.js";
import { DatasetSpecError } from "../src/datasets/read.js";
import { terminalSafe } from "./report/format.js";
import { counted } from "../src/model/whole-number.js";
import { INTERRUPT_SIGNALS, signalExitStatus } from "../src/cli-kit/progress.js";

/** `program`, made to throw its usage errors (as CommanderError) rather than print them and exit. */
export function quietUsage<C extends Command>(program: C): C {
  program.exitOverride().configureOutput({ outputError: () => {} });
  return program;
}

/** The options `argv` gives a tool whose options table is `rows` (src/cli-kit/options.ts); usage errors are thrown (for {@link runTool}). */
export function parseToolOptions<T extends OptionValues>(
  name: string,
  description: string,
  rows: readonly OptionRow[],
  argv: readonly string[] = process.argv.slice(2),
): T {
  return quietUsage(tableCommand(name, description, rows))
    .parse([...argv], { from: "user" })
    .opts<T>();
}

export interface PoolBenchOptions {
  records: number;
  sample: number;
  rounds: number;
  seconds: number;
  threads: number;
}

/** A parser of a time to measure for, in seconds, from 0.01 (0 is one cold call: no rate) to an hour; decimal digits only. */
export function seconds(text: string): number {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || value < 0.01 || value > 3600) {
    throw new InvalidArgumentError(`expected seconds from 0.01 to 3600 (0 is one cold call, not a rate), got '${text}'`);
  }
  return value;
}

/** A pool bench's option rows (library-bench, web-pool-bench), in its own words and defaults. */
export function poolBenchRows(words: {
  records: string;
  recordsDefault: number;
  recordsMost: number;
  sample: string;
  rounds: number;
  seconds: string;
  threads: string;
}): OptionRow[] {
  return [
    { flags: "--records <n>", description: words.records, default: words.recordsDefault, parse: wholeNumber(1000, words.recordsMost) },
    { flags: "--sample <n>", description: words.sample, default: 10_000, parse: wholeNumber(100, 10_000_000) },
    { flags: "--rounds <n>", description: "rounds", default: words.rounds, parse: wholeNumber(1, 100) },
    { flags: "--seconds <s>", description: words.seconds, default: 0.5, parse: seconds },
    { flags: "--threads <n>", description: words.threads, default: availableParallelism(), parse: wholeNumber(1, 1024) },
  ];
}

/** The three load averages, "0.4 0.7 0.9". */
export function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");
}

/**
 * The line a tool's report opens with: its name, the CPU, cores, Node, the commit measured (`abc123-dirty` for a tree
 * changed from it: {@link gitCommit}) and the load average (figures from a shared machine are marked by its load).
 */
export function machineLine(name: string, commit = gitCommit()): string {
  const details = [vectorUnits(), cpuFamily()].filter(Boolean);
  const cpu = `${cpus()[0]?.model.trim() ?? "unknown CPU"}${details.length > 0 ? ` (${details.join(", ")})` : ""}`;
  return `${name}: ${cpu}, ${counted(availableParallelism(), "core")}, Node ${process.version}, commit ${commit}, load average ${loadAverage()}`; // the cores this process may run on (taskset)
}

/** The widest vector instructions in /proc/cpuinfo: a VM often reports a model name as bare as "AMD EPYC" for CPUs generations apart. */
export function vectorUnits(cpuinfo = readCpuinfo()): string | undefined {
  const flags = new Set(/^(?:flags|Features)\s*:(.*)$/m.exec(cpuinfo)?.[1].trim().split(/\s+/));
  return [
    ["avx512f", "AVX-512"],
    ["avx2", "AVX2"],
    ["sse4_2", "SSE4.2"],
    ["sve", "SVE"],
    ["asimd", "NEON"],
  ].find(([flag]) => flags.has(flag))?.[1];
}

/**
 * The CPU's family and model from /proc/cpuinfo ("family 26 model 2"; "implementer 0x41 part 0xd0c" on Arm): the
 * microarchitecture a bare model name leaves out, on which two kernels' ratio depends.
 */
export function cpuFamily(cpuinfo = readCpuinfo()): string | undefined {
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(\\S+)`, "m").exec(cpuinfo)?.[1];
  const [family, model] = [field("cpu family"), field("model")];
  if (family !== undefined && model !== undefined) return `family ${family} model ${model}`;
  const [implementer, part] = [field("CPU implementer"), field("CPU part")];
  return implementer !== undefined && part !== undefined ? `implementer ${implementer} part ${part}` : undefined;
}

function readCpuinfo(): string {
  try {
    return readFileSync("/proc/cpuinfo", "latin1");
  } catch {
    return "";
  }
}

/**
 * The commit checked out at the package root, `-dirty` after it when a tracked file differs from it (the sources measured
 * are not that commit's); in an installed package (no .git of its own) the one recorded at build time.
 */
export function gitCommit(root = packageRoot()): string {
  const built = buildFacts.commit === null ? "unknown" : `${buildFacts.commit}${buildFacts.dirty ? DIRTY : ""}`;
  if (!existsSync(join(root, ".git"))) return built;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    return `${git("rev-parse", "--short=12", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") === "" ? "" : DIRTY}`;
  } catch {
    return built;
  }
}

/** What {@link gitCommit} adds to a commit whose tracked files were changed. */
const DIRTY = "-dirty";

/** Runs a tool's `main`, ending as the module comment says; `usageError` tells which failures are usage errors. */
export async function runTool(
  name: string,
  main: () => unknown,
  usageError = (error: unknown): boolean => error instanceof CommanderError || error instanceof DatasetSpecError,
): Promise<void> {
  guardStandardStreams(name);
  try {
    await main();
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return; // --help, already printed
    process.stderr.write(`${name}: ${terminalSafe(describeError(error).replace(/^error: /, ""))}\n`);
    process.exitCode = usageError(error) ? USAGE_ERROR_STATUS : 1;
  }
}

/**
 * A folder in the temporary directory for a tool's scratch files (hundreds of MB for bulk-bench), removed when the process
 * exits, a SIGINT or SIGTERM included: the tool then exits 130 or 143 (a signal's default ending would leave the folder).
 */
export function scratchFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  process.once("exit", remove);
  for (const signal of INTERRUPT_SIGNALS) {
    process.once(signal, () => {
      remove();
      process.exit(signalExitStatus(signal));
    });
  }
  return folder;
}
