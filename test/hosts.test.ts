/**
 * Bulk runs past one process: a million-puzzle run killed with SIGKILL (its last record then
 * torn, as a kill mid-write leaves it) and resumed; GNU parallel spreading shards over two
 * "hosts" (an ssh stand-in runs each host's commands here, through the same quoting real ssh
 * gets) whose outputs merge into the one-run output; and GNU parallel's --pipepart handing jobs
 * byte ranges of one file, their output kept in order. Outputs are compared by SHA-256, byte
 * for byte. Also the output lock as a killed session leaves it: its solve a zombie (taken over
 * at once), and owner records of a live run, a reused pid and another machine.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writePuzzles } from "../bench/corpus.js";
import { Random } from "../src/model/prng.js";
import { BIN } from "./cli-run.js";

const dir = mkdtempSync(join(tmpdir(), "sudoku-hosts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The SHA-256 of a file, read as a stream. */
async function sha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest("hex");
}

/** Runs the CLI to the end; throws with its stderr unless the status is `expected`. */
function solveTo(args: string[], expected = 0): string {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  if (result.status !== expected) throw new Error(`sudoku-wasm ${args.join(" ")}: status ${result.status}\n${result.stderr}`);
  return result.stderr;
}

/** How a child process ended. */
function ended(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
}

describe("solve --resume after SIGKILL", () => {
  it("a 1,000,000-puzzle run killed at a random point, then resumed, equals the uninterrupted run byte for byte", async () => {
    const input = writePuzzles(join(dir, "million.txt"), 1_000_000, 11);
    const whole = join(dir, "whole.txt");
    solveTo(["solve", "--no-progress", "-o", whole, input]);
    const size = statSync(whole).size;
    const seed = Date.now() % 0x100000000;
    const target = Math.floor(size * (0.1 + 0.8 * (new Random(seed).below(1000) / 1000)));
    const killed = join(dir, "killed.txt");
    const child = spawn(process.execPath, [BIN, "solve", "--no-progress", "-o", killed, input], { stdio: "ignore" });
    const exit = ended(child);
    while (child.exitCode === null && !(existsSync(killed) && statSync(killed).size >= target)) await new Promise((resolve) => setTimeout(resolve, 2));
    child.kill("SIGKILL");
    expect((await exit).signal, `seed ${seed}: the run ended before the kill`).toBe("SIGKILL");
    const killedAt = statSync(killed).size;
    expect(killedAt, `seed ${seed}`).toBeLessThan(size);
    // A kill mid-write can leave a cut-off record; a write to a local file seldom does, so tear the last one here.
    const cut = killedAt - (killedAt % 82) - 1 - new Random(seed).below(80);
    truncateSync(killed, cut);
    const said = solveTo(["solve", "--no-progress", "--resume", "-o", killed, input]);
    expect(said).toContain(`${(1_000_000 - Math.floor(cut / 82)).toLocaleString("en-US")} puzzles: `);
    expect(await sha256(killed), `seed ${seed}, killed at byte ${killedAt} of ${size}, torn at ${cut}`).toBe(await sha256(whole));
  }, 300_000); // a million puzzles solved, then again in a killed run and its resumption: 52 s on two loaded cores
});

describe("solve --resume after SIGKILL of a whole session", () => {
  // `kill -9` of an ssh session kills the shell with the solve, so nobody reaps the solve: it
  // stays a zombie (it still answers kill(pid, 0)) until init gets to it, seconds later in a
  // container. Here its parent is a `sleep` that never reaps, so it stays one throughout.
  it.skipIf(!existsSync("/proc/self/stat"))(
    "takes over at once the lock of a killed run that is still a zombie, and resumes to the one-run output",
    async () => {
      const input = writePuzzles(join(dir, "zombie-input.txt"), 100_000, 14);
      const whole = join(dir, "zombie-whole.txt");
      solveTo(["solve", "--no-progress", "-o", whole, input]);
      const out = join(dir, "zombie.txt");
      const session = spawn(
        "sh",
        [
          "-c",
          `"$@" >/dev/null 2>&1 & echo $!; exec sleep 600`,
          "sh",
          process.execPath,
          BIN,
          "solve",
          "--no-progress",
          "--threads",
          "1",
          "--batch",
          "256",
          "-o",
          out,
          input,
        ],
        { stdio: ["ignore", "pipe", "ignore"] },
      );
      try {
        const pid = Number(await new Promise<string>((resolve) => session.stdout.once("data", (chunk) => resolve(String(chunk)))));
        const state = () => readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "")[0];
        while (state() !== "Z" && !(existsSync(out) && statSync(out).size > 82 * 1000)) await new Promise((resolve) => setTimeout(resolve, 2));
        expect(state(), "the run ended before the kill").not.toBe("Z");
        process.kill(pid, "SIGKILL");
        while (state() !== "Z") await new Promise((resolve) => setTimeout(resolve, 2));
        expect(readFileSync(`${out}.lock.owner`, "utf8")).toMatch(new RegExp(`^\\S+ ${pid}\\b`));
        expect(statSync(out).size).toBeLessThan(statSync(whole).size);
        solveTo(["solve", "--no-progress", "--resume", "-o", out, input]);
        expect(await sha256(out)).toBe(await sha256(whole));
        expect(existsSync(`${out}.lock`)).toBe(false);
      } finally {
        session.kill("SIGKILL");
      }
    },
  );
});

