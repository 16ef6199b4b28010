/**
 * `npm run verdict-rates` (bench/verdict-rates.ts) stopped part-way: what it started ends with it. Its busy pairs keep
 * the other core busy with a spinning child process, which must not outlive the tool, killed by a signal or outright;
 * nor may the runs' temporary folder stay behind.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { scratchFolder } from "./cli-run.js";
import { compareRuns } from "../bench/report/compare.js";
import { readResultFile } from "../bench/report/read-result.js";

const ROOT = new URL("..", import.meta.url).pathname;
const SCRIPT = join(ROOT, "dist", "bench", "verdict-rates.js");
const { dir } = scratchFolder("sudoku-verdict-rates-");
/** One short idle pair, then the busy pair whose spinner the tests wait for. */
const TINY = ["--pairs", "1", "--planted-pairs", "1", "--time", "20", "--rounds", "4", "--puzzles", "10", "--datasets", "easy", "--solvers", "wasm"];

/** The processes whose parent is `pid`, with their command lines (from /proc). */
function childrenOf(pid: number): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) found.push({ pid: Number(name), command: readFileSync(`/proc/${name}/cmdline`, "latin1").split("\0").join(" ") });
    } catch {
      // a process that ended between the listing and the read
    }
  }
  return found;
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "latin1"));

/** The CPU time process `pid` has used, in clock ticks (utime + stime of /proc/PID/stat); 0 once it is gone. */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Resolves with what `find` returns once it returns something, checking every 50 ms for up to `ms`; undefined after. */
async function waitFor<T>(find: () => T | undefined, ms: number): Promise<T | undefined> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) {
    const found = find();
    if (found !== undefined) return found;
  }
  return find();
}

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
});

/**
 * Imported first into verdict-rates: it then sees two cores, and starts its spinner on a machine (or a taskset) of one,
 * where it would start none; the spinner shares that core, which these tests of its end do not mind.
 */
const TWO_CORES = `data:text/javascript,${encodeURIComponent(
  'import os from "node:os"; import { syncBuiltinESMExports } from "node:module"; os.availableParallelism = () => 2; syncBuiltinESMExports();',
)}`;

/** Starts verdict-rates (its temporary folder in `dir`) and resolves, with it and its spinner's pid, once the spinner runs. */
async function untilSpinning(): Promise<{ tool: ChildProcess; spinner: number; exited: Promise<number | null> }> {
  const tool = spawn(process.execPath, ["--import", TWO_CORES, SCRIPT, ...TINY], { env: { ...process.env, TMPDIR: dir }, stdio: "ignore" });
  started.push(tool.pid!);
  const exited = new Promise<number | null>((resolve) => tool.once("exit", (code, signal) => resolve(code ?? (signal ? -1 : null))));
  const spinner = await waitFor(() => childrenOf(tool.pid!).find((child) => child.command.includes(" -e "))?.pid, 60_000);
  expect(spinner, "verdict-rates started no spinner").toBeDefined();
  started.push(spinner!);
  return { tool, spinner: spinner!, exited };
}

