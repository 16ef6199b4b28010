/**
 * Routing puzzles by size: 81-cell 9×9 puzzles go to the 9×9 kernel (the benchmarked path),
 * 4×4, 16×16 and 25×25 puzzles (16, 256, 625 cells) to the general N×N kernel.
 *
 *   "…81 digits…"    ─► Solver (registry engine, 9×9)   ─┐
 *   "…256 symbols…"  ─► GeneralSolver (N×N)             ─┴─► records in input order
 *
 * An alphabet (e.g. `ABCDEFGHIJKLMNOP`) applies to the puzzles with as many symbols as it
 * has; puzzles of other sizes keep their default symbols. A 9-symbol alphabet other than
 * `1`–`9` sends 9×9 puzzles to the general kernel, which reads any alphabet.
 */
import { type GeneralSolver } from "./general.js";
import { type Alphabet, BOX_SIZES, DIGITS } from "./puzzle-general.js";
import { CELLS, type Grid } from "./puzzle.js";
import { type SolveOptions, type SolveRecord, Solver } from "./solver.js";


/** Cell counts of the sizes only the general kernel takes: 16 (4×4), 256 (16×16), 625 (25×25). */
const GENERAL_CELLS: ReadonlySet<number> = new Set(BOX_SIZES.filter((box) => box !== 3).map((box) => box ** 4));

/** `alphabet` when it is the alphabet of grids of `cells` cells (N symbols for N² cells), else undefined. */
export function alphabetForCells(cells: number, alphabet: Alphabet | undefined): Alphabet | undefined {
  return alphabet !== undefined && alphabet.length * alphabet.length === cells ? alphabet : undefined;
}

/** True when a puzzle of `cells` characters goes to the general kernel rather than the 9×9 one. */
export function takesGeneralKernel(cells: number, alphabet?: Alphabet): boolean {
  if (cells === CELLS) return alphabet !== undefined && alphabet.length === 9 && alphabet !== DIGITS;
  return GENERAL_CELLS.has(cells);
}

/** Which solver takes a puzzle. */
const enum Route {
  Classic,
  /** The general kernel, reading the given alphabet. */
  GeneralWithAlphabet,
  /** The general kernel, detecting the alphabet. */
  GeneralDetected,
}

/** The route of one puzzle (a line, surrounding white space ignored, or a 9×9 grid of bytes). */
function routeOf(puzzle: string | Grid, alphabet: Alphabet | undefined): Route {
  if (typeof puzzle !== "string") return Route.Classic;
  if (puzzle.length === CELLS && alphabet === undefined) return Route.Classic; // the common 9×9 line, decided at once
  const cells = puzzle.trim().length;
  if (!takesGeneralKernel(cells, alphabet)) return Route.Classic;
  return alphabetForCells(cells, alphabet) === undefined ? Route.GeneralDetected : Route.GeneralWithAlphabet;
}

export interface SizedSolveOptions extends SolveOptions {
  /** The symbols of the puzzles of its size, e.g. "ABCDEFGHIJKLMNOP" for 16×16; detected when absent. @default undefined */
  alphabet?: Alphabet;
}

/**
 * A {@link Solver} that also takes 4×4, 16×16 and 25×25 lines, solving them on a
 * {@link GeneralSolver}; 9×9 puzzles (lines and grids) go to the 9×9 engine as before.
 * `limit` and `budget` apply to both kernels (the general one counts its budget in states propagated).
 */
export class SizedSolver extends Solver {
  constructor(
    classic: Solver,
    /** Solves the puzzles of the other sizes. */
    readonly general: GeneralSolver,
  ) {
    super(classic.id, classic.engine, classic.reportsGuesses);
  }

  /** Solve one puzzle of any supported size; bad input gives an `invalid` record, never a throw. */
  override solve(puzzle: string | Grid, options: SizedSolveOptions = {}): SolveRecord {
    const route = routeOf(puzzle, options.alphabet);
    if (route === Route.Classic) return super.solve(puzzle, options);
    const alphabet = route === Route.GeneralWithAlphabet ? options.alphabet : undefined;
    return this.general.solve(puzzle as string, { limit: options.limit, budget: options.budget, alphabet });
  }

  /** Solve many puzzles of any mix of sizes; one record each, in input order, one batch per kernel and size. */
  override solveMany(puzzles: Iterable<string | Grid>, options: SizedSolveOptions = {}): SolveRecord[] {
    const all = Array.from(puzzles);
    const routes = all.map((puzzle) => routeOf(puzzle, options.alphabet));
    if (!routes.some((route) => route !== Route.Classic)) return super.solveMany(all, options);
    const solveRoute = (route: Route, items: (string | Grid)[]): SolveRecord[] => {
      if (items.length === 0) return [];
      if (route === Route.Classic) return super.solveMany(items, options);
      const alphabet = route === Route.GeneralWithAlphabet ? options.alphabet : undefined;
      return this.general.solveMany(items as string[], { limit: options.limit, budget: options.budget, alphabet });
    };
    const results = [Route.Classic, Route.GeneralWithAlphabet, Route.GeneralDetected].map((route) =>
      solveRoute(route, all.filter((_, i) => routes[i] === route)),
    );
    const next = [0, 0, 0];
    return routes.map((route) => results[route][next[route]++]);
  }
}
