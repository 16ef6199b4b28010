/**
 * The public benchmark sets by name: where each comes from, how it is normalised and what the
 * result must be (count and SHA-256), so that `sudoku-wasm datasets fetch` makes the same bytes
 * on every machine. Every URL is a raw file of a public repository at a pinned commit.
 *
 * Most 9×9 sets are tdoku's (its data.zip); they come from repositories that copied its files,
 * whose bytes could be checked.
 *
 * A catalog of the same shape can be given as a JSON file (`{ "sets": [ … ] }`) through
 * `--catalog FILE` or SUDOKU_WASM_DATASETS_CATALOG, for a mirror or a private set.
 */
import { nodeBuiltin } from "../kernel/kernel-source.js";
import { ALPHABETS, type SourceFormat, decodeLineNumbers } from "./normalise.js";

/** One file a set is made from. */
export interface CatalogSource {
  /** Where to download it (http or https). */
  url: string;
  /** SHA-256 of the downloaded bytes (hex), where known: checked before anything is made from them. */
  sha256?: string;
  /** For a zip file: the path of the member that holds the puzzles. */
  member?: string;
  format: SourceFormat;
  /** Source lines left out (1-based line numbers, delta-encoded: `"10,45"` is lines 10 and 55). */
  setAside?: string;
}

/** One public set. */
export interface CatalogSet {
  /** The name `--datasets` takes, and the cached file's name without `.txt`. */
  name: string;
  /** The grid's side: 9, 16 or 25. */
  size: number;
  /** Puzzles in the normalised file. */
  count: number;
  /** SHA-256 of the normalised file (hex). */
  sha256: string;
  /** The solution counts its puzzles have: one each, or two or more each. */
  solutions: "unique" | "multiple";
  /** What it is, in a line. */
  description: string;
  /** Who made it and where it is copied from, as the sources state. */
  credit: string;
  /** The licence as the sources state it ("none stated" where they state none). */
  licence: string;
  /** The files it is made from, in order. */
  sources: CatalogSource[];
  /** Why it cannot be fetched, when it cannot (then `sources` may be empty and `sha256` unknown). */
  unavailable?: string;
}

