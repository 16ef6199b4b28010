/**
 * The fixture format of tdoku and test/fixtures: `puzzle:count[:solution]`, the puzzle being the
 * part before the first colon. A line with a comma is this format only when that part is a whole
 * puzzle, so a CSV row with a colon in another field stays CSV.
 */
import { SHAPES } from "../../model/shape.js";
import type { InputFormat } from "./format.js";

/** True for a line with a colon and no comma, or whose text before the first colon is N² characters (N = 4, 9, 16, 25) without a comma. */
function isColonLine(line: string): boolean {
  const end = line.indexOf(":");
  if (end < 0) return false;
  if (!line.includes(",")) return true;
  const puzzle = line.slice(0, end).trim();
  return !puzzle.includes(",") && SHAPES.some((shape) => shape.cells === puzzle.length);
}

export function colonFormat(): InputFormat {
  return {
    name: "colon",
    open: false,
    claims: isColonLine,
    read(line, lineNumber, emit) {
      const end = line.indexOf(":");
      emit(lineNumber, (end < 0 ? line : line.slice(0, end)).trim(), null);
    },
    flush() {},
  };
}
