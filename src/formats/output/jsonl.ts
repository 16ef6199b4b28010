/**
 * `jsonl` output: one JSON object per line, `index` (0-based in the run), `file`, `line` (1-based),
 * `puzzle` (as read), `status`, `solution` (or null), `count`, `guesses` (or null) and `error` (or
 * null): JSON.stringify's bytes for that object. The 9×9 kernel writes the records
 * (assembly/text.ts); this is what it is given for a file and for a record the host words.
 */
import type { OutputFormat } from "./format.js";

export const jsonlOutput: OutputFormat = {
  name: "jsonl",
  header: "",
  kernel: {
    piece: (file) => `,"file":${JSON.stringify(file)},"line":`,
    puzzle: (text) => JSON.stringify(text),
    solution: (solution) => JSON.stringify(solution),
    guesses: (guesses) => (Number.isFinite(guesses) ? String(guesses) : null), // JSON has no NaN
    error: (error) => JSON.stringify(error),
  },
};
