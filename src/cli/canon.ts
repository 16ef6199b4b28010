/**
 * `sudoku-wasm canon [FILE...]`: the minlex form of every 9×9 puzzle of a corpus, on `solve`'s
 * streaming path (runStream), each batch done by the minlex kernel (../pool/canon-task.ts).
 */
import { Transform } from "node:stream";
import type { Command } from "commander";
import { INPUT_FORMATS, type InputFormatName } from "../formats/input/format.js";
import { STATUSES } from "../solvers/solver.js";
import { compileWasmFile } from "../kernel/wasm.js";
import { defaultWorkers, openBatchSolver } from "../pool/pool.js";
import { CANON_OUTPUTS } from "../pool/canon-task.js";
import { canonCsvHeader } from "../formats/output/canon-csv.js";
import type { CanonRequest } from "../pool/batch.js";
import { BATCH_TARGET_MS } from "../stream/pipeline.js";
import { type OptionRow, tableCommand, wholeNumber } from "../cli-kit/options.js";
import { checkOutputIsNoInput } from "../cli-kit/same-file.js";
import { commaGrouped, counted } from "../model/whole-number.js";
import { PuzzleSet } from "../model/puzzle-set.js";
import { type Shard, shardArgument } from "../cli-kit/resume.js";
import { SMALL_INPUT_BYTES, checkStandardInput, defaultThreadsText, inputNames, runStream } from "./solve.js";

/** Parsed flags of the canon command. */
export interface CanonFlags {
  output?: string;
  in: InputFormatName;
  out: (typeof CANON_OUTPUTS)[number];
  automorphisms?: boolean;
  minimal?: boolean;
  unique?: boolean;
  threads?: number;
  batch: number;
  shard?: Shard;
  resume?: boolean;
  takeLock?: boolean;
  progress?: boolean;
  quiet?: boolean;
}

/** The options of `canon`. */
const CANON_OPTIONS: readonly OptionRow[] = [
  { flags: "-o, --output <file>", description: "write to FILE instead of standard output ('-o -' means standard output too)" },
  {
    flags: "--in <format>",
    description: "input format; auto detects it per record (line = 81 cells, grid = 9 rows, csv, colon = puzzle:count[:solution]); 9×9 only",
    default: "auto",
    choices: INPUT_FORMATS,
  },
  {
    flags: "--out <format>",
    description: "output format: line (the form alone, or `invalid`), jsonl, csv (index,canon,puzzle,file,line[,automorphisms][,minimal],error)",
    default: "line",
    choices: CANON_OUTPUTS,
  },
  {
    flags: "--automorphisms",
    description:
      "jsonl and csv: add how many of the 3,359,232 geometric maps (with the relabelling that goes with each) map the puzzle onto itself (1 for most puzzles)",
  },
  {
    flags: "--minimal",
    description:
      "jsonl and csv: add whether the puzzle is minimal: one solution, and more than one with any clue removed (null or empty when it has none or several); counts to 2 with each clue removed",
  },
  {
    flags: "--unique",
    description:
      "write only the first record of each form (invalid records are all written); keeps every distinct form in memory, about 50 MB per million distinct forms (not with --resume or --shard)",
    conflicts: ["resume", "shard"],
  },
  {
    flags: "-t, --threads <n>",
    description: "worker threads, at most (they start as for solve: when the work left pays for their start); 0 works on the main thread",
    defaultText: `${defaultThreadsText()}; the main thread alone for an input file of up to 256 KiB`,
    parse: wholeNumber(0, 256),
  },
  {
    flags: "--batch <n>",
    description: `puzzles per batch sent to a worker, at most (batches are sized to about ${BATCH_TARGET_MS} ms of work)`,
    default: 4096,
    parse: wholeNumber(1, 1 << 20),
  },
  {
    flags: "--shard <K/N>",
    description: "only the records whose index (over all inputs, from 0) is K mod N; `sudoku-wasm merge` joins the N line, jsonl or csv outputs",
    parse: shardArgument,
  },
  {
    flags: "--resume",
    description: "go on with -o FILE where an earlier run of the same command stopped: keep its complete records, skip as many inputs, append",
  },
  {
    flags: "--take-lock",
    description:
      "take the lock of -o FILE even from a run that holds it (one that is stopped, or of another machine or container): that run then stops, writing nothing more to FILE",
  },
  { flags: "--progress", description: "show progress on stderr (default: when stderr is a terminal)" },
  { flags: "--no-progress", description: "never show progress" },
  { flags: "-q, --quiet", description: "write nothing to stderr but errors: no progress, no closing summary" },
];

/** The end of `canon --help`: the form, the duplicates recipe and the exit status. */
const CANON_HELP = `
The form: the lexicographically smallest 81-character string (givens as digits, empty cells as
0) over every transformation of the puzzle: transposition, permutations of the bands, of the
rows within each band, of the stacks and of the columns within each stack, and relabelling of
the digits. Two puzzles are the same up to symmetry exactly when their forms are equal. No
solution is needed: puzzles with 0, 1 or many solutions all have one.

Duplicates up to symmetry, for a corpus of any size:
  sudoku-wasm canon --out csv corpus.txt | sort -t, -k2,2 -u

Exit status:
  0    every record has a form
  1    some record is invalid (not a 9×9 puzzle, or a digit repeated in a unit); every record is still written
  2    a usage or I/O error
  130  stopped by SIGINT (Ctrl-C), 143 by SIGTERM: the records of the batches already sent are written whole, in order
       (all of them when the signal came after the last record was read)`;

