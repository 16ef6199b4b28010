/** Another commit's code, built once under build/ref/: one kernel (kernel-vs) or the whole package in a git worktree (`--ref`). And the CPU clock. */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { packageRoot } from "../../src/kernel/paths.js";

/**
 * Compiles `entry` and the files beside it at `commit` with the asconfig `target` of `config` (this checkout's), unless
 * built already with the same settings and compiler; returns its URL. The file's name holds a hash of those settings, so
 * a change to asconfig.json or to the compiler's version builds the old kernel again rather than reuse one built otherwise.
 */
export async function buildKernelAtCommit(
  commit: string,
  entry: string,
  target: string,
  prefix = "",
  config = join(packageRoot(), "asconfig.json"),
): Promise<URL> {
  const root = packageRoot();
  const hash = resolveCommit(commit);
  const folder = join(root, "build", "ref");
  const wasm = join(folder, `${prefix}${hash}-${settingsKey(config, target)}.wasm`);
  if (!existsSync(wasm)) {
    if (spawnSync("git", ["cat-file", "-e", `${hash}:${entry}`], { cwd: root }).status !== 0)
      throw new Error(`--ref ${commit}: commit ${hash} has no ${entry}, the kernel of this grid size`);
    const tree = join(folder, `${prefix}${hash}.${process.pid}.source`); // this run's: another may be building the same commit
    const entryFolder = dirname(entry);
    mkdirSync(join(tree, entryFolder), { recursive: true });
    try {
      const files = execFileSync("git", ["ls-tree", "--name-only", `${hash}:${entryFolder}`], { cwd: root, encoding: "utf8" })
        .split("\n")
        .filter((name) => name.endsWith(".ts"));
      for (const name of files) writeFileSync(join(tree, entryFolder, name), execFileSync("git", ["show", `${hash}:${entryFolder}/${name}`], { cwd: root }));
      const source = join(tree, entry);
      // Loaded here: the compiler takes a third of a second to load, which every tool importing this module would pay.
      const { default: asc } = await import("assemblyscript/asc");
      const { error, stderr } = await asc.main([source, "--config", config, "--target", target, "-o", wasm]);
      if (error) throw new Error(`building ${entry} of ${hash}: ${stderr.toString()}`);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  } else utimesSync(wasm, new Date(), new Date()); // used now: the kernels used last are the ones kept
  pruneKernels(folder);
  return pathToFileURL(wasm);
}

/** How many old kernels build/ref/ keeps: the ones used last (each is a few files of tens of KB, built again in seconds). */
export const KEPT_KERNELS = 16;

/** Removes all but the `keep` kernels of `folder` used last (by their .wasm's mtime), each with the files asc wrote beside it. */
export function pruneKernels(folder: string, keep = KEPT_KERNELS): void {
  const names = readdirSync(folder);
  const used = (stem: string) => statSync(join(folder, `${stem}.wasm`), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const stems = names.filter((name) => name.endsWith(".wasm")).map((name) => name.slice(0, -".wasm".length));
  for (const stem of stems.sort((a, b) => used(b) - used(a)).slice(keep))
    for (const name of names.filter((file) => file.startsWith(`${stem}.`))) rmSync(join(folder, name), { force: true });
}

/** 8 hex digits of a hash of the compiler's settings for `target` (the whole config file) and of the compiler's version. */
function settingsKey(config: string, target: string): string {
  return createHash("sha256")
    .update(JSON.stringify([readFileSync(config, "utf8"), target, packageVersion("assemblyscript")]))
    .digest("hex")
    .slice(0, 8);
}

/** The version of the installed package `name`, or "unknown". */
export function packageVersion(name: string): string {
  try {
    return JSON.parse(readFileSync(join(packageRoot(), "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return "unknown";
  }
}

/** The 12-digit hash of `commit` (a hash, branch, tag or HEAD~2) in this checkout's repository; an Error naming it when git does not know it. */
export function resolveCommit(commit: string): string {
  const found = spawnSync("git", ["rev-parse", "--verify", "--quiet", "--short=12", `${commit}^{commit}`], { cwd: packageRoot(), encoding: "utf8" });
  if (found.status !== 0 || !found.stdout.trim()) throw new Error(`--ref ${commit}: no such commit in the git repository at ${packageRoot()}`);
  return found.stdout.trim();
}

/** The environment variable naming the folder of the worktrees (default build/ref/trees). */
export const REF_TREES_VARIABLE = "SUDOKU_WASM_REF_TREES";

const BUILT_MARK = ".ref-built";
/** Written once `npm ci` has finished: a stopped or failed install leaves a node_modules that is not whole. */
const INSTALLED_MARK = ".ref-installed";

/** The process groups of the build steps under way: ended with this process, however it ends (a second Ctrl-C included). */
const runningGroups = new Set<number>();
process.on("exit", () => {
  for (const group of runningGroups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // ended already
    }
  }
});

/** How long the processes of a step stopped by a signal have, after SIGTERM, before SIGKILL. */
const STOP_GRACE_MS = 2000;

/** Thrown by {@link builtWorktree} when its `signal` aborted it: the step under way was stopped with its processes. */
export class BuildInterrupted extends Error {}

/**
 * Runs one step of a build as a child process, in a process group of its own on POSIX: when `signal` aborts, the whole
 * group (npm and every process it started) is sent SIGTERM (SIGKILL after STOP_GRACE_MS) and the promise rejects with
 * {@link BuildInterrupted} once the step has ended. Its output is kept for the error of a failed step.
 */
function runStep(command: string, args: readonly string[], cwd: string, signal?: AbortSignal): Promise<{ status: number | null; output: string }> {
  if (signal?.aborted) return Promise.reject(new BuildInterrupted(`interrupted by ${String(signal.reason)}`));
  const posix = process.platform !== "win32";
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], shell: !posix, detached: posix });
    if (posix && child.pid !== undefined) runningGroups.add(child.pid);
    let output = "";
    child.stdout!.on("data", (data) => (output += data));
    child.stderr!.on("data", (data) => (output += data));
    const kill = (how: NodeJS.Signals) => {
      try {
        if (posix) process.kill(-child.pid!, how);
        else child.kill(how);
      } catch {
        // the group has ended
      }
    };
    let killer: NodeJS.Timeout | undefined;
    const stop = () => {
      kill("SIGTERM");
      killer = setTimeout(() => kill("SIGKILL"), STOP_GRACE_MS);
    };
    signal?.addEventListener("abort", stop, { once: true });
    child.on("error", (error) => {
      signal?.removeEventListener("abort", stop);
      reject(error);
    });
    child.on("close", (status) => {
      if (child.pid !== undefined) runningGroups.delete(child.pid);
      signal?.removeEventListener("abort", stop);
      clearTimeout(killer);
      if (signal?.aborted) {
        kill("SIGKILL"); // whatever of the group outlived npm
        reject(new BuildInterrupted(`interrupted by ${String(signal.reason)}`));
      } else resolve({ status, output });
    });
  });
}

