/**
 * CSV with a header: the puzzle is the column named `quizzes` (Kaggle), `puzzle`, `puzzles`,
 * `quiz`, `question`, `grid` or `sudoku` (any case); other columns (`solutions`, `clues`,
 * `difficulty`, …) are ignored. A header may appear again later (concatenated files).
 * Without a header the first column is the puzzle. Fields follow RFC 4180 (csv-parse):
 * quoted fields may hold commas and doubled quotes; a record stays on one line.
 */
import { parse } from "csv-parse/sync";
import { excerpt } from "../../excerpt.js";
import type { InputFormat } from "./format.js";

/** Header names that mark the puzzle column. */
export const PUZZLE_COLUMNS: readonly string[] = ["quizzes", "quiz", "puzzle", "puzzles", "question", "grid", "sudoku"];

/**
 * The fields of one CSV line, unquoted and trimmed; a malformed line throws csv-parse's error.
 * A line without quotes is split directly (RFC 4180 allows no comma inside an unquoted
 * field), which is ~100× faster than csv-parse on Kaggle's million-line files.
 */
export function csvFields(line: string): string[] {
  if (!line.includes('"')) return line.split(",").map((field) => field.trim());
  const [fields] = parse(line, { trim: true, relax_column_count: true }) as string[][];
  return fields ?? [];
}

/** The CSV reader: remembers the puzzle column from the last header line. */
export function csvFormat(): InputFormat {
  let column = 0;
  return {
    name: "csv",
    open: false,
    claims: (line) => line.includes(","),
    read(line, lineNumber, emit) {
      let fields: string[];
      try {
        fields = csvFields(line);
      } catch (error) {
        emit(lineNumber, line, `not a CSV row: ${excerpt((error as Error).message, 200)}`);
        return;
      }
      const named = fields.findIndex((field) => PUZZLE_COLUMNS.includes(field.toLowerCase()));
      if (named >= 0) {
        column = named;
        return;
      }
      if (column >= fields.length) {
        emit(lineNumber, line, `expected a puzzle in CSV column ${column + 1}, the row has ${fields.length} columns`);
      } else {
        emit(lineNumber, fields[column], null);
      }
    },
    flush() {},
  };
}
