/**
 * `jsonl` output: one JSON object per line with the fields
 * `index` (0-based in the run), `file`, `line` (1-based, where the record starts),
 * `puzzle` (the cells as read), `status` (solved | unsolvable | multiple | invalid | timeout | error),
 * `solution` (first solution found, or null), `count` (solutions found up to the limit),
 * `guesses` (or null) and `error` (the reason a record is invalid, or null).
 */
import type { OutputFormat } from "./format.js";

/** The `jsonl` writer. */
export const jsonlOutput: OutputFormat = {
  name: "jsonl",
  header: "",
  format: (record, result) =>
    JSON.stringify({
      index: record.index,
      file: record.file,
      line: record.line,
      puzzle: record.text,
      status: result.status,
      solution: result.solution,
      count: result.count,
      guesses: result.guesses,
      error: result.error ?? null,
    }) + "\n",
};
