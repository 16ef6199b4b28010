/**
 * `npm run bench -- --ref COMMIT` (bench/paired.ts): both commits' rows timed interleaved in one
 * process and judged pair by pair. Building a worktree takes minutes, so the command runs here
 * against a worktree folder made ready by hand ($SUDOKU_WASM_REF_TREES): its dist/ is this
 * checkout's, so HEAD is timed against itself. Verdicts depend on the machine's load, so the tests
 * check what is printed and how the rows are paired, checked and counted, never which verdict.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pairedRatio, runPaired, solversIn } from "../bench/paired.js";
import { WrongAnswerError } from "../bench/verify.js";
import { REF_TREES_VARIABLE, builtWorktree } from "../bench/measure/reference.js";
import { findSolver } from "../src/solvers/registry.js";
import type { SearchStats } from "../src/solvers/solver.js";
import { loadDatasetList } from "../src/datasets/read.js";
import { scratchFolder } from "./cli-run.js";

const ROOT = new URL("..", import.meta.url).pathname;
const BENCH = join(ROOT, "dist", "bench", "bench.js");
const { dir } = scratchFolder("sudoku-bench-ref-");
const head = spawnSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();

/** A worktree folder for HEAD that the builder takes as built: the mark, and dist/ linked to this checkout's (made once). */
function readyTrees(): string {
  const trees = join(dir, "trees");
  if (existsSync(join(trees, head, ".ref-built"))) return trees;
  mkdirSync(join(trees, head), { recursive: true });
  symlinkSync(join(ROOT, "dist"), join(trees, head, "dist"), "junction");
  writeFileSync(join(trees, head, ".ref-built"), `${head}\n`);
  return trees;
}

/** A bench run of `args` started with its --ref trees in `trees`: the child, its output as it comes, and its exit status. */
function startBench(args: string[], trees: string) {
  const child = spawn(process.execPath, [BENCH, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, [REF_TREES_VARIABLE]: trees } });
  const out = { stdout: "", stderr: "" };
  child.stdout!.on("data", (data) => (out.stdout += data));
  child.stderr!.on("data", (data) => (out.stderr += data));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, out, exited };
}

/** Waits until the run's standard error matches `pattern`; throws when it ends first. */
async function outputShows(child: ChildProcess, out: { stderr: string }, pattern: RegExp): Promise<void> {
  while (!pattern.test(out.stderr)) {
    if (child.exitCode !== null) throw new Error(`the run ended early with status ${child.exitCode}:\n${out.stderr}`);
    await sleep(50);
  }
}

const bench = (args: string[], trees?: string) =>
  spawnSync(process.execPath, [BENCH, ...args], { encoding: "utf8", env: { ...process.env, ...(trees ? { SUDOKU_WASM_REF_TREES: trees } : {}) } });

