/**
 * The fixture format of tdoku and test/fixtures: `puzzle:count[:solution]`, the puzzle being the
 * part before the first colon. A line with a comma is this format only when that part is a whole
 * puzzle, so a CSV row with a colon in another field stays CSV.
 */
import { SHAPES } from "../../model/shape.js";
import type { InputFormat } from "./format.js";

/** True when the text of `line` before its first colon is N² characters (N = 4, 9, 16, 25) without a comma: a puzzle as written. */
export function holdsColonPuzzle(line: string): boolean {
  const puzzle = line.slice(0, line.indexOf(":")).trim();
  return !puzzle.includes(",") && SHAPES.some((shape) => shape.cells === puzzle.length);
}

/** True for a line with a colon and no comma, or that holds a puzzle before its first colon. */
function isColonLine(line: string): boolean {
  if (!line.includes(":")) return false;
  return !line.includes(",") || holdsColonPuzzle(line);
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
