/**
 * CSV with a header: the puzzle is the column named `quizzes` (Kaggle), `puzzle`, `puzzles`,
 * `quiz`, `question`, `grid` or `sudoku` (any case); other columns (`solutions`, `clues`,
 * `difficulty`, …) are ignored. A header may appear again later (concatenated files).
 * Without a header the first column is the puzzle. Fields may be wrapped in double quotes.
 */
import type { InputFormat } from "./format.js";

/** Header names that mark the puzzle column. */
export const PUZZLE_COLUMNS: readonly string[] = ["quizzes", "quiz", "puzzle", "puzzles", "question", "grid", "sudoku"];

/** The fields of one CSV line, trimmed and unquoted (puzzles never contain commas or quotes). */
export function csvFields(line: string): string[] {
  return line.split(",").map((field) => {
    const trimmed = field.trim();
    return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1).trim() : trimmed;
  });
}

/** The CSV reader: remembers the puzzle column from the last header line. */
export function csvFormat(): InputFormat {
  let column = 0;
  return {
    name: "csv",
    open: false,
    claims: (line) => line.includes(","),
    read(line, lineNumber, emit) {
      const fields = csvFields(line);
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
