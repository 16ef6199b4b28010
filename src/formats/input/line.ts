/**
 * The one-line format: N² cell characters on a line (81 for 9×9), `1`–`9` for clues and any
 * of `.0_?-*x` for an empty cell, optionally followed by white space and anything else
 * (a rating, a comment), which is ignored.
 */
import type { EmitRecord, GridShape } from "../record.js";
import type { InputFormat } from "./format.js";

/** True when `line` is N² characters, or N² characters then white space. */
function isOneLine(line: string, cells: number): boolean {
  if (line.length === cells) return true;
  if (line.length < cells) return false;
  const next = line.charCodeAt(cells);
  return next === 32 || next === 9;
}

/** The one-line reader. Lines of any other length read as one invalid record each. */
export function lineFormat(shape: GridShape): InputFormat {
  return {
    name: "line",
    open: false,
    claims: (line) => isOneLine(line, shape.cells),
    read(line, lineNumber, emit: EmitRecord) {
      emit(lineNumber, line.length > shape.cells && isOneLine(line, shape.cells) ? line.slice(0, shape.cells) : line, null);
    },
    flush() {},
  };
}
