/**
 * The grid format: N lines of N cells, one row per line, with or without spaces and separators
 * (`|` between boxes, rows of `-+=|` between bands); the first row's width sets N. A blank line,
 * another format's line or the end of the file ends a grid early (one invalid record); a row of
 * the wrong width makes the grid invalid but is counted, so the next grid starts where it should.
 *
 * A 16-character line is a 16×16 row or a whole 4×4 puzzle. With `lineRuns`, a run of 16-cell rows
 * is one 16×16 grid only when it has at least 2 rows, more than half using a symbol outside `1`–`4`
 * (real 16×16 rows almost always do); otherwise each row is its own 4×4 record. A row of another
 * grid's width after such a run ends it and starts that grid.
 *
 * A line of 81, 256 or 625 cells is a whole puzzle, never a row: it ends a grid in progress and is one invalid record of its
 * own that says so (`--in grid` given a file of one puzzle per line). 16 cells stay a 16×16 row.
 */
import {
  type Alphabet,
  KNOWN_ALPHABETS,
  PuzzleError,
  checkClues,
  controlCharacterNote,
  numberedCellsNote,
  readPuzzle,
  untakenGridNote,
} from "../../model/puzzle.js";
import { type Shape, SHAPE_9, shapeName, shapeOfCells, shapeOfSide } from "../../model/shape.js";
import { EMPTY_MARKS, isEmptySymbol, symbolEmpties } from "../../model/empty-cells.js";
import type { EmitRecord } from "../record.js";
import { counted } from "../../model/whole-number.js";
import type { InputFormat } from "./format.js";

const WHITE_SPACE_AND_BARS = /[\s|]+/g;
const SEPARATOR_ONLY = /^[-+=|\s]+$/;
/** The widest row a grid in progress may claim, relative to its width (wider lines belong to other formats). */
const ROW_SLACK = 2;

/** A row's cells: the line without white space and `|`. */
export function rowCells(line: string): string {
  return line.replace(WHITE_SPACE_AND_BARS, "");
}

/** The shape of a whole puzzle when `cells` (a line's {@link rowCells}) holds one, never a row (81, 256 or 625 cells); else undefined. */
function wholePuzzleShape(cells: string): Shape | undefined {
  return shapeOfSide(cells.length) === undefined ? shapeOfCells(cells.length) : undefined;
}

/** True for a line that holds a whole puzzle, never a row: the grid reader ends a grid in progress before it. */
export function holdsWholePuzzle(line: string): boolean {
  return wholePuzzleShape(rowCells(line)) !== undefined;
}

/**
 * True for a whole 16×16 or 25×25 row written in lowercase letters (a known alphabet of its size in lowercase, `a`–`p` or
 * `1`–`9` then `a`–`g` for 16×16): its N cells are those symbols and empty marks. Such a row holds two letters in a row, as a
 * title does, but it is a row (the grid then says which of its characters no alphabet given holds).
 */
export function isLowercaseRow(line: string): boolean {
  const cells = rowCells(line);
  return (KNOWN_ALPHABETS.get(cells.length) ?? []).some((alphabet) => {
    const lower = alphabet.toLowerCase();
    if (lower === alphabet) return false; // digits only: no letters, no word
    for (const ch of cells) if (!lower.includes(ch) && !isEmptySymbol(ch, lower)) return false;
    return true;
  });
}

/** True for a line between bands: only `-+=|` and spaces, and not a row of N `-` empties. */
export function isSeparatorRow(line: string, size?: number): boolean {
  if (!SEPARATOR_ONLY.test(line)) return false;
  const width = rowCells(line).length;
  return line.includes("+") || line.includes("=") || (size === undefined ? shapeOfSide(width) === undefined : width !== size);
}

/** True for a line that can be a row: no `,` or `:`, and a grid width, or at most twice the width (9 when not known). */
function isRowLike(line: string, size?: number): boolean {
  if (line.includes(",") || line.includes(":")) return false;
  const width = rowCells(line).length;
  return width <= ROW_SLACK * (size ?? SHAPE_9.size) || (size === undefined && shapeOfSide(width) !== undefined);
}

