/**
 * One-thread figures and the K they are divided by, taken on one core. A virtual machine's cores can run the kernel at
 * different speeds at the same time (1.3× apart on a 2-core cloud VM, where native code differed by 3–6%), so a ratio of
 * two runs that landed on different cores says more of the cores than of the runs. Pinned through Linux's `taskset`;
 * where it is missing, or with one core, nothing is pinned and the report says so.
 */
import { execFileSync } from "node:child_process";
import { InvalidArgumentError } from "commander";
import { availableParallelism } from "node:os";
import { type OptionRow, wholeNumber } from "../../src/cli-kit/options.js";

/** The options of a tool that pins: `--core N` and `--no-pin` (values `core` and `pin`). */
export const PIN_ROWS: readonly OptionRow[] = [
  {
    flags: "--core <n>",
    description: "the core K and the one-thread runs are pinned to (Linux's taskset)",
    defaultText: "the first this process may run on",
    parse: wholeNumber(0, 4095),
  },
  { flags: "--no-pin", description: "pin nothing: K and the one-thread runs go wherever the system puts them" },
];

/** The core one-thread work runs on, or why there is none. */
export type Pin = { core: number } | { unpinned: string };

/**
 * The pin of `--core` (undefined: the first core this process may run on; false: `--no-pin`), or why nothing is pinned.
 * Throws (a usage error) when `core` is not one this process may run on.
 */
export function choosePin(core: number | undefined | false): Pin {
  if (core === false) return { unpinned: "--no-pin" };
  if (availableParallelism() < 2) return { unpinned: "one core" };
  let cores: number[];
  try {
    const mask = BigInt(`0x${currentMask()}`);
    cores = Array.from({ length: 4096 }, (_, i) => i).filter((i) => (mask >> BigInt(i)) % 2n === 1n);
  } catch {
    return { unpinned: "no taskset (Linux's util-linux) here" };
  }
  if (core === undefined) return { core: cores[0] };
  if (!cores.includes(core)) throw new InvalidArgumentError(`--core ${core}: this process may run on core ${cores.join(", ")} only`);
  return { core };
}

/** How the report names the pin: "one-thread runs and K pinned to core 0" or "not pinned (why)". */
export function pinText(pin: Pin): string {
  return "core" in pin ? `one-thread runs and K pinned to core ${pin.core}` : `one-thread runs not pinned (${pin.unpinned})`;
}

/** `argv` run on the pinned core (`taskset -c CORE argv…`); as it is when unpinned or given no pin. */
export function pinnedCommand(pin: Pin | undefined, argv: readonly string[]): string[] {
  return pin !== undefined && "core" in pin ? ["taskset", "-c", String(pin.core), ...argv] : [...argv];
}

/** Runs `work` with every thread of this process on the pinned core, then gives them back the cores they had. */
export async function onPinnedCore<T>(pin: Pin, work: () => T | Promise<T>): Promise<T> {
  if (!("core" in pin)) return work();
  const mask = currentMask();
  setAffinity(["-c", String(pin.core)]);
  try {
    return await work();
  } finally {
    setAffinity([mask]);
  }
}

/** This process's affinity mask in hex, as `taskset -p` prints it. */
function currentMask(): string {
  const said = execFileSync("taskset", ["-p", String(process.pid)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const mask = /:\s*([0-9a-f]+)\s*$/i.exec(said)?.[1];
  if (mask === undefined) throw new Error(`taskset -p said: ${said.trim()}`);
  return mask;
}

/** Sets the affinity of every thread of this process (`taskset -a -p …`). */
function setAffinity(cores: string[]): void {
  execFileSync("taskset", ["-a", "-p", ...cores, String(process.pid)], { stdio: "ignore" });
}