/** The source lines of forum_hardest_1905_11plus left out: 4,000 drawn at random from its 48,766, delta-encoded. */
const FORUM_HARDEST_1905_SET_ASIDE = [
  "10,45,15,4,15,17,4,18,2,2,15,4,7,4,13,7,2,5,2,8,15,4,34,8,6,22,12,31,41,1,8,26,9,15,22,9,40,2,3,1,17,1,31,16,8,11,2,11,14,19,5,4,3,7,7,4,11,",
  "21,4,6,3,2,4,4,16,29,7,15,9,6,58,3,3,2,2,16,16,30,5,13,11,16,12,5,17,25,48,7,6,1,8,7,8,11,5,12,23,16,2,3,3,25,12,19,2,1,4,6,23,5,1,1,13,28,",
  "32,3,7,7,11,10,21,19,7,21,30,3,2,2,1,37,17,27,1,3,5,21,2,1,5,18,3,2,17,8,17,1,12,36,6,37,15,25,25,5,1,4,11,14,7,15,11,2,7,17,15,19,21,11,2,",
  "17,10,5,1,3,5,1,9,64,3,6,37,27,29,3,40,34,1,4,2,42,19,7,6,12,11,9,13,2,8,9,1,20,8,6,17,2,1,2,35,30,4,5,29,2,11,10,7,9,39,10,5,4,30,7,2,11,",
  "30,1,19,1,13,5,11,9,25,11,9,6,3,3,2,1,9,4,9,34,3,12,5,1,3,8,9,6,2,2,2,17,21,19,6,12,4,41,14,2,2,4,6,3,1,4,18,1,24,7,2,11,4,2,2,7,9,10,3,5,",
  "16,5,10,1,4,24,15,9,2,48,18,10,3,15,4,34,3,9,4,17,7,2,3,23,7,22,6,5,45,3,50,2,1,3,4,5,28,9,5,3,1,16,1,3,2,30,2,13,6,21,14,4,10,1,21,6,3,22,",
  "12,15,18,6,5,8,3,7,7,7,3,5,13,5,4,1,16,6,5,27,15,22,44,3,13,7,1,1,8,14,8,29,4,9,9,6,2,9,14,24,7,6,41,3,13,10,9,7,36,12,12,7,19,1,18,13,3,9,",
  "6,7,35,2,1,18,8,7,4,3,14,18,8,3,31,15,4,2,1,72,7,21,1,10,3,8,3,1,17,10,8,8,9,5,3,16,14,12,26,5,40,19,3,22,1,10,3,22,57,6,19,8,28,2,5,29,12,",
  "14,10,13,20,6,4,14,5,11,5,47,30,16,5,4,7,9,27,11,1,14,5,7,2,12,1,3,6,12,2,10,31,25,2,14,2,6,7,10,1,72,1,2,1,10,23,17,1,1,5,8,12,8,19,24,3,8,",
  "6,8,1,1,10,19,3,47,59,15,15,33,4,7,2,2,17,4,3,1,2,7,22,1,63,3,5,13,8,16,5,1,13,8,19,8,36,6,25,13,11,13,26,5,6,2,5,6,2,3,10,11,8,15,9,10,39,",
  "15,10,20,2,3,22,31,17,10,10,16,13,13,30,26,2,2,12,4,17,6,16,10,6,2,10,39,10,1,9,16,7,19,8,18,27,1,16,5,2,5,10,14,19,18,6,37,8,10,12,4,2,5,",
  "24,18,15,13,8,27,1,22,28,2,24,7,21,33,9,13,1,21,3,8,12,2,20,21,40,22,4,47,27,16,9,8,4,3,1,13,4,12,7,45,4,2,1,30,1,9,30,8,2,7,11,12,16,28,8,",
  "5,3,22,5,14,1,2,17,8,30,11,30,6,5,6,9,1,8,9,16,5,26,8,5,15,6,1,15,9,14,6,13,86,9,30,2,15,10,5,5,1,2,4,13,16,4,13,3,6,10,21,1,27,14,2,23,9,2,",
  "3,5,4,7,8,1,14,4,9,14,4,7,19,5,8,20,27,9,4,7,4,14,3,14,1,20,3,43,31,7,13,14,3,9,9,7,59,8,33,10,4,15,11,8,23,16,89,31,42,18,1,3,1,4,3,1,1,6,",
  "6,17,13,5,1,15,19,64,11,14,1,14,37,7,2,12,5,19,25,33,12,17,15,5,32,5,2,13,3,1,5,2,12,18,50,26,18,3,20,23,17,5,9,5,19,2,16,2,5,1,16,7,34,8,1,",
  "3,17,23,17,1,15,14,3,1,4,9,2,14,3,7,30,7,31,21,15,1,25,7,28,3,20,25,8,11,4,61,18,8,13,7,10,19,6,15,1,20,3,3,15,18,23,23,12,1,19,7,1,39,5,24,",
  "10,29,4,4,17,5,3,5,1,3,12,16,21,9,10,10,1,15,21,13,1,24,5,1,20,6,2,3,22,17,9,11,2,17,23,11,4,4,7,2,2,27,10,29,10,6,1,14,15,7,13,2,2,50,2,4,",
  "2,5,13,24,5,4,5,20,22,1,7,28,4,1,9,8,4,12,22,7,5,9,3,33,3,4,27,4,6,28,3,17,5,17,4,27,8,3,1,2,20,15,3,9,4,6,2,28,11,6,25,4,3,3,13,16,11,29,6,",
  "1,25,7,8,4,21,11,1,45,3,40,5,1,1,16,24,3,2,6,5,5,5,7,48,11,7,9,38,16,22,6,3,7,5,26,12,6,10,6,19,46,27,3,9,19,30,22,5,11,7,27,1,11,5,12,8,7,",
  "16,9,17,3,4,4,4,22,32,4,38,15,43,6,11,3,2,3,5,7,10,22,4,3,4,1,1,20,12,8,5,17,27,8,17,1,12,23,25,3,7,20,6,1,24,9,1,42,6,72,10,3,11,7,34,5,30,",
  "22,1,7,11,1,27,12,5,27,30,2,29,13,3,24,8,16,64,24,15,18,13,2,8,13,35,28,7,27,19,6,15,2,5,26,19,8,8,50,23,11,18,17,12,27,15,1,13,3,3,17,5,29,",
  "15,7,38,6,29,15,21,1,3,9,3,2,17,1,15,15,24,10,5,11,6,7,25,4,8,1,40,5,4,4,30,24,2,11,10,39,15,25,29,32,4,1,1,10,3,2,5,1,4,2,7,1,12,7,5,21,21,",
  "18,4,9,4,2,3,2,21,25,16,13,10,2,5,38,38,47,4,7,7,4,2,4,1,1,1,6,5,17,15,6,10,6,15,4,11,9,20,6,16,27,1,4,3,7,49,37,13,21,16,11,45,23,7,5,2,28,",
  "3,5,17,5,3,5,1,5,21,8,3,6,5,16,5,3,6,5,2,2,5,6,28,6,1,11,1,3,2,2,11,43,3,2,15,2,33,8,23,14,12,6,11,12,33,1,2,12,45,12,25,28,27,26,4,6,1,16,",
  "23,14,8,14,39,34,10,14,7,17,1,29,2,20,12,9,5,5,4,54,20,15,9,1,34,10,6,16,4,11,8,3,2,2,19,37,36,2,4,22,16,24,46,13,18,3,4,1,9,7,3,19,11,3,29,",
  "10,29,19,61,17,38,17,5,32,2,55,36,8,7,8,3,10,14,4,9,3,13,5,4,20,16,43,5,6,42,11,39,33,19,1,32,2,8,40,9,13,49,7,2,1,4,3,1,4,8,6,9,24,14,10,5,",
  "19,8,11,1,14,18,2,43,20,31,2,26,42,2,2,4,7,14,2,8,1,4,6,7,3,1,11,14,15,5,9,9,16,3,14,6,10,12,21,2,6,7,22,1,4,1,5,11,9,12,28,5,5,15,1,2,33,",
  "12,10,1,30,11,15,17,6,4,6,11,7,8,1,16,2,8,34,6,4,6,7,7,10,24,33,13,12,14,7,1,19,10,28,5,12,22,21,29,5,10,6,3,5,5,20,4,1,15,4,2,23,3,16,28,",
  "11,15,15,1,7,2,1,24,1,2,4,2,4,5,4,3,14,6,11,34,6,5,3,14,8,14,5,11,10,3,6,12,47,2,1,1,5,36,11,1,6,13,23,1,21,8,1,3,21,1,3,8,1,22,6,29,32,7,",
  "33,14,18,16,14,27,22,9,1,10,17,7,35,3,40,2,4,10,17,2,17,2,4,2,7,5,23,8,16,7,32,5,17,7,7,2,7,13,1,4,7,5,4,1,4,10,20,12,6,34,13,25,7,43,8,9,9,",
  "4,3,5,14,30,6,5,1,1,44,5,26,10,22,29,26,35,11,3,34,32,5,23,2,14,35,4,1,20,18,9,5,5,18,1,24,2,4,1,8,12,1,27,9,9,13,25,7,7,3,10,12,34,1,23,15,",
  "20,37,1,12,3,43,4,16,6,10,8,15,5,13,9,5,5,13,11,24,25,17,5,4,4,7,33,2,9,6,1,2,5,18,7,3,7,5,3,14,8,2,6,4,24,3,12,9,28,1,4,25,4,36,22,4,9,3,9,",
  "8,9,45,13,24,2,24,45,11,2,6,5,14,4,16,2,19,17,13,14,4,19,2,16,10,17,3,15,7,1,6,5,31,45,31,4,2,2,13,12,10,4,9,17,31,9,23,3,9,17,2,5,31,1,14,",
  "1,5,12,17,16,4,3,6,2,14,79,12,6,2,1,4,5,13,15,1,4,24,16,4,27,19,2,5,21,2,8,40,33,14,22,2,16,3,20,1,20,9,8,1,24,6,1,4,3,6,2,3,13,14,5,11,2,",
  "38,2,2,13,14,26,20,7,8,23,27,11,9,15,22,3,5,7,1,10,12,2,2,4,6,25,1,6,37,1,34,2,11,22,6,7,3,2,17,2,22,9,5,3,1,17,14,21,17,31,13,3,33,12,6,21,",
  "1,5,8,13,30,2,4,10,12,3,1,5,2,7,3,10,13,11,20,22,4,4,21,17,24,26,11,10,18,10,2,4,5,2,14,3,15,6,14,11,18,12,21,34,17,8,5,5,14,30,11,8,6,3,1,",
  "5,11,13,2,38,6,24,13,17,17,22,16,1,16,4,9,15,25,22,4,42,3,10,39,7,23,35,10,9,17,27,15,1,1,3,2,28,2,18,32,7,2,16,7,18,24,49,5,32,10,28,3,33,",
  "5,11,1,7,15,1,10,21,4,1,32,4,21,2,8,6,10,3,8,8,1,4,27,9,17,4,15,3,3,59,1,25,19,16,8,3,7,4,1,17,12,4,10,3,1,10,3,2,6,1,13,16,10,7,8,8,2,8,6,",
  "10,7,13,19,3,5,22,1,15,19,7,9,21,45,2,37,8,26,12,22,26,6,1,9,33,55,9,37,21,18,4,11,1,3,25,10,8,34,7,31,3,4,5,14,12,11,7,1,6,12,11,4,17,14,9,",
  "8,3,1,2,27,2,2,3,8,6,4,10,3,5,7,14,3,15,9,7,3,1,1,9,6,2,8,6,2,1,14,28,16,74,4,22,2,24,2,5,11,4,22,19,3,5,6,19,14,1,3,4,3,16,12,6,12,6,35,19,",
  "1,1,46,13,8,14,4,2,7,2,2,25,21,3,15,2,14,1,17,11,13,1,3,3,10,7,21,5,15,1,11,4,3,10,4,18,3,3,7,9,9,20,3,2,12,3,12,48,8,7,5,17,26,16,11,7,3,5,",
  "3,24,47,11,22,21,5,12,1,10,11,5,5,24,7,18,26,1,3,41,11,18,7,2,13,7,33,2,10,2,29,14,6,9,8,3,10,28,13,1,3,1,9,1,10,17,11,12,9,3,11,8,9,26,11,",
  "38,3,10,19,2,3,6,4,22,4,16,28,5,43,2,7,1,11,31,4,3,24,1,4,3,8,5,8,6,4,9,8,2,5,13,3,18,4,4,1,2,10,2,8,14,13,1,3,9,10,15,1,6,21,28,1,26,25,7,",
  "9,7,4,5,4,3,2,1,35,17,1,1,4,3,6,7,11,4,24,1,7,27,10,22,7,4,19,24,5,19,2,12,3,13,15,1,10,4,26,15,13,7,24,32,8,7,2,15,7,6,15,8,8,4,9,19,15,22,",
  "2,12,10,11,36,46,26,14,7,48,7,7,2,7,3,27,4,8,10,7,15,4,6,7,20,3,1,2,23,10,14,7,3,5,2,22,5,1,30,53,5,3,15,15,3,2,4,14,23,9,14,1,4,8,11,15,16,",
  "7,11,48,8,4,97,7,76,28,8,10,6,7,1,19,19,2,4,3,10,22,2,8,6,15,3,4,1,14,10,15,1,13,5,35,13,9,5,24,9,3,24,8,9,11,9,19,7,4,12,4,5,2,2,4,6,26,54,",
  "2,8,3,6,19,3,12,1,1,11,11,3,26,21,8,38,1,14,1,17,10,24,9,28,8,4,1,22,31,88,43,6,5,18,3,9,16,3,10,10,3,2,1,31,16,2,30,1,1,5,11,27,6,25,5,32,",
  "10,1,4,8,18,28,11,3,1,2,7,18,6,7,42,11,39,16,29,4,5,14,4,1,8,1,4,5,12,2,33,26,12,36,5,11,12,1,27,5,3,20,7,31,4,24,19,17,15,19,7,6,16,12,7,",
  "25,39,13,4,2,2,23,13,6,9,15,10,2,20,3,41,15,17,29,9,3,3,55,15,1,26,33,1,9,14,6,21,4,19,12,25,13,1,8,6,26,12,10,25,14,14,9,26,1,2,16,13,4,1,",
  "9,49,7,4,8,3,5,2,7,19,8,2,13,47,12,42,25,6,11,10,13,47,3,1,5,10,7,4,8,24,7,2,5,2,1,3,9,17,2,8,4,26,19,39,4,5,1,30,4,3,5,3,21,32,5,3,6,6,14,",
  "17,5,6,6,7,6,14,4,9,7,20,17,6,6,6,2,12,4,41,26,7,7,8,17,9,5,4,7,12,30,20,13,11,2,18,19,3,11,21,11,10,35,2,13,8,36,2,18,7,13,12,2,1,9,38,1,",
  "11,27,3,14,5,2,10,1,15,3,1,19,9,3,3,7,2,8,16,9,3,1,41,3,3,22,29,5,4,29,10,6,17,11,8,14,1,1,9,15,16,12,8,9,2,4,4,3,3,2,12,8,7,2,1,5,1,14,15,",
  "9,8,14,12,4,18,24,59,24,31,3,6,4,16,7,8,17,42,1,1,12,9,7,27,15,10,43,6,2,14,17,10,17,12,16,6,9,36,11,41,6,4,6,5,8,1,6,1,5,2,3,12,36,52,1,",
  "103,2,26,3,3,3,13,6,21,1,24,17,7,13,35,1,66,25,16,1,2,11,25,19,16,95,12,1,10,8,19,11,8,3,12,32,14,7,1,26,35,1,7,18,10,6,9,16,5,37,25,8,16,1,",
  "5,4,97,2,7,25,4,16,4,14,32,7,2,7,15,6,7,1,5,6,1,19,8,2,9,29,24,8,9,5,4,18,56,20,2,9,2,8,8,1,17,7,2,2,21,10,4,4,7,12,11,20,14,69,23,9,1,1,9,",
  "12,5,6,32,7,32,1,31,9,39,7,8,19,7,3,7,6,23,12,41,2,27,17,16,34,14,9,7,1,6,13,16,4,8,5,19,31,19,11,22,19,1,2,41,21,14,2,2,6,9,16,2,97,8,1,22,",
  "21,15,15,8,1,16,24,22,4,5,2,8,50,1,27,26,22,1,5,3,7,7,18,1,4,19,10,9,6,7,11,45,3,3,12,11,2,3,10,3,23,7,3,15,5,13,4,11,4,23,7,2,13,5,15,4,7,",
  "14,9,17,1,17,1,23,61,15,7,11,10,4,13,1,11,13,16,3,1,8,8,12,12,24,1,4,3,4,13,17,20,54,5,8,23,8,9,9,14,11,9,29,7,5,4,24,6,20,14,12,22,5,33,16,",
  "11,1,2,7,8,16,6,3,7,2,8,4,12,13,2,16,7,31,10,1,12,9,3,1,5,3,6,19,19,27,3,23,11,10,12,2,3,43,7,36,7,62,7,8,9,9,2,3,1,2,1,4,22,7,1,4,6,2,32,5,",
  "6,17,3,30,2,8,13,26,7,2,2,4,63,6,2,1,1,25,32,72,11,7,26,5,2,31,6,19,2,8,1,4,14,10,8,20,1,11,2,1,6,22,8,7,5,8,16,2,3,2,6,9,17,27,3,3,7,4,11,",
  "36,15,1,9,15,27,6,1,31,4,3,17,37,14,14,7,29,1,21,12,9,6,1,4,7,2,11,5,16,5,29,6,4,7,10,8,25,12,24,12,9,18,19,9,13,26,50,12,6,8,6,4,8,15,10,5,",
  "19,13,3,14,3,33,11,7,7,13,2,17,18,30,1,12,3,22,9,10,48,15,9,14,30,3,3,33,40,28,12,4,28,17,8,10,3,11,20,9,46,7,21,3,4,6,1,21,1,16,7,24,4,2,5,",
  "4,7,3,2,15,26,59,12,13,3,3,11,9,4,48,5,4,2,1,13,26,1,1,15,2,19,11,22,4,7,5,7,8,2,17,7,30,2,44,9,3,2,1,21,33,3,13,8,1,39,3,10,10,12,3,5,1,24,",
  "1,13,15,2,2,78,2,26,8,1,6,23,13,2,11,17,6,3,6,20,3,8,4,7,13,4,14,23,26,2,4,11,8,7,6,25,5,28,13,3,3,4,12,11,10,5,12,37,6,2,11,10,13,10,6,12,",
  "20,2,13,4,5,30,1,13,1,3,6,26,11,9,19,5,33,55,13,6,1,27,4,24,9,16,10,2,32,12,12,6,1,12,2,4,7,9,1,12,4,5,22,1,7,9,21,3,5,10,16,3,18,6,12,22,4,",
  "23,10,2,19,6,5,26,9,11,1,13,4,4,11,23,3,3,15,4,20,2,15,15,7,5,22,7,14,39,21,16,2,22,1,1,41,10,3,51,24,6,4,24,25,1,8,3,8,5,17,7,18,13,30,6,",
  "14,5,4,5,14,6,5,10,5,8,19,12,3,32,53,6,8,7,2,14,6,27,8,1,2,9,6,9,2,13,3,26,7,16,17,22,8,2,9,6,1,14,6,21,10,15,43,5,27,3,7,1,5,35,2,38,1,11,",
  "20,28,8,9,3,15,42,36,1,10,13,6,5,9,12,37,23,4,30,8,38,10,4,7,10,2,1,23,6,24,3,3,5,16,2,1,14,14,6,10,9,8,22,10,9,4,7,29,9,6,7,16,7,9,2,1,14,",
  "17,9,3,1,7,19,3,28,16,14,5,21,5,14,1,27,12,29,13,1,4,1,3,8,9,4,26,3,5,10,26,36,23,2,19,8,2,12,14,5,2,1,6,5,19,7,2,3,2,7,19,25,5,1,13,5,8,5,",
  "8,8,15,24,6,16,8,4,7,8,1,10,31,2,11,1,8,3,16,10,4,5,2,2,28,6,25,20,1,33,9,3,36,3,18,7,28,3,11,3,2,9,11,1,7,15,33,1,2,2,23,4,24,5,7,10,15,6,",
  "1,14,9,1,8,1,9,20,16,7,6,1,12,10,9,19,38,2,58,30,7,57,27,9,14,17,9,25,12",
].join("");

