/**
 * `line` output: per record the N² symbols of the solution when there is exactly one, else the
 * status word alone (with `--limit 1` a solution is printed without proof that it is unique).
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
