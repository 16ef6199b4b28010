/**
 * Failures of the command line, one `sudoku-wasm: …` line each. A failing output exits 2 once the
 * workers have stopped (status 1 would say "every record written"); a closed pipe (`| head`) on
 * standard output, or an `-o` FIFO whose reader went away, exits 0 at once; a failing standard error is silenced and the run goes on.
 */
import { escapeText } from "../model/excerpt.js";

/** True for commander's own errors (a CommanderError: its `code` is `commander.…`), told by their code so that this module imports nothing of commander's (the stream's reading, which browsers bundle, imports it). */
const fromCommander = (error: unknown): boolean => error instanceof Error && String((error as { code?: unknown }).code).startsWith("commander.");

/** The exit status of every error: bad options, bad arguments, unreadable inputs, unwritable outputs. */
export const USAGE_ERROR_STATUS = 2;

/** The longest error line printed, in characters (input excerpts in it are already short). */
const MAX_MESSAGE_LENGTH = 2000;

/** `ENOSPC (no space left on device)` for a system error; the message for any other error. */
export function describeError(error: unknown): string {
  const { code, message } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code === "string" && /^E[A-Z0-9]+$/.test(code) && typeof message === "string") {
    const detail = message.startsWith(`${code}: `) ? message.slice(code.length + 2).replace(/, \w+(?: '.*')?$/, "") : message;
    return `${code} (${detail})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A failure while an input was being read (not while it was checked or opened); the message names it (`cannot read 'in.txt': EIO (…)`). */
export class InputReadError extends Error {
  override name = "InputReadError";
  constructor(input: string, cause: unknown) {
    super(`cannot read '${input}': ${describeError(cause)}`, { cause });
  }
}

/** An output that cannot be opened or written; the message names it (`cannot write 'out.txt': ENOSPC (…)`). */
export class OutputWriteError extends Error {
  override name = "OutputWriteError";
  constructor(output: string, cause: unknown) {
    super(`cannot write '${output}': ${describeError(cause)}`, { cause });
  }
}

/**
 * What an error prints: `sudoku-wasm: reason`, control characters escaped, cut when long; one line,
 * except commander's own messages, whose line breaks are layout ("(Did you mean --threads?)").
 */
export function errorLine(error: unknown): string {
  const message = describeError(error).replace(/^(?:error|sudoku-wasm): /, ""); // the library's errors name it already
  const cut = message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message;
  const lines = fromCommander(error) ? cut.split("\n") : [cut];
  return `sudoku-wasm: ${lines.map(escapeText).join("\n")}\n`;
}

/** What `get` returns, or undefined when it throws. */
export function attempt<T>(get: () => T): T | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}

/** Writes to standard error, ignoring a closed or failing standard error (there is nowhere else to report; the exit status still tells). */
export function writeStderr(text: string): void {
  attempt(() => process.stderr.write(text));
}

let guarded = false;
/** The program named in the line of a failing standard output. */
let programName = "sudoku-wasm";

/**
 * Turns a failing standard stream into one line and an exit: EPIPE on standard output exits 0 at once; any other
 * standard output failure prints `PROGRAM: cannot write to standard output: …` and exits 2. Standard error is diagnostics
 * only: once it fails (a closed pipe, a failing log) it is silenced and the run goes on, so that the records still reach
 * their output (-o FILE, or a redirected standard output) and the exit status still tells.
 */
export function guardStandardStreams(program = "sudoku-wasm"): void {
  programName = program;
  if (guarded) return;
  guarded = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (exiting) return; // a later failure of a stream that already failed
    if (error.code === "EPIPE") return exitAfterStopping(0);
    writeStderr(`${programName}: cannot write to standard output: ${describeError(error)}\n`);
    exitAfterStopping(USAGE_ERROR_STATUS);
  });
  process.stderr.on("error", () => {
    if (!exiting) process.stderr.write = () => true;
  });
}

/**
 * Watches output file `path`'s stream: a failed write prints `sudoku-wasm: cannot write 'PATH': …` and exits 2 once the workers
 * have stopped; a pipe (a FIFO) whose reader went away (EPIPE) exits 0 quietly, as a closed standard output does.
 */
export function guardOutputFile<S extends NodeJS.EventEmitter>(stream: S, path: string): S {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") failedOutput(new OutputWriteError(path, error));
    else if (!exiting) exitAfterStopping(0);
  });
  return stream;
}

/** Ends the run on an output that can no longer be written (`error` says why): its line, then status 2 once the worker threads have stopped. */
export function failedOutput(error: Error): void {
  if (exiting) return;
  writeStderr(errorLine(error));
  exitAfterStopping(USAGE_ERROR_STATUS);
}

/** What must stop or be cleaned up before the process exits on a failed standard stream: worker pools, the output lock, temporary files (see {@link stopBeforeStreamExit}). */
const stoppers = new Set<() => Promise<unknown>>();
/** How long the stoppers get before the process exits anyway, in ms; each one at most half of it (a pool that will not close leaves time for the lock). */
const STOP_WAIT_MS = 2000;
let exiting = false;

/**
 * Registers `stop` (a pool's close, a lock's release) to be waited for before a failed standard stream ends the
 * process (process.exit() while workers run or start can abort it: status 134); returns its remover.
 */
export function stopBeforeStreamExit(stop: () => Promise<unknown>): () => void {
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

/** How long the process idles before it exits, in ms (see {@link exitAfterStopping}). */
const EXIT_GRACE_MS = 100;

/**
 * Exits with `status` once every stopper has finished (at most {@link STOP_WAIT_MS}) and the process
 * has idled {@link EXIT_GRACE_MS}; every write meanwhile says "full", so the run goes quiet. Exiting
 * straight from a busy run can hang or abort: V8's background compiler may wait for a collection
 * the main thread never runs.
 */
export function exitAfterStopping(status: number): void {
  exiting = true;
  process.exitCode = status;
  for (const stream of [process.stdout, process.stderr]) stream.write = () => false;
  // Last registered first, one at a time (a command's own clean-up before the output lock it holds is released)
  const capped = (stop: () => Promise<unknown>) => Promise.race([stop(), new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS / 2).unref())]);
  const stopped = [...stoppers].reverse().reduce<Promise<unknown>>((done, stop) => done.then(() => capped(stop)).catch(() => {}), Promise.resolve());
  const waited = new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref());
  void Promise.race([stopped, waited]).then(() => setTimeout(() => process.exit(status), EXIT_GRACE_MS));
}

/** Writes made by {@link writePaced} since it last gave the event loop a turn. */
let writesSinceTurn = 0;
const WRITES_PER_TURN = 64;

/** Writes `text` for a synchronous producer: waits for 'drain', and yields to the event loop every few writes so a closed pipe ends the run at once. */
export async function writePaced(out: NodeJS.WritableStream, text: string): Promise<void> {
  if (!out.write(text)) {
    writesSinceTurn = 0;
    await new Promise<void>((resolve) => out.once("drain", resolve));
  } else if (++writesSinceTurn >= WRITES_PER_TURN) {
    writesSinceTurn = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
