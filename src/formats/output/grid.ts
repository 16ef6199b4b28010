/**
 * `grid` output: the solution as N lines of N symbols (in the input's alphabet), then a blank
 * line; a record without exactly one solution prints its status word (`timeout` included; for `invalid`,
 * the reason) on one line followed by the blank line. The reason is escaped as on stderr
 * (`\n` for a line end in a file name), so a blank line always ends a record: `merge` and
 * `--resume` count records by them.
 */
import { escapeText } from "../../model/excerpt.js";
import type { OutputFormat } from "./format.js";

/** The `grid` writer. */
export const gridOutput: OutputFormat = {
  name: "grid",
  header: "",
  format(record, result) {
    if (result.status !== "solved") return `${result.status}${result.error ? ": " + escapeText(result.error) : ""}\n\n`;
    const solution = result.solution!;
    const size = Math.round(Math.sqrt(solution.length));
    let text = "";
    for (let row = 0; row < size; row++) text += solution.slice(row * size, (row + 1) * size) + "\n";
    return text + "\n";
  },
};
