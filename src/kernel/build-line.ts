/**
 * Which build this is, in one line, from the facts recorded at build time (build/facts.js):
 * what `sudoku-wasm --version` prints and the web page shows beside its results.
 */
import { buildFacts } from "../../build/facts.js";

/** "sudoku-wasm 0.1.0 (21564c52f127), asc 0.28.20 runtime=stub … noAssert": version, commit, compiler and the 9×9 kernel's flags. */
export function buildLine(): string {
  const commit = `${buildFacts.commit ?? "no commit"}${buildFacts.dirty ? ", modified" : ""}`;
  return `sudoku-wasm ${buildFacts.version} (${commit}), asc ${buildFacts.assemblyscript} ${buildFacts.flags.release ?? "(no release flags recorded)"}`;
}
