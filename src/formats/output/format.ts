/**
 * The interface every output format implements, and the names `--out` accepts. A format writes
 * records as bytes into a {@link ByteOutput}, never to a stream, so workers write their own
 * batches and the main thread only concatenates.
 */
import type { SolveRecord } from "../../solvers/solver.js";
import type { ReadRecord } from "../record.js";
import { ByteOutput, type OutputRecord, outputRecord } from "./bytes.js";

/** Output format names for `--out`. */
export const OUTPUT_FORMATS = ["line", "grid", "jsonl", "csv"] as const;
export type OutputFormatName = (typeof OUTPUT_FORMATS)[number];

/** Writes the records of one file in one format. */
export interface RecordWriter {
  /** Writes `record` with its line end. */
  write(out: ByteOutput, record: OutputRecord): void;
}

export interface OutputFormat {
  readonly name: OutputFormatName;
  /** Written once before the first record ("" for none). */
  readonly header: string;
  /** The writer of the records of `file` (the pieces it repeats are made once). */
  writer(file: string): RecordWriter;
  /** The text for one record, ending with a line end: the writer's bytes. */
  format(record: ReadRecord, result: SolveRecord): string;
}

/** Fills `into` with a record read as `read` and solved as `result`; returns it. */
export function fillRecord(into: OutputRecord, read: ReadRecord, result: SolveRecord): OutputRecord {
  into.index = read.index;
  into.line = read.line;
  into.puzzle = read.text;
  into.status = result.status;
  into.count = result.count;
  into.solution = result.solution;
  into.solutionBytes = null;
  into.guesses = result.guesses;
  into.error = result.error ?? null;
  return into;
}

const decoder = new TextDecoder();

/** An output format with `writer`; its `format` is the writer's bytes as text. */
export function outputFormat(name: OutputFormatName, header: string, writer: (file: string) => RecordWriter): OutputFormat {
  return {
    name,
    header,
    writer,
    format(read, result) {
      const out = new ByteOutput();
      writer(read.file).write(out, fillRecord(outputRecord(), read, result));
      return decoder.decode(out.written());
    },
  };
}