/**
 * The package at `commit`, in a detached git worktree built once; returns its folder. Its node_modules links to this
 * checkout's when the lockfiles are the same, else `npm ci` (a linked tree installs its own once they differ). After a failed step, the next call takes up from that step.
 * When `signal` aborts (SIGINT, SIGTERM), the step under way stops with every process it started: {@link BuildInterrupted}.
 */
export async function builtWorktree(commit: string, log: (line: string) => void = () => {}, signal?: AbortSignal): Promise<string> {
  const root = packageRoot();
  const hash = resolveCommit(commit);
  const trees = resolve(process.env[REF_TREES_VARIABLE] || join(root, "build", "ref", "trees")); // (a relative one from the working folder)
  const tree = join(trees, hash);
  mkdirSync(trees, { recursive: true });
  // One run at a time checks out, installs and builds a commit: a second one waits for it, then finds the tree built.
  const release = await buildLock(tree, hash, log, signal);
  try {
    return await buildTree(commit, tree, log, signal);
  } finally {
    // (a lock another run took over as stale is released already: proper-lockfile says ERELEASED)
    await release().catch((error: { code?: string }) => {
      if (error.code !== "ERELEASED") throw error;
    });
  }
}

/** How long a run waits for another that is building the same commit, in ms (a build takes minutes; an `npm ci` more). */
const BUILD_WAIT_MS = 30 * 60_000;

/**
 * proper-lockfile's lock `TREE.building` on building `tree`: refreshed while held, taken over once a holder killed without
 * releasing it has left it unrefreshed for a minute. Waits (saying so once) while another run holds it; an Error after
 * {@link BUILD_WAIT_MS}, {@link BuildInterrupted} when `signal` aborts meanwhile.
 */