/** The public sets, in the order `datasets list` shows them. */
export const PUBLIC_SETS: readonly CatalogSet[] = [
  {
    name: "kaggle_bryanpark_10k",
    size: 9,
    count: 9999,
    sha256: "30b695e270963d12e8fde3f1baf16f68eb5f46ee9cf359e763c3ed44acb1860a",
    solutions: "unique",
    description: "Trivial: 30-37 clues, naked singles only; measures parsing and set-up",
    credit: 'Bryan Park\'s Kaggle "1 million Sudoku games" (first 9,999 rows), mirrored by jounathaen/Sudoku_Rust',
    licence: "none stated (see the Kaggle page)",
    sources: [
      {
        url: "https://raw.githubusercontent.com/jounathaen/Sudoku_Rust/9f2b60f0a97884ef93bbcec023c8ce28476dc33b/data/sudoku_small.csv",
        sha256: "360d5f46d6819bbf4fad86d6b908d3f65911801e9495e98d5388789d959c2a60",
        format: { kind: "lines", separator: "," },
      },
    ],
  },
  {
    name: "kaggle_radcliffe_3m_sample",
    size: 9,
    count: 7034,
    sha256: "574aba6d61947f112ec0447e35258917283aecb967d127ffb72c1967a6ed83b8",
    solutions: "unique",
    description: "Easy to moderate: 20-29 clues",
    credit: 'a 7,034-puzzle sample of the Kaggle "3 million Sudoku puzzles with ratings" (radcliffe), by tic-top/ParallelSudoku',
    licence: "CC0 (as described); sampling repository MIT",
    sources: [
      {
        url: "https://raw.githubusercontent.com/tic-top/ParallelSudoku/8d56c0b161a9aaf787a922f1eddaaedaf3dfe280/results/output1.csv",
        sha256: "6a4f7caad5f2ffb88901b3cd086236847ccf077b148c3d6b13660837c5ea1297",
        format: { kind: "lines", separator: ",", header: true },
      },
    ],
  },
  {
    name: "unbiased_1k",
    size: 9,
    count: 1000,
    sha256: "fc176210734cdec76977bf6320f0fe90f27a89efb2755657967dfe438e7612d6",
    solutions: "unique",
    description: "Easy, representative: minimal puzzles sampled uniformly per clue count",
    credit: "the first 1,000 of tdoku's puzzles1_unbiased (t-dillon/tdoku's grid_tools sampler), mirrored by sadilekivan/sudoku-solver",
    licence: "tdoku's data (BSD-2-Clause project); mirror GPL-3.0",
    sources: [
      {
        url: "https://raw.githubusercontent.com/sadilekivan/sudoku-solver/9e3bcab133630c7d7e1f16cecfbb35e2044ca761/src/games/puzzles1_unbiased",
        sha256: "fc176210734cdec76977bf6320f0fe90f27a89efb2755657967dfe438e7612d6",
        format: { kind: "lines" },
      },
    ],
  },
  {
    name: "17_clue",
    size: 9,
    count: 49158,
    sha256: "0041377124d2982cbfdabfbf3f9ceab7649c975ade3ff731cdeaf799b7ad1b87",
    solutions: "unique",
    description: "Every known 17-clue puzzle; easy for good solvers, hard for naive backtracking",
    credit: "Gordon Royle (49,151), completed by the Enjoy Sudoku Players Forum; tdoku's copy, mirrored by balmerdx/sudoku_pytorch",
    licence: "CC BY 2.5 (Royle's page, as quoted)",
    sources: [
      {
        url: "https://raw.githubusercontent.com/balmerdx/sudoku_pytorch/9c4391b1ea32bb7a9587f668fa51f35473e68e24/data/puzzles2_17_clue",
        sha256: "2cf268735dfd40d32269b5f20ebbea067037e5976b4d016ce0b4d3c0a50deb30",
        format: { kind: "lines" },
      },
    ],
  },
  {
    name: "magictour_top1465",
    size: 9,
    count: 1465,
    sha256: "21d82f285082dc0db051f407cf23103af76bf077b368b04bd9e619f2bf6d2c1b",
    solutions: "unique",
    description: "Moderately hard: a classic benchmark list",
    credit: "magictour.free.fr top1465; tdoku's copy, mirrored by balmerdx/sudoku_pytorch",
    licence: "none stated",
    sources: [
      {
        url: "https://raw.githubusercontent.com/balmerdx/sudoku_pytorch/9c4391b1ea32bb7a9587f668fa51f35473e68e24/data/puzzles3_magictour_top1465",
        sha256: "ca0369f516dac7dfdd987d2c310ac33dcfc7478db5171bea5bca1f3878758bce",
        format: { kind: "lines" },
      },
    ],
  },
  {
    name: "norvig_top95",
    size: 9,
    count: 95,
    sha256: "b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36",
    solutions: "unique",
    description: "Moderately hard: Norvig's copy of magictour top95",
    credit: "norvig.com (from magictour), mirrored by ojizosan/sudoku-solver-go",
    licence: "none stated",
    sources: [
      {
        url: "https://raw.githubusercontent.com/ojizosan/sudoku-solver-go/48e2033083cf3525a6239f63491b88098164938f/top95.txt",
        sha256: "93f3547eee4d5efd5e0d81dfbcbca389b27e059763674b2040b7915fc7a7b1b3",
        format: { kind: "lines" },
      },
    ],
  },
  {
    name: "norvig_hardest",
    size: 9,
    count: 11,
    sha256: "398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f",
    solutions: "unique",
    description: '11 famous "hardest" puzzles: a smoke test',
    credit: "norvig.com hardest.txt, mirrored by ojizosan/sudoku-solver-go",
    licence: "none stated",
    sources: [
      {
        url: "https://raw.githubusercontent.com/ojizosan/sudoku-solver-go/48e2033083cf3525a6239f63491b88098164938f/hardest.txt",
        sha256: "395a01c6052a26e23c526fe11cdf6e79f07feb2ab017970ad6777e4081744f4b",
        format: { kind: "lines" },
      },
    ],
  },
  {
    name: "forum_hardest_1905_11plus",
    size: 9,
    count: 44766,
    sha256: "2fdce7e19a33fe6f5a7f9d6a6929fc943eac793f4fa0f4559577616a0ff35b3a",
    solutions: "unique",
    description: "Very hard: the forum's hardest list, SE rating 11 and up (tdoku's headline set); 4,000 set aside",
    credit: "the Enjoy Sudoku Players Forum hardest list (ph_1905); tdoku's copy, mirrored by balmerdx/sudoku_pytorch",
    licence: "none stated",
    sources: [
      {
        url: "https://raw.githubusercontent.com/balmerdx/sudoku_pytorch/9c4391b1ea32bb7a9587f668fa51f35473e68e24/data/puzzles5_forum_hardest_1905_11%2B",
        sha256: "56236eaf6c7445ea244db3423ec44a102349dbedf6e457af0fcdd3d07cf39996",
        format: { kind: "lines" },
        setAside: FORUM_HARDEST_1905_SET_ASIDE,
      },
    ],
  },
  {
    name: "forum_hardest_1106",
    size: 9,
    count: 375,
    sha256: "fb88ac7cfcc462154a41c62262192ccd40255c39db9bd827e5199f1e1660cd17",
    solutions: "unique",
    description: "Hardest for backtracking: the 375 that started the forum's hardest thread",
    credit: "the Enjoy Sudoku Players Forum's HardestDatabase110626; tdoku's copy, mirrored by balmerdx/sudoku_pytorch",
    licence: "none stated",
    sources: [
      {
        url: "https://raw.githubusercontent.com/balmerdx/sudoku_pytorch/9c4391b1ea32bb7a9587f668fa51f35473e68e24/data/puzzles6_forum_hardest_1106",
        sha256: "45d0afc5892d6797621d7c00f518df8f1483eceb921416984b8687e16128eb06",
        format: { kind: "lines" },
      },
    ],
  },
  {
    name: "serg_benchmark",
    size: 9,
    count: 9994,
    sha256: "7e2f77bd33eff58455d8bb4e2a1c210ee2efa5a9ba00e6d9c3151c03e53a9238",
    solutions: "multiple",
    description: "Not proper sudoku: 34-35 clues, two or more solutions each (tests counting to 2)",
    credit: "sergsudoku's benchmark.zip; tdoku's copy, mirrored by balmerdx/sudoku_pytorch",
    licence: "none stated",
    sources: [
      {
        url: "https://raw.githubusercontent.com/balmerdx/sudoku_pytorch/9c4391b1ea32bb7a9587f668fa51f35473e68e24/data/puzzles7_serg_benchmark",
        sha256: "5468125857f02cb1e9b1fc6ba36ac88dc8d75afa47bc030c507cdfefbfe0eeaa",
        format: { kind: "lines" },
      },
    ],
  },
  {
    name: "sudoku_exchange_diabolical",
    size: 9,
    count: 39719,
    sha256: "81039215b321a58f9d46f03faa79fdf0f78fdf3b3699b68267049597dc2437a2",
    solutions: "unique",
    description: "Human-hard, machine-easy: QQWing puzzles rated 5.0-9.3",
    credit: "the Sudoku Exchange puzzle bank (grantm/sudoku-exchange-puzzle-bank)",
    licence: "public domain",
    sources: [
      {
        url: "https://raw.githubusercontent.com/grantm/sudoku-exchange-puzzle-bank/63957e92bb9f02432c20583443742337f22b49c2/diabolical.txt",
        sha256: "84b626dc1f85c9ccde8b0f2a98bec412bc955bb6b5fdb3b41f955acd69c1169c",
        format: { kind: "lines", column: 1 },
      },
    ],
  },
  {
    name: "sudoku_exchange_diabolical_se8plus",
    size: 9,
    count: 2075,
    sha256: "e35447adcf2cb4ec5d51be5b4c6665c9ccc896e201addd6afbe88df1110a4063",
    solutions: "unique",
    description: "The lines of sudoku_exchange_diabolical rated 8.0 and up",
    credit: "the Sudoku Exchange puzzle bank (grantm/sudoku-exchange-puzzle-bank)",
    licence: "public domain",
    sources: [
      {
        url: "https://raw.githubusercontent.com/grantm/sudoku-exchange-puzzle-bank/63957e92bb9f02432c20583443742337f22b49c2/diabolical.txt",
        sha256: "84b626dc1f85c9ccde8b0f2a98bec412bc955bb6b5fdb3b41f955acd69c1169c",
        format: { kind: "lines", column: 1, minRating: { column: 2, min: 8 } },
      },
    ],
  },
  {
    name: "magictour_subig20",
    size: 9,
    count: 17445,
    sha256: "e4723608257aa8da9df17b559078ece739a8de68021c84a0e6bc5da162be0862",
    solutions: "unique",
    description: "Hard for humans under old ratings, easy for backtracking: 17-70 clues",
    credit: "the magictour / Stertenbrink subig20 list, mirrored by felicialiu/Sudoku",
    licence: "none stated",
    sources: [
      {
        url: "https://raw.githubusercontent.com/felicialiu/Sudoku/9150c3ad8cb6f592c7e12a5deb6b5e2315b747c9/subig20.txt",
        sha256: "4c3fa2daffd500dd4ffc4f17650b0a9ac9d4f966a0c1b31b186cba9f61d4c7fd",
        format: { kind: "lines" },
      },
    ],
  },
  {
    name: "sudoku16_kr100",
    size: 16,
    count: 99,
    sha256: "aab1daeae3b4e8202dce9f7607a53c9a8135ae621b4a6e63950b2f5e967593ec",
    solutions: "unique",
    description: "16x16, 94-126 givens; most easy, a few need 100k+ nodes of plain backtracking",
    credit: "the 16x16 file of a VU Amsterdam Knowledge Representation SAT assignment (as it appears), via owhygithub/sudoku-sat-solvers",
    licence: "none stated",
    sources: [
      {
        url: "https://raw.githubusercontent.com/owhygithub/sudoku-sat-solvers/6dc8d42256348efc19978e3f686cdf4a5e722613/16x16.txt",
        sha256: "a613f2ab86663db54bd6ad0b9bb415e77635f74c5d6f62d7f0430b587b427fde",
        format: { kind: "lines" },
      },
    ],
  },
  {
    name: "sudoku25_misc",
    size: 25,
    count: 2,
    sha256: "690855aad881fc83e5621a5fc007fbf313469a8c29c3769a791d089d36d3d2bf",
    solutions: "unique",
    description: "25x25 smoke test: two puzzles",
    credit: "b-nguyen/theory-final-project and tcgaryau/AISudokuSolver (numeric grids, converted)",
    licence: "none stated",
    sources: [
      {
        url: "https://raw.githubusercontent.com/b-nguyen/theory-final-project/c1f311a95926a752f48f15238d4c01ae30cbaa60/25x25.txt",
        sha256: "17eb681fc6cd47a00b9d8e830c004306f8c735d461e4c288ef90c6aea0f559d8",
        format: { kind: "grid" },
      },
      {
        url: "https://raw.githubusercontent.com/tcgaryau/AISudokuSolver/5c86790ed065212b6a8a7598bfaa8b5ff16161fc/25x25.txt",
        sha256: "a07cf8b5fd3091ae15c770bcc0955a074eb1e93a22f0c3223bc6829b37fa032e",
        format: { kind: "grid" },
      },
    ],
  },
];

