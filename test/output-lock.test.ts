/**
 * One run per output file: a second --resume run of an output another run writes is refused; the
 * lock of a killed run of this host is taken over at once, another host's once it is stale.
 * The output lock's takeover rule: a lock is taken from its owner only when that owner is
 * provably gone, else by the mtime rule, never while the owner refreshes it or, on this machine
 * and pid namespace, while it is stopped; `--take-lock` takes it on purpose, and the run that
 * lost it writes nothing more to the file. Two runs in different pid namespaces (a child under
 * `unshare -p -f` without `--mount-proc`, whose /proc is its parent's) in both directions, the
 * child's run stopped past the stale time (taken by the mtime rule), a
 * run stopped with SIGSTOP for longer than the stale time (set short through
 * SUDOKU_WASM_LOCK_STALE_MS), a run whose lock is taken with --take-lock while it goes on
 * (the taker still writing), and a full disk when the owner file is written.
 * Spawns bin/sudoku-wasm.mjs (dist/, built by `pretest`).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, linkSync, openSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli, scratchFolder } from "./cli-run.js";
import { relabelledPuzzles } from "../bench/corpus.js";

const { dir, file } = scratchFolder("sudoku-lock-");
const COUNT = 40_000;
const PUZZLES = relabelledPuzzles(COUNT, 37);
const FIRST = 82 * 2000; // the bytes of the puzzles the first run gets before the second starts
const REFERENCE = (() => {
  const out = join(dir, "reference.txt");
  const run = runCli(["solve", "--no-progress", "-o", out, file("puzzles.txt", PUZZLES)]);
  if (run.status !== 0) throw new Error(run.stderr);
  return readFileSync(out, "utf8");
})();

/** Waits until `done()` holds, polling. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The owner record of the lock on `out`, or undefined when there is none. */
function ownerRecord(out: string): string | undefined {
  try {
    return readFileSync(`${out}.lock.owner`, "utf8");
  } catch {
    return undefined;
  }
}

/** A `solve --resume -o out -` run (in `prefix`, e.g. `unshare -p -f`; `extra` options) that has read FIRST bytes of PUZZLES and holds the lock. */
async function firstRun(out: string, prefix: string[] = [], env: NodeJS.ProcessEnv = process.env, extra: string[] = []) {
  const [command, ...args] = [...prefix, process.execPath, BIN, "solve", "--no-progress", "--threads", "1", ...extra, "--resume", "-o", out, "-"];
  const before = ownerRecord(out); // a run taking the lock over holds it once the record is its own
  const child = spawn(command, args, { stdio: ["pipe", "ignore", "pipe"], env });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  child.stdin!.on("error", () => {}); // a run that lost its lock stops reading: EPIPE
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  child.stdin!.write(PUZZLES.slice(0, FIRST));
  await until(() => child.exitCode !== null || (ownerRecord(out) !== undefined && ownerRecord(out) !== before && statSync(out).size >= FIRST / 2));
  /** Gives the run the rest of the puzzles; its exit status and standard error. */
  const finish = async () => {
    child.stdin!.end(PUZZLES.slice(FIRST));
    return { status: await exited, stderr };
  };
  return { child, finish };
}

/** A second `solve --resume -o out -` run of all the puzzles, to the end. */
function secondRun(out: string, prefix: string[] = [], extra: string[] = [], env: NodeJS.ProcessEnv = process.env) {
  const [command, ...args] = [...prefix, process.execPath, BIN, "solve", "--no-progress", ...extra, "--resume", "-o", out, "-"];
  const run = spawnSync(command, args, { input: PUZZLES, encoding: "utf8", env });
  return { status: run.status, stderr: run.stderr };
}

const unshare = spawnSync("unshare", ["-p", "-f", "true"]);
const canUnshare = unshare.status === 0;

/**
 * `unshare -p -f`, its child run at a pid that no process of this namespace has (so that kill(pid, 0)
 * from here says ESRCH, as it would for most pids of another namespace): the namespace's last
 * pid is set first, through the /proc it shares with this one.
 */
function unshareAtFreePid(): string[] {
  const max = Number(readFileSync("/proc/sys/kernel/pid_max", "utf8"));
  let pid = max - 100;
  while (existsSync(`/proc/${pid}`) || existsSync(`/proc/${pid - 1}`)) pid -= 2;
  return ["unshare", "-p", "-f", "sh", "-c", `echo ${pid - 1} > /proc/sys/kernel/ns_last_pid && "$@"`, "sh"];
}

