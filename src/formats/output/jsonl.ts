/**
 * `jsonl` output: one JSON object per line, `index` (0-based in the run), `file`, `line` (1-based),
 * `puzzle` (as read), `status`, `solution` (or null), `count`, `guesses` (or null) and `error` (or
 * null): JSON.stringify's bytes for that object, written a piece at a time.
 */
import { STATUSES, type Status } from "../../solvers/solver.js";
import { type ByteOutput, NINE_CELLS, type OutputRecord, Piece } from "./bytes.js";
import { type RecordWriter, outputFormat } from "./format.js";

const INDEX = new Piece('{"index":');
const PUZZLE = new Piece(',"puzzle":');
/** The status and the key after it, per status. */
const STATUS = Object.fromEntries(STATUSES.map((status) => [status, new Piece(`,"status":"${status}","solution":`)])) as Record<Status, Piece>;
const NULL = new Piece("null");
const COUNT = new Piece(',"count":');
const GUESSES = new Piece(',"guesses":');
const ERROR = new Piece(',"error":');
const NO_ERROR = new Piece(',"error":null}\n');
const END = new Piece("}\n");
const QUOTE = 34;
/** The most bytes a record writes between two pieces of text: fixed words, numbers, 81 cells with their quotes. */
const ROOM = 256;

/** The file's name of a record as jsonl writes it, with what stands around it (also what the 9×9 kernel is given to write its records). */
export function jsonlFilePiece(file: string): string {
  return `,"file":${JSON.stringify(file)},"line":`;
}

class JsonlWriter implements RecordWriter {
  /** `,"file":NAME,"line":`, made once. */
  private readonly file: Piece;

  constructor(file: string) {
    this.file = new Piece(jsonlFilePiece(file));
  }

  write(out: ByteOutput, record: OutputRecord): void {
    out.room(ROOM + this.file.bytes.length);
    out.put(INDEX);
    out.number(record.index);
    out.put(this.file);
    out.number(record.line);
    out.put(PUZZLE);
    if (record.puzzle === null) {
      out.byte(QUOTE);
      out.copy(record.puzzleBytes, record.puzzleAt, NINE_CELLS);
      out.byte(QUOTE);
    } else {
      out.text(JSON.stringify(record.puzzle));
      out.room(ROOM);
    }
    out.put(STATUS[record.status]);
    if (record.solutionBytes !== null) {
      out.byte(QUOTE);
      out.copy(record.solutionBytes, record.solutionAt, NINE_CELLS);
      out.byte(QUOTE);
    } else if (record.solution !== null) {
      out.text(JSON.stringify(record.solution));
      out.room(ROOM);
    } else out.put(NULL);
    out.put(COUNT);
    out.number(record.count);
    out.put(GUESSES);
    const guesses = record.guesses;
    if (guesses === null || !Number.isFinite(guesses))
      out.put(NULL); // JSON has no NaN
    else out.number(guesses);
    if (record.error === null) return out.put(NO_ERROR);
    out.put(ERROR);
    out.text(JSON.stringify(record.error));
    out.room(END.bytes.length);
    out.put(END);
  }
}

export const jsonlOutput = outputFormat("jsonl", "", (file) => new JsonlWriter(file));
