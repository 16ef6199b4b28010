/** Records written through the solving path (runTask) by engines that answer every puzzle alike: each format's bytes for chosen results. */
import { type BatchOutcome, textTask } from "../src/pool/batch.js";
import { type BatchEngines, recordsWriter } from "../src/pool/engines.js";
import { runTask } from "../src/pool/solve-task.js";
import type { OutputFormatName } from "../src/formats/output/format.js";
import { SHAPES } from "../src/model/shape.js";
import type { SolverEngine } from "../src/solvers/solver.js";

/** What the engines answer for every puzzle: its count, its first solution (symbols of the puzzle's alphabet, as 1–N cells; "" for none) and guesses. */
export interface Answer {
  count: number;
  solution: string;
  guesses: number;
}

const writer = await recordsWriter();

/** An engine of `cells` cells answering `answer` (its solution's symbols read by `symbols`, in order). */
function answering(cells: number, answer: Answer, symbols: string): SolverEngine {
  const solution = Uint8Array.from(answer.solution, (symbol) => symbols.indexOf(symbol) + 1);
  return {
    countSolutions: () => answer.count,
    solveBatch(_puzzles, count) {
      const solutions = new Uint8Array(count * cells);
      if (solution.length === cells) for (let k = 0; k < count; k++) solutions.set(solution, k * cells);
      return {
        counts: new Int32Array(count).fill(answer.count),
        guesses: new Int32Array(count).fill(answer.guesses),
        nodes: new Int32Array(count).fill(1),
        solutions,
      };
    },
  };
}

/**
 * The output `output` writes for the records of `texts` (lines of `file`), every readable puzzle
 * answered with `answer`, a text that does not read with its own invalid record; `errors` gives a
 * record the read error of its position instead; the task's first index, index step and lines
 * as given (else 0, 1 and 1, 2, 3…).
 */
export function written(
  output: OutputFormatName,
  texts: readonly string[],
  answer: Answer,
  options: { file?: string; errors?: [number, string][]; firstIndex?: number; indexStep?: number; lines?: Int32Array } = {},
): string {
  const symbols = (size: number) => (size <= 9 ? "123456789" : "123456789ABCDEFGHIJKLMNOP").slice(0, size);
  const engines: BatchEngines = Object.assign(
    new Map(SHAPES.map((shape) => [shape.size, { id: "answer", engine: answering(shape.cells, answer, symbols(shape.size)), reportsGuesses: true }])),
    { writer },
  );
  const task = {
    ...textTask({
      file: options.file ?? "in.txt",
      firstIndex: options.firstIndex ?? 0,
      indexStep: options.indexStep,
      texts,
      lines: options.lines,
      limit: 2,
      output,
    }),
    readErrors: options.errors ?? [],
  };
  const outcome = runTask(engines, task) as BatchOutcome;
  return new TextDecoder().decode(outcome.bytes);
}
