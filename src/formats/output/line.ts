/**
 * `line` output: per record the N² symbols of the solution when there is exactly one, else the
 * status word alone (with `--limit 1` a solution is printed without proof that it is unique).
 * The 9×9 kernel writes the lines (assembly/text.ts); a record the host words gives it only its
 * solution.
 */
import type { OutputFormat } from "./format.js";

const none = (): null => null;

export const lineOutput: OutputFormat = {
  name: "line",
  header: "",
  kernel: { piece: () => "", puzzle: none, solution: (solution) => solution, guesses: none, error: none },
};