describe("bench --ref COMMIT", () => {
  it("times each row of HEAD against HEAD interleaved, pairs them by row and prints one verdict each", () => {
    const trees = readyTrees();
    const quick = ["--time", "60", "--puzzles", "20", "--threads", "0", "--rounds", "3"];
    const run = bench(["--ref", "HEAD", "--solvers", "wasm,bitmask", "--datasets", "easy", ...quick], trees);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Compared with commit ${head} (--ref HEAD, built in ${join(trees, head)}), each row of both timed interleaved in this run`);
    expect(run.stdout).toMatch(/over 3 rounds/);
    // the header names the machine and commit; its method line is the verdicts' heading (not the tinybench and p50/p99 passes of a plain run)
    expect(run.stdout).toMatch(/^commit [0-9a-f]{12}(-dirty)?, /m);
    expect(run.stdout).not.toMatch(/^method: /m);
    expect(run.stdout).toMatch(/\n {2}wasm +[\d,]+ +[\d,]+ +(no change|not judged|[\d.]+.*× (faster|slower))/);
    expect(run.stdout).toMatch(/\n {2}bitmask +[\d,]+ +[\d,]+ /);
    expect(run.stdout).toMatch(/(\d+) faster, (\d+) slower, (\d+) no change, (\d+) not judged, 0 undecided, 0 not run on one side\n$/);
    const counts = /(\d+) faster, (\d+) slower, (\d+) no change, (\d+) not judged/.exec(run.stdout)!.slice(1).map(Number);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
  }, 60_000);

  it("SIGTERM stops after the row in progress, prints the verdicts of the rows judged and exits 143", async () => {
    const trees = readyTrees();
    // Six pairs (wasm and bitmask on three datasets), each side timed for --time: the signal comes after the third, once every
    // engine is loaded (loading hands the event loop turns of its own; what follows runs synchronously but for the turn between rows).
    const args = [
      "--ref",
      "HEAD",
      "--solvers",
      "wasm,bitmask",
      "--datasets",
      "easy,medium,hard",
      "--time",
      "1000",
      "--puzzles",
      "20",
      "--threads",
      "0",
      "--rounds",
      "3",
    ];
    const { child, out, exited } = startBench(args, trees);
    await outputShows(child, out, /^medium · wasm: /m);
    child.kill("SIGTERM");
    expect(await exited, out.stderr).toBe(143);
    const stdout = out.stdout;
    expect(stdout).toMatch(/\ninterrupted by SIGTERM: the verdicts above are of the rows judged before it\n$/);
    const counts = /(\d+) faster, (\d+) slower, (\d+) no change, (\d+) not judged/.exec(stdout)!.slice(1).map(Number);
    const judged = counts.reduce((a, b) => a + b, 0);
    expect(judged).toBeGreaterThanOrEqual(3);
    expect(judged).toBeLessThan(6);
  }, 300_000); // four or five pairs of 2 s of CPU time each: on two loaded cores the run took 111 s

  it("refuses, before measuring, a commit git does not know, another comparison and exports (status 2)", () => {
    const unknown = bench(["--ref", "no-such-commit-xyz", "--solvers", "wasm", "--datasets", "easy"]);
    const noSuch = /^bench: --ref no-such-commit-xyz: no such commit in the git repository at .+\n$/;
    expect([unknown.status, unknown.stderr]).toEqual([2, expect.stringMatching(noSuch)]);
    const both = bench(["--ref", "HEAD", "--compare", join(dir, "x.json")]);
    expect([both.status, both.stderr]).toEqual([2, "bench: --ref COMMIT judges against that commit: leave out --compare and --against\n"]);
    const exports = bench(["--ref", "HEAD", "--json", join(dir, "x.json")]);
    expect([exports.status, exports.stderr]).toEqual([2, "bench: --ref prints its verdicts and writes no files: leave out --json\n"]);
    // --chart FILE was silently ignored (--no-chart, which asks for nothing, is fine)
    const chart = bench(["--ref", "HEAD", "--chart", join(dir, "x.svg"), "--solvers", "wasm", "--datasets", "easy"]);
    expect([chart.status, chart.stderr, chart.stdout]).toEqual([2, "bench: --ref prints its verdicts and writes no files: leave out --chart\n", ""]);
  });
});

/** Runs `body` with $SUDOKU_WASM_REF_TREES set to `trees` (put back after), then removes `trees`. */
async function inTrees(trees: string, body: () => Promise<void>): Promise<void> {
  const saved = process.env[REF_TREES_VARIABLE];
  process.env[REF_TREES_VARIABLE] = trees;
  try {
    await body();
  } finally {
    if (saved === undefined) delete process.env[REF_TREES_VARIABLE];
    else process.env[REF_TREES_VARIABLE] = saved;
    rmSync(trees, { recursive: true, force: true });
  }
}

/** A log for builtWorktree that keeps each line's first word and stops the build at its install or build step (minutes). */
function stoppingLog(): { steps: string[]; stop: (line: string) => void } {
  const steps: string[] = [];
  const stop = (line: string) => {
    steps.push(line.split(" ")[0]);
    if (/^(installing|building) /.test(line)) throw new Error("stopped before the step");
  };
  return { steps, stop };
}

describe("builtWorktree", () => {
  it("installs and builds again a tree that runs on this checkout's node_modules once the lockfiles differ (it timed the new dependencies on both sides)", async () => {
    const trees = join(dir, "linked-trees");
    const tree = join(trees, head);
    mkdirSync(tree, { recursive: true });
    for (const mark of [".ref-built", ".ref-installed"]) writeFileSync(join(tree, mark), `${head}\n`);
    writeFileSync(join(tree, "package.json"), "{}\n");
    symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"), "junction");
    const { steps, stop } = stoppingLog();
    await inTrees(trees, async () => {
      writeFileSync(join(tree, "package-lock.json"), readFileSync(join(ROOT, "package-lock.json"))); // the same: built, taken as it is
      expect(await builtWorktree("HEAD", stop)).toBe(tree);
      writeFileSync(join(tree, "package-lock.json"), "{}\n"); // this checkout's dependencies moved on
      await expect(builtWorktree("HEAD", stop)).rejects.toThrow("stopped before the step");
      expect(steps).toEqual(["installing"]);
      expect(lstatSync(join(tree, "node_modules"), { throwIfNoEntry: false }), "the link to this checkout's node_modules").toBeUndefined();
    });
  });

  it("installs again a tree whose install did not finish (no mark), and goes straight to the build once it did", async () => {
    const trees = join(dir, "install-trees");
    const tree = join(trees, head);
    mkdirSync(join(tree, "node_modules", "half-installed"), { recursive: true }); // what a stopped `npm ci` left
    writeFileSync(join(tree, "package.json"), "{}\n");
    writeFileSync(join(tree, "package-lock.json"), "{}\n"); // not this checkout's: installed, not linked
    const { steps, stop } = stoppingLog();
    await inTrees(trees, async () => {
      await expect(builtWorktree("HEAD", stop)).rejects.toThrow("stopped before the step");
      expect(existsSync(join(tree, "node_modules", "half-installed")), "what the stopped install left").toBe(false);
      writeFileSync(join(tree, ".ref-installed"), `${head}\n`); // an install that finished
      await expect(builtWorktree("HEAD", stop)).rejects.toThrow("stopped before the step");
      expect(steps).toEqual(["installing", "building"]);
    });
  });

  it("waits while another run builds the same commit, then takes the tree it built (the two runs failed on each other's steps)", async () => {
    const trees = join(dir, "waiting-trees");
    const tree = join(trees, head);
    mkdirSync(tree, { recursive: true });
    const { default: lockfile } = await import("proper-lockfile");
    const releaseOther = await lockfile.lock(tree, { realpath: false, lockfilePath: `${tree}.building` }); // the other run, building
    await inTrees(trees, async () => {
      const said: string[] = [];
      const built = builtWorktree("HEAD", (line) => said.push(line));
      while (said.length === 0) await sleep(20);
      expect(said).toEqual([`waiting for another run that is building ${head}`]);
      // the other run's build ends
      writeFileSync(join(tree, "package.json"), "{}\n");
      writeFileSync(join(tree, "package-lock.json"), readFileSync(join(ROOT, "package-lock.json")));
      for (const mark of [".ref-built", ".ref-installed"]) writeFileSync(join(tree, mark), `${head}\n`);
      await releaseOther();
      expect(await built).toBe(tree);
      expect(said).toHaveLength(1); // nothing checked out, installed or built again
      expect(existsSync(`${tree}.building`), "the lock, released").toBe(false);
    });
  });

  it("removes its own stale worktrees only, never the user's whose folder is missing (git worktree prune removed both)", async () => {
    const git = (...args: string[]) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" });
    const trees = join(dir, "prune-trees");
    const user = join(dir, "user-worktree"); // the user's, on a drive not mounted now
    const own = join(trees, "0123456789ab"); // one of the tool's, its folder removed by hand
    const tree = join(trees, head);
    for (const folder of [user, own]) {
      expect(git("worktree", "add", "--detach", folder, "HEAD").status).toBe(0);
      rmSync(folder, { recursive: true, force: true });
    }
    await inTrees(trees, async () => {
      try {
        // stopped once checked out, before the minutes of its build
        await expect(builtWorktree("HEAD", stoppingLog().stop)).rejects.toThrow("stopped before the step");
        const listed = git("worktree", "list", "--porcelain").stdout;
        expect(listed).toContain(`worktree ${user}\n`);
        expect(listed).not.toContain(`worktree ${own}\n`);
        expect(listed).toContain(`worktree ${tree}\n`);
      } finally {
        if (existsSync(join(tree, "node_modules"))) unlinkSync(join(tree, "node_modules")); // a link to this checkout's
        for (const folder of [user, own, tree]) git("worktree", "remove", "--force", folder);
      }
    });
  });
});

/** The processes whose working folder is `folder` or under it (from /proc). */
function processesIn(folder: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const cwd = readlinkSync(`/proc/${pid}/cwd`);
        return cwd === folder || cwd.startsWith(`${folder}/`);
      } catch {
        return false; // ended, or not ours to read
      }
    })
    .map(Number);
}

describe.runIf(existsSync("/proc/self/cwd"))("bench --ref: a signal while the commit builds", () => {
  it("SIGTERM stops the build with every process it started and exits 143 at once (it waited minutes for the build)", async () => {
    const trees = join(dir, "build-trees");
    const tree = join(trees, head);
    const args = ["--ref", "HEAD", "--solvers", "wasm", "--datasets", "easy", "--threads", "0"];
    const { child, out, exited } = startBench(args, trees);
    try {
      await outputShows(child, out, /^--ref: building /m);
      await sleep(1500); // the build's processes under way (a whole build takes minutes)
      expect(processesIn(tree).length, "no build running in the worktree").toBeGreaterThan(0);
      child.kill("SIGTERM");
      expect(await Promise.race([exited, sleep(15_000).then(() => "still running 15 s after SIGTERM")]), out.stderr).toBe(143);
      expect(out.stdout).toContain("interrupted by SIGTERM while building --ref HEAD: its build was stopped, nothing was judged\n");
      for (let waited = 0; processesIn(tree).length > 0 && waited < 5000; waited += 100) await sleep(100);
      expect(processesIn(tree), "the build's processes outlived the bench").toEqual([]);
    } finally {
      child.kill("SIGKILL");
      for (const pid of processesIn(tree)) process.kill(pid, "SIGKILL");
      if (existsSync(join(tree, "node_modules"))) unlinkSync(join(tree, "node_modules")); // a link to this checkout's
      spawnSync("git", ["worktree", "remove", "--force", tree], { cwd: ROOT });
    }
  }, 120_000);
});

describe("solversIn", () => {
  /** A built folder whose registry, at `path` under it, lists solvers with these ids. */
  function builtFolder(name: string, path: string, ids: string[]): string {
    const folder = join(dir, name);
    mkdirSync(join(folder, path, ".."), { recursive: true });
    const rows = ids.map((id) => `{ id: ${JSON.stringify(id)}, sizes: [9], load: async () => null }`).join(", ");
    writeFileSync(join(folder, path), `export const solvers = [${rows}];\n`);
    return folder;
  }

  it("reads the registry of a commit of either layout: dist/src/solvers/registry.js, or dist/src/registry.js before src/ had folders", async () => {
    const now = await solversIn(builtFolder("layout-now", "dist/src/solvers/registry.js", ["wasm", "dlx"]), "new");
    expect([...now.keys()]).toEqual(["wasm", "dlx"]);
    const before = await solversIn(builtFolder("layout-before", "dist/src/registry.js", ["wasm", "bitmask"]), "old");
    expect([...before.keys()]).toEqual(["wasm", "bitmask"]);
  });

  it("refuses a registry whose solvers have no grid sizes as too old (it crashed: Cannot read properties of undefined (reading 'includes'))", async () => {
    const folder = join(dir, "layout-no-sizes");
    mkdirSync(join(folder, "dist", "src"), { recursive: true });
    writeFileSync(join(folder, "dist", "src", "registry.js"), "export const solvers = [{ id: 'wasm', load: async () => null }];\n");
    await expect(solversIn(folder, "abc")).rejects.toThrow(
      "commit abc is too old for --ref: its dist/src/registry.js gives its solvers no grid sizes (they came in 79fd0ebc3f83); give a later commit",
    );
  });

  it("refuses a commit from before the registry's sizes before building it, status 2", () => {
    // The first commit; its worktree made ready by hand with that commit's kind of registry, so that a run that went on would not build for minutes.
    const old = spawnSync("git", ["rev-parse", "--short=12", "5ea1f3c"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
    const trees = join(dir, "old-trees");
    mkdirSync(join(trees, old, "dist", "src"), { recursive: true });
    writeFileSync(join(trees, old, "dist", "src", "registry.js"), "export const solvers = [{ id: 'wasm', load: async () => null }];\n");
    writeFileSync(join(trees, old, ".ref-built"), `${old}\n`);
    const run = bench(["--ref", "5ea1f3c", "--solvers", "wasm", "--datasets", "easy", "--threads", "0", "--time", "10"], trees);
    expect([run.status, run.stderr, run.stdout]).toEqual([
      2,
      "bench: commit 5ea1f3c is too old for --ref: its solver registry gives its solvers no grid sizes (they came in 79fd0ebc3f83); give a later commit\n",
      "",
    ]);
  });

  it("refuses a registry that exports no list of solvers, naming its file", async () => {
    const folder = join(dir, "layout-no-list");
    mkdirSync(join(folder, "dist", "src"), { recursive: true });
    writeFileSync(join(folder, "dist", "src", "registry.js"), "export const solvers = 1;\n");
    await expect(solversIn(folder, "abc")).rejects.toThrow("--ref abc: its dist/src/registry.js exports no list of solvers");
  });
});

describe("runPaired", () => {
  const datasets = loadDatasetList(["easy"]);
  const plan = { datasets, limit: 2, budget: 100_000, seed: 1, maxPuzzles: 12, timeMs: 30, rounds: 3, threshold: 0.03 };

  it("pairs rows by solver id, one round ratio per round; a row the old commit lacks is not run before", async () => {
    const wasm = findSolver("wasm");
    const changes = await runPaired({ ...plan, solvers: [wasm, findSolver("bitmask")], before: new Map([["wasm", wasm]]) });
    expect(changes.map((c) => [c.row, c.verdict === "not run before"])).toEqual([
      ["wasm", false],
      ["bitmask", true],
    ]);
    expect(changes[0].roundRatios).toHaveLength(3);
    // The whole draw of 12, or (when a call of it takes over a quarter of a round: a loaded machine) a sample of at least 10.
    expect(changes[0].puzzles).toBeGreaterThanOrEqual(10);
    expect(changes[0].puzzles).toBeLessThanOrEqual(12);
    expect(changes[0].estimate!.method).toBe("paired");
  });

  it("checks the old side's answers too: a wrong count throws naming it", async () => {
    const wasm = findSolver("wasm");
    const lying = { ...wasm, load: async () => ({ countSolutions: () => 1 }) as unknown as Awaited<ReturnType<typeof wasm.load>> };
    // The hardest bundled tier holds puzzles with one solution: a stub answering "1" with an empty grid is wrong on every one.
    const run = runPaired({ ...plan, solvers: [wasm], before: new Map([["wasm", lying]]) });
    await expect(run).rejects.toBeInstanceOf(WrongAnswerError);
    await expect(run).rejects.toThrow(/wasm \(--ref\)/);
  });

  it("holds every timed call to the checked answers: a side that answers right only when checked is refused, naming the call", async () => {
    const bitmask = findSolver("bitmask");
    // Right on the checked passes and the calls that size the batch (under 100 calls), then wrong from the warm-up on.
    const cheating = {
      ...bitmask,
      load: async (size: number) => {
        const inner = await bitmask.load(size);
        let calls = 0;
        return {
          countSolutions: (puzzle: Uint8Array, limit: number, solution: Uint8Array, stats: SearchStats, budget: number) => {
            const count = inner.countSolutions(puzzle, limit, solution, stats, budget);
            if (++calls > 100) [solution[0], solution[1]] = [solution[1], solution[0]];
            return count;
          },
        };
      },
    };
    const run = runPaired({ ...plan, solvers: [bitmask], before: new Map([["bitmask", cheating]]) });
    await expect(run).rejects.toBeInstanceOf(WrongAnswerError);
    await expect(run).rejects.toThrow(/^bitmask \(--ref\) on easy line \d+: timed call \d+: .*; the row is refused/);
  });

  it("takes the paired interval as Student's t over the rounds' log ratios", () => {
    const steady = pairedRatio([1.1, 1.1, 1.1]);
    expect(steady.ratio).toBeCloseTo(1.1, 10);
    expect(steady.high - steady.low).toBeCloseTo(0, 10);
    const spread = pairedRatio([1, 1.2]);
    expect(spread.ratio).toBeCloseTo(Math.sqrt(1.2), 10);
    const sd = Math.abs(Math.log(1.2)) / Math.SQRT2;
    expect(Math.log(spread.high / spread.ratio)).toBeCloseTo((12.706 * sd) / Math.SQRT2, 6);
  });
});
