/**
 * Bulk runs past one process: a million-puzzle run killed with SIGKILL (its last record then
 * torn, as a kill mid-write leaves it) and resumed; GNU parallel spreading shards over two
 * "hosts" (an ssh stand-in runs each host's commands here, through the same quoting real ssh
 * gets) whose outputs merge into the one-run output; and GNU parallel's --pipepart handing jobs
 * byte ranges of one file, their output kept in order. Outputs are compared by SHA-256, byte
 * for byte.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writePuzzles } from "../bench/corpus.js";
import { Random } from "../src/prng.js";
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
  });
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
      ["--will-cite", "--ssh", fakeSsh(log), "--sshlogin", "1/alpha,1/beta", "--halt", "now,fail=1",
        process.execPath, BIN, "solve", "--no-progress", "--threads", "1", "--out", "jsonl", "--shard", "{}/4", "-o", join(dir, "shard-{}.jsonl"), input,
        ":::", "0", "1", "2", "3"],
      { encoding: "utf8" },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(new Set(readFileSync(log, "utf8").trim().split("\n"))).toEqual(new Set(["alpha", "beta"]));
    const merged = join(dir, "merged.jsonl");
    expect(solveTo(["merge", "-o", merged, ...[0, 1, 2, 3].map(shard)])).toContain("merged 100,000 jsonl records from 4 shards");
    expect(await sha256(merged)).toBe(await sha256(single));
  });
  it.skipIf(!hasParallel)("--pipepart: 6 jobs, 2 at a time, each reading its own byte range of one file, write (kept in order by -k) the one-run output of 100,000 puzzles", async () => {
    const input = writePuzzles(join(dir, "hundred-k-lines.txt"), 100_000, 13);
    const single = join(dir, "single.txt");
    solveTo(["solve", "--no-progress", "-o", single, input]);
    const joblog = join(dir, "pipepart.log");
    const piped = join(dir, "piped.txt");
    const run = spawnSync(
      "sh",
      ["-c", 'out=$1; shift; exec "$@" > "$out"', "sh", piped,
        "parallel", "--will-cite", "--pipepart", "-a", input, "--block", "-3", "-k", "-j", "2", "--joblog", joblog, "--halt", "now,fail=1",
        process.execPath, BIN, "solve", "--no-progress", "--threads", "1"],
      { encoding: "utf8" },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(joblog, "utf8").trim().split("\n").length - 1).toBe(6); // a header, then one row per job: 3 blocks per job slot
    expect(await sha256(piped)).toBe(await sha256(single));
  });
  if (!hasParallel) it.skip("GNU parallel is not installed (Debian: apt-get install parallel); .ci/run installs it", () => {});
});
