/**
 * Failing and closed standard streams: a full disk on standard output is one `sudoku-wasm: …` line
 * and status 2, with the worker pools stopped before the exit; a closed standard error is
 * silenced and the run goes on; `generate` stops at once when its reader goes away. Spawns bin/sudoku-wasm.mjs and
 * the CLI's stream guard (dist/, built by `pretest`) under `sh`.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { BIN, scratchFolder } from "./cli-run.js";
import { loadFixture } from "./fixture.js";

const { dir, file } = scratchFolder("sudoku-streams-");

/** Runs a shell pipeline with `$CLI` standing for the command line; returns its status and output. */
function shell(script: string) {
  const result = spawnSync("sh", ["-c", script], { cwd: dir, encoding: "utf8", env: { ...process.env, CLI: `${process.execPath} ${BIN}` } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const UNIQUE = loadFixture()
  .filter((c) => c.count === 1 && c.puzzle.includes("."))
  .map((c) => c.puzzle);
const PUZZLES = Array.from({ length: 200 }, (_, i) => UNIQUE[i % UNIQUE.length]).join("\n") + "\n";

describe("a failing or closed standard stream is one line, or quiet", () => {
  it("solve -o FILE with standard error closed early writes every record and keeps its status (1: an invalid line)", () => {
    // over 256 KiB, so that workers start and hold batches when the pipe closes (their pools were closed under them)
    const lines = Array.from({ length: 40 }, () => PUZZLES.trimEnd())
      .join("\n")
      .split("\n");
    lines.splice(100, 0, "not a puzzle");
    const input = file("stderr-closed.txt", lines.join("\n") + "\n");
    // the progress and the closing lines go to a pipe that takes one byte and closes
    const run = shell(`exec 3>&1; { $CLI solve --progress --threads 2 --batch 64 -o out.txt ${input} 2>&1; echo "status $?" >&3; } | head -c 1 > /dev/null`);
    expect(run.stdout).toBe("status 1\n");
    const records = readFileSync(join(dir, "out.txt"), "utf8").trimEnd().split("\n");
    expect(records).toHaveLength(lines.length);
    expect(records.filter((record) => record.startsWith("invalid"))).toHaveLength(1);
    expect(records.filter((record) => record.startsWith("error"))).toEqual([]);
  });

  it.runIf(existsSync("/dev/full"))("reports a full disk on standard output as one line with status 2, for solve and generate", () => {
    const input = file("full.txt", PUZZLES.replaceAll("\n", "\r\n"));
    for (const command of [`$CLI solve --no-progress ${input} > /dev/full`, "$CLI generate --count 3 --quiet > /dev/full"]) {
      const run = shell(command);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe("sudoku-wasm: cannot write to standard output: ENOSPC (no space left on device)\n");
    }
  });

  it.runIf(existsSync("/dev/full"))("stops the worker pools before it exits on a failed standard output (an exit with workers starting can abort)", () => {
    const errors = new URL("../dist/src/cli-kit/errors.js", import.meta.url).href;
    const script = `const { guardStandardStreams, stopBeforeStreamExit } = await import("${errors}"); guardStandardStreams();
const { writeSync } = await import("node:fs"); // not process.stderr: once a stream failed, the run writes nothing more
stopBeforeStreamExit(() => new Promise((resolve) => setTimeout(() => { writeSync(2, "pool stopped\\n"); resolve(); }, 200)));
process.stdout.write("x"); setInterval(() => {}, 1000);`;
    writeFileSync(join(dir, "full-with-pool.mjs"), script);
    const run = shell(`${process.execPath} full-with-pool.mjs > /dev/full`);
    expect(run.stderr).toBe("sudoku-wasm: cannot write to standard output: ENOSPC (no space left on device)\npool stopped\n");
    expect(run.status).toBe(2);
  });

  it("goes on quietly when standard error is a closed pipe: its records still reach the output and its status stands (no `node:events` trace)", () => {
    // A command that keeps writing to stderr, as a long run's progress does, behind the CLI's stream guard, then ends as a run with invalid records does.
    const errors = new URL("../dist/src/cli-kit/errors.js", import.meta.url).href;
    const script = `const { guardStandardStreams } = await import("${errors}"); guardStandardStreams();
const timer = setInterval(() => process.stderr.write("progress ".repeat(100)), 1);
setTimeout(() => { clearInterval(timer); process.stdout.write("all records\\n"); process.stderr.write("summary\\n"); process.exitCode = 1; }, 300);`;
    writeFileSync(join(dir, "noisy.mjs"), script);
    const run = shell(`exec 3>&1; { ${process.execPath} noisy.mjs 2>&1 >out.txt; echo "status $?" >&3; } | head -c 1 > /dev/null`);
    expect(run.stdout).toBe("status 1\n");
    expect(run.stderr).toBe("");
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("all records\n");
  });
});

/** How long a run whose reader went away gets to exit before the test looks at what it is doing. */
const EXIT_WAIT_MS = 20_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** User plus system CPU time of process `pid` so far, in clock ticks (Linux /proc). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime and stime: fields 14 and 15 of the line
}

describe("generate stops at once when its reader goes away", () => {
  it("ends, status 0, when the pipe that `head -1` reads is closed, long before its --count", async () => {
    // A count that takes days to make: only stopping at the closed pipe ends this run (without it the test never ends).
    const child = spawn(process.execPath, [BIN, "generate", "--count", "1000000000", "--quiet"], { stdio: ["ignore", "pipe", "pipe"] });
    onTestFinished(() => void child.kill()); // no-op once it has exited
    let first = "";
    let stderr = "";
    child.stderr.on("data", (data) => (stderr += data));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.stdout.once("data", (data: Buffer) => {
      first = data.toString();
      child.stdout.destroy(); // the reader goes away, like `head -1`
    });
    const status = await Promise.race([exited, sleep(EXIT_WAIT_MS).then(() => "still running" as const)]);
    expect(first).toMatch(/^[.1-9]{81}\n/);
    if (status === "still running") {
      // Node 20 can deadlock inside process.exit() (nodejs/node#54918: its platform shutdown waits for
      // a background compile job that waits for a main-thread garbage collection). Then the run has
      // stopped and only the exit hangs: the process must be idle, not still generating.
      const before = cpuTicks(child.pid!);
      await sleep(1000);
      expect(cpuTicks(child.pid!) - before, "still generating long after its reader went away").toBeLessThan(20);
      return;
    }
    expect(status).toBe(0);
    expect(stderr).toBe("");
  });
});
