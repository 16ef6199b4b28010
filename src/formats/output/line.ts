/**
 * `line` output: one line per record, the N² symbols of the solution (in the input's alphabet)
 * when the puzzle has exactly one, or else the status word alone: `unsolvable`, `multiple`, `invalid`,
 * `timeout` (the search ran out of `--budget`) or `error` (the solver failed on the record's batch).
 * (With `--limit 1` a found solution is printed without proof that it is unique.)
 */
import type { OutputFormat } from "./format.js";

/** The `line` writer. */
export const lineOutput: OutputFormat = {
  name: "line",
  header: "",
  format: (_record, result) => (result.status === "solved" ? result.solution! : result.status) + "\n",
};
