/**
 * The library pool's workers run below the thread that made them (Linux): its worker threads have
 * a nice value WORKER_NICE above their process's main thread, capped at 19, and no other thread
 * is lowered. Read from outside, in /proc/PID/task/TID/stat, of a child process that holds its
 * pool open until its standard input ends.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { getPriority } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { WORKER_NICE } from "../src/pool/priority.js";

const POOL = new URL("../dist/src/pool/solver-pool.js", import.meta.url).href;

/** Each thread's nice value (field 19 of its stat; the name in field 2 may hold spaces, so fields are counted after its ")"). */
function threadNices(pid: number): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "latin1");
      nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return nices;
}

/**
 * How long a test waits for the workers to lower their priority before it looks at what it has: a
 * worker lowers it once its engines have loaded, and a child at nice 17 gets a few percent of a
 * core that processes at nice 0 keep busy (beside two of them and the suite, the test took 46 s).
 */
const LOWERED_WAIT_MS = 240_000;
/** The tests' time limit: the wait above and some. */
const TEST_MS = LOWERED_WAIT_MS + 60_000;

/**
 * The threads of `child` whose nice value is above its main thread's, once there are `count` of
 * them (polled every 50 ms; after LOWERED_WAIT_MS, however many there are) and its main thread's.
 */
async function loweredThreads(child: ChildProcess, count: number): Promise<{ main: number; lowered: number[] }> {
  const pid = child.pid!;
  const until = performance.now() + LOWERED_WAIT_MS;
  for (;;) {
    const nices = threadNices(pid);
    const main = nices.get(pid)!;
    const lowered = [...nices].filter(([, nice]) => nice > main).map(([, nice]) => nice);
    if (lowered.length >= count || performance.now() >= until || child.exitCode !== null) return { main, lowered };
    await sleep(50);
  }
}

/** Ends `child` by closing its standard input; resolves with its exit status. */
function finish(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.on("close", resolve);
    child.stdin!.end();
  });
}

let running: ChildProcess | undefined;
afterEach(() => {
  running?.kill();
  running = undefined;
});

/** A child that sets its main thread's nice value to `start` (0: leaves it), opens createPool({ threads: 2 }) and closes it when its input ends. */
function poolChild(start: number): ChildProcess {
  const script = `import { setPriority } from "node:os";
const { createPool } = await import(${JSON.stringify(POOL)});
if (${start} > 0) setPriority(0, ${start});
const pool = await createPool({ threads: 2 });
process.stdin.resume();
process.stdin.on("end", () => pool.close());`;
  return (running = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "ignore", "inherit"] }));
}

describe.skipIf(process.platform !== "linux")("worker priority (Linux only: elsewhere a nice value is the whole process's, and the workers keep it)", () => {
  it(
    "the library pool's 2 workers run WORKER_NICE levels below the main thread; no other thread is lowered",
    async () => {
      const child = poolChild(0); // the nice value this test runs at
      const { main, lowered } = await loweredThreads(child, 2);
      expect(WORKER_NICE).toBeGreaterThan(0);
      expect(main).toBe(getPriority(0));
      expect(lowered).toEqual(Array(2).fill(Math.min(19, main + WORKER_NICE)));
      expect(await finish(child)).toBe(0);
    },
    TEST_MS,
  );

  it(
    "relative to the process's nice value, capped at 19",
    async () => {
      const start = Math.max(17, getPriority(0)); // a nice value is lowered only with a privilege
      const child = poolChild(start);
      const { main, lowered } = await loweredThreads(child, 2);
      expect(main).toBe(start);
      expect(lowered).toEqual([19, 19]);
      expect(await finish(child)).toBe(0);
    },
    TEST_MS,
  );
});
