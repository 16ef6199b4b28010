/**
 * The one-line format: N² cells on a line (9×9: `1`–`9`, `.0_?-*x` empty; other sizes in their
 * alphabets, `.` or `-` empty), then optionally white space and anything else. A 16-character line
 * is a 4×4 puzzle only with a 4-symbol `--alphabet`; otherwise it goes to the grid reader.
 */
import { type Shape, SHAPE_9, SHAPES } from "../../model/shape.js";
import type { Alphabet } from "../../model/puzzle.js";
import type { EmitRecord } from "../record.js";
import type { InputFormat } from "./format.js";

/** True when `line` is N² characters, or N² characters then white space. */
function isOneLine(line: string, cells: number): boolean {
  if (line.length === cells) return true;
  if (line.length < cells) return false;
  const next = line.charCodeAt(cells);
  return next === 32 || next === 9;
}

/** The one-line reader (`alphabet`: the `--alphabet` given, if any). Lines of any other length read as one invalid record each. */
export function lineFormat(alphabet?: Alphabet): InputFormat {
  const fourByFour = alphabet?.length === 4;
  // 9×9 first: the common case is settled by the first test.
  const shapes: readonly Shape[] = SHAPES.filter((shape) => shape.size !== 4 || fourByFour).sort((a, b) => Number(b === SHAPE_9) - Number(a === SHAPE_9));
  const shapeOf = (line: string) => shapes.find((shape) => isOneLine(line, shape.cells));
  return {
    name: "line",
    open: false,
    claims: (line) => shapeOf(line) !== undefined,
    read(line, lineNumber, emit: EmitRecord) {
      const shape = shapeOf(line) ?? SHAPES.find((s) => s.cells === line.length);
      emit(lineNumber, shape && line.length > shape.cells ? line.slice(0, shape.cells) : line, null);
    },
    flush() {},
  };
}