async function buildLock(tree: string, hash: string, log: (line: string) => void, signal?: AbortSignal): Promise<() => Promise<void>> {
  const { default: lockfile } = await import("proper-lockfile");
  // A lock found compromised (not refreshed for a minute: a machine asleep) is let be: this run goes on building, as it did before there was a lock.
  const options = { realpath: false, lockfilePath: `${tree}.building`, stale: 60_000, update: 10_000, onCompromised: () => {} };
  const waitUntil = Date.now() + BUILD_WAIT_MS;
  let said = false;
  for (;;) {
    if (signal?.aborted) throw new BuildInterrupted(`interrupted by ${String(signal.reason)}`);
    try {
      return await lockfile.lock(tree, options);
    } catch (error) {
      if ((error as { code?: string }).code !== "ELOCKED") throw error;
    }
    if (Date.now() > waitUntil)
      throw new Error(`--ref ${hash}: another run has been building it for over ${BUILD_WAIT_MS / 60_000} minutes (${tree}.building)`);
    if (!said) log(`waiting for another run that is building ${hash}`);
    said = true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** {@link builtWorktree}'s steps for `tree` (its folder named by the commit's hash), under its lock: each skipped when a run before did it. */
async function buildTree(commit: string, tree: string, log: (line: string) => void, signal?: AbortSignal): Promise<string> {
  const root = packageRoot();
  const [trees, hash] = [dirname(tree), basename(tree)];
  const lock = (folder: string) => (existsSync(join(folder, "package-lock.json")) ? readFileSync(join(folder, "package-lock.json"), "utf8") : null);
  // A tree that runs on this checkout's node_modules (the same lockfile when it was built) once this checkout's dependencies
  // changed would time the new ones on the old side too: it installs its own and builds again.
  if (lstatSync(join(tree, "node_modules"), { throwIfNoEntry: false })?.isSymbolicLink() && lock(tree) !== lock(root)) {
    for (const mark of [BUILT_MARK, INSTALLED_MARK]) rmSync(join(tree, mark), { force: true });
  }
  if (existsSync(join(tree, BUILT_MARK))) return tree;
  const run = async (step: string, command: string, args: readonly string[], cwd: string) => {
    const result = await runStep(command, args, cwd, signal);
    if (result.status !== 0) {
      const said = result.output.trim().split("\n").slice(-5).join("\n");
      throw new Error(`--ref ${commit}: ${step} failed in ${tree}${said ? `:\n${said}` : ""}`);
    }
  };
  if (!existsSync(join(tree, "package.json"))) {
    log(`checking out ${hash} in ${tree}`);
    rmSync(tree, { recursive: true, force: true });
    // Only this tool's worktrees whose folders are gone: `git worktree prune` would also drop the user's own (on a drive not mounted now).
    for (const stale of staleWorktrees(root, trees)) await run("git worktree remove", "git", ["worktree", "remove", "--force", stale], root);
    await run("git worktree add", "git", ["worktree", "add", "--detach", "--force", tree, hash], root);
  }
  if (!existsSync(join(tree, INSTALLED_MARK))) {
    rmSync(join(tree, "node_modules"), { recursive: true, force: true }); // a link, or what a stopped or failed install left
    if (lock(tree) !== null && lock(tree) === lock(root) && existsSync(join(root, "node_modules"))) {
      symlinkSync(join(root, "node_modules"), join(tree, "node_modules"), "junction");
    } else {
      log(`installing ${hash}'s dependencies (npm ci)`);
      await run("npm ci", "npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], tree);
    }
    writeFileSync(join(tree, INSTALLED_MARK), `${hash}\n`);
  }
  log(`building ${hash} (npm run build)`);
  await run("npm run build", "npm", ["run", "build", "--silent"], tree);
  writeFileSync(join(tree, BUILT_MARK), `${hash}\n`);
  return tree;
}

/** The worktrees of the repository at `root` registered under the folder `trees` whose folders are missing. */
function staleWorktrees(root: string, trees: string): string[] {
  const under = [realpathSync(trees), resolve(trees)].map((folder) => folder + sep);
  const listed = execFileSync("git", ["worktree", "list", "--porcelain"], { cwd: root, encoding: "utf8" });
  return [...listed.matchAll(/^worktree (.+)$/gm)]
    .map((match) => match[1])
    .filter((path) => under.some((folder) => path.startsWith(folder)) && !existsSync(path));
}

/** Process CPU seconds, user and system. */
export function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** Runs `run` (`count` puzzles) for at least `seconds` of wall time (once for 0); puzzles per second of wall time and of process CPU time. */
export async function rate(count: number, seconds: number, run: () => unknown): Promise<{ wall: number; cpu: number }> {
  const cpu = cpuSeconds();
  const started = performance.now();
  let solved = 0;
  do {
    await run();
    solved += count;
  } while (performance.now() - started < seconds * 1000);
  return { wall: solved / ((performance.now() - started) / 1000), cpu: solved / (cpuSeconds() - cpu) };
}
