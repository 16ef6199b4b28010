/**
 * `grid` output: the solution as N lines of N symbols, then a blank line; without exactly one
 * solution, the status word (for `invalid`, the reason, escaped) on one line, then the blank line,
 * so a blank line always ends a record (`merge` and `--resume` count by them).
 */
import { escapeText } from "../../model/excerpt.js";
import { type ByteOutput, type OutputRecord, STATUS_WORDS } from "./bytes.js";
import type { OutputFormat, RecordWriter } from "./format.js";

/** The side of a 9×9 solution given as digits (one row per line). */
const NINE = 9;

const gridWriter: RecordWriter = {
  write(out: ByteOutput, record: OutputRecord): void {
    if (record.status !== "solved") {
      out.room(16);
      out.put(STATUS_WORDS[record.status]);
      if (record.error) out.text(": " + escapeText(record.error));
      out.room(1);
      out.byte(10);
    } else if (record.solutionBytes !== null) {
      out.room(NINE * (NINE + 1));
      for (let row = 0; row < NINE; row++) {
        out.copy(record.solutionBytes, record.solutionAt + row * NINE, NINE);
        out.byte(10);
      }
    } else {
      const solution = record.solution!;
      const size = Math.round(Math.sqrt(solution.length));
      let text = "";
      for (let row = 0; row < size; row++) text += solution.slice(row * size, (row + 1) * size) + "\n";
      out.text(text);
    }
    out.room(1);
    out.byte(10); // the blank line that ends every record
  },
};

export const gridOutput: OutputFormat = { name: "grid", header: "", writer: () => gridWriter };
