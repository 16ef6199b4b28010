/**
 * The fixture format of tdoku and test/fixtures: `puzzle:count[:solution]` lines.
 * The puzzle is the part before the first colon; the count and solution are not used.
 */
import type { InputFormat } from "./format.js";

/** The `puzzle:count[:solution]` reader. */
export function colonFormat(): InputFormat {
  return {
    name: "colon",
    open: false,
    claims: (line) => line.includes(":"),
    read(line, lineNumber, emit) {
      const end = line.indexOf(":");
      emit(lineNumber, (end < 0 ? line : line.slice(0, end)).trim(), null);
    },
    flush() {},
  };
}
