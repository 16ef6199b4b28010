/**
 * Which build this is, in one line, from the facts recorded at build time (build/facts.js):
 * what `sudoku-wasm --version` prints and the web page shows beside its results.
 */
import { buildFacts } from "../../build/facts.js";

/** "sudoku-wasm 0.1.0 (21564c52f127), asc 0.28.20 runtime=stub … noAssert": version, commit, compiler and the 9×9 kernel's flags. */
export function buildLine(facts: typeof buildFacts = buildFacts): string {
  const commit = `${facts.commit ?? "no commit"}${facts.dirty ? ", modified" : ""}`;
  return `sudoku-wasm ${facts.version} (${commit}), asc ${facts.assemblyscript} ${facts.flags.release ?? "(no release flags recorded)"}`;
}
