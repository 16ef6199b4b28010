/**
 * Clean interrupts of `sudoku-wasm solve`: SIGINT/SIGTERM stop the reading, the batches
 * already sent are written whole and in order, the count is printed, the cursor comes back, and
 * the status is 130/143. The runs read a file and then standard input, which the test holds open
 * and never writes: the run is certain to be waiting when the signal comes, with no timing guess.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { constants as os, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { writePuzzles } from "../bench/corpus.js";
import { canonicalize } from "../src/canon/canon.js";
import { signalExitStatus } from "../src/cli-kit/progress.js";
import { mainThreadBusy, threadTicks, workerThreadBusy } from "./busy-thread.js";
import { BIN } from "./cli-run.js";

const dir = mkdtempSync(join(tmpdir(), "sudoku-interrupt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Puzzles in the file before standard input: several batches, so some are written before the wait. */
const PUZZLES = 10_000;
const corpus = writePuzzles(join(dir, "corpus.txt"), PUZZLES, 7);
const expected = spawnSync(process.execPath, [BIN, "solve", "--no-progress", "--threads", "0", corpus], { encoding: "utf8", maxBuffer: 1 << 26 }).stdout;

/** Resolves once `path` holds some records. */
async function outputStarted(path: string, child: ChildProcess): Promise<void> {
  while (!(existsSync(path) && statSync(path).size > 0)) {
    if (child.exitCode !== null) throw new Error(`the run ended early with status ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves once the process `child` has `path` open (Linux's /proc). */
async function readingFrom(path: string, child: ChildProcess): Promise<void> {
  const opened = (): boolean => {
    try {
      return readdirSync(`/proc/${child.pid}/fd`).some((fd) => readlinkSync(`/proc/${child.pid}/fd/${fd}`) === path);
    } catch {
      return false;
    }
  };
  while (!opened()) {
    if (child.exitCode !== null) throw new Error(`the run ended early with status ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Resolves once the run `child` writing `path` is stuck in a batch: a worker thread of its process
 * (`pid`) has run 300 ms of CPU time since the output last grew, which no batch of the corpus takes.
 * Nothing is being written then, so a signal cannot cut a record off mid-write.
 */
async function stuckInBatch(path: string, child: ChildProcess, pid: number): Promise<void> {
  await outputStarted(path, child);
  let size = -1;
  let since = new Map<number, number>();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the run ended early with status ${child.exitCode}`);
    const now = statSync(path).size;
    if (now !== size) [size, since] = [now, threadTicks(pid)];
    else if ([...threadTicks(pid)].some(([tid, ticks]) => tid !== pid && ticks - (since.get(tid) ?? 0) >= 30)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Checks that `path` holds the first records of the run, whole, as many as the `stopped by` line on stderr says. */
function expectWholeRecords(path: string, stderr: string, signal: string): void {
  const said = new RegExp(`stopped by ${signal}: the first ([\\d,]+) records written whole to `).exec(stderr);
  expect(said, stderr).not.toBeNull();
  const written = Number(said![1].replaceAll(",", ""));
  expect(written).toBeGreaterThan(0);
  expect(readFileSync(path, "utf8")).toBe(expected.slice(0, written * 82));
}

/**
 * Runs `command` in a pseudo-terminal (util-linux script); the command starts with `echo PID $$`
 * and then execs the CLI, so `pid()` is the CLI's once the terminal has shown something.
 */
function inTerminal(command: string): { child: ChildProcess; terminal: () => string; pid: () => number } {
  const child = spawn("script", ["-qfec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] });
  let terminal = "";
  child.stdout!.on("data", (data) => (terminal += data));
  return { child, terminal: () => terminal, pid: () => Number(/PID (\d+)/.exec(terminal)![1]) };
}

/** Checks that the terminal hid the cursor (the progress bar) and later showed it again. */
function expectCursorShownAgain(terminal: string): void {
  const hidden = terminal.indexOf("\x1B[?25l");
  expect(hidden).toBeGreaterThan(0);
  expect(terminal.indexOf("\x1B[?25h", hidden)).toBeGreaterThan(hidden);
}

/** The exit status of a child that exits, as a shell gives it: 128 + the signal's number when a signal ended it. */
function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal === null ? null : 128 + os.signals[signal]))));
}

describe("solve: clean interrupts", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal}: stops reading, writes whole records, says how many, exits ${signalExitStatus(signal)} (progress forced on)`, async () => {
      const out = join(dir, `${signal}.txt`);
      const child = spawn(process.execPath, [BIN, "solve", "--progress", "--batch", "1000", "-o", out, corpus, "-"], { stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr!.on("data", (data) => (stderr += data));
      await outputStarted(out, child);
      child.kill(signal);
      const status = await exited(child);
      expect(status).toBe(signalExitStatus(signal));
      expectWholeRecords(out, stderr, signal);
      expect(stderr).toContain(`; to go on: node ${BIN} solve --progress --batch 1000 -o ${out} ${corpus} - --resume\n`);
      child.stdin!.destroy();
    });
  }

  it("SIGTERM while a read waits on a pipe given by its path (a FIFO, `<(cmd)`), which no signal cancels: whole records, exits 143", async () => {
    const out = join(dir, "fifo.txt");
    const fifo = join(dir, "held.fifo");
    execFileSync("mkfifo", [fifo]);
    const held = openSync(fifo, constants.O_RDWR); // open, never written
    onTestFinished(() => closeSync(held));
    const child = spawn(process.execPath, [BIN, "solve", "--no-progress", "--batch", "1000", "-o", out, corpus, fifo], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (data) => (stderr += data));
    await readingFrom(fifo, child); // every record of the corpus written, a read waiting on the pipe
    child.kill("SIGTERM");
    expect(await exited(child)).toBe(143);
    expectWholeRecords(out, stderr, "SIGTERM");
  });

  it("run by npm (npx, an npm script), orphaned by npm's shell (npm passes SIGTERM to the shell alone): stops as on SIGTERM", async () => {
    const out = join(dir, "orphan.txt");
    // After the file, a pipe held open here and never written (not the shell's standard input: Node closes that once the shell ends).
    const fifo = join(dir, "orphan.fifo");
    execFileSync("mkfifo", [fifo]);
    const held = openSync(fifo, constants.O_RDWR);
    onTestFinished(() => closeSync(held));
    // `; :` keeps the shell from becoming the CLI (exec), as npm's shell does not either
    const shell = spawn("sh", ["-c", `"${process.execPath}" "${BIN}" solve --no-progress --batch 1000 -o "${out}" "${corpus}" "${fifo}"; :`], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, npm_command: "exec" },
    });
    let stderr = "";
    shell.stderr!.on("data", (data) => (stderr += data));
    const closed = new Promise((resolve) => shell.stderr!.on("close", resolve)); // once the CLI, which holds the pipe too, has ended
    await outputStarted(out, shell);
    shell.kill("SIGKILL");
    await closed;
    expectWholeRecords(out, stderr, "SIGTERM");
    expect(existsSync(`${out}.run.json`)).toBe(true); // kept for --resume
  });

  it("canon --unique, which cannot resume: says to run it again, not a --resume command that would be refused (and a --resume of its output says so too); counts the records written, not the repeats left out, and of how many input records", async () => {
    const out = join(dir, "unique.txt");
    const twice = join(dir, "twice.txt"); // each puzzle twice in a row: half the records are repeats, left out
    writeFileSync(
      twice,
      readFileSync(corpus, "utf8")
        .replace(/^(.*)$/gm, "$1\n$1")
        .replace(/\n\n$/, "\n"),
    );
    const child = spawn(process.execPath, [BIN, "canon", "--no-progress", "--unique", "--batch", "1000", "-o", out, twice, "-"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (data) => (stderr += data));
    await outputStarted(out, child);
    child.kill("SIGINT");
    expect(await exited(child)).toBe(130);
    // not "the first N records": those written are the first of each form among more input records (it said "the first N")
    const said =
      /stopped by SIGINT: ([\d,]+) records \(of the first ([\d,]+) input records, the first of each form and every invalid one\) written whole to .*; --unique cannot go on with --resume \(the forms seen before the stop are not kept\): run it again\n$/.exec(
        stderr,
      );
    expect(said, stderr).not.toBeNull();
    const [written, read] = [said![1], said![2]].map((count) => Number(count.replaceAll(",", "")));
    expect(written).toBe(readFileSync(out, "utf8").split("\n").length - 1);
    // as many as the distinct forms among the first `read` input lines (the corpus relabels 1,000 puzzles over and over, which
    // share their forms: how many are distinct depends on how far the run got)
    const forms = await canonicalize(readFileSync(twice, "utf8").split("\n").slice(0, read));
    expect(written).toBe(new Set(forms.map((result) => result.form)).size);
    expect(stderr).not.toContain("--resume\n");
    child.stdin!.destroy();
    // A --resume of its output is refused, and says what works: the run started again, not the refused `canon --unique --resume`.
    const resumed = spawnSync(process.execPath, [BIN, "canon", "--no-progress", "--resume", "-o", out, twice, "-"], { input: "", encoding: "utf8" });
    expect([resumed.status, resumed.stderr]).toEqual([
      2,
      `sudoku-wasm: --resume: ${out} was begun with --unique on; this run has --unique off: a run with --unique cannot be resumed (the forms seen before its stop are not kept): start it again without --resume (${out}.run.json records its options)\n`,
    ]);
    const again = spawnSync(process.execPath, [BIN, "canon", "--no-progress", "--unique", "--batch", "1000", "-o", out, twice, "-"], {
      input: "",
      encoding: "utf8",
    });
    expect([again.status, again.stderr]).toEqual([0, expect.stringMatching(/ with a form \(.* repeated, left out\), 0 invalid /)]);
  });

  const script = spawnSync("script", ["--version"]).status === 0;
  it.skipIf(!script)("in a terminal: the bar hides the cursor and Ctrl-C shows it again (util-linux script gives the pseudo-terminal)", async () => {
    const out = join(dir, "tty.txt");
    // The shell prints its pid, then becomes the CLI (exec), whose standard input and error are the terminal.
    const command = `echo PID $$; exec "${process.execPath}" "${BIN}" solve --batch 1000 -o "${out}" "${corpus}" -`;
    const { child, terminal, pid } = inTerminal(command);
    await outputStarted(out, child);
    process.kill(pid(), "SIGINT");
    const status = await exited(child);
    expect(status).toBe(130);
    expectCursorShownAgain(terminal());
    expectWholeRecords(out, terminal(), "SIGINT");
  });

  /**
   * After the corpus, an empty grid counted to 2^31 - 1 solutions: a batch of many minutes, which a first signal waits for.
   * The two signals come once the run is stuck in it: before that, a second signal may end the run in the middle of writing
   * a batch (a record cut off, as any kill mid-write can leave one).
   */
  const stuckArgs = (out: string, threads = "1"): string[] => {
    const endless = join(dir, "endless.txt");
    writeFileSync(endless, ".".repeat(81) + "\n");
    return ["solve", "--threads", threads, "--batch", "1000", "--limit", "2147483647", "--budget", "none", "-o", out, corpus, endless];
  };

  it("--threads 0 with a puzzle that counts for minutes: the run solves on one worker, so two signals end it (on the main thread no signal got through)", async () => {
    const endless = join(dir, "endless-only.txt");
    writeFileSync(endless, ".".repeat(81) + "\n");
    const child = spawn(process.execPath, [BIN, "solve", "--threads", "0", "--limit", "2147483647", endless], { stdio: ["ignore", "ignore", "pipe"] });
    onTestFinished(() => void child.kill("SIGKILL"));
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    await workerThreadBusy(child, 30, 2000); // well into the count: a worker thread has counted for 300 ms of CPU
    process.kill(child.pid!, "SIGINT");
    process.kill(child.pid!, "SIGTERM");
    expect(await ended).toBeOneOf(["SIGINT", "SIGTERM"]);
  });

  it.each(["1", "0"])(
    "a second signal ends a run stuck in a batch at once (--threads %s): it dies of the signal that came first, as if uncaught (no exit teardown to hang in), its output's lock and owner record gone",
    async (threads) => {
      const out = join(dir, `forced-${threads}.txt`);
      const child = spawn(process.execPath, [BIN, ...stuckArgs(out, threads), "--progress"], { stdio: ["ignore", "ignore", "pipe"] });
      onTestFinished(() => void child.kill("SIGKILL"));
      let stderr = "";
      child.stderr!.on("data", (data) => (stderr += data));
      const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
      await stuckInBatch(out, child, child.pid!);
      process.kill(child.pid!, "SIGINT");
      process.kill(child.pid!, "SIGTERM"); // another kind: two of one kind may arrive as one
      expect(await ended).toBeOneOf(["SIGINT", "SIGTERM"]);
      const written = readFileSync(out, "utf8");
      expect(written.length % 82).toBe(0);
      expect(written).toBe(expected.slice(0, written.length));
      // Most often the second signal ends it before the first's stop is done; when the stop wins the
      // race (it does not wait for the stuck batch either), its line must tell the truth of the file.
      if (stderr.includes("records written whole")) expectWholeRecords(out, stderr, "SIGINT");
      expect([existsSync(`${out}.lock`), existsSync(`${out}.lock.owner`)]).toEqual([false, false]);
    },
  );

  it("a signal once the last record was read lets the run finish, says so, and exits 130", async () => {
    const out = join(dir, "late.txt");
    const slow = join(dir, "slow.txt");
    writeFileSync(slow, ".".repeat(81) + "\n"); // counted to 20 million: seconds in its batch, after the input has all been read
    const child = spawn(
      process.execPath,
      [BIN, "solve", "--threads", "1", "--batch", "1000", "--limit", "20000000", "--budget", "none", "-o", out, corpus, slow],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    onTestFinished(() => void child.kill("SIGKILL"));
    let stderr = "";
    child.stderr!.on("data", (data) => (stderr += data));
    await stuckInBatch(out, child, child.pid!);
    process.kill(child.pid!, "SIGINT");
    expect(await exited(child)).toBe(130);
    expect(stderr).toContain(`sudoku-wasm: SIGINT came after the last record was read, so the run finished: all 10,001 records written whole to ${out}\n`);
    expect(stderr).not.toContain("stopped by");
    expect(readFileSync(out, "utf8")).toBe(`${expected}multiple\n`);
  });

  it.skipIf(!script)("in a terminal, a second signal shows the cursor again too (status 130 or 143 to the shell)", async () => {
    const out = join(dir, "forced-tty.txt");
    const command = `echo PID $$; exec "${process.execPath}" "${BIN}" ${stuckArgs(out)
      .map((arg) => `"${arg}"`)
      .join(" ")}`;
    const { child, terminal, pid } = inTerminal(command);
    onTestFinished(() => void child.kill("SIGKILL"));
    await outputStarted(out, child); // the terminal has shown the CLI's pid
    await stuckInBatch(out, child, pid());
    process.kill(pid(), "SIGINT");
    process.kill(pid(), "SIGTERM");
    expect(await exited(child)).toBeOneOf([130, 143]);
    expectCursorShownAgain(terminal());
  });
});

describe("solve: a signal on the main thread waits for one short batch", () => {
  it("--threads 0, puzzles of a few ms each: batches are sized by their solving time, so the run stops within a batch or two of the signal, not after half the input", async () => {
    // a 16-clue puzzle with over 20,000 solutions, counted to 5,000: milliseconds each, as a whole batch of them was seconds
    const many = ".".repeat(6) + "8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const input = join(dir, "counted.txt");
    writeFileSync(input, `${many}\n`.repeat(1000));
    const out = join(dir, "counted-out.txt");
    const child = spawn(process.execPath, [BIN, "solve", "--no-progress", "--threads", "0", "--limit", "5000", "-o", out, input], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    onTestFinished(() => void child.kill("SIGKILL"));
    await outputStarted(out, child);
    process.kill(child.pid!, "SIGINT");
    expect(await exited(child)).toBe(130);
    const records = readFileSync(out, "utf8").split("\n");
    expect(records.pop()).toBe(""); // whole records
    expect(new Set(records)).toEqual(new Set(["multiple"]));
    expect(records.length).toBeLessThan(500); // the first batch was half the input: nothing was written before 500 records
  });
});

describe("solve: the stop line counts one record as one", () => {
  it("says 'the first 1 record' when one record was written before the stop", async () => {
    const out = join(dir, "one-record.txt");
    const child = spawn(process.execPath, [BIN, "solve", "--no-progress", "--threads", "0", "-o", out], { stdio: ["pipe", "ignore", "pipe"] });
    onTestFinished(() => void child.kill("SIGKILL"));
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    child.stdin!.write(`${readFileSync(corpus, "utf8").split("\n")[0]}\n`); // one line, standard input held open after it
    await outputStarted(out, child); // sent after 50 ms unsent, solved and written
    child.kill("SIGINT");
    expect(await new Promise((resolve) => child.on("close", resolve))).toBe(130);
    expect(stderr).toMatch(/^sudoku-wasm: stopped by SIGINT: the first 1 record written whole to /m);
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(2);
  });
});

describe("generate: clean interrupts", () => {
  /** Options that make a puzzle in about a tenth of a second: a run of many takes minutes. */
  const SLOW = ["generate", "--count", "100000", "--seed", "4", "--harden", "200", "--quiet"];
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal}: stops at the end of the attempt under way, writes every puzzle made whole, says how many, exits ${signalExitStatus(signal)}`, async () => {
      const out = join(dir, `generate-${signal}.txt`);
      const child = spawn(process.execPath, [BIN, ...SLOW, "-o", out], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr!.on("data", (chunk) => (stderr += chunk));
      await outputStarted(out, child); // the first puzzle reaches the file at once; the next ones wait in the stream's buffer
      await new Promise((resolve) => setTimeout(resolve, 1500));
      child.kill(signal);
      const status = await new Promise((resolve) => child.on("close", (code) => resolve(code)));
      expect(status, stderr).toBe(signalExitStatus(signal));
      const said = new RegExp(`^sudoku-wasm: stopped by ${signal}: the first ([\\d,]+) puzzles? written whole to ${out} `).exec(stderr);
      expect(said, stderr).not.toBeNull();
      const written = readFileSync(out, "utf8");
      const count = Number(said![1].replaceAll(",", ""));
      expect(written.split("\n")).toHaveLength(count + 1);
      const again = spawnSync(process.execPath, [BIN, ...SLOW.slice(0, 2), String(count), ...SLOW.slice(3)], { encoding: "utf8" });
      expect(written).toBe(again.stdout); // the same options make them first again
    });
  }

  it("a signal is heard between attempts that make no puzzle (a guess range few puzzles fit): it stops with none made", async () => {
    const out = join(dir, "generate-rare.txt");
    const args = ["generate", "--count", "5", "--min-guesses", "400", "--max-attempts", "100000000", "--quiet", "-o", out];
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    onTestFinished(() => void child.kill("SIGKILL"));
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    await mainThreadBusy(child, 60, 2000); // well into its attempts: the main thread has run 600 ms of CPU, start-up included
    child.kill("SIGINT");
    expect(await exited(child)).toBe(130); // (the run ignored the signal until an attempt kept a puzzle, for minutes here)
    expect(stderr).toBe(`sudoku-wasm: stopped by SIGINT: the first 0 puzzles written whole to ${out} (the same options make them first again)\n`);
  });

  it("a second signal ends a run at once within a long --harden climb (it waited for the climb's end, for hours here)", async () => {
    const out = join(dir, "generate-climb.txt");
    const args = ["generate", "--count", "1", "--seed", "4", "--harden", "100000000", "--quiet", "-o", out];
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    onTestFinished(() => void child.kill("SIGKILL"));
    const status = exited(child);
    await mainThreadBusy(child, 60, 2000); // in its one attempt
    child.kill("SIGINT"); // heard at the next move; the run goes on to the climb's end
    await mainThreadBusy(child, 120, 2000);
    expect(child.exitCode).toBeNull();
    child.kill("SIGINT");
    expect(await status).toBe(130);
    expect(readFileSync(out, "utf8")).toBe("");
  });

  it("a signal during the last puzzle's attempt lets the run finish: the manifest is written and the run says so", async () => {
    const out = join(dir, "generate-last.txt");
    const manifest = join(dir, "generate-last.json");
    const args = ["generate", "--count", "1", "--seed", "4", "--harden", "20000", "-o", out, "--manifest", manifest];
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    onTestFinished(() => void child.kill("SIGKILL"));
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    await mainThreadBusy(child, 60, 2000); // in its one attempt (seconds of hill climbing)
    child.kill("SIGINT");
    expect(await exited(child)).toBe(130);
    expect(stderr).toMatch(/^generated 1 puzzle in /);
    expect(stderr).toContain(`\nsudoku-wasm: SIGINT came after the last puzzle was made, so the run finished: 1 puzzle written whole to ${out}\n`);
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(2);
    expect(JSON.parse(readFileSync(manifest, "utf8")).files.map((entry: { file: string }) => entry.file)).toEqual(["generate-last.txt"]);
  });
});
