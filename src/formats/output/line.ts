/**
 * `line` output: one line per record, the N² symbols of the solution (in the input's alphabet)
 * when the puzzle has exactly one, or else the status word alone: `unsolvable`, `multiple`, `invalid`,
 * `timeout` (the search ran out of `--budget`) or `error` (the solver failed on the record's batch).
 * (With `--limit 1` a found solution is printed without proof that it is unique.)
 */
import { type ByteOutput, NINE_CELLS, type OutputRecord, STATUS_WORDS } from "./bytes.js";
import { type RecordWriter, outputFormat } from "./format.js";

const lineWriter: RecordWriter = {
  write(out: ByteOutput, record: OutputRecord): void {
    if (record.status !== "solved") {
      out.room(16);
      out.put(STATUS_WORDS[record.status]);
    } else if (record.solutionBytes !== null) {
      out.room(NINE_CELLS + 1);
      out.copy(record.solutionBytes, record.solutionAt, NINE_CELLS);
    } else out.text(record.solution!);
    out.byte(10);
  },
};

export const lineOutput = outputFormat("line", "", () => lineWriter);
