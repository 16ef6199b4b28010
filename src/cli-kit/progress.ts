/**
 * What a long command shows and does on the way, for `solve` and the bench: {@link startProgress}
 * (a bar over the bytes read when the input size is known, else a running count; the cursor
 * always shown again, even on an early exit) and {@link InterruptWatch} (a clean stop on the
 * first SIGINT/SIGTERM with status 128 + its number, at once on a second); a run orphaned by npm
 * takes the SIGTERM npm did not pass on, and a stopped run does not wait on a read no signal ends.
 */
import { constants } from "node:os";
import { exitAfterStopping } from "./errors.js";
import { commaGrouped, counted } from "../model/whole-number.js";

/** The escape sequence that shows the terminal's cursor (cli-progress hides it with `?25l`). */
const SHOW_CURSOR = "\x1B[?25h";

/** How long a forced stop waits for its own signal to end the process before it exits by {@link exitAfterStopping}, in ms. */
const FORCED_EXIT_FALLBACK_MS = 1000;

/** The signals a run stops cleanly on. */
export const INTERRUPT_SIGNALS = ["SIGINT", "SIGTERM"] as const;
export type InterruptSignal = (typeof INTERRUPT_SIGNALS)[number];

/** The exit status of a process stopped by `signal`: 128 + its number (SIGINT 130, SIGTERM 143). */
export function signalExitStatus(signal: InterruptSignal): number {
  return 128 + constants.signals[signal];
}

/**
 * Notes the first SIGINT or SIGTERM while open, so a command can finish and write what it has and
 * exit with {@link exitStatus}; a second signal runs the cleanups and ends the process by the first
 * signal. Close it when the command ends.
 */
export class InterruptWatch {
  /** The first signal received, or null. */
  signal: InterruptSignal | null = null;
  private readonly controller = new AbortController();
  private readonly cleanups: (() => void)[] = [];
  private readonly listener = (signal: InterruptSignal): void => this.receive(signal);

  constructor() {
    for (const signal of INTERRUPT_SIGNALS) process.on(signal, this.listener);
  }

  /** Aborted at the first signal (pass it to whatever waits: reads, timers, `once`). */
  get aborted(): AbortSignal {
    return this.controller.signal;
  }

  /** 130 or 143 once a signal came, else null. */
  get exitStatus(): number | null {
    return this.signal === null ? null : signalExitStatus(this.signal);
  }

  /** Runs `cleanup` before a forced exit (a second signal). */
  onForcedExit(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  /** Stops watching: the signals exit the process again. */
  close(): void {
    for (const signal of INTERRUPT_SIGNALS) process.removeListener(signal, this.listener);
  }

  private receive(signal: InterruptSignal): void {
    if (this.signal === null) {
      this.signal = signal;
      this.controller.abort(signal);
      return;
    }
    for (const cleanup of this.cleanups) cleanup();
    // Die of the first signal as if uncaught: process.exit()'s teardown can hang or abort while workers are busy.
    // Should the signal not end the process, exit as a failed stream does.
    const first = this.signal;
    this.close();
    process.kill(process.pid, first);
    setTimeout(() => exitAfterStopping(signalExitStatus(first)), FORCED_EXIT_FALLBACK_MS);
  }
}

/**
 * Run by npm (`npx sudoku-wasm`, an npm script), a SIGTERM (`timeout`, `kill`, a cancelled CI job) reaches npm's shell alone,
 * which ends without passing it on: the run, orphaned, takes the signal itself (its parent is another from then on).
 */
export function stopWhenOrphanedByNpm(): void {
  if (process.env.npm_command === undefined) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch); // once: a second signal would end the run at once
    process.kill(process.pid, "SIGTERM");
  }, 250).unref();
}

/**
 * Once a command stopped by a signal (its exit status 128 + the signal's number) is done, dies of that signal, as if it
 * had not been caught, once standard output has no bytes waiting: a read of an input that is a pipe (a FIFO, `<(cmd)`)
 * may still wait on libuv's threads, which nothing can cancel and process.exit() would wait for. The timer is unref'd:
 * a run that ends anyway ends at once.
 */
export function dieOnceStopped(): void {
  const signal = INTERRUPT_SIGNALS.find((name) => process.exitCode === signalExitStatus(name));
  if (signal !== undefined) setTimeout(() => dieOnceFlushed(signal), 200).unref();
}

function dieOnceFlushed(signal: InterruptSignal): void {
  if (process.stdout.writableLength > 0) return void process.stdout.once("drain", () => dieOnceFlushed(signal));
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}

/** Shows the cursor on stderr if the process exits while `hidden()`; returns the function that stops watching. */
export function restoreCursorOnExit(hidden: () => boolean): () => void {
  const restore = (): void => {
    if (hidden() && process.stderr.isTTY) process.stderr.write(SHOW_CURSOR);
  };
  process.once("exit", restore);
  return () => process.removeListener("exit", restore);
}

/**
 * Draws a bar at 0 of `totalBytes`, the input size, or a count when it is null (standard input).
 * `update` takes the records written so far and the input bytes read when the last of them was
 * read; `stop` draws the last state, ends the line and shows the cursor again (a second call does nothing).
 */
export async function startProgress(totalBytes: number | null) {
  const { Presets, SingleBar } = await import("cli-progress");
  const format =
    totalBytes === null ? "solve | {done} puzzles | {rate} puzzles/s" : "solve [{bar}] {percentage}% | {done} puzzles | {rate} puzzles/s | ETA {eta_formatted}";
  const bar = new SingleBar({ format, stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2000, hideCursor: true, fps: 5 }, Presets.shades_classic);
  const started = performance.now();
  let running = true;
  const releaseCursor = restoreCursorOnExit(() => running); // should the process exit while the bar still hides the cursor
  bar.start(totalBytes ?? 0, 0, { done: "0", rate: "0" });
  return {
    update(done: number, bytesRead: number): void {
      const seconds = (performance.now() - started) / 1000;
      const payload = { done: commaGrouped(done), rate: commaGrouped(Math.round(done / Math.max(seconds, 1e-3))) };
      bar.update(totalBytes === null ? 0 : Math.min(bytesRead, totalBytes), payload);
    },
    stop(): void {
      if (!running) return;
      running = false;
      bar.stop();
      releaseCursor();
    },
  };
}

/**
 * "9,999 puzzles: COUNTS in 0.51 s (19,606 puzzles/s, 2 threads)", where `counts` says what the
 * puzzles of `tally` came to; `started`: the worker threads that did start, when fewer.
 */
export function summaryLine(tally: readonly number[], counts: string, seconds: number, threads: number, started = threads): string {
  const total = tally.reduce((sum, n) => sum + n, 0);
  const rate = commaGrouped(Math.round(total / Math.max(seconds, 1e-6)));
  const where =
    threads === 0 ? "main thread" : started === 0 ? "main thread: workers would not have paid for their start" : `${started} thread${started === 1 ? "" : "s"}`;
  return `${counted(total, "puzzle")}: ${counts} in ${seconds.toFixed(2)} s (${rate} puzzles/s, ${where})`;
}