describe("verdict-rates: usage", () => {
  const run = (args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8", env: { ...process.env, TMPDIR: dir } });

  it("refuses --rounds below the 4 a judgement needs a side (2 and 3 judged no row and blamed the machine), status 2", () => {
    for (const rounds of ["2", "3"]) {
      const refused = run([...TINY.filter((_, i) => i < 6), "--rounds", rounds]);
      expect([refused.status, refused.stdout], rounds).toEqual([2, ""]);
      expect(refused.stderr, rounds).toMatch(
        new RegExp(
          `^verdict-rates: .*--rounds.* expected a whole number from 4 to 100, got '${rounds}': a verdict needs 4 rounds a side, so fewer would judge no row\n$`,
        ),
      );
    }
  });

  it("refuses a bad --datasets or --solvers before any run, status 2 (found by the first bench run, status 1)", () => {
    for (const [option, value, says] of [
      ["--datasets", "no-such-set-xyz", /no-such-set-xyz/],
      ["--solvers", "no-such-solver-xyz", /no-such-solver-xyz/],
    ] as const) {
      const refused = run([...TINY, option, value]);
      expect([refused.status, refused.stdout], option).toEqual([2, ""]);
      expect(refused.stderr, option).toMatch(says);
      expect(refused.stderr, option).not.toMatch(/exited/);
    }
  });

  it("checks --bench-options as the bench would, before any run, status 2 (a typo failed the first run, status 1, after it had started)", () => {
    for (const [more, says] of [
      [["--bench-options", "--fresh-round"], `--bench-options "--fresh-round": unknown option '--fresh-round' (Did you mean --fresh-rounds?)`],
      [["--bench-options", "--time 0"], `--bench-options "--time 0": option '--time <ms>' argument '0' is invalid.`],
      [["--bench-options", "--threshold 3"], `--bench-options "--threshold 3": --threshold needs --compare OLD.json or --ref COMMIT`],
      [["--bench-options", "--datasets no-such-set-xyz"], `--bench-options "--datasets no-such-set-xyz": no dataset 'no-such-set-xyz'`],
      // the --ref-pairs runs get them too: --fresh-rounds is refused with --ref
      [["--ref-pairs", "1", "--bench-options", "--fresh-rounds"], `--bench-options "--fresh-rounds": --fresh-rounds is for runs judged later with --compare`],
    ] as const) {
      const refused = run([...TINY, ...more]);
      expect([refused.status, refused.stdout], more.join(" ")).toEqual([2, ""]);
      expect(refused.stderr, more.join(" ")).toMatch(/^verdict-rates: [^\n]+\n$/);
      expect(refused.stderr, more.join(" ")).toContain(`verdict-rates: ${says}`);
    }
  });
});

describe("verdict-rates: the planted slowdown as measured", () => {
  it("is the median of the pairs' ratios, the mean of the two middle ones for an even count (it took the upper one)", () => {
    const args = ["--pairs", "0", "--planted-pairs", "2", "--no-busy", "--keep", ...TINY.slice(4)];
    const run = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8", env: { ...process.env, TMPDIR: dir } });
    expect(run.status, run.stderr).toBe(0);
    const kept = /^runs kept in (.+)$/m.exec(run.stdout)?.[1];
    expect(kept, run.stdout).toBeDefined();
    // each pair judged as the tool judges it, from the files it kept
    const ratios = [0, 1].flatMap((i) =>
      compareRuns(readResultFile(join(kept!, `idle-${i}-a.json`), "--compare"), readResultFile(join(kept!, `idle-${i}-b.json`), "--against"))
        .filter((change) => change.row === "planted" && change.estimate)
        .map((change) => change.estimate!.ratio),
    );
    rmSync(kept!, { recursive: true, force: true }); // the tests below look for the runs' folder left behind
    expect(ratios).toHaveLength(2);
    const percent = (ratio: number) => `${((1 / ratio - 1) * 100).toFixed(1)}%`;
    expect(run.stdout).toContain(`the slowdown as measured: median ${percent((ratios[0] + ratios[1]) / 2)} [`);
  });
});

describe.runIf(existsSync("/usr/bin/taskset"))("verdict-rates on one core", () => {
  it("skips the busy pairs, saying why, rather than spin on the bench's only core", () => {
    const run = spawnSync("/usr/bin/taskset", ["-c", "0", process.execPath, SCRIPT, ...TINY], { encoding: "utf8", env: { ...process.env, TMPDIR: dir } });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("(1 core)");
    expect(run.stdout).toContain("\nbusy: not run: 1 core available, no other core for the spinner to keep busy (--no-busy skips it)\n");
    expect(run.stdout).not.toMatch(/^busy \(the other core spinning\)/m);
    expect(run.stdout).toMatch(/^idle, 1 pair: same code, /m);
  });
});

// (its child processes found in /proc: Linux)
describe.runIf(existsSync("/proc/self/stat"))("verdict-rates stopped part-way", () => {
  it("SIGTERM ends its spinner and removes its runs' folder, status 143", async () => {
    const { tool, spinner, exited } = await untilSpinning();
    const bench = await waitFor(() => childrenOf(tool.pid!).find((child) => child.command.includes("bench.js"))?.pid, 60_000);
    expect(bench, "verdict-rates started no bench run").toBeDefined();
    await waitFor(() => (cpuTicks(bench!) >= 50 ? true : undefined), 30_000); // half a second of CPU: measuring, its signal handlers set
    tool.kill("SIGTERM");
    expect(await exited).toBe(143);
    expect(await waitFor(() => (alive(spinner) ? undefined : true), 5000), "the spinner outlived verdict-rates").toBe(true);
    // the bench run, stopping on its SIGTERM, writes its incomplete export: the folder goes after it (it was made again)
    expect(await waitFor(() => (alive(bench!) ? undefined : true), 5000), "the bench run outlived verdict-rates").toBe(true);
    expect(readdirSync(dir).filter((name) => name.startsWith("verdict-rates-"))).toEqual([]);
  }, 90_000);

  it("killed outright (SIGKILL), its spinner still ends itself", async () => {
    const { tool, spinner, exited } = await untilSpinning();
    tool.kill("SIGKILL");
    await exited;
    expect(await waitFor(() => (alive(spinner) ? undefined : true), 5000), "the spinner outlived verdict-rates").toBe(true);
  }, 90_000);
});