describe("the output lock's owner record", () => {
  // `HOST PID SPACE START`: SPACE (boot id / pid namespace) says whether PID can be checked
  // here at all, START (clock ticks after boot) whether PID is still the process that locked.
  it.skipIf(!existsSync("/proc/self/stat"))(
    "refuses a live owner; takes over a pid that is now another process's; leaves a pid of another process space to the mtime",
    () => {
      const input = writePuzzles(join(dir, "owner-input.txt"), 10, 15);
      const space = `${readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()}/${/\d+/.exec(readlinkSync("/proc/self/ns/pid"))?.[0]}`;
      const start = readFileSync("/proc/self/stat", "utf8")
        .replace(/^.*\) /s, "")
        .split(" ")[19];
      let dead = 4_000_000;
      while (existsSync(`/proc/${dead}`)) dead--;
      const cases: [string, number][] = [
        [`${hostname()} ${process.pid} ${space} ${start}`, 2], // this test's own process: alive, refused
        [`${hostname()} ${process.pid} ${space} 1`, 0], // the same pid, started at another time: its owner is gone
        [`${hostname()} ${dead} 00000000-0000-0000-0000-000000000000/1 -`, 2], // another machine of this name: its pid means nothing here
      ];
      for (const [k, [owner, status]] of cases.entries()) {
        const out = join(dir, `owner-${k}.txt`);
        writeFileSync(out, "");
        mkdirSync(`${out}.lock`);
        writeFileSync(`${out}.lock.owner`, `${owner}\n`);
        const run = spawnSync(process.execPath, [BIN, "solve", "--no-progress", "--resume", "-o", out, input], { encoding: "utf8" });
        expect([run.status, run.stderr], owner).toEqual([
          status,
          status === 2 ? expect.stringContaining("is being written by another run") : expect.any(String),
        ]);
        expect(readFileSync(out, "utf8").split("\n"), owner).toHaveLength(status === 2 ? 1 : 11);
      }
    },
  );
});

/**
 * An ssh stand-in: `ssh HOST [--] COMMAND…` runs COMMAND here through a shell, as sshd would, and
 * logs the host. Like sshd it sets SHELL (the login shell): GNU parallel's remote worker runs each
 * job through $SHELL and, with SHELL unset (a bare CI environment), silently runs nothing.
 */
function fakeSsh(log: string): string {
  const path = join(dir, "fake-ssh");
  writeFileSync(path, `#!/bin/sh\nhost=$1; shift\n[ "$1" = "--" ] && shift\necho "$host" >> '${log}'\nSHELL=/bin/sh exec sh -c "$*"\n`);
  chmodSync(path, 0o755);
  return path;
}

const parallel = spawnSync("parallel", ["--version"], { encoding: "utf8" });
const hasParallel = parallel.status === 0 && parallel.stdout.startsWith("GNU parallel");

describe("GNU parallel across hosts", () => {
  it.skipIf(!hasParallel)("4 shards on 2 hosts (sshlogins alpha and beta) merge into the one-run output of 100,000 puzzles, byte for byte", async () => {
    const input = writePuzzles(join(dir, "hundred-k.txt"), 100_000, 12);
    const single = join(dir, "single.jsonl");
    solveTo(["solve", "--no-progress", "--out", "jsonl", "-o", single, input]);
    const log = join(dir, "hosts.log");
    const shard = (k: number) => join(dir, `shard-${k}.jsonl`);
    const run = spawnSync(
      "parallel",
      [
        "--will-cite",
        "--ssh",
        fakeSsh(log),
        "--sshlogin",
        "1/alpha,1/beta",
        "--halt",
        "now,fail=1",
        process.execPath,
        BIN,
        "solve",
        "--no-progress",
        "--threads",
        "1",
        "--out",
        "jsonl",
        "--shard",
        "{}/4",
        "-o",
        join(dir, "shard-{}.jsonl"),
        input,
        ":::",
        "0",
        "1",
        "2",
        "3",
      ],
      { encoding: "utf8" },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(new Set(readFileSync(log, "utf8").trim().split("\n"))).toEqual(new Set(["alpha", "beta"]));
    const merged = join(dir, "merged.jsonl");
    expect(solveTo(["merge", "-o", merged, ...[0, 1, 2, 3].map(shard)])).toContain("merged 100,000 jsonl records from 4 shards");
    expect(await sha256(merged)).toBe(await sha256(single));
  });
  it.skipIf(!hasParallel)(
    "--pipepart: 6 jobs, 2 at a time, each reading its own byte range of one file, write (kept in order by -k) the one-run output of 100,000 puzzles",
    async () => {
      const input = writePuzzles(join(dir, "hundred-k-lines.txt"), 100_000, 13);
      const single = join(dir, "single.txt");
      solveTo(["solve", "--no-progress", "-o", single, input]);
      const joblog = join(dir, "pipepart.log");
      const piped = join(dir, "piped.txt");
      const run = spawnSync(
        "sh",
        [
          "-c",
          'out=$1; shift; exec "$@" > "$out"',
          "sh",
          piped,
          "parallel",
          "--will-cite",
          "--pipepart",
          "-a",
          input,
          "--block",
          "-3",
          "-k",
          "-j",
          "2",
          "--joblog",
          joblog,
          "--halt",
          "now,fail=1",
          process.execPath,
          BIN,
          "solve",
          "--no-progress",
          "--threads",
          "1",
        ],
        { encoding: "utf8" },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(readFileSync(joblog, "utf8").trim().split("\n").length - 1).toBe(6); // a header, then one row per job: 3 blocks per job slot
      expect(await sha256(piped)).toBe(await sha256(single));
    },
  );
  if (!hasParallel) it.skip("GNU parallel is not installed (Debian: apt-get install parallel); .ci/run installs it", () => {});
});
