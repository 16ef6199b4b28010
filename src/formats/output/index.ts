import { csvOutput } from "./csv.js";
import type { OutputFormat, OutputFormatName } from "./format.js";
import { gridOutput } from "./grid.js";
import { jsonlOutput } from "./jsonl.js";
import { lineOutput } from "./line.js";

export { OUTPUT_FORMATS, type OutputFormat, type OutputFormatName } from "./format.js";

export const outputFormats: Readonly<Record<OutputFormatName, OutputFormat>> = {
  line: lineOutput,
  grid: gridOutput,
  jsonl: jsonlOutput,
  csv: csvOutput,
};
