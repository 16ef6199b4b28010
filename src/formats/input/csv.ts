/**
 * CSV: the puzzle is the column named `quizzes`, `puzzle`, `puzzles`, `quiz`, `question`, `grid` or
 * `sudoku` (any case) of the last header, else the first column. A row is a header only when it
 * names a puzzle column and every field is a column name ({@link isHeaderRow}). Fields follow RFC
 * 4180: quoted fields may hold commas and doubled quotes; a record stays on one line. A line that
 * is only a puzzle column's name is a one-column file's header, whatever format the rows are in.
 * A puzzle field that the CSV output guarded against formula injection (`'` then `=`, `+`, `-`,
 * `@`, a tab or a CR) is read without that `'`, so the CLI reads its own CSV back.
 */
import { createRequire } from "node:module";
import { excerpt } from "../../model/excerpt.js";
import { FORMULA_START } from "../output/format.js";
import { SHAPES } from "../../model/shape.js";
import type { InputFormat } from "./format.js";

/** csv-parse's synchronous parser, loaded at the first line with a quote: most inputs have none, and it is read per line. */
let parseQuoted: typeof import("csv-parse/sync")["parse"] | undefined;
const csvParse = () => (parseQuoted ??= (createRequire(import.meta.url)("csv-parse/sync") as typeof import("csv-parse/sync")).parse);

/** Header names that mark the puzzle column. */
export const PUZZLE_COLUMNS: readonly string[] = ["quizzes", "quiz", "puzzle", "puzzles", "question", "grid", "sudoku"];

/** The fields of one CSV line, unquoted and trimmed (a malformed line throws); a line without quotes is split directly, ~100× faster. */
export function csvFields(line: string): string[] {
  if (!line.includes('"')) return line.split(",").map((field) => field.trim());
  const [fields] = csvParse()(line, { trim: true, relax_column_count: true }) as string[][];
  return fields ?? [];
}

/** A column name: a letter or `_` first, then letters, digits, `_`, `-`, spaces, parentheses (no `.`, which marks an empty cell). */
const COLUMN_NAME = /^[\p{L}_][\p{L}\p{N}_ ()-]*$/u;
/** Lengths of a puzzle on one line (4×4, 9×9, 16×16, 25×25): a field this long is read as a puzzle, never a name. */
const PUZZLE_LENGTHS = new Set(SHAPES.map((shape) => shape.cells));

/** True when a field can be a column name: empty, or a name ({@link COLUMN_NAME}) that is not as long as a puzzle. */
const isColumnName = (field: string): boolean => field === "" || (COLUMN_NAME.test(field) && !PUZZLE_LENGTHS.has(field.length));

/** The puzzle column a header row names, or -1 when the row is no header (it names no puzzle column, or holds other values). */
export function isHeaderRow(fields: readonly string[]): number {
  const named = fields.findIndex((field) => PUZZLE_COLUMNS.includes(field.toLowerCase()));
  return named >= 0 && fields.every(isColumnName) ? named : -1;
}

/** A field without the `'` the CSV output puts before a text a spreadsheet would read as a formula (output/format.ts csvField). */
export function unguarded(field: string): string {
  return field.charCodeAt(0) === 39 /* ' */ && FORMULA_START.test(field.slice(1, 2)) ? field.slice(1) : field;
}

/** The CSV reader: remembers the puzzle column from the last header line. */
export function csvFormat(): InputFormat {
  let column = 0;
  return {
    name: "csv",
    open: false,
    // A row with a comma, or a one-column header (`quizzes` alone on its line: a header, never a puzzle).
    claims: (line) => line.includes(",") || PUZZLE_COLUMNS.includes(line.toLowerCase()),
    read(line, lineNumber, emit) {
      let fields: string[];
      try {
        fields = csvFields(line);
      } catch (error) {
        // (the parser reads the row alone, so its "at line 1" is not the file's line, which the record names)
        emit(lineNumber, line, `not a CSV row: ${excerpt((error as Error).message.replace(/ at line \d+/g, ""), 200)}`);
        return;
      }
      const named = isHeaderRow(fields);
      if (named >= 0) {
        column = named;
        return;
      }
      if (column >= fields.length) {
        emit(lineNumber, line, `expected a puzzle in CSV column ${column + 1}, the row has ${fields.length} columns`);
      } else {
        emit(lineNumber, unguarded(fields[column]), null);
      }
    },
    flush() {},
  };
}
