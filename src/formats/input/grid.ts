/**
 * The grid format: N lines of N cells (9 of 9), one row per line, with or without spaces
 * between cells and with or without separators: `|` between boxes, and rows made of
 * `-`, `+`, `=` and `|` between bands (`------+-------+------`). Rows of one grid follow
 * each other; a blank line, a line of another format or the end of the file ends a grid
 * early, which gives one invalid record. A row of the wrong width makes the grid invalid
 * but is still counted, so the next grid starts where it should.
 *
 *   5 3 . | . 7 . | . . .        53..7....        <- both are row 1
 *   ------+-------+------        (no separators)
 */
import type { EmitRecord, GridShape } from "../record.js";
import type { InputFormat } from "./format.js";

const WHITE_SPACE_AND_BARS = /[\s|]+/g;
const SEPARATOR_ONLY = /^[-+=|\s]+$/;

/** A row's cells: the line without white space and `|`. */
export function rowCells(line: string): string {
  return line.replace(WHITE_SPACE_AND_BARS, "");
}

/**
 * True for a line between bands: only `-`, `+`, `=`, `|` and spaces, and not a row of N
 * `-` empties (it has `+` or `=`, or another width).
 */
export function isSeparatorRow(line: string, size: number): boolean {
  if (!SEPARATOR_ONLY.test(line)) return false;
  return line.includes("+") || line.includes("=") || rowCells(line).length !== size;
}

/** True for a line that can be a row: no `,` or `:`, and at most 2N cells. */
function isRowLike(line: string, size: number): boolean {
  if (line.includes(",") || line.includes(":")) return false;
  return rowCells(line).length <= 2 * size;
}

/** The grid reader: collects N rows, then emits one record whose text is the rows joined. */
export function gridFormat(shape: GridShape): InputFormat {
  const rows: string[] = [];
  let startLine = 0;
  let widthError: string | null = null;

  function emitGrid(emit: EmitRecord): void {
    const text = rows.join("");
    const error = rows.length < shape.size ? shortGridMessage(rows, shape) : widthError;
    emit(startLine, text, error);
    rows.length = 0;
    widthError = null;
  }

  return {
    name: "grid",
    get open() {
      return rows.length > 0;
    },
    claims: (line) => isSeparatorRow(line, shape.size) || isRowLike(line, shape.size),
    read(line, lineNumber, emit) {
      if (isSeparatorRow(line, shape.size)) return;
      const cells = rowCells(line);
      if (rows.length === 0) startLine = lineNumber;
      if (cells.length !== shape.size && widthError === null) {
        widthError = `row ${rows.length + 1} of the grid (line ${lineNumber}) has ${cells.length} cells, expected ${shape.size}`;
      }
      rows.push(cells);
      if (rows.length === shape.size) emitGrid(emit);
    },
    flush(emit) {
      if (rows.length > 0) emitGrid(emit);
    },
  };
}

function shortGridMessage(rows: readonly string[], shape: GridShape): string {
  if (rows.length === 1 && rows[0].length !== shape.cells) {
    return `expected ${shape.cells} cells on one line or a grid of ${shape.size} rows, got one line of ${rows[0].length} cells`;
  }
  return `the grid ends after ${rows.length} row${rows.length === 1 ? "" : "s"}, expected ${shape.size}`;
}
