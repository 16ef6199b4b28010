/**
 * The small corpus the `sudoku-wasm canon` tests run: a 17-clue puzzle, the same puzzle moved by
 * a symmetry, one with a clue fewer (many solutions) and three that cannot be read as puzzles
 * or hold a repeated clue.
 */
export const SEVENTEEN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/** SEVENTEEN transposed and with digits 1↔2: the same puzzle up to symmetry. */
export const MOVED = Array.from({ length: 81 }, (_, i) => SEVENTEEN[(i % 9) * 9 + Math.floor(i / 9)].replace(/[12]/, (d) => (d === "1" ? "2" : "1"))).join("");
/** A puzzle with many solutions (the first 16 clues of SEVENTEEN). */
export const FEWER = SEVENTEEN.replace(/4(?=\.*$)/, ".");
export const CORPUS = [SEVENTEEN, "not a puzzle", MOVED, "11" + ".".repeat(79), FEWER, "0".repeat(81)];
