/**
 * The interface every input format implements, and the names `--in` accepts. A reader sees one
 * file's trimmed lines, blank and `#` lines removed, and reports each record once through {@link EmitRecord}.
 */
import type { EmitRecord } from "../record.js";

/** Input format names for `--in`; `auto` detects the format of each record. */
export const INPUT_FORMATS = ["auto", "line", "grid", "csv", "colon"] as const;
export type InputFormatName = (typeof INPUT_FORMATS)[number];

/** One input format's reader for one file. */
export interface InputFormat {
  readonly name: Exclude<InputFormatName, "auto">;
  /** True when `line` looks like this format (used by detection and to continue a grid). */
  claims(line: string): boolean;
  /** Reads one line; `lineNumber` is 1-based in its file. */
  read(line: string, lineNumber: number, emit: EmitRecord): void;
  /** True while a record spans lines read so far (a grid with fewer than N rows). */
  readonly open: boolean;
  /** Ends a record in progress (at a blank line, another format's line, or the end of the file). */
  flush(emit: EmitRecord): void;
}
