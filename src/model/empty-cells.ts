/**
 * What marks an empty cell, for every reader of puzzle text, in one place. The readers accept
 * different marks on purpose; each difference is a named set here, and each reader names the
 * set it takes, so that none keeps a copy that could drift:
 *
 *   reader                                         empty cells                      set
 *   library 9×9 text (parsePuzzle, solve, …)       . 0                              digits
 *   CLI 9×9 records (solve, its fast path, merge)  . 0 _ ? - * x X                  records
 *   N×N text: 4×4, 16×16, 25×25, or 9×9 in         . -, and 0 when the alphabet     symbols (+ isEmptySymbol)
 *   another alphabet (library and CLI alike)       does not use it
 *
 * Why they differ: the library's 9×9 reader keeps the common one-line notation and reads
 * anything else as a mistake; the CLI reads the blanks that puzzle collections use; N×N
 * alphabets use letters (`X` is a 25×25 symbol), so only marks no alphabet may hold are empty
 * there (checkAlphabet refuses an alphabet with `.` or `-`).
 *
 * An alphabet is taken here as the plain string of its symbols (puzzle.ts's `Alphabet`)
 * so that this table, which the puzzle readers import, imports none of them.
 */
/** The characters that mark an empty cell, per reader (see the table above). */
export const EMPTY_MARKS = {
  /** The library's 9×9 one-line text. */
  digits: ".0",
  /** The CLI's 9×9 records. */
  records: ".0_?-*xX",
  /** N×N text in any alphabet; `0` too when the alphabet does not use it ({@link isEmptySymbol}). */
  symbols: ".-",
} as const;

/** True when `ch` marks an empty cell of N×N text in `alphabet`: `.`, `-`, or `0` when the alphabet has no `0`. */
export function isEmptySymbol(ch: string, alphabet: string): boolean {
  return EMPTY_MARKS.symbols.includes(ch) || (ch === "0" && !alphabet.includes("0"));
}

/** Every character that marks an empty cell of N×N text in `alphabet`, in the order above. */
export function symbolEmpties(alphabet: string): string {
  return EMPTY_MARKS.symbols + (alphabet.includes("0") ? "" : "0");
}