/** The `canon` subcommand. */
export function canonCommand(): Command {
  const description = "the minlex canonical form of each puzzle (duplicates up to symmetry, automorphisms, minimality), streaming, on every core";
  return tableCommand("canon", description, CANON_OPTIONS)
    .argument("[files...]", "input files; - or none for standard input")
    .action(async (files: string[], flags: CanonFlags) => runCanon(files, flags))
    .addHelpText("after", CANON_HELP);
}

/**
 * The form a record of `format` carries (line: the line; jsonl: its `canon`; csv: the second
 * field), or null for none (an invalid record, the csv header).
 */
export function recordForm(format: CanonFlags["out"], line: string): string | null {
  const form = format === "line" ? line : format === "jsonl" ? /"canon":"(\d{81})"/.exec(line)?.[1] : line.split(",", 2)[1];
  return form !== undefined && /^\d{81}$/.test(form) ? form : null;
}

/**
 * Keeps the first record of each form, and every record without one (see {@link recordForm}),
 * counting the records it leaves out in `left.repeats`. Every distinct form is kept in memory, in a {@link PuzzleSet} (outside V8's heap).
 * A csv record whose quoted file name holds a line end is kept or left out whole.
 */
export function firstOfEachForm(format: CanonFlags["out"], left: { repeats: number } = { repeats: 0 }): Transform {
  const seen = new PuzzleSet(); // not a Set of strings: that stops at 2^24 forms
  let rest = "";
  let open = ""; // csv: the lines so far of a record whose quoted field (a file name) holds a line end
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (rest + chunk.toString("latin1")).split("\n");
      rest = lines.pop()!;
      let kept = "";
      for (let line of lines) {
        if (format === "csv") {
          line = open + line;
          open = "";
          if (line.includes('"') && line.split('"').length % 2 === 0) {
            open = line + "\n"; // an odd number of quotes: the line end is inside a field
            continue;
          }
        }
        const form = recordForm(format, line);
        if (form !== null && !seen.addDigits(form)) {
          left.repeats++;
          continue;
        }
        kept += line + "\n";
      }
      done(null, Buffer.from(kept, "latin1"));
    },
    flush(done) {
      done(null, open + rest === "" ? null : Buffer.from(open + rest, "latin1"));
    },
  });
}

/** Runs `canon` with parsed flags (exit status as {@link CANON_HELP} says; usage and I/O errors throw, status 2). */
export async function runCanon(files: string[], flags: CanonFlags): Promise<void> {
  const column = flags.automorphisms ? "--automorphisms" : flags.minimal ? "--minimal" : null;
  if (column !== null && flags.out === "line") throw new Error(`${column} adds a column to jsonl and csv output; --out line has none (use --out jsonl or csv)`);
  checkStandardInput(inputNames(files));
  checkOutputIsNoInput(inputNames(files), flags.output);
  const request: CanonRequest = { automorphisms: flags.automorphisms === true, minimal: flags.minimal === true };
  const columns = canonCsvHeader(request);
  const invalid = (tally: number[]) => tally[STATUSES.indexOf("invalid")] + tally[STATUSES.indexOf("error")];
  const left = { repeats: 0 };
  await runStream(files, flags, {
    async openSolver(totalBytes) {
      await compileWasmFile("canon"); // before the pool opens: its workers adopt the compiled module
      return openBatchSolver(flags.threads ?? (totalBytes !== null && totalBytes <= SMALL_INPUT_BYTES ? 0 : defaultWorkers()));
    },
    settings: { input: flags.in, output: flags.out, limit: 2, batchSize: flags.batch, canon: request },
    name: "canon",
    recorded: {
      "--in": flags.in,
      "--out": flags.out,
      ...Object.fromEntries((["automorphisms", "minimal", "unique"] as const).map((flag) => [`--${flag}`, flags[flag] ? "on" : "off"])),
    },
    header: flags.out === "csv" ? columns : "",
    fields: columns,
    filter: flags.unique ? firstOfEachForm(flags.out, left) : undefined,
    noResume: flags.unique ? "--unique cannot go on with --resume (the forms seen before the stop are not kept): run it again" : undefined,
    written: (tally) => tally.reduce((total, n) => total + n, 0) - left.repeats,
    // the records kept are not the first N inputs' records: the first of each form among more of them
    stoppedWritten: flags.unique
      ? (written, tally) =>
          `${counted(written, "record")} (of the first ${counted(
            tally.reduce((total, n) => total + n, 0),
            "input record",
          )}, the first of each form and every invalid one)`
      : undefined,
    counts: (tally) => {
      const formed = tally.reduce((sum, n) => sum + n, 0) - invalid(tally);
      const repeats = flags.unique ? ` (${commaGrouped(left.repeats)} repeated, left out)` : "";
      return `${commaGrouped(formed)} with a form${repeats}, ${commaGrouped(invalid(tally))} invalid`;
    },
    failed: invalid,
  });
}
