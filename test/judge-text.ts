// Whole-text helpers over the streaming judge run (src/formats/judge.ts), for tests.
import { type JudgeFormat, JudgeRun } from "../src/formats/judge.js";
import type { Solver } from "../src/solvers/solver.js";

/** All lines of a whole text: a leading byte order mark dropped; `\n`, `\r\n` and `\r` end lines. */
export function splitLines(text: string): string[] {
  const own = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = own.includes("\r") ? own.split(/\r\n|\r|\n/) : own.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** One input of a judge run: its whole text and, for a file, the name its errors carry. */
export interface JudgeInput {
  name?: string;
  text: string;
}

/** The judge's whole output for several inputs read as one, solved in one batch per kernel. */
export function solveJudgeInputs(judge: JudgeFormat, inputs: readonly JudgeInput[], solver: Solver): string {
  const run = new JudgeRun(judge, inputs[0]?.name);
  read: for (const { name, text } of inputs) {
    run.startInput(name);
    for (const [i, line] of splitLines(text).entries()) if (!run.read({ text: line, line: i + 1, input: name })) break read;
  }
  run.end();
  return run.output(solver.solveMany(run.take(), { limit: judge.limit, alphabet: judge.alphabet }));
}

/** The judge's whole output for the whole input `text`. */
export function solveJudge(judge: JudgeFormat, text: string, solver: Solver): string {
  return solveJudgeInputs(judge, [{ text }], solver);
}
