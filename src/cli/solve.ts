/**
 * `sudoku-wasm solve [FILE...]`: records of any format and size from files or standard input,
 * solved in batches on worker threads (or the main thread), written in input order in the `--out`
 * format, in constant memory; or, with `--format NAME`, a judge's exact expected output. Every
 * named input is checked before anything is read. The options table makes the help and the defaults.
 */
import { type Stats, accessSync, appendFileSync, constants, createReadStream, fstatSync, readFileSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { once } from "node:events";
import type { Transform, Writable } from "node:stream";
import { type Command, InvalidArgumentError } from "commander";
import { INPUT_FORMATS, type InputFormatName } from "../formats/input/format.js";
import { OUTPUT_FORMATS, type OutputFormatName, outputFormats } from "../formats/output/format.js";
import { JUDGE_FORMATS, type JudgeFormat, type JudgeFormatName, judgeFormats } from "../formats/judge.js";
import type { JudgeSolve, JudgeSource } from "./judge.js";
import { EXACT_COUNT_LIMIT } from "../formats/record.js";
import { DEFAULT_LIMIT, LARGE_GRID_BUDGET, STATUSES } from "../solvers/solver.js";
import { checkAlphabet } from "../model/puzzle.js";
import { SIZE } from "../model/shape.js";
import { type BatchSolver, defaultWorkers, openBatchSolver } from "../pool/pool.js";
import { type RecordCheck, TASKS_PER_WORKER } from "../pool/batch.js";
import { BATCH_TARGET_MS, INPUT_PAUSE_MS, type StreamSettings, type StreamTotals, solveStreams } from "../stream/pipeline.js";
import type { SolveInput } from "../stream/lines.js";
import { InterruptWatch, startProgress, summaryLine } from "../cli-kit/progress.js";
import { type OptionRow, solverIdList, tableCommand, wholeNumber } from "../cli-kit/options.js";
import { solverHelpLines } from "../cli-kit/solver-help.js";
import { checkOutputIsNoInput, regularFileOf, statOf } from "../cli-kit/same-file.js";
import { lockOutput } from "../cli-kit/output-lock.js";
import { closeOutput, openOutput } from "../cli-kit/output.js";
import { attempt, stopBeforeStreamExit } from "../cli-kit/errors.js";
import { escapeText, excerpt } from "../model/excerpt.js";
import { commaGrouped, counted } from "../model/whole-number.js";
import {
  type ResumePoint,
  ResumeRefused,
  type Shard,
  WHOLE_RUN,
  checkLastRecord,
  checkResumeFormat,
  headOf,
  resumeCommand,
  resumePoint,
  shardArgument,
} from "../cli-kit/resume.js";
import { type SolverInfo, countsSolutions, solversBySize } from "../solvers/registry.js";
import { type RunRecord, checkRunRecord, readRunRecord, removeRunRecord, runRecordOf, writeRunRecord } from "../cli-kit/run-record.js";

export interface SolveFlags {
  output?: string;
  in: InputFormatName;
  out: OutputFormatName;
  format?: JudgeFormatName;
  limit: number;
  count?: boolean;
  threads?: number;
  batch: number;
  inFlight?: number;
  progress?: boolean;
  alphabet?: string;
  budget?: number;
  shard?: Shard;
  resume?: boolean;
  takeLock?: boolean;
  solver?: string[];
  quiet?: boolean;
}

/** A commander parser for `--alphabet`: N distinct symbols for N = 4, 9, 16 or 25, none of them `.`, `-`, `#` (comments) or white space. */
function alphabetArgument(text: string): string {
  try {
    if (text.includes("#")) throw new RangeError(`alphabet '${excerpt(text)}' uses '#', which starts a comment line`);
    checkAlphabet(text);
    return text;
  } catch (error) {
    if (error instanceof RangeError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

const SOLVE_OPTIONS: readonly OptionRow[] = [
  { flags: "-o, --output <file>", description: "write to FILE instead of standard output ('-o -' means standard output too)" },
  {
    flags: "--in <format>",
    description:
      "input format; auto detects it per record (line = N² cells, grid = N rows, csv, colon = puzzle:count[:solution]), for 4×4, 9×9, 16×16 and 25×25",
    default: "auto",
    choices: INPUT_FORMATS,
  },
  { flags: "--out <format>", description: "output format: line (solution, or the status word), grid, jsonl, csv", default: "line", choices: OUTPUT_FORMATS },
  {
    flags: "--format <judge>",
    description:
      "a classic judge problem: read the input as one (several files are joined in order, errors name the file and line), write exactly its expected output, streaming in batches of --batch puzzles (its own input, output, limit and alphabet: not with --in, --out, --limit, --count, --budget, --alphabet)",
    choices: JUDGE_FORMATS,
    conflicts: ["in", "out", "limit", "count", "budget", "alphabet"], // set by the judge: giving one is a usage error, not silently ignored
  },
  {
    flags: "--alphabet <symbols>",
    description: "the symbols, in order, of the grids with that many (e.g. ABCDEFGHIJKLMNOP for 16×16); default: detected per record",
    parse: alphabetArgument,
  },
  {
    flags: "--limit <n>",
    description: "stop counting at N solutions (2 flags every puzzle with several)",
    default: DEFAULT_LIMIT,
    parse: wholeNumber(1, 0x7fffffff),
  },
  {
    flags: "--budget <nodes>",
    description: `search nodes per puzzle (states propagated, both kernels), or none; a puzzle over it gets status timeout (default: none for 9×9, ${commaGrouped(LARGE_GRID_BUDGET)} for the other sizes)`,
    parse: budgetArgument,
  },
  {
    flags: "--solver <ids>",
    description:
      "registry solvers (listed below), comma-separated: each grid size goes to the first that takes it, the rest to the fastest of their size; a solver that takes one puzzle per call is refused (judge mode takes any)",
    defaultText: "the fastest of each size",
    parse: solverIdList,
  },
  {
    flags: "--count",
    description: `count solutions exactly, up to ${commaGrouped(EXACT_COUNT_LIMIT)} (--limit ${EXACT_COUNT_LIMIT}); a count of ${commaGrouped(EXACT_COUNT_LIMIT)} means at least that many`,
    conflicts: "limit",
  },
  {
    flags: "-t, --threads <n>",
    description:
      "worker threads, at most: they start once the main thread has solved for 50 ms, and only if the solving left would take it longer than their start; 0 solves on the main thread (a run where one puzzle can take minutes, --budget none or a --limit over 10,000, solves on one worker, so that a signal stops it)",
    defaultText: `${defaultThreadsText()}; the main thread alone for an input file of up to 256 KiB; a worker per core for a run where one puzzle can take minutes`,
    parse: wholeNumber(0, 256),
  },
  {
    flags: "--batch <n>",
    description: `puzzles per batch sent to a worker, at most: batches are sized to the work left so every worker has some, and to about ${BATCH_TARGET_MS} ms of solving each; a record read waits at most ${INPUT_PAUSE_MS} ms while a worker is idle`,
    default: 4096,
    parse: wholeNumber(1, 1 << 20),
  },
  { flags: "--in-flight <n>", description: "batches out at once (default: 3 per thread and 2, 1 with --threads 0)", parse: wholeNumber(1, 1024) },
  {
    flags: "--shard <K/N>",
    description:
      "solve only the records whose index (over all inputs, from 0) is K mod N; records keep their index and line, and `sudoku-wasm merge` joins the N outputs into the one-run output",
    parse: shardArgument,
  },
  {
    flags: "--resume",
    description:
      "go on with -o FILE where an earlier run of the same command stopped: keep its complete records (a cut-off last one is removed), skip as many inputs, append",
  },
  {
    flags: "--take-lock",
    description:
      "take the lock of -o FILE even from a run that holds it (one that is stopped, or of another machine or container): that run then stops, writing nothing more to FILE",
  },
  { flags: "--progress", description: "show progress on stderr (default: when stderr is a terminal)" },
  { flags: "--no-progress", description: "never show progress" },
  { flags: "-q, --quiet", description: "write nothing to stderr but errors: no progress, no closing summary, no hint when standard input is a terminal" },
];

/** The end of `solve --help`: what the exit status says. */
const EXIT_STATUS_HELP = `
Exit status:
  0    every record solved, unsolvable or multiple (those are answers)
  1    some record invalid, over its --budget (timeout) or failed (error); every record
       is still written
  2    a usage or I/O error (bad option, unreadable input, unwritable output)
  130  stopped by SIGINT (Ctrl-C), 143 by SIGTERM: the records of the batches already sent
       are written whole, in order, and their count is printed (all of them when the signal
       came after the last record was read)`;

export function solveCommand(): Command {
  return tableCommand("solve", "solve puzzles from files or standard input, streaming, on every core", SOLVE_OPTIONS)
    .argument("[files...]", "input files; - or none for standard input")
    .action(async (files: string[], flags: SolveFlags) => runSolve(files, flags))
    .addHelpText("after", EXIT_STATUS_HELP)
    .addHelpText("after", () => ["", "Solvers (id, grid sizes, algorithm):", ...solverHelpLines()].join("\n"));
}

/** The input names of a run: the files, or `-` (standard input) for none. */
export const inputNames = (files: readonly string[]): readonly string[] => (files.length === 0 ? ["-"] : files);

/**
 * Throws a one-line reason unless `name` is a readable file, pipe or character device (`/dev/null`, `/dev/stdin` from a
 * terminal: read as a stream, as standard input is); a directory, a missing or unreadable path fails here, before any
 * work. True for a regular file.
 */
function checkInputFile(name: string): boolean {
  let stats: Stats;
  try {
    stats = statSync(name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read '${name}': ${code === "ENOENT" ? "no such file" : (code ?? String(error))}`);
  }
  if (stats.isDirectory()) throw new Error(`${name} is a directory, not a puzzle file`);
  if (!stats.isFile() && !stats.isFIFO() && !stats.isCharacterDevice()) {
    throw new Error(`${name} is not a regular file, a pipe or a character device, not a puzzle file`);
  }
  try {
    accessSync(name, constants.R_OK);
  } catch {
    throw new Error(`cannot read '${name}': permission denied`);
  }
  if (stats.isFile()) checkNotBinary(name);
  return stats.isFile();
}

/** Throws a one-line reason when the first 64 KiB of file `name` hold a NUL byte (and no UTF-16/32 byte order mark): a binary file (a program, an archive), not puzzles, as grep and git tell one. */
function checkNotBinary(name: string): void {
  const head = attempt(() => headOf(name));
  if (head === undefined) return; // the reading reports it, naming the file
  const [b0, b1, b2, b3] = head;
  const wideText = (b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff) || (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff);
  if (wideText) return; // UTF-16 or UTF-32 text (its byte order mark): the reading names the encoding
  const nul = head.indexOf(0);
  if (nul >= 0) throw new Error(`${name} is a binary file (a NUL byte at byte ${commaGrouped(nul + 1)}), not a puzzle file`);
}

/** Throws a one-line reason when standard input is named twice (it can be read once), is closed or is a directory. */
export function checkStandardInput(names: readonly string[]): void {
  const named = names.filter((name) => name === "-").length;
  if (named > 1) throw new Error(`standard input ('-') is named ${named} times: it can be read once; name it once`);
  if (named === 0) return;
  if (standardInputClosed()) {
    throw new Error("standard input is closed, not readable: give input files, or a pipe or a redirect (`< /dev/null` for no puzzles)");
  }
  if (attempt(() => fstatSync(0).isDirectory())) throw new Error("standard input is a directory, not a puzzle file");
}

/**
 * True when standard input was closed when the process started (`solve <&-`). Node puts `/dev/null`, opened read-write, in
 * place of a closed descriptor 0, while a shell's `< /dev/null` opens it read-only: Linux shows the mode in
 * /proc/self/fdinfo/0. Elsewhere a closed standard input reads as an empty one.
 */
function standardInputClosed(): boolean {
  const flags = attempt(() => /^flags:\s*([0-7]+)$/m.exec(readFileSync("/proc/self/fdinfo/0", "utf8"))); // undefined: no /proc (not Linux)
  if (!flags || (Number.parseInt(flags[1], 8) & 3) !== constants.O_RDWR) return false;
  const stdin = attempt(() => fstatSync(0));
  return stdin?.isCharacterDevice() === true && stdin.rdev === statOf("/dev/null")?.rdev;
}

/** What `solve` says when it would wait on a terminal for input that nobody may be typing. */
const TERMINAL_INPUT_HINT =
  "sudoku-wasm: reading puzzles from the terminal: type or paste them, one per line (or N rows of a grid), then Ctrl-D; " +
  "or give files (`sudoku-wasm solve puzzles.txt`) or a pipe (`cat puzzles.txt | sudoku-wasm solve`); --help lists the formats\n";

/** Says how to give input when standard input, named or implied, is a terminal (unless --quiet). */
function hintTerminalInput(files: readonly string[], quiet: boolean | undefined): void {
  if (!quiet && process.stdin.isTTY && inputNames(files).includes("-")) process.stderr.write(TERMINAL_INPUT_HINT);
}

/** The inputs named on the command line (standard input for none or `-`), each checked before any is read. */
function openInputs(files: readonly string[]): SolveInput[] {
  return inputNames(files).map((name) => {
    // Standard input redirected from a regular file (`solve < puzzles.txt`) is read through one buffer, as a named file is.
    if (name === "-") return { name: "<stdin>", open: () => process.stdin, file: regularFileOf(0) ? 0 : undefined };
    const regular = checkInputFile(name);
    return { name, open: () => createReadStream(name, { highWaterMark: 1 << 16 }), file: regular ? name : undefined };
  });
}

/** The total size of the input files, or null when standard input is among them. */
function inputBytes(files: readonly string[]): number | null {
  if (files.length === 0 || files.includes("-")) return null;
  return files.reduce((sum, file) => sum + statSync(file).size, 0);
}

/** The exit status of a run whose records include an `invalid` or a `timeout` one. */
const FAILED_RECORDS_STATUS = 1;

/**
 * Runs `solve` with parsed flags; the exit status is 0, {@link FAILED_RECORDS_STATUS} when a record
 * is invalid or timed out, or 130/143 on SIGINT/SIGTERM; usage and I/O errors throw (status 2, main.ts).
 */
export async function runSolve(files: string[], flags: SolveFlags): Promise<void> {
  checkStandardInput(inputNames(files));
  checkOutputIsNoInput(inputNames(files), flags.output);
  if (flags.format) return runJudge(files, flags.format, flags.output, flags);
  const limit = flags.count ? EXACT_COUNT_LIMIT : flags.limit;
  await runStream(files, flags, {
    openSolver: (totalBytes) => openRunSolver(flags, limit, totalBytes),
    settings: {
      input: flags.in,
      output: flags.out,
      limit,
      batchSize: flags.batch,
      maxInFlight: flags.inFlight,
      alphabet: flags.alphabet,
      budget: flags.budget,
    },
    name: "solve",
    recorded: {
      "--in": flags.in,
      "--out": flags.out,
      "--limit": String(flags.limit),
      "--count": flags.count ? "on" : "off",
      "--budget": flags.budget === undefined ? "(default)" : flags.budget === Infinity ? "none" : String(flags.budget),
      "--solver": solversRecorded(flags.solver), // what each size runs on: `--solver wasm` is the default spelled out
      "--alphabet": flags.alphabet ?? "(default)",
    },
    counts: (tally) => STATUSES.map((status, i) => `${commaGrouped(tally[i])} ${status}`).join(", "), // 9,990 solved, 0 unsolvable, …
    // Records that got no answer: invalid ones, those over the budget, and those the solver failed on (`error`).
    failed: (tally) => (["invalid", "timeout", "error"] as const).reduce((sum, status) => sum + tally[STATUSES.indexOf(status)], 0),
  });
}

/** A limit past which one puzzle can count for minutes (an empty 9×9 grid has billions of solutions). */
const LONG_COUNT_LIMIT = 10_000;

/** `--threads`'s default in the help: {@link defaultWorkers}, and why. */
export function defaultThreadsText(): string {
  return availableParallelism() > 1 ? `${defaultWorkers()}, one fewer than the cores, the main thread solving beside them` : "1";
}

/** Input files up to this size are solved on the main thread: starting workers would take longer than they save. */
export const SMALL_INPUT_BYTES = 256 * 1024;

/**
 * The batch solver of a run: `--threads` workers (default: one fewer than the cores, the main thread
 * solving beside them; the main thread alone for a small input file); but at least one worker (by
 * default one per core, one for a small input file), and no main-thread solving, when one puzzle can take minutes
 * ({@link LONG_COUNT_LIMIT}, `--count`, `--budget none`): a worker's kernel call can be stopped by a signal.
 */
function openRunSolver(flags: Pick<SolveFlags, "threads" | "budget" | "solver">, limit: number, totalBytes: number | null = null): Promise<BatchSolver> {
  const long = limit > LONG_COUNT_LIMIT || flags.budget === Infinity;
  const small = totalBytes !== null && totalBytes <= SMALL_INPUT_BYTES;
  const chosen = flags.threads ?? (small ? 0 : long ? availableParallelism() : defaultWorkers());
  const threads = long ? Math.max(1, chosen) : chosen;
  return openBatchSolver(threads, flags.solver, { warmUp: !long });
}

/** What judge mode solves on: the CLI's batch solver, or a library Solver on the main thread for a one-puzzle-per-call `--solver`. */
async function judgeSolver(flags: SolveFlags, judge: JudgeFormat): Promise<{ solve: JudgeSolve; close(): Promise<void> }> {
  const { batchJudgeSolver } = await import("./judge.js");
  try {
    // Solved without a node budget (batchJudgeSolver): a 16×16 judge's search may then be long, so it runs where a signal stops it.
    const solver = await openRunSolver(judge.alphabet === undefined ? flags : { ...flags, budget: Infinity }, judge.limit);
    return { solve: batchJudgeSolver(solver), close: () => solver.close() };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const { createSolver } = await import("../index.js");
    const solver = await createSolver({ solver: flags.solver }); // an unknown id throws here again
    return { solve: (puzzles, options) => solver.solveMany(puzzles, { ...options, budget: Infinity }), close: async () => {} };
  }
}

/** The flags of `solve` that `canon` shares, all that {@link runStream} reads. */
type StreamFlags = Pick<SolveFlags, "output" | "out" | "shard" | "resume" | "takeLock" | "progress" | "quiet">;

/** What `solve` and `canon` each bring to {@link runStream}. */
export interface StreamCommand {
  /** The command's name, and the options that shape its records (flag to value as typed), for the output's run record (see run-record.ts). */
  name: string;
  recorded: Record<string, string>;
  /** The batch solver, for inputs of `totalBytes` in all (null: standard input is among them). */
  openSolver(totalBytes: number | null): Promise<BatchSolver>;
  /** The stream settings the command's flags give; `maxInFlight` absent: what the workers hold, and 2. */
  settings: Pick<StreamSettings, "input" | "output" | "limit" | "batchSize" | "alphabet" | "budget" | "canon"> & { maxInFlight?: number };
  /** What a new output starts with, when not its format's header (canon's csv columns). */
  header?: string;
  /** The fields of its records, as a csv header names them (whatever the output format). @default solve's csv header */
  fields?: string;
  /** A transform the records go through on their way to the output (canon's `--unique`). */
  filter?: Transform;
  /** The summary's counts of `tally` (records per status). */
  counts(tally: number[]): string;
  /** The records of `tally` that make the exit status {@link FAILED_RECORDS_STATUS}. */
  failed(tally: number[]): number;
  /** Why this run cannot go on with --resume after a stop (canon's `--unique`), said instead of the command to go on with. */
  noResume?: string;
  /** The records of `tally` that reach the output, when the filter leaves some out (canon's `--unique`). @default all of them */
  written?(tally: number[]): number;
  /** What a stopped run's line says it wrote, when not "the first N records" (canon's `--unique`: not the first N inputs' records). */
  stoppedWritten?(written: number, tally: number[]): string;
}

/**
 * The run of `solve` and `canon` around the streaming core: lock the output, find the `--resume`
 * point, open the output and the solver, stream the inputs with progress and the signals watched,
 * close, print the summary; the exit status is 0, {@link FAILED_RECORDS_STATUS}, or 130/143 on SIGINT/SIGTERM.
 */
export async function runStream(files: string[], flags: StreamFlags, command: StreamCommand): Promise<void> {
  const inputs = openInputs(files);
  hintTerminalInput(files, flags.quiet);
  const shard = flags.shard ?? WHOLE_RUN;
  if (flags.takeLock && flags.output === undefined) throw new Error("--take-lock needs -o FILE (a file, not standard output): the output whose lock to take");
  const runRecord = () => runRecordOf(command.name, command.recorded, shard, inputNames(files));
  const isFile = (path: string | undefined): path is string => path !== undefined && statOf(path)?.isFile() === true;
  // a takeover stops the run that holds the lock: a resume its run record refuses is refused before that
  if (flags.takeLock && flags.resume && isFile(flags.output)) checkBegun(flags.output, runRecord());
  const lock = await lockOutput(flags.output, { takeOver: flags.takeLock, keep: flags.resume }); // before the resume point is read: a second writer is refused here
  let recordedWhereNone: string | undefined; // the output beside which this run wrote a run record where there was none
  let cutRecord: Buffer | null = null; // the output's cut last record (ResumePoint.cut), put back should the resume be refused
  try {
    const header = command.header ?? outputFormats[flags.out].header;
    // A file output's run record: checked against the one there on --resume, in place until every record is written.
    const run = isFile(flags.output) ? { output: flags.output, record: runRecord() } : null; // (the lock made the file)
    const begun = flags.resume && run !== null ? checkBegun(run.output, run.record) : null;
    const named = begun === null ? inputs : begunNames(inputs, begun, run!.record);
    const resume = flags.resume ? findResumePoint(flags, shard, header, (command.fields ?? outputFormats.csv.header).trimEnd()) : undefined;
    cutRecord = resume?.cut ?? null;
    const out = await openOutput(flags.output, resume); // (a new output's emptying removes a record left beside it)
    lock.guard(out);
    // Written once the output is emptied or cut to its resume point: a run stopped before then leaves no record of its own beside another run's bytes.
    if (run !== null) {
      writeRunRecord(run.output, run.record);
      if (begun === null) recordedWhereNone = run.output;
    }
    const started = performance.now();
    const totalBytes = inputBytes(files);
    const solver = await command.openSolver(totalBytes);
    const unregister = stopBeforeStreamExit(() => solver.close());
    const showProgress = !flags.quiet && (flags.progress ?? process.stderr.isTTY === true);
    const progress = showProgress ? await startProgress(totalBytes) : null;
    const interrupts = new InterruptWatch();
    interrupts.onForcedExit(() => progress?.stop());
    try {
      // The records reach the output through the filter by pipe, not pipeline: a failing output (a closed pipe, a full disk)
      // is then its own guard's one line and exit, not an error of the filter's that nothing catches.
      const filter = command.filter;
      filter?.pipe(out, { end: false });
      const sink = filter ?? out;
      const totals = await solveStreams(
        named,
        sink,
        solver,
        {
          ...command.settings,
          workers: solver.threads,
          totalBytes,
          // Workers hold TASKS_PER_WORKER batches each; the rest wait, for the main thread to take when it solves beside them.
          maxInFlight: command.settings.maxInFlight ?? (solver.threads === 0 ? 1 : (TASKS_PER_WORKER + 1) * solver.threads + 2),
          shard,
          skip: resume?.records ?? 0,
          resumed: resume?.lastRecord,
          header: (resume?.bytes ?? 0) === 0 ? command.header : "", // a resumed output has its header
          stop: interrupts.aborted,
        },
        (done, bytes) => progress?.update(done, bytes),
      );
      if (filter !== undefined) {
        const drained = once(filter, "end"); // all it holds handed to the output
        filter.end();
        await drained;
      }
      await closeOutput(out);
      lock.verify(); // no success over bytes another run may have written
      if (resume !== undefined && resume.records > 0 && !totals.stopped && totals.recordsRead <= shard.index + (resume.records - 1) * shard.count) {
        // (nothing was added: every record this run read was one the output holds already)
        throw new ResumeRefused(
          `--resume: ${flags.output} holds ${counted(resume.records, "record")} of this run, more than its input gives (${counted(totals.recordsRead, "record")} in all${shard.count > 1 ? `, shard ${shard.index}/${shard.count}` : ""}): was it written with other inputs?`,
        );
      }
      if (run !== null && !totals.stopped) removeRunRecord(run.output); // every record written
      progress?.stop();
      process.stderr.write(errorLines(totals));
      // a resumed output that was already complete says so instead of the summary
      const complete = resume !== undefined && resume.records > 0 && !totals.stopped && totals.tally.every((n) => n === 0);
      const closing = complete
        ? `'${flags.output}' was already complete (${counted(resume.records, "record")}): every input record is in it already; nothing added`
        : summaryLine(totals.tally, command.counts(totals.tally), (performance.now() - started) / 1000, solver.threads, solver.threadsStarted?.());
      if (!flags.quiet) process.stderr.write(`${closing}\n`);
      const written = (resume?.records ?? 0) + (command.written?.(totals.tally) ?? sum(totals.tally));
      if (totals.stopped) {
        const what = command.stoppedWritten?.(written, totals.tally) ?? `the first ${counted(written, "record")}`;
        process.stderr.write(interruptedLine(interrupts.signal!, what, flags.output, command.noResume));
      } else if (interrupts.signal !== null) process.stderr.write(lateSignalLine(interrupts.signal, written, flags.output));
      process.exitCode = interrupts.exitStatus ?? (command.failed(totals.tally) > 0 ? FAILED_RECORDS_STATUS : 0);
    } finally {
      interrupts.close();
      progress?.stop();
      unregister();
      await solver.close();
    }
  } catch (error) {
    if (error instanceof ResumeRefused) {
      // a resume refused under way leaves the output as it found it: no run record of its own where there was none, its cut record back
      if (recordedWhereNone !== undefined) removeRunRecord(recordedWhereNone);
      if (cutRecord !== null) appendFileSync(flags.output!, cutRecord);
    }
    throw error;
  } finally {
    await lock.release();
  }
}

/**
 * The inputs of a resumed run named as the run was begun: the same files (their real paths matched), perhaps named another
 * way, so that its records and errors name them as the records before them do, and so does the run record it writes.
 */
function begunNames(inputs: SolveInput[], begun: RunRecord, record: RunRecord): SolveInput[] {
  return inputs.map((input, i) => {
    const name = begun.inputs[i].name;
    if (name === "-" || record.inputs[i].name === "-") return input;
    record.inputs[i].name = name;
    return { ...input, name };
  });
}

/** The run record beside `output` (null when there is none), checked against this run's `run`: throws naming what differs. */
function checkBegun(output: string, run: RunRecord): RunRecord | null {
  const begun = readRunRecord(output);
  if (begun !== null) checkRunRecord(output, begun, run);
  return begun;
}

/**
 * The point a `--resume` run starts from: the complete records of its `-o` file, the file checked
 * to be this run's, and the check of its last record's place when it carries one (jsonl, csv).
 */
function findResumePoint(flags: Pick<SolveFlags, "output" | "out">, shard: Shard, header: string, fields: string): ResumePoint & { lastRecord?: RecordCheck } {
  if (flags.output === undefined) throw new Error("--resume needs -o FILE (a file, not standard output): the output of the run to go on with");
  checkResumeFormat(flags.output, flags.out, header, fields);
  const point = resumePoint(flags.output, flags.out);
  return { ...point, lastRecord: checkLastRecord(flags.output, flags.out, point, header, shard.index + (point.records - 1) * shard.count) };
}

/** What an interrupted run says last: the signal, the records written (whole, in order: `written` says which) and how to go on. */
function interruptedLine(signal: string, written: string, output: string | undefined, noResume?: string): string {
  const next = noResume ?? (output === undefined ? "(with -o FILE, --resume goes on from there)" : `to go on: ${resumeCommand(process.argv.slice(2))}`);
  return `sudoku-wasm: stopped by ${signal}: ${written} written whole to ${output ?? "standard output"}; ${next}\n`;
}

/** What a run says of a signal that came once every input record was read and sent: the run finished, nothing is left to resume. */
function lateSignalLine(signal: string, written: number, output: string | undefined): string {
  const all = written === 1 ? "its 1 record" : `all ${counted(written, "record")}`;
  return `sudoku-wasm: ${signal} came after the last record was read, so the run finished: ${all} written whole to ${output ?? "standard output"}\n`;
}

const sum = (counts: readonly number[]): number => counts.reduce((total, n) => total + n, 0);

/** The first error messages of a run, and how many more there were. */
function errorLines(totals: StreamTotals): string {
  const failed = totals.tally[STATUSES.indexOf("invalid")] + totals.tally[STATUSES.indexOf("error")];
  const more = failed - totals.errors.length;
  const lines = totals.errors.map((error) => `${escapeText(error)}\n`); // each starts with its status: `invalid: …`, `error: …`
  if (more > 0) lines.push(`… and ${counted(more, "more invalid or error record")} (--out jsonl gives every reason)\n`);
  return lines.join("");
}

/** A commander parser for `--budget`: a whole number of nodes, or `none` for no cap (Infinity). */
function budgetArgument(text: string): number {
  if (text.trim() === "none") return Infinity;
  try {
    return wholeNumber(1, 0x7fffffff)(text);
  } catch {
    throw new InvalidArgumentError(`expected a whole number from 1 to 2147483647, or none, got '${text}'`);
  }
}

/**
 * Judge mode: the judge's exact output, streaming in batches of `--batch` puzzles. The output is
 * opened when its first batch is ready, so an input error in the first batch leaves it untouched.
 */
async function runJudge(files: string[], name: JudgeFormatName, output: string | undefined, flags: SolveFlags): Promise<void> {
  if (flags.shard) throw new Error(`--shard does not apply to --format ${name}: a judge's output is one whole answer, not records to merge`);
  if (flags.resume)
    throw new Error(
      `--resume does not apply to --format ${name}: a judge's output is its own text, with no records to count where to go on; run it again whole`,
    );
  const inputs: JudgeSource[] = openInputs(files); // errors name each as solve mode's records do (standard input `<stdin>`)
  hintTerminalInput(files, flags.quiet);
  const { streamJudge } = await import("./judge.js");
  const judge = judgeFormats[name];
  // a judge that counts (sicily1317) needs a solver that counts past its first solution
  const counter = solversBySize(flags.solver).get(judge.alphabet?.length ?? SIZE)!;
  if (judge.limit > 1 && !countsSolutions(counter))
    throw new Error(`--format ${name} counts each puzzle's solutions, but solver '${counter.id}' stops at the first one (wasm and dlx count)`);
  const lock = await lockOutput(output, { takeOver: flags.takeLock }); // one writer per output file, as the streaming runs take it
  let opened = false;
  try {
    const solver = await judgeSolver(flags, judge);
    const unregister = stopBeforeStreamExit(() => solver.close());
    let out: Writable | undefined;
    const open = async (): Promise<Writable> => {
      const stream = await openOutput(output);
      lock.guard(stream);
      opened = true;
      return stream;
    };
    try {
      await streamJudge(judge, inputs, solver.solve, flags.batch, async (text) => {
        out ??= await open();
        if (!out.write(text)) await once(out, "drain");
      });
      const written = out ?? (await open()); // no puzzles: the output is empty, and still made
      out = undefined;
      await closeOutput(written);
      lock.verify(); // no success over bytes another run may have written
    } finally {
      if (out) await closeOutput(out);
      unregister();
      await solver.close();
    }
  } catch (error) {
    if (!opened) await lock.abandon(); // refused before its first output (a bad first puzzle): no empty file left where there was none
    throw error;
  } finally {
    await lock.release();
  }
}

/**
 * The solver each grid size runs on under `--solver ids`, as a run record keeps it (`9×9 wasm, 4×4/16×16/25×25 general-wasm`):
 * the same whether the default was given by name or not.
 */
function solversRecorded(ids: readonly string[] | undefined): string {
  const bySize = solversBySize(ids);
  const nine = bySize.get(SIZE);
  const used = [...new Set(bySize.values())].sort((a, b) => Number(a !== nine) - Number(b !== nine));
  const sizesOf = (info: SolverInfo) =>
    [...bySize.keys()]
      .filter((size) => bySize.get(size) === info)
      .map((size) => `${size}×${size}`)
      .join("/");
  return used.map((info) => `${sizesOf(info)} ${info.id}`).join(", ");
}
