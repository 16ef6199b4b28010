/**
 * The interface every output format implements, and the names `--out` accepts.
 * A format turns one record and its result into text (with its line end); formats never
 * write, so workers can format their own batches and the main thread only concatenates.
 */
import type { SolveRecord } from "../../solvers/solver.js";
import type { ReadRecord } from "../record.js";

/** Output format names for `--out`. */
export const OUTPUT_FORMATS = ["line", "grid", "jsonl", "csv"] as const;
export type OutputFormatName = (typeof OUTPUT_FORMATS)[number];

/** One output format. */
export interface OutputFormat {
  readonly name: OutputFormatName;
  /** Written once before the first record ("" for none). */
  readonly header: string;
  /** The text for one record, ending with a line end. */
  format(record: ReadRecord, result: SolveRecord): string;
}