/** The refusal of a lock whose owner cannot be checked from here and which it keeps fresh. */
const FRESH = "is being written by another run (its lock";

describe.skipIf(!canUnshare)("the output lock across pid namespaces (unshare -p -f, no --mount-proc)", () => {
  it("refuses a run of this namespace while a run in a child namespace writes the file; the first ends with the one-run output", async () => {
    const out = join(dir, "ns-inner-first.txt");
    const first = await firstRun(out, unshareAtFreePid());
    const second = secondRun(out);
    expect([second.status, second.stderr]).toEqual([2, expect.stringContaining(FRESH)]);
    expect(second.stderr).toMatch(/^sudoku-wasm: [^\n]+\n$/);
    const done = await first.finish();
    expect(done.status, done.stderr).toBe(0);
    expect(readFileSync(out, "utf8") === REFERENCE).toBe(true);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("refuses a run in a child namespace while a run of this namespace writes the file; the first ends with the one-run output", async () => {
    const out = join(dir, "ns-outer-first.txt");
    const first = await firstRun(out);
    const second = secondRun(out, ["unshare", "-p", "-f"]);
    expect([second.status, second.stderr]).toEqual([2, expect.stringContaining(FRESH)]);
    const done = await first.finish();
    expect(done.status, done.stderr).toBe(0);
    expect(readFileSync(out, "utf8") === REFERENCE).toBe(true);
  });

  it("takes the lock of a run in a child namespace stopped past the stale time (its owner cannot be checked from here); continued, it writes nothing more and exits 2", async () => {
    const out = join(dir, "ns-stopped.txt");
    const env = { ...process.env, SUDOKU_WASM_LOCK_STALE_MS: "2000" };
    const first = await firstRun(out, ["unshare", "-p", "-f"], env);
    const [node] = readFileSync(`/proc/${first.child.pid}/task/${first.child.pid}/children`, "utf8").trim().split(" ").map(Number); // unshare's child
    process.kill(node, "SIGSTOP");
    await until(() => Date.now() - statSync(`${out}.lock`).mtimeMs > 2500);
    const second = secondRun(out, [], [], env);
    process.kill(node, "SIGCONT");
    expect(second.status, second.stderr).toBe(0);
    const done = await first.finish();
    expect(done.status).toBe(2);
    expect(done.stderr).toMatch(/^sudoku-wasm: lost the lock on '.*' \(.*\): another run took the output over; stopped, writing nothing more to it\n$/m);
    expect(readFileSync(out, "utf8") === REFERENCE, "the first run's later bytes reached the file").toBe(true);
    expect([existsSync(`${out}.lock`), existsSync(`${out}.lock.owner`)]).toEqual([false, false]);
  });
});
if (!canUnshare)
  it.skip(`unshare -p -f is refused here (${String(unshare.stderr).trim() || `status ${unshare.status}`}): the namespace cases need root or user namespaces`, () => {});

describe.skipIf(!existsSync("/proc/self/stat"))("the output lock of a stopped run (SIGSTOP past the stale time)", () => {
  const STALE_MS = 2000;
  const env = { ...process.env, SUDOKU_WASM_LOCK_STALE_MS: String(STALE_MS) };

  /** Stops `child` until its lock is older than the stale time. */
  async function stopPastStale(child: ChildProcess, out: string): Promise<void> {
    child.kill("SIGSTOP");
    await until(() => Date.now() - statSync(`${out}.lock`).mtimeMs > STALE_MS + 500);
  }

  it("keeps its lock: a --resume run is refused, told how to take over; continued, the stopped run ends with the one-run output", async () => {
    const out = join(dir, "stopped.txt");
    const first = await firstRun(out, [], env);
    await stopPastStale(first.child, out);
    const second = secondRun(out, [], [], env);
    first.child.kill("SIGCONT");
    expect(second.status).toBe(2);
    expect(second.stderr).toMatch(/^sudoku-wasm: '.*' is being written by another run \(pid \d+\), which is stopped .*kill -CONT \d+.*--take-lock\n$/);
    const done = await first.finish();
    expect(done.status, done.stderr).toBe(0);
    expect(readFileSync(out, "utf8") === REFERENCE).toBe(true);
  });

  it("--take-lock takes it: the second run writes the one-run output; continued, the first writes nothing more and exits 2 saying so", async () => {
    const out = join(dir, "taken.txt");
    const first = await firstRun(out, [], env);
    await stopPastStale(first.child, out);
    const second = secondRun(out, [], ["--take-lock"], env);
    expect(second.status, second.stderr).toBe(0);
    expect(readFileSync(out, "utf8") === REFERENCE).toBe(true);
    first.child.kill("SIGCONT");
    const done = await first.finish();
    expect(done.status).toBe(2);
    expect(done.stderr).toMatch(/^sudoku-wasm: lost the lock on '.*' \(.*\): another run took the output over; stopped, writing nothing more to it\n$/m);
    expect(readFileSync(out, "utf8") === REFERENCE, "the first run's later bytes reached the file").toBe(true);
    expect([existsSync(`${out}.lock`), existsSync(`${out}.lock.owner`)]).toEqual([false, false]);
  });

  it("a run whose lock was taken over, ended by two signals once continued, leaves the lock and owner record of the run that holds it now", async () => {
    const out = join(dir, "taken-then-signalled.txt");
    // At the default stale time the first run looks at its lock every 5 s: continued, it mostly hears the signals before it finds the lock taken.
    const first = await firstRun(out);
    first.child.kill("SIGSTOP");
    const taken = ownerRecord(out);
    const second = spawn(process.execPath, [BIN, "solve", "--no-progress", "--threads", "1", "--take-lock", "--resume", "-o", out, "-"], {
      stdio: ["pipe", "ignore", "pipe"],
    });
    let secondErrors = "";
    second.stderr!.on("data", (chunk) => (secondErrors += chunk));
    const secondExited = new Promise<number | null>((resolve) => second.on("exit", resolve));
    second.stdin!.write(PUZZLES.slice(0, FIRST)); // it holds the lock, waiting for the rest
    await until(() => second.exitCode !== null || (ownerRecord(out) !== undefined && ownerRecord(out) !== taken));
    const holder = ownerRecord(out);
    const firstExited = new Promise<unknown>((resolve) => first.child.on("exit", resolve));
    for (const signal of ["SIGINT", "SIGTERM", "SIGCONT"] as const) first.child.kill(signal); // two signals, heard once it runs again
    await firstExited;
    expect([existsSync(`${out}.lock`), ownerRecord(out)]).toEqual([true, holder]);
    second.stdin!.end(PUZZLES.slice(FIRST));
    expect(await secondExited, secondErrors).toBe(0);
    expect(readFileSync(out, "utf8") === REFERENCE).toBe(true);
    expect([existsSync(`${out}.lock`), existsSync(`${out}.lock.owner`)]).toEqual([false, false]);
  });
});

describe("the output lock taken from a run that goes on", () => {
  const env = { ...process.env, SUDOKU_WASM_LOCK_STALE_MS: "2000" }; // the holder looks at its lock every second

  it("--take-lock from a running run: the first's later bytes never reach the file, it exits 2; the second, still writing meanwhile, ends with the one-run output", async () => {
    const out = join(dir, "taken-live.txt");
    const first = await firstRun(out, [], env);
    const second = await firstRun(out, [], env, ["--take-lock"]); // holds the lock, has read FIRST bytes, waits for the rest
    const done = await first.finish(); // the first is given the rest of the puzzles while the second holds the file
    expect(done.status).toBe(2);
    expect(done.stderr).toMatch(/^sudoku-wasm: lost the lock on '.*' \(.*\): another run took the output over; stopped, writing nothing more to it\n$/m);
    const taken = await second.finish();
    expect(taken.status, taken.stderr).toBe(0);
    expect(readFileSync(out, "utf8") === REFERENCE, "the first run's bytes after the takeover reached the file").toBe(true);
    expect([existsSync(`${out}.lock`), existsSync(`${out}.lock.owner`)]).toEqual([false, false]);
  });
});

/** Mounts a tmpfs of `kb` KiB on a new folder; undefined where mounting is refused. */
function smallDisk(kb: number): string | undefined {
  const mount = join(dir, `tmpfs-${kb}`);
  mkdirSync(mount);
  return spawnSync("mount", ["-t", "tmpfs", "-o", `size=${kb}k`, "tmpfs", mount]).status === 0 ? mount : undefined;
}

describe("the output lock on a full disk", () => {
  // Mounted in a hook, not while the file is collected: a run that filters this test out (-t) runs neither hook, so it
  // leaves no tmpfs mounted behind (the scratch folder's removal then failed with EBUSY, and each such run left one).
  let mount: string | undefined;
  beforeAll(() => void (mount = smallDisk(64)));
  afterAll(() => void (mount && spawnSync("umount", [mount]))); // before the file's scratch folder is removed
  it("names the owner file it cannot write, exits 2, and leaves neither it nor the lock behind", (context) => {
    if (mount === undefined) context.skip("mounting a tmpfs is refused here (not root): the full-disk case needs one");
    spawnSync("sh", ["-c", `cat /dev/zero > '${mount}/fill'`]); // until ENOSPC
    const out = join(mount!, "out.txt");
    const run = runCli(["solve", "--no-progress", "-o", out, join(dir, "puzzles.txt")]);
    expect([run.status, run.stderr]).toEqual([2, `sudoku-wasm: cannot write '${out}.lock.owner': ENOSPC (no space left on device)\n`]);
    expect(readdirSync(mount!).sort()).toEqual(["fill", "out.txt"]);
  });
});

describe("a disk that fills during the run", () => {
  let mount: string | undefined;
  beforeAll(() => void (mount = smallDisk(96)));
  afterAll(() => void (mount && spawnSync("umount", [mount])));
  const shards = () => {
    const puzzles = file("fills.txt", relabelledPuzzles(3000, 41)); // 246 KB of records: more than the disk holds
    const paths = [0, 1].map((k) => join(dir, `fills-${k}.txt`));
    for (const [k, path] of paths.entries()) expect(runCli(["solve", "--no-progress", "--shard", `${k}/2`, "-o", path, puzzles]).status).toBe(0);
    return { puzzles, paths };
  };

  it("solve -o exits 2 naming the output, and leaves its records and run record (to go on with --resume) but no lock", (context) => {
    if (mount === undefined) context.skip("mounting a tmpfs is refused here (not root): the full-disk case needs one");
    const out = join(mount!, "out.txt");
    const run = runCli(["solve", "--no-progress", "-o", out, shards().puzzles]);
    expect([run.status, run.stderr]).toEqual([2, `sudoku-wasm: cannot write '${out}': ENOSPC (no space left on device)\n`]);
    expect(readdirSync(mount!).sort()).toEqual(["out.txt", "out.txt.run.json"]);
    spawnSync("rm", ["-f", out, `${out}.run.json`]);
  });

  it("generate -o exits 2 naming the output, and leaves the puzzles written but not its lock's owner file", (context) => {
    if (mount === undefined) context.skip("mounting a tmpfs is refused here (not root): the full-disk case needs one");
    const out = join(mount!, "generated.txt");
    const run = runCli(["generate", "-n", "1500", "--seed", "5", "-o", out]);
    expect([run.status, run.stderr]).toEqual([2, `sudoku-wasm: cannot write '${out}': ENOSPC (no space left on device)\n`]);
    expect(readdirSync(mount!)).toEqual(["generated.txt"]);
    spawnSync("rm", ["-f", out]);
  });

  it("merge -o exits 2 naming -o, not its temporary file, and leaves the disk as it was: no temporary file, no lock, no output it made", (context) => {
    if (mount === undefined) context.skip("mounting a tmpfs is refused here (not root): the full-disk case needs one");
    const { paths } = shards();
    const out = join(mount!, "merged.txt");
    for (const before of [undefined, "kept\n"]) {
      if (before !== undefined) writeFileSync(out, before);
      const run = runCli(["merge", "-o", out, ...paths]);
      expect([run.status, run.stderr]).toEqual([2, `sudoku-wasm: cannot write '${out}': ENOSPC (no space left on device)\n`]);
      expect(readdirSync(mount!)).toEqual(before === undefined ? [] : ["merged.txt"]);
      if (before !== undefined) expect(readFileSync(out, "utf8")).toBe(before);
    }
  });
});

it("canon offers --take-lock when it refuses a locked output, and takes the lock with it", async () => {
  const puzzles = relabelledPuzzles(2000, 31);
  const input = join(dir, "canon-in.txt");
  writeFileSync(input, puzzles);
  const out = join(dir, "canon-locked.txt");
  const first = spawn(process.execPath, [BIN, "canon", "--no-progress", "-o", out, "-"], { stdio: ["pipe", "ignore", "pipe"] });
  const exited = new Promise<number | null>((resolve) => first.on("exit", resolve));
  first.stdin.write(puzzles.slice(0, 82 * 100)); // it holds the lock while its standard input stays open
  await until(() => existsSync(`${out}.lock.owner`));
  const refused = runCli(["canon", "-q", "-o", out, input]);
  expect(refused.status).toBe(2);
  expect(refused.stderr).toMatch(/is being written by another run \(pid \d+\).*add --take-lock\n$/);
  const taken = runCli(["canon", "-q", "--take-lock", "-o", out, input]);
  expect([taken.status, taken.stderr]).toEqual([0, ""]);
  expect(readFileSync(out, "utf8").split("\n")).toHaveLength(2001);
  first.stdin.end(puzzles.slice(82 * 100));
  expect(await exited).toBe(2); // it found its lock taken and wrote nothing more
  expect(readFileSync(out, "utf8").split("\n")).toHaveLength(2001);
});

it("--take-lock without -o is a usage error", () => {
  expect(runCli(["solve", "--take-lock", join(dir, "puzzles.txt")])).toMatchObject({
    status: 2,
    stderr: "sudoku-wasm: --take-lock needs -o FILE (a file, not standard output): the output whose lock to take\n",
  });
});

describe("one run per output file", () => {
  const threeHundred = file("three-hundred.txt", relabelledPuzzles(300, 23));

  it("refuses a second --resume run of an output another run is writing; the first writes each record once", async () => {
    const puzzles = relabelledPuzzles(20_000, 9);
    const out = join(dir, "locked.txt");
    // The first run reads standard input, which stays open until the second run has been refused: it holds the lock until then.
    const first = spawn(process.execPath, [BIN, "solve", "--no-progress", "--threads", "1", "--resume", "-o", out, "-"], { stdio: ["pipe", "ignore", "pipe"] });
    const exited = new Promise<number | null>((resolve) => first.on("exit", resolve));
    first.stdin.write(puzzles.slice(0, 82 * 1000));
    await until(() => existsSync(`${out}.lock`) || (existsSync(out) && statSync(out).size >= 82 * 1000)); // the lock, or on code without one the first records
    const second = runCli(["solve", "--no-progress", "--threads", "1", "--resume", "-o", out, "-"], { input: puzzles });
    first.stdin.end(puzzles.slice(82 * 1000));
    expect(await exited).toBe(0);
    expect(second.status).toBe(2);
    expect(second.stderr).toBe(
      `sudoku-wasm: '${out}' is being written by another run (pid ${first.pid}): one run per output file; ` +
        "to take it over anyway (that run then stops, writing nothing more to it), add --take-lock\n",
    );
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(20_001);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("refuses an output of more than one name (a hard link): a run writing it by the other name would not meet the lock", () => {
    const out = file("linked.txt", "kept\n");
    const other = join(dir, "linked-too.txt");
    linkSync(out, other);
    for (const args of [
      ["solve", "--no-progress", "-o", other, threeHundred],
      ["generate", "-n", "1", "-o", other],
    ]) {
      const run = runCli(args);
      expect([run.status, run.stderr], args[0]).toEqual([
        2,
        `sudoku-wasm: '${other}' has 2 names (hard links): a run writing it by another name would not meet this run's lock; write to a file of one name\n`,
      ]);
    }
    expect(readFileSync(out, "utf8")).toBe("kept\n");
    expect(existsSync(`${other}.lock`)).toBe(false);
  });

  it("refuses standard output redirected to a file another run is writing (`>> FILE` beside `-o FILE`), before writing to it", async () => {
    const puzzles = relabelledPuzzles(4000, 13);
    const out = join(dir, "redirected.txt");
    const first = spawn(process.execPath, [BIN, "solve", "--no-progress", "--threads", "0", "-o", out, "-"], { stdio: ["pipe", "ignore", "pipe"] });
    const exited = new Promise<number | null>((resolve) => first.on("exit", resolve));
    first.stdin.write(puzzles.slice(0, 82 * 1000));
    await until(() => existsSync(`${out}.lock`) && ownerRecord(out) !== undefined);
    const appending = openSync(out, "a");
    const second = spawnSync(process.execPath, [BIN, "solve", "--no-progress", threeHundred], { stdio: ["ignore", appending, "pipe"], encoding: "utf8" });
    closeSync(appending);
    expect([second.status, second.stderr]).toEqual([
      2,
      `sudoku-wasm: standard output is '${out}', whose lock ${out}.lock is there: another run is writing it, or was stopped or killed before its end; one run per output file\n`,
    ]);
    first.stdin.end(puzzles.slice(82 * 1000));
    expect(await exited).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(runCli(["solve", "--no-progress", "--threads", "0", "-"], { input: puzzles }).stdout);
  });

  it("merge -o and generate -o refuse an output another run is writing (they wrote over it, and that run reported success); merge refuses a locked shard", async () => {
    const puzzles = relabelledPuzzles(20_000, 11);
    const out = join(dir, "held.txt");
    const first = spawn(process.execPath, [BIN, "solve", "--no-progress", "--threads", "1", "-o", out, "-"], { stdio: ["pipe", "ignore", "pipe"] });
    const exited = new Promise<number | null>((resolve) => first.on("exit", resolve));
    first.stdin.write(puzzles.slice(0, 82 * 1000));
    await until(() => existsSync(`${out}.lock`) && ownerRecord(out) !== undefined);
    const shard = file("shard.txt", "1".repeat(81) + "\n");
    const refusal = `sudoku-wasm: '${out}' is being written by another run (pid ${first.pid}): one run per output file\n`; // (no --take-lock to offer)
    for (const args of [
      ["merge", shard, "-o", out],
      ["generate", "-n", "3", "-o", out],
    ]) {
      const run = runCli(args);
      expect([run.status, run.stderr], args[0]).toEqual([2, refusal]);
    }
    const merged = runCli(["merge", out, shard]); // the output being written, as a shard
    expect([merged.status, merged.stderr]).toEqual([
      2,
      `sudoku-wasm: shard '${out}' is locked (${out}.lock): its run is still writing it, or was stopped or killed before its end; let it finish, or go on with --resume, then merge\n`,
    ]);
    first.stdin.end(puzzles.slice(82 * 1000));
    expect(await exited).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(runCli(["solve", "--no-progress", "--threads", "0", "-"], { input: puzzles }).stdout);
  });

  it("takes over at once the lock of a killed run of this host, and resumes to the one-run output", async () => {
    const input = file("stale-input.txt", relabelledPuzzles(100_000, 10));
    const whole = join(dir, "stale-whole.txt");
    expect(runCli(["solve", "--no-progress", "-o", whole, input]).status).toBe(0);
    const out = join(dir, "stale.txt");
    const killed = spawn(process.execPath, [BIN, "solve", "--no-progress", "--threads", "1", "--batch", "256", "-o", out, input], { stdio: "ignore" });
    const exited = new Promise((resolve) => killed.on("exit", resolve));
    await until(() => (existsSync(out) && statSync(out).size > 82 * 1000) || killed.exitCode !== null);
    killed.kill("SIGKILL");
    await exited;
    expect(existsSync(`${out}.lock`), "SIGKILL leaves the lock behind").toBe(true);
    const resumed = runCli(["solve", "--no-progress", "--resume", "-o", out, input]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(whole, "utf8"));
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("takes over a lock without an owner record once none has appeared for 2 s (a run killed as it took the lock), however fresh", () => {
    const out = file("ownerless.txt", "");
    mkdirSync(`${out}.lock`);
    const resumed = runCli(["solve", "--no-progress", "--resume", "-o", out, threeHundred]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(301);
    expect([existsSync(`${out}.lock`), existsSync(`${out}.lock.owner`)]).toEqual([false, false]);
  });

  it("takes over a lock whose owner it cannot check (another host's) once it is stale, 30 s without a refresh", () => {
    const out = file("elsewhere.txt", "");
    mkdirSync(`${out}.lock`);
    writeFileSync(`${out}.lock.owner`, "another-host 12345\n");
    const fresh = runCli(["solve", "--no-progress", "--resume", "-o", out, threeHundred]);
    expect([fresh.status, fresh.stderr]).toEqual([2, expect.stringContaining("is being written by another run")]);
    const longAgo = new Date(Date.now() - 31_000);
    utimesSync(`${out}.lock`, longAgo, longAgo);
    const resumed = runCli(["solve", "--no-progress", "--resume", "-o", out, threeHundred]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(301);
    expect([existsSync(`${out}.lock`), existsSync(`${out}.lock.owner`)]).toEqual([false, false]);
  });
});
