/**
 * Judge mode (`solve --format NAME`), streaming: the inputs are read a chunk (64 KiB) at a time
 * and fed line by line to the judge's reader ({@link JudgeRun}); every `batchSize` puzzles are
 * solved on the main thread (one engine call per grid size) and their output written, in order,
 * before more input is read. What is held at any time is a batch and a chunk, whatever the
 * length of the input.
 *
 *   input chunks ─► lines ─► judge reader ─► puzzles ─► batch of batchSize ─► solveMany ─► write
 *                                                                  (waits for 'drain')
 *
 * An input error (a bad row, a short grid, a missing count) stops the run where it is read: the
 * batches solved before it are written, the puzzles read since are not (an input of one batch
 * writes nothing, as when judge mode read all input first).
 */
import type { Readable } from "node:stream";
import { type JudgeFormat, JudgeInputError, JudgeRun } from "../formats/judge.js";
import { MAX_LINE_LENGTH } from "../formats/lines.js";
import { EXCERPT_LENGTH, escapeText } from "../excerpt.js";
import type { Solver } from "../solver.js";
import { namedChunks } from "./pipeline.js";

/** One input of a judge run. */
export interface JudgeSource {
  /** The name errors carry; none for standard input read alone (errors then say `line N`). */
  name?: string;
  open(): Readable;
}

/** Takes the next piece of output, in order; resolves when more may be written. */
export type JudgeWrite = (text: string) => Promise<void>;

/**
 * Reads `inputs` in order as one judge input, solves its puzzles in batches of `batchSize` with
 * `solver` and hands the judge's output to `write`, piece by piece, in order. Throws a
 * {@link JudgeInputError} naming the input and line of a bad puzzle, or an InputReadError
 * naming an input that fails while it is read.
 */
export async function streamJudge(judge: JudgeFormat, inputs: readonly JudgeSource[], solver: Solver, batchSize: number, write: JudgeWrite): Promise<void> {
  const run = new JudgeRun(judge, inputs[0]?.name);
  const solveBatches = async (whole: boolean): Promise<void> => {
    while (run.puzzles.length >= batchSize || (whole && run.puzzles.length > 0)) {
      const output = run.output(run.solve(run.take(batchSize), solver));
      await write(output);
    }
  };
  let wanted = true;
  for (const input of inputs) {
    let lineNumber = 0;
    run.startInput(input.name);
    for await (const chunk of namedChunks(input.name ?? "<stdin>", input.open())) {
      const long = new Map(chunk.longLines?.map(({ at, length }) => [at, length]));
      for (const [at, text] of chunk.lines.entries()) {
        const place = { text, line: ++lineNumber, input: input.name };
        const length = long.get(at);
        if (length !== undefined) throw longLineError(place.line, text, length, input.name);
        if (!(wanted = run.read(place))) break;
      }
      await solveBatches(false);
      if (!wanted) break; // the judge needs no more input: stop reading (the stream is closed)
    }
    if (!wanted) break;
  }
  run.end();
  await solveBatches(true);
}

/** The error for a line over the longest one read whole: no judge line is near that long. */
function longLineError(line: number, start: string, length: number, input?: string): JudgeInputError {
  const limit = MAX_LINE_LENGTH.toLocaleString("en-US");
  const detail = `the line is ${length.toLocaleString("en-US")} characters long, over the limit of ${limit} (it starts '${escapeText(start.slice(0, EXCERPT_LENGTH))}…')`;
  return new JudgeInputError("length", line, detail, -1, input);
}