/** The environment variable naming a catalog file that replaces {@link PUBLIC_SETS}. */
export const CATALOG_VARIABLE = "SUDOKU_WASM_DATASETS_CATALOG";

/** A catalog file that cannot be used; the message names the file and the reason. */
export class CatalogError extends Error {
  override name = "CatalogError";
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** Why `source` is not a usable source, or null. */
function sourceProblem(source: unknown): string | null {
  const value = source as Partial<CatalogSource> | null;
  if (typeof value !== "object" || value === null) return "not an object";
  if (typeof value.url !== "string" || !/^https?:\/\//.test(value.url)) return "url is not an http(s) URL";
  if (value.sha256 !== undefined && !HEX_SHA256.test(String(value.sha256))) return "sha256 is not 64 lowercase hex digits";
  if (value.member !== undefined && typeof value.member !== "string") return "member is not a string";
  const format = value.format as Partial<SourceFormat> | undefined;
  if (typeof format !== "object" || format === null || (format.kind !== "lines" && format.kind !== "grid")) return 'format.kind is not "lines" or "grid"';
  if (value.setAside !== undefined) {
    if (typeof value.setAside !== "string") return "setAside is not a string";
    decodeLineNumbers(value.setAside);
  }
  return null;
}

/** Why `set` is not a usable catalog entry, or null. */
function setProblem(set: unknown): string | null {
  const value = set as Partial<CatalogSet> | null;
  if (typeof value !== "object" || value === null) return "not an object";
  if (typeof value.name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_.+-]*$/.test(value.name)) return "name must be letters, digits and _.+- (a file name)";
  if (ALPHABETS[value.size as number] === undefined) return "size must be 9, 16 or 25";
  if (!Number.isInteger(value.count) || (value.count as number) < 0) return "count is not a whole number";
  if (value.solutions !== "unique" && value.solutions !== "multiple") return 'solutions is not "unique" or "multiple"';
  for (const field of ["description", "credit", "licence"] as const) if (typeof value[field] !== "string") return `${field} is not a string`;
  if (value.unavailable !== undefined) return typeof value.unavailable === "string" ? null : "unavailable is not a string";
  if (typeof value.sha256 !== "string" || !HEX_SHA256.test(value.sha256)) return "sha256 is not 64 lowercase hex digits";
  if (!Array.isArray(value.sources) || value.sources.length === 0) return "sources is not a non-empty list";
  for (const [index, source] of value.sources.entries()) {
    const problem = sourceProblem(source);
    if (problem !== null) return `source ${index + 1}: ${problem}`;
  }
  return null;
}

/** The sets of a catalog file (`{ "sets": [ … ] }`), checked; throws a {@link CatalogError} naming the file, the set and the reason. */
export function readCatalogFile(path: string): CatalogSet[] {
  let parsed: unknown;
  try {
    // node:fs reached at run time: bench/verify.ts imports this module into the web page's worker, where a static Node import breaks `npm run web`
    const fs = nodeBuiltin<typeof import("node:fs")>("node:fs");
    if (!fs) throw new Error("reading a catalog file needs Node");
    parsed = JSON.parse(fs.readFileSync(path, "utf8"));
  } catch (error) {
    throw new CatalogError(`catalog '${path}': ${(error as Error).message}`);
  }
  const sets = (parsed as { sets?: unknown } | null)?.sets;
  if (!Array.isArray(sets)) throw new CatalogError(`catalog '${path}': expected an object with a "sets" list`);
  const names = new Set<string>();
  sets.forEach((set, index) => {
    let problem: string | null;
    try {
      problem = setProblem(set);
    } catch (error) {
      problem = (error as Error).message;
    }
    const label = typeof set?.name === "string" ? `'${set.name}'` : `${index + 1}`;
    if (problem !== null) throw new CatalogError(`catalog '${path}': set ${label}: ${problem}`);
    if (names.has(set.name)) throw new CatalogError(`catalog '${path}': set ${label} is listed twice`);
    names.add(set.name);
  });
  return sets as CatalogSet[];
}

/** The catalog in force: the file given, else the one SUDOKU_WASM_DATASETS_CATALOG names, else {@link PUBLIC_SETS}. */
export function catalog(file: string | undefined = process.env[CATALOG_VARIABLE] || undefined): readonly CatalogSet[] {
  return file === undefined ? PUBLIC_SETS : readCatalogFile(file);
}
