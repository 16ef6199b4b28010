/**
 * The csv header of `sudoku-wasm canon`: `index,canon,puzzle,file,line`, then `automorphisms`
 * and `minimal` when asked, then `error`. Its own module so that `merge`, which must know it,
 * loads nothing of the minlex kernel.
 */
import type { CanonRequest } from "../../pool/batch.js";

/** The csv header of canon, for `request`. */
export function canonCsvHeader(request: Pick<CanonRequest, "automorphisms" | "minimal">): string {
  return (
    ["index", "canon", "puzzle", "file", "line", ...(request.automorphisms ? ["automorphisms"] : []), ...(request.minimal ? ["minimal"] : []), "error"].join(
      ",",
    ) + "\n"
  );
}
