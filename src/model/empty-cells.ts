/**
 * What marks an empty cell, for every reader of puzzle text, in one place (each reader names its set):
 *
 *   reader                                          empty cells                      set
 *   9×9 text: the library (parsePuzzle, solve, a    . 0 _ ? - * x X                  nine
 *   pool's lines and byte streams) and the CLI
 *   (solve, its fast path, merge)
 *   N×N text (other sizes, or other alphabets)      . -, and 0 when the alphabet     symbols (+ isEmptySymbol)
 *                                                   does not use it
 *
 * 9×9 text takes the blanks puzzle collections use, wherever it is read (the 9×9 kernel's line scan, assembly/text.ts,
 * takes the same); N×N alphabets use letters (`X` is a 25×25 symbol), so only marks no alphabet may hold are empty.
 */
/** The characters that mark an empty cell, per reader (see the table above). */
export const EMPTY_MARKS = {
  /** 9×9 text in digits, the library's and the CLI's. */
  nine: ".0_?-*xX",
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