/** A row whose cells are all 9×9 digits or empty marks. */
const NINE_CELLS = new RegExp(`^[0-9${EMPTY_MARKS.nine.replace("-", "\\-")}]*$`);

/** A row whose cells are all 4×4 symbols (`1`–`4`) or empty marks. */
const FOUR_BY_FOUR_CELLS = new RegExp(`^[${KNOWN_ALPHABETS.get(4)![0]}${symbolEmpties(KNOWN_ALPHABETS.get(4)![0]).replace("-", "\\-")}]*$`);

/** True when a run of 16-cell rows reads as 4×4 lines rather than one 16×16 grid (see the file comment). */
function isRunOfFourByFourLines(rows: readonly string[]): boolean {
  const foreignRows = rows.filter((row) => !FOUR_BY_FOUR_CELLS.test(row)).length;
  return rows.length < 2 || foreignRows * 2 <= rows.length;
}

/** The grid format's reader, which also tells whether the rows read so far are a run of 4×4 lines. */
export interface GridFormat extends InputFormat {
  /** True while the rows read are 16-cell rows that, ended now, would be 4×4 lines each (with `lineRuns`; see the file comment). */
  readonly lineRun: boolean;
}

/** The grid reader: collects N rows, then emits one record of the rows joined at its first row's line (an error names the row's line). */
export function gridFormat(lineRuns: boolean, alphabet?: Alphabet): GridFormat {
  const rows: string[] = [];
  const rowLines: number[] = [];
  let shape: Shape = SHAPE_9;
  /** The rows this grid takes: its shape's, or W for two first rows of W cells, a width no solver takes (one invalid record). */
  let side = shape.size;
  let widthError: string | null = null;
  /** The grid's first line as written. */
  let firstLine = "";

  /**
   * Whether a first line of `cells`, a width no grid has, may be the cut or overlong first row of a grid of `side` (its
   * error then names the row, and the grid still takes its own rows): within a quarter of the side, and for 9×9 digits,
   * three or more cells that are all digits or empty marks.
   */
  function mayBeRowOf(cells: string, side: number): boolean {
    if (Math.abs(cells.length - side) > side / 4) return false;
    return side !== SHAPE_9.size || (alphabet !== undefined && alphabet.length === side) || (cells.length >= 3 && NINE_CELLS.test(cells));
  }

  function emitGrid(emit: EmitRecord): void {
    if (lineRuns && shape.size === 16 && isRunOfFourByFourLines(rows)) {
      rows.forEach((row, i) => emit(rowLines[i], row, null));
    } else {
      const text = rows.join("");
      const error =
        side !== shape.size
          ? untakenGridMessage(rows, rowLines, side)
          : rows.length < shape.size
            ? shortGridMessage(rows, shape)
            : (widthError ?? cellError(text, shape, rowLines, alphabet));
      emit(rowLines[0], text, error);
    }
    rows.length = 0;
    rowLines.length = 0;
    widthError = null;
  }

  return {
    name: "grid",
    get open() {
      return rows.length > 0;
    },
    get lineRun() {
      return lineRuns && rows.length > 0 && shape.size === 16 && isRunOfFourByFourLines(rows);
    },
    claims(line) {
      const size = rows.length > 0 ? shape.size : undefined;
      if (isSeparatorRow(line, size)) return true;
      // A row of another grid's width after a run of 4×4 lines starts that grid: the run ends.
      if (lineRuns && size === 16 && isRunOfFourByFourLines(rows)) {
        const width = rowCells(line).length;
        if (width !== 16 && shapeOfSide(width) !== undefined) return false;
      }
      return isRowLike(line, size);
    },
    read(line, lineNumber, emit) {
      if (isSeparatorRow(line, rows.length > 0 ? shape.size : undefined)) return;
      const cells = rowCells(line);
      const whole = wholePuzzleShape(cells);
      if (whole !== undefined) {
        if (rows.length > 0) emitGrid(emit);
        emit(lineNumber, cells, wholePuzzleMessage(whole));
        return;
      }
      if (rows.length === 1 && shapeOfSide(rows[0].length) === undefined && shapeOfSide(cells.length) !== undefined && !mayBeRowOf(rows[0], cells.length)) {
        // The line before was no row of the grid this line starts (a title in capitals, a count, a number): a record of its own,
        // so that this grid, and every grid after it, takes its own rows
        emit(rowLines[0], firstLine, wordLineMessage(firstLine));
        rows.length = 0;
        rowLines.length = 0;
        widthError = null;
      }
      if (rows.length === 0) {
        shape = shapeOfSide(cells.length) ?? SHAPE_9;
        side = shape.size;
        firstLine = line;
      }
      const untaken = cells.length >= MIN_UNTAKEN_SIDE && cells.length <= MAX_UNTAKEN_SIDE && shapeOfSide(cells.length) === undefined;
      if (rows.length === 1 && cells.length === rows[0].length && untaken) side = cells.length;
      // a later row of the shape's own width: a grid of that shape whose first rows are cut (or too long), not a W×W grid
      else if (side !== shape.size && cells.length === shape.size && rows.length < shape.size) side = shape.size;
      if (cells.length !== shape.size && widthError === null) {
        widthError = `row ${rows.length + 1} of the grid (line ${lineNumber}) has ${counted(cells.length, "cell")}, expected ${shape.size}${numberedCellsNote(line)}`;
      }
      rows.push(cells);
      rowLines.push(lineNumber);
      if (rows.length === side) emitGrid(emit);
    },
    flush(emit) {
      if (rows.length > 0) emitGrid(emit);
    },
  };
}

