/**
 * The interface every output format implements, and the names `--out` accepts. Records are
 * written as bytes, never to a stream, so workers write their own batches and the main thread
 * only concatenates: `line`, `jsonl` and `csv` by the 9×9 kernel (assembly/text.ts writeRecords),
 * from a batch's results and what {@link KernelFormat} gives it; `grid` by its {@link RecordWriter}.
 */
import type { SolveRecord } from "../../solvers/solver.js";
import type { ByteOutput, OutputRecord } from "./bytes.js";

/** Output format names for `--out`. */
export const OUTPUT_FORMATS = ["line", "grid", "jsonl", "csv"] as const;
export type OutputFormatName = (typeof OUTPUT_FORMATS)[number];

/** Writes the records of one file in one format (`grid`). */
export interface RecordWriter {
  /** Writes `record` with its line end. */
  write(out: ByteOutput, record: OutputRecord): void;
}

/**
 * What the kernel's writer is given for a format: the file's name as the format writes it, and
 * the variable fields of a record the host solved or worded, encoded as the format prints them
 * (null: none, printed `null` in jsonl, an empty field in csv).
 */
export interface KernelFormat {
  /** The file's name with what stands around it, between a record's index and its line. */
  piece(file: string): string;
  puzzle(text: string): string | null;
  solution(solution: string): string | null;
  /** A guess count that is not null. */
  guesses(guesses: number): string | null;
  error(error: string): string | null;
}

export interface OutputFormat {
  readonly name: OutputFormatName;
  /** Written once before the first record ("" for none). */
  readonly header: string;
  /** The kernel writes this format's records (line, jsonl, csv). */
  readonly kernel?: KernelFormat;
  /** The host's writer of the records of `file` (grid). */
  writer?(file: string): RecordWriter;
}

/** Fills `into` with a record solved as `result`; returns it. */
export function fillRecord(into: OutputRecord, result: SolveRecord): OutputRecord {
  into.status = result.status;
  into.solution = result.solution;
  into.solutionBytes = null;
  into.error = result.error ?? null;
  return into;
}
