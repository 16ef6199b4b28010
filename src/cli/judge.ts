/**
 * Judge mode (`solve --format NAME`), streaming: the inputs are read a chunk at a time and fed line
 * by line to the judge's reader ({@link JudgeRun}); every `batchSize` puzzles are solved and their
 * output written, in order, before more input is read, so a batch and a chunk are all it holds.
 * An input error stops the run where it is read: the batches before it are written, the rest not.
 */
import type { Readable } from "node:stream";
import { type JudgeFormat, type JudgePuzzle, JudgeInputError, JudgeRun } from "../formats/judge.js";
import { formatPuzzle } from "../model/puzzle.js";
import type { SolveRecord } from "../solvers/solver.js";
import { textTask } from "../pool/batch.js";
import type { BatchSolver } from "../pool/pool.js";
import { EXCERPT_LENGTH, escapeText } from "../model/excerpt.js";
import { commaGrouped } from "../model/whole-number.js";
import { MAX_LINE_LENGTH, namedChunks } from "../stream/lines.js";

/** Solves a judge's puzzles, one record each in order, under the judge's limit and alphabet: on the CLI's batch solver ({@link batchJudgeSolver}), or a library Solver's solveMany. */
export type JudgeSolve = (puzzles: readonly JudgePuzzle[], judge: Pick<JudgeFormat, "limit" | "alphabet">) => SolveRecord[] | Promise<SolveRecord[]>;

/**
 * Judge puzzles solved on the CLI's batch solver, a part per thread, through the batch core in `jsonl` read back as records.
 * No node budget: a judge's puzzles all have an answer, and one given up on would be written as "no solution", a wrong answer.
 */
export function batchJudgeSolver(solver: BatchSolver): JudgeSolve {
  return async (puzzles, { limit, alphabet }) => {
    const texts = puzzles.map((puzzle) => (typeof puzzle === "string" ? puzzle : formatPuzzle(puzzle)));
    const parts = Math.max(1, Math.min(solver.threads, texts.length));
    const tasks = Array.from({ length: parts }, (_, part) => {
      const start = Math.round((part * texts.length) / parts);
      const end = Math.round(((part + 1) * texts.length) / parts);
      return textTask({
        file: "judge",
        firstIndex: start,
        texts: texts.slice(start, end),
        limit,
        budget: Infinity,
        output: "jsonl",
        alphabet: alphabet ?? null,
      });
    });
    const outcomes = await Promise.all(tasks.map((task) => solver.solve(task)));
    return outcomes.flatMap(
      (outcome) =>
        Buffer.from(outcome.bytes.buffer, outcome.bytes.byteOffset, outcome.bytes.byteLength)
          .toString("utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as SolveRecord), // its other fields (index, file, line, puzzle) unread
    );
  };
}

export interface JudgeSource {
  /** The name errors carry (the CLI gives `<stdin>` for standard input); without one, errors say `line N`. */
  name?: string;
  open(): Readable;
}

/**
 * Reads `inputs` in order as one judge input, solves its puzzles in batches of `batchSize` and
 * hands the judge's output to `write` in order. Throws a {@link JudgeInputError} naming the input
 * and line of a bad puzzle, or an InputReadError.
 */
export async function streamJudge(
  judge: JudgeFormat,
  inputs: readonly JudgeSource[],
  solve: JudgeSolve,
  batchSize: number,
  /** Takes the next piece of output, in order; resolves when more may be written. */
  write: (text: string) => Promise<void>,
): Promise<void> {
  const run = new JudgeRun(judge, inputs[0]?.name);
  const options = { limit: judge.limit, alphabet: judge.alphabet }; // the solve options only: a Solver refuses the judge's other fields
  const solveBatches = async (whole: boolean): Promise<void> => {
    while (run.puzzles.length >= batchSize || (whole && run.puzzles.length > 0)) {
      await write(run.output(await solve(run.take(batchSize), options)));
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
  const limit = commaGrouped(MAX_LINE_LENGTH);
  const detail = `the line is ${commaGrouped(length)} characters long, over the limit of ${limit} (it starts '${escapeText(start.slice(0, EXCERPT_LENGTH))}…')`;
  return new JudgeInputError({ text: "", line, input }, "length", detail);
}
