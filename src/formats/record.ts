/**
 * Records: one puzzle as the CLI reads it, wherever it came from.
 *
 *   file "a.txt" ─► reader ─► ReadRecord { index, line, file, text | error }
 *                                   │ parseRecord (puzzle.ts parsePuzzle)
 *                                   ▼
 *                             PuzzleRecord { …, grid (N² bytes) | error }
 *
 * `text` is the puzzle's cells as written, on one line (a grid's rows joined, separators
 * dropped), so it can be shown back and parsed in a worker. The grid size is a
 * {@link GridShape}; only 9×9 is solvable today, the layout leaves room for 16×16 and 25×25.
 */
import { CELLS, SIZE, type Grid, PuzzleError, parsePuzzle } from "../puzzle.js";

/** The side of a grid and its cell count (N and N²). */
export interface GridShape {
  size: number;
  cells: number;
}

/** The classic 9×9 shape. */
export const SHAPE_9: GridShape = { size: SIZE, cells: CELLS };

/** The cap under which solution counts are exact (`--count`, sicily1317). */
export const EXACT_COUNT_LIMIT = 1_000_000;

/** Every character the readers accept for an empty cell. */
export const EMPTIES = ".0_?-*xX";

/** Where a record starts: its 0-based position in the run, its 1-based line, its file. */
export interface RecordPlace {
  index: number;
  line: number;
  file: string;
}

/** A record as a format reader delivers it: the cells as written, or why it could not be read. */
export interface ReadRecord extends RecordPlace {
  text: string;
  /** Why the reader could not make out a puzzle (a short grid, a missing CSV column), without the place; or null. */
  error: string | null;
}

/** A record after parsing: exactly one of `grid` and `error` is set. */
export interface PuzzleRecord extends ReadRecord {
  grid: Grid | null;
}

/** Receives each record a reader finds: its start line, its text, and a reader error or null. */
export type EmitRecord = (line: number, text: string, error: string | null) => void;

/** "a.txt:12: reason": the message every bad record carries. */
export function placeMessage(file: string, line: number, reason: string): string {
  return `${file}:${line}: ${reason}`;
}

/**
 * Parses a record's text with {@link parsePuzzle} (any of {@link EMPTIES} for an empty cell);
 * a {@link PuzzleError} becomes the record's error, prefixed with its file and line.
 */
export function parseRecord(record: ReadRecord, shape: GridShape = SHAPE_9): PuzzleRecord {
  const { index, line, file, text } = record;
  if (record.error !== null) return { index, line, file, text, grid: null, error: placeMessage(file, line, record.error) };
  if (shape.cells !== CELLS) {
    return { index, line, file, text, grid: null, error: placeMessage(file, line, `${shape.size}×${shape.size} grids are not supported yet`) };
  }
  try {
    return { index, line, file, text, grid: parsePuzzle(text, EMPTIES), error: null };
  } catch (error) {
    if (!(error instanceof PuzzleError)) throw error;
    return { index, line, file, text, grid: null, error: placeMessage(file, line, error.message) };
  }
}