/**
 * The reading's error for a grid's bad character or repeated clue, naming the line of the cell's row (the record names
 * the grid's first line); null when the grid has neither (its reading reports any other fault).
 */
function cellError(text: string, shape: Shape, rowLines: readonly number[], alphabet: Alphabet | undefined): string | null {
  try {
    const read = readPuzzle(text, alphabet);
    checkClues(read.grid, read.shape, alphabet);
    return null;
  } catch (error) {
    if (!(error instanceof PuzzleError) || (error.reason !== "character" && error.reason !== "conflict") || error.cell < 0) return null;
    return `${error.message} (line ${rowLines[Math.floor(error.cell / shape.size)]})`;
  }
}

/** The narrowest and widest grid read as a size no solver takes (other rows are cut or joined lines of a grid of a known size). */
const MIN_UNTAKEN_SIDE = 5;
const MAX_UNTAKEN_SIDE = 36;

/** The error of a grid whose first two rows have `side` cells, a width no solver takes: it says so, and names a row of another width. */
function untakenGridMessage(rows: readonly string[], rowLines: readonly number[], side: number): string {
  const wrong = rows.findIndex((row) => row.length !== side);
  if (wrong >= 0)
    return `row ${wrong + 1} of the grid (line ${rowLines[wrong]}) has ${counted(rows[wrong].length, "cell")}, expected ${side}${untakenGridNote(side)}`;
  if (rows.length < side) return `the grid ends after ${counted(rows.length, "row")}, expected ${side}${untakenGridNote(side)}`;
  return untakenGridNote(side).slice(2); // "a 12×12 grid, which no solver here takes (…)"
}

/** The error of a line that holds a whole puzzle where a grid's row was expected. */
function wholePuzzleMessage(shape: Shape): string {
  return `the line has ${shape.cells} cells, a whole ${shapeName(shape)} puzzle, not a row of ${shape.size}: the input looks like one puzzle per line (read it with --in line, or leave out --in to detect the format)`;
}

/**
 * The error of a line with a word that no grid follows (a title before nothing, a blank line or a puzzle's line): no row of
 * any grid, whatever its width, so it is the message of a line of 9×9 cells too short, as for any line nobody claims.
 */
export function wordLineMessage(line: string): string {
  return shortGridMessage([rowCells(line)], SHAPE_9);
}

function shortGridMessage(rows: readonly string[], shape: Shape): string {
  if (rows.length === 1 && rows[0].length !== shape.cells) {
    return `expected ${shape.cells} cells on one line or a grid of ${shape.size} rows, got one line of ${counted(rows[0].length, "cell")}${controlCharacterNote(rows[0])}`;
  }
  const square = rows.every((row) => row.length === rows.length); // 6 rows of 6: a grid of a size no solver takes
  return `the grid ends after ${counted(rows.length, "row")}, expected ${shape.size}${square ? untakenGridNote(rows.length) : ""}`;
}
