/**
 * Records: one puzzle as the CLI reads it. A reader makes a ReadRecord (index, line, file, and the
 * cells as written on one line, or an error); {@link parseRecord} makes it a PuzzleRecord (grid,
 * box, alphabet, or an error) through puzzle.ts, so the CLI and the library read alike.
 */
import { type Alphabet, type Grid, DIGITS, PuzzleError, readPuzzle } from "../model/puzzle.js";

/** The cap under which solution counts are exact (`--count`, sicily1317). */
export const EXACT_COUNT_LIMIT = 1_000_000;

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
  /** N² bytes: 0 empty, 1..N. */
  grid: Grid | null;
  /** Box side of the grid (3 for 9×9; 3 too when the record could not be read). */
  box: number;
  /** The symbols the record uses, in which its solution is written. */
  alphabet: Alphabet;
}

/** Receives each record a reader finds: its start line, its text, and a reader error or null. */
export type EmitRecord = (line: number, text: string, error: string | null) => void;

/** "a.txt:12: reason": the message every bad record carries. */
export function placeMessage(file: string, line: number, reason: string): string {
  return `${file}:${line}: ${reason}`;
}

/** Parses a record's text through puzzle.ts; a PuzzleError becomes the record's error, prefixed with its place. */
export function parseRecord(record: ReadRecord, alphabet?: Alphabet): PuzzleRecord {
  const { index, line, file, text } = record;
  const invalid = (reason: string): PuzzleRecord => ({
    index,
    line,
    file,
    text,
    grid: null,
    box: 3,
    alphabet: DIGITS,
    error: placeMessage(file, line, reason),
  });
  if (record.error !== null) return invalid(record.error);
  try {
    const puzzle = readPuzzle(text, alphabet);
    return { index, line, file, text, grid: puzzle.grid, box: puzzle.shape.box, alphabet: puzzle.alphabet, error: null };
  } catch (error) {
    if (!(error instanceof PuzzleError)) throw error;
    return invalid(error.message);
  }
}
