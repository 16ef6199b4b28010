/**
 * Failures of the command line as one `sudoku-wasm: …` line each, on every stream:
 *
 * - an input that fails while it is read is an {@link InputReadError} naming the file (the
 *   records read before it are still written);
 * - standard output, or an output file (`-o`, `--manifest`), that fails to open or to take a
 *   write (a full disk: ENOSPC; a missing folder: ENOENT; a folder: EISDIR) prints one line
 *   naming it and exits with status 2, after the worker threads are stopped: status 1 means
 *   "every record written", so a cut-off output must not end with it;
 * - a closed pipe on standard output or standard error (`| head`) ends the run at once, quietly,
 *   with status 0: the reader has all it asked for, and there is nobody left to tell;
 * - every other error is one line from {@link errorLine}, with status 2.
 */
import { CommanderError } from "commander";
import { escapeText } from "../model/excerpt.js";

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

/** A failure of one file that cannot be read or written; the message names it (`cannot write 'out.txt': ENOSPC (…)`). */
class FileError extends Error {
  constructor(
    readonly file: string,
    verb: "read" | "write",
    cause: unknown,
  ) {
    super(`cannot ${verb} '${file}': ${describeError(cause)}`, { cause });
  }
}

/** A failure while an input was being read (not while it was checked or opened). */
export class InputReadError extends FileError {
  override name = "InputReadError";
  constructor(input: string, cause: unknown) {
    super(input, "read", cause);
  }
}

/** A failure to open or write an output file. */
export class OutputWriteError extends FileError {
  override name = "OutputWriteError";
  constructor(output: string, cause: unknown) {
    super(output, "write", cause);
  }
}

/**
 * What an error prints: `sudoku-wasm: reason`, control characters escaped, cut when long. One
 * line, except commander's own messages, whose line breaks are its layout, not input text
 * ("unknown option '--thread'" then "(Did you mean --threads?)" on a line of its own).
 */
export function errorLine(error: unknown): string {
  const message = describeMessage(error).replace(/^(?:error|sudoku-wasm): /, ""); // the library's errors name it already
  const cut = message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message;
  const lines = error instanceof CommanderError ? cut.split("\n") : [cut];
  return `sudoku-wasm: ${lines.map(escapeText).join("\n")}\n`;
}

function describeMessage(error: unknown): string {
  if (error instanceof FileError) return error.message;
  return describeError(error);
}

/** Writes to standard error, ignoring a closed or failing standard error (there is nowhere else to report). */
export function writeStderr(text: string): void {
  try {
    process.stderr.write(text);
  } catch {
    // stderr is gone; the exit status still tells
  }
}

let guarded = false;
/** The program named in the line of a failing standard output. */
let programName = "sudoku-wasm";

/**
 * Installs the handlers that turn a failing standard stream into one line and an exit:
 * EPIPE on either stream exits 0 at once (`… | head` reads what it wants); any other standard
 * output failure prints `PROGRAM: cannot write to standard output: …` and exits 2 (a failing
 * standard error exits 2 silently). `program` names the command (a bench tool's name).
 */
export function guardStandardStreams(program = "sudoku-wasm"): void {
  programName = program;
  if (guarded) return;
  guarded = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => failedStandardStream("output", error));
  process.stderr.on("error", (error: NodeJS.ErrnoException) => failedStandardStream("error", error));
}

/** What to do when standard output or standard error fails: report it (standard output, not EPIPE) and exit. */
export function failedStandardStream(stream: "output" | "error", error: NodeJS.ErrnoException): void {
  if (exiting) return; // a later failure of a stream that already failed
  if (error.code === "EPIPE") return exitAfterStopping(0);
  if (stream === "output") writeStderr(`${programName}: cannot write to standard output: ${describeError(error)}\n`);
  exitAfterStopping(USAGE_ERROR_STATUS);
}

/**
 * Watches the write stream of output file `path`: a write that fails (ENOSPC, EIO, EFBIG)
 * prints `sudoku-wasm: cannot write 'PATH': …` and exits with status 2 once the worker threads
 * have stopped, as a failing standard output does (without a listener the stream's error was
 * an uncaught exception: a stack trace and status 1). Returns `stream`.
 */
export function guardOutputFile<S extends NodeJS.EventEmitter>(stream: S, path: string): S {
  stream.on("error", (error: NodeJS.ErrnoException) => failedOutput(new OutputWriteError(path, error)));
  return stream;
}

/** Ends the run on an output that can no longer be written (`error` says why): its line, then status 2 once the worker threads have stopped. */
export function failedOutput(error: Error): void {
  if (exiting) return;
  writeStderr(errorLine(error));
  exitAfterStopping(USAGE_ERROR_STATUS);
}

/** What must stop before the process exits on a failed standard stream: worker pools (see {@link stopBeforeStreamExit}). */
const stoppers = new Set<() => Promise<unknown>>();
/** How long the stoppers get before the process exits anyway, in ms. */
const STOP_WAIT_MS = 2000;
let exiting = false;

/**
 * Registers `stop` (a pool's close) to run, and be waited for, before a failed standard stream
 * ends the process; returns the function that removes it. process.exit() while worker threads
 * run or start (one still compiling its WebAssembly) can abort the whole process (status 134
 * instead of 2); ended first, they cannot.
 */
export function stopBeforeStreamExit(stop: () => Promise<unknown>): () => void {
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

/** How long the process idles before it exits, in ms (see {@link exitAfterStopping}). */
const EXIT_GRACE_MS = 100;

/**
 * Exits with `status` once every registered stopper has finished (at most {@link STOP_WAIT_MS})
 * and the process has idled for {@link EXIT_GRACE_MS}. Nothing more is written to standard
 * output or standard error meanwhile: every write says "full" (so writers wait for a 'drain'
 * that never comes, and the run goes quiet). process.exit() straight from a busy run can hang
 * for good or abort (status 134): V8's background compiler may be waiting for a garbage
 * collection that the main thread, shutting the platform down, never runs. Idle first, it has
 * had it.
 */
export function exitAfterStopping(status: number): void {
  exiting = true;
  process.exitCode = status;
  for (const stream of [process.stdout, process.stderr]) stream.write = () => false;
  const stopped = Promise.allSettled([...stoppers].map((stop) => stop()));
  const waited = new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref());
  void Promise.race([stopped, waited]).then(() => setTimeout(() => process.exit(status), EXIT_GRACE_MS));
}

/** Writes made by {@link writePaced} since it last gave the event loop a turn. */
let writesSinceTurn = 0;
const WRITES_PER_TURN = 64;

/**
 * Writes `text` to `out` for a loop that produces output synchronously: waits for 'drain' when
 * the stream is full, and gives the event loop a turn every few writes, so a closed pipe
 * (EPIPE, reported asynchronously) ends the run at once instead of after all the work.
 */
export async function writePaced(out: NodeJS.WritableStream, text: string): Promise<void> {
  if (!out.write(text)) {
    writesSinceTurn = 0;
    await new Promise<void>((resolve) => out.once("drain", resolve));
  } else if (++writesSinceTurn >= WRITES_PER_TURN) {
    writesSinceTurn = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
