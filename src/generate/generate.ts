/**
 * Seeded generation of unique 9×9 puzzles, from trivial to very hard. Attempt k draws from its
 * own PRNG stream, so a longer run extends a shorter one: a random solution grid is carved (clue
 * orbits removed in random order while the puzzle stays unique) and, when asked, hardened (a hill
 * climb on the engine's guesses). An *orbit* is a cell, or under 180° symmetry the pair {c, 80 - c};
 * "minimal": no orbit can go without losing uniqueness. Uniqueness (a count up to 2 is 1) does not
 * depend on the engine, so only hardening and guess filters change when the kernel's heuristics do.
 */
import type { Grid } from "../model/puzzle.js";
import { CELLS, SHAPE_9, SIZE, gridTables } from "../model/shape.js";
import { Random, checkSeed } from "../model/prng.js";
import { checkWhole } from "../model/whole-number.js";
import type { SearchStats, SolverEngine } from "../solvers/solver.js";
import { PuzzleSet } from "../model/puzzle-set.js";

// ─── Counting through an engine ─────────────────────────────────────────────

/**
 * Grading a puzzle by several solvers (graders). A *family* is the graders sharing a registry id
 * before any ':' (`wasm`, `wasm:first`); a grader's *reference mean* is its mean guesses on fixed
 * reference puzzles. Families count guesses on different scales (`mrv` guesses 10–60 times as
 * often as `wasm`), so each grader's guesses are put on the first grader's scale by the ratio of
 * reference means, then combined by a weighted geometric mean, every family weighing the same:
 *
 *   grade = exp( Σ_g w_g · ln(c_g · m₁ / m_g + 1) ) − 1,   w_g = 1 / (F · |family(g)|)
 *
 * With one grader the grade is its guesses; scaling a grader's guesses leaves every grade unchanged.
 * A grader with no guess on the reference keeps its own scale. Grades are rounded to 6 decimals.
 */

/** The family of a registry id: the part before any ':' (`wasm:first` → `wasm`). */
export const familyOf = (id: string): string => id.split(":")[0];

/** Each grader's weight: families weigh the same, and a family's graders share its weight. Sums to 1. */
export function graderWeights(ids: readonly string[]): number[] {
  const sizes = new Map<string, number>();
  for (const id of ids) sizes.set(familyOf(id), (sizes.get(familyOf(id)) ?? 0) + 1);
  return ids.map((id) => 1 / (sizes.size * sizes.get(familyOf(id))!));
}

/** The grade of a puzzle from its graders' guesses `costs`, reference means and weights; NaN when a cost is NaN. */
export function combineGrades(costs: readonly number[], referenceMeans: readonly number[], weights: readonly number[]): number {
  if (costs.length === 1) return costs[0];
  let logGrade = 0;
  for (let g = 0; g < costs.length; g++) {
    const scale = referenceMeans[g] > 0 && referenceMeans[0] > 0 ? referenceMeans[0] / referenceMeans[g] : 1;
    logGrade += weights[g] * Math.log(costs[g] * scale + 1);
  }
  return Math.round((Math.exp(logGrade) - 1) * 1e6) / 1e6;
}

/** A grader named by its registry id, whose family (the id before any ':') sets its weight. */
export interface Grader {
  id: string;
  engine: SolverEngine;
}

/** The puzzles that put graders on one scale (see the grading above): the first minimal ones of `seed`, which every correct engine makes alike. */
export const GRADING_REFERENCE = { seed: 0, count: 200 } as const;

let referencePuzzles: Grid[] | null = null;

/**
 * Counts solutions up to 2 through one engine, and grades difficulty by the guesses of one or more
 * graders, combined as above. Several branching orders and solver families keep a climb
 * from learning the weak spots of one heuristic.
 */
export class PuzzleJudge {
  private readonly solution = new Uint8Array(CELLS);
  private readonly stats: SearchStats = { guesses: 0, timedOut: false };
  private readonly weights: readonly number[];
  private means: number[] | null = null;
  /** Searches run so far (for rates in reports), the reference's included. */
  searches = 0;

  constructor(
    readonly engine: SolverEngine,
    /** The graders: by default the engine alone. */
    readonly graders: readonly Grader[] = [{ id: "", engine }],
  ) {
    this.weights = graderWeights(graders.map((grader) => grader.id));
  }

  /** Solutions of `puzzle` up to 2 (2 means "two or more"). */
  count(puzzle: Grid): number {
    this.searches++;
    return this.engine.countSolutions(puzzle, 2, this.solution, this.stats, Infinity);
  }

  /** True when `puzzle` has exactly one solution. */
  isUnique(puzzle: Grid): boolean {
    return this.count(puzzle) === 1;
  }

  /** Each grader's guesses for a full limit-2 search of `puzzle` (NaN from one that cannot tell). */
  costs(puzzle: Grid): number[] {
    return this.graders.map(({ engine }) => {
      this.searches++;
      engine.countSolutions(puzzle, 2, this.solution, this.stats, Infinity);
      return this.stats.guesses;
    });
  }

  /** Each grader's mean guesses on the {@link GRADING_REFERENCE} puzzles (made and searched on first use). */
  referenceMeans(): number[] {
    if (!this.means) {
      if (!referencePuzzles) {
        const maker = new PuzzleJudge(this.engine);
        referencePuzzles = [...generatePuzzles(maker, { count: GRADING_REFERENCE.count, seed: GRADING_REFERENCE.seed })].map((p) => p.puzzle);
        this.searches += maker.searches;
      }
      const totals = this.graders.map(() => 0);
      for (const puzzle of referencePuzzles) this.costs(puzzle).forEach((cost, g) => (totals[g] += cost));
      this.means = totals.map((total) => total / referencePuzzles!.length);
    }
    return this.means;
  }

  /** The graders' grade of `puzzle`, in the first grader's guesses (NaN when one cannot tell); with one grader, its guesses. */
  guesses(puzzle: Grid): number {
    const costs = this.costs(puzzle);
    return costs.length === 1 ? costs[0] : combineGrades(costs, this.referenceMeans(), this.weights);
  }
}

// ─── Solution grids and orbits ──────────────────────────────────────────────

export type Symmetry = "none" | "rotational";

export const SYMMETRIES: readonly Symmetry[] = ["none", "rotational"];

const ALL_DIGITS = 0b11_1111_1110; // bits 1-9

const { rowOf, columnOf, boxOf } = gridTables(SHAPE_9.box);

/** A random complete valid grid: cells filled in row-major order, each trying its free digits in random order, backtracking on a dead end. */
export function randomSolution(random: Random): Grid {
  const grid = new Uint8Array(CELLS);
  const used = new Uint16Array(3 * SIZE); // each unit's digits: rows, then columns, then boxes
  const fillFrom = (cell: number): boolean => {
    if (cell === CELLS) return true;
    const units = [rowOf[cell], SIZE + columnOf[cell], 2 * SIZE + boxOf[cell]];
    const free = ALL_DIGITS & ~(used[units[0]] | used[units[1]] | used[units[2]]);
    const digits: number[] = [];
    for (let digit = 1; digit <= SIZE; digit++) if (free & (1 << digit)) digits.push(digit);
    for (const digit of random.shuffle(digits)) {
      grid[cell] = digit;
      for (const unit of units) used[unit] ^= 1 << digit; // sets the bit (the digit is free in all three units); the same line below clears it
      if (fillFrom(cell + 1)) return true;
      for (const unit of units) used[unit] ^= 1 << digit;
    }
    grid[cell] = 0;
    return false;
  };
  fillFrom(0);
  return grid;
}

/** The cell orbits of a symmetry: clues are removed and added one orbit at a time. */
export function symmetryOrbits(symmetry: Symmetry): number[][] {
  if (symmetry === "none") return Array.from({ length: CELLS }, (_, cell) => [cell]);
  const centre = (CELLS - 1) / 2;
  const orbits = Array.from({ length: centre }, (_, cell) => [cell, CELLS - 1 - cell]);
  orbits.push([centre]);
  return orbits;
}

export const countClues = (grid: Grid): number => grid.reduce((clues, digit) => clues + (digit === 0 ? 0 : 1), 0);

/** Orbits of `puzzle` that hold clues (`filled`) or are empty (`!filled`). */
function orbitsWhere(puzzle: Grid, orbits: readonly number[][], filled: boolean): number[][] {
  return orbits.filter((orbit) => (puzzle[orbit[0]] !== 0) === filled);
}

/** Empties an orbit's cells, or fills them with the solution's digits. */
function setOrbit(puzzle: Grid, orbit: readonly number[], solution: Grid | null): void {
  for (const cell of orbit) puzzle[cell] = solution ? solution[cell] : 0;
}

// ─── Presentations of a puzzle ──────────────────────────────────────────────

/** A validity-preserving relabelling: new cell i takes old cell `cells[i]`, and digit d becomes `digits[d]`. */
export interface Presentation {
  cells: Uint8Array;
  digits: Uint8Array;
}

/** A random order of the 9 rows (or columns) that keeps bands (stacks) together. */
function lineOrder(random: Random): number[] {
  return random.shuffle([0, 1, 2]).flatMap((band) => random.shuffle([0, 1, 2]).map((line) => band * 3 + line));
}

/** A random presentation: bands, rows in bands, stacks and columns in stacks permuted, digits relabelled, maybe transposed. */
export function randomPresentation(random: Random): Presentation {
  const rows = lineOrder(random),
    columns = lineOrder(random);
  const transpose = random.below(2) === 1;
  const cells = new Uint8Array(CELLS);
  for (let row = 0; row < SIZE; row++) {
    for (let column = 0; column < SIZE; column++) {
      cells[row * SIZE + column] = transpose ? columns[column] * SIZE + rows[row] : rows[row] * SIZE + columns[column];
    }
  }
  const digits = Uint8Array.from([0, ...random.shuffle([1, 2, 3, 4, 5, 6, 7, 8, 9])]);
  return { cells, digits };
}

/** The grid as seen through a presentation: same solution count, same clue count. */
export function present(grid: Grid, presentation: Presentation): Grid {
  const out = new Uint8Array(CELLS);
  for (let cell = 0; cell < CELLS; cell++) out[cell] = presentation.digits[grid[presentation.cells[cell]]];
  return out;
}

// ─── Carving and hardening ──────────────────────────────────────────────────

/**
 * Removes clue orbits of a unique `puzzle` in random order while it stays unique, down to
 * `targetClues` (0: until minimal, which one pass reaches); returns the clue count reached.
 */
export function carve(puzzle: Grid, solution: Grid, orbits: readonly number[][], random: Random, judge: PuzzleJudge, targetClues = 0): number {
  let clues = countClues(puzzle);
  for (const orbit of random.shuffle(orbitsWhere(puzzle, orbits, true))) {
    if (clues <= targetClues) break;
    if (clues - orbit.length < targetClues) continue;
    setOrbit(puzzle, orbit, null);
    if (judge.isUnique(puzzle)) clues -= orbit.length;
    else setOrbit(puzzle, orbit, solution);
  }
  return clues;
}

/** One hill-climbing move: drop a random clue orbit, add orbits back until unique, carve back to minimal; returns a new grid. */
export function mutate(puzzle: Grid, solution: Grid, orbits: readonly number[][], random: Random, judge: PuzzleJudge): Grid {
  const candidate = puzzle.slice();
  const dropped = random.pick(orbitsWhere(candidate, orbits, true));
  const additions = random.shuffle(orbitsWhere(candidate, orbits, false));
  setOrbit(candidate, dropped, null);
  for (const orbit of additions) {
    setOrbit(candidate, orbit, solution); // a full grid less one orbit is unique, so this ends
    if (judge.isUnique(candidate)) break;
  }
  carve(candidate, solution, orbits, random, judge);
  return candidate;
}

/** Result of a climb: where it ended, and the engine's guesses for that puzzle as written. */
export type Climb = Pick<GeneratedPuzzle, "puzzle" | "guesses">;

/**
 * Hill-climbs `steps` moves, keeping a candidate that needs at least as many guesses. With
 * `presentations` k > 1 both are compared on the same k relabelled views, so the climb cannot win
 * by exploiting the engine's tie-breaking order.
 */
export function harden(start: Grid, solution: Grid, orbits: readonly number[][], random: Random, judge: PuzzleJudge, steps: number, presentations = 1): Climb {
  return finish(hardenSteps(start, solution, orbits, random, judge, steps, presentations));
}

/** Runs a generator of {@link hardenSteps} or {@link attemptSteps} to its end; returns its result. */
function finish<T>(steps: Generator<undefined, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** {@link harden}, yielding after each move: a caller can let its event loop turn (and hear a signal) within a long climb. */
function* hardenSteps(
  start: Grid,
  solution: Grid,
  orbits: readonly number[][],
  random: Random,
  judge: PuzzleJudge,
  steps: number,
  presentations: number,
): Generator<undefined, Climb> {
  let current = start;
  let currentGuesses = requireGuesses(judge, current); // as written: the same puzzle every step, so graded once
  for (let step = 0; step < steps; step++) {
    const candidate = mutate(current, solution, orbits, random, judge);
    const views = Array.from({ length: presentations - 1 }, () => randomPresentation(random));
    const candidateGuesses = requireGuesses(judge, candidate);
    const bar = views.reduce((sum, view) => sum + requireGuesses(judge, present(current, view)), currentGuesses);
    let sum = candidateGuesses;
    for (const view of views) {
      if (sum >= bar) break; // grades are never negative: a sum that reaches the bar stays there, so the views left need no search
      sum += requireGuesses(judge, present(candidate, view));
    }
    if (sum >= bar) {
      current = candidate;
      currentGuesses = candidateGuesses;
    }
    yield;
  }
  return { puzzle: current, guesses: currentGuesses };
}

/** The judge's guesses for `puzzle`, or an error when its engine cannot report them. */
function requireGuesses(judge: PuzzleJudge, puzzle: Grid): number {
  const guesses = judge.guesses(puzzle);
  if (Number.isNaN(guesses)) throw new Error("this solver does not report guesses; hardening and guess filters need one that does");
  return guesses;
}

// ─── Runs of many puzzles ───────────────────────────────────────────────────

/** What to generate. Every field but `count` has a default. */
export interface GenerateOptions {
  /** Puzzles to make. */
  count: number;
  /** PRNG seed, a whole number from 0 to 2^32-1. @default 1 */
  seed?: number;
  /** Symmetry of the clue pattern. @default "none" */
  symmetry?: Symmetry;
  /** Remove clues until none can go. With `clues`, keep only minimal puzzles of exactly that many clues. @default true when `clues` is not given */
  minimal?: boolean;
  /** Stop removing clues at this many (attempts stuck above it are dropped). @default undefined (no target) */
  clues?: number;
  /** Hill-climbing moves per climb toward more guesses; 0 for none. @default 0 */
  hardenSteps?: number;
  /** Independent climbs (each from a new grid) per puzzle, keeping the hardest. @default 1 */
  restarts?: number;
  /** Views of each puzzle (itself and random relabellings) whose mean guesses the climb maximises. @default 1 */
  presentations?: number;
  /** Keep only puzzles that need at least this many guesses. @default 0 */
  minGuesses?: number;
  /** Keep only puzzles that need at most this many guesses. @default Infinity */
  maxGuesses?: number;
  /** Attempts allowed before giving up with an error. @default 1000 + 100 × count (at most 2^53-1) */
  maxAttempts?: number;
}

/** Defaults of the optional {@link GenerateOptions} fields (the CLI's help shows these). */
export const GENERATE_DEFAULTS = {
  seed: 1,
  symmetry: "none" as Symmetry,
  hardenSteps: 0,
  restarts: 1,
  presentations: 1,
  minGuesses: 0,
  maxGuesses: Infinity,
} as const;

/** {@link GenerateOptions} with every default filled in. */
export type GenerateSettings = Required<Omit<GenerateOptions, "clues">> & { clues: number | undefined };

/** One generated puzzle, its solution and what it cost the engine. */
export interface GeneratedPuzzle {
  puzzle: Grid;
  solution: Grid;
  clues: number;
  /** The engine's guesses for a limit-2 search (NaN when the engine cannot tell). */
  guesses: number;
  /** The attempt (PRNG stream) it came from. */
  attempt: number;
}

/** Fills in the defaults of {@link GenerateOptions} and rejects bad or contradictory values. */
export function resolveGenerateOptions(options: GenerateOptions): GenerateSettings {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const defaults = {
    ...GENERATE_DEFAULTS,
    minimal: options.clues === undefined,
    clues: undefined,
    maxAttempts: Math.min(1000 + 100 * options.count, Number.MAX_SAFE_INTEGER),
  };
  const settings: GenerateSettings = { ...defaults, ...given, count: options.count };
  checkWhole("count", settings.count, 1);
  checkSeed(settings.seed);
  if (!SYMMETRIES.includes(settings.symmetry)) throw new RangeError(`symmetry must be one of ${SYMMETRIES.join(", ")}, got ${settings.symmetry}`);
  if (settings.clues !== undefined) checkWhole("clues", settings.clues, 17, CELLS);
  checkWhole("hardenSteps", settings.hardenSteps, 0);
  checkWhole("restarts", settings.restarts, 1);
  checkWhole("presentations", settings.presentations, 1);
  checkWhole("maxAttempts", settings.maxAttempts, 1);
  if (!(settings.minGuesses >= 0) || !(settings.maxGuesses >= settings.minGuesses)) {
    throw new RangeError(`minGuesses (${settings.minGuesses}) is above maxGuesses (${settings.maxGuesses}): the guess range is empty`);
  }
  // Each hardening move adds clues and carves back to minimal, so the count it ends at is not the target's.
  if (settings.hardenSteps > 0 && settings.clues !== undefined)
    throw new RangeError("hardening (--harden) changes the clue count, so it takes no clue target (--clues): drop one of them");
  if (settings.hardenSteps > 0 && !settings.minimal) throw new RangeError("hardening works on minimal puzzles");
  if (settings.minimal && settings.clues !== undefined && settings.clues > MAX_MINIMAL_CLUES)
    throw new RangeError(
      `a minimal puzzle (--minimal) has at most ${MAX_MINIMAL_CLUES} clues, so none has ${settings.clues} (--clues): ` +
        "every row of one holds an empty cell (a clue it cannot lose has one in its row); drop --minimal, or ask for fewer clues",
    );
  return settings;
}

/**
 * The most clues a minimal puzzle can have: 72. A clue the puzzle cannot lose has a second solution without it that differs
 * from the first in that clue's cell and, as each row holds each digit once, in another cell of its row, which is no clue:
 * so every row (also a row of no clue) holds an empty cell. Under rotational symmetry, where an orbit is a pair of cells in
 * rows r and 8 - r, every row but the middle one holds one (the empty cells pair up), and the middle row too: it holds the
 * empty centre, or the centre is a clue, whose row then holds an empty cell. (No minimal puzzle of more than 40 clues is known.)
 */
export const MAX_MINIMAL_CLUES = CELLS - SIZE;

/** True when the settings make output that depends on the engine's guess counts (not only on uniqueness). */
export function dependsOnGuesses(settings: GenerateSettings): boolean {
  return settings.hardenSteps > 0 || settings.minGuesses > 0 || settings.maxGuesses !== Infinity;
}

/** One attempt: a carved (and, if asked, hardened) puzzle, or null when it misses the clue target. */
export function attemptPuzzle(judge: PuzzleJudge, settings: GenerateSettings, attempt: number): GeneratedPuzzle | null {
  return finish(attemptSteps(judge, settings, attempt));
}

/** {@link attemptPuzzle}, yielding after each hardening move. */
function* attemptSteps(judge: PuzzleJudge, settings: GenerateSettings, attempt: number): Generator<undefined, GeneratedPuzzle | null> {
  const random = Random.forStream(settings.seed, attempt);
  const orbits = symmetryOrbits(settings.symmetry);
  let best: GeneratedPuzzle | null = null;
  const climbs = settings.hardenSteps > 0 ? settings.restarts : 1;
  for (let climb = 0; climb < climbs; climb++) {
    const solution = randomSolution(random);
    const puzzle = solution.slice();
    const target = settings.minimal ? 0 : (settings.clues ?? 0);
    const clues = carve(puzzle, solution, orbits, random, judge, target);
    if (settings.clues !== undefined && clues !== settings.clues) continue;
    const climbed =
      settings.hardenSteps > 0
        ? yield* hardenSteps(puzzle, solution, orbits, random, judge, settings.hardenSteps, settings.presentations)
        : { puzzle, guesses: dependsOnGuesses(settings) ? requireGuesses(judge, puzzle) : judge.guesses(puzzle) };
    if (!best || climbed.guesses > best.guesses) {
      best = { puzzle: climbed.puzzle, solution, clues: countClues(climbed.puzzle), guesses: climbed.guesses, attempt };
    }
  }
  return best;
}

/** What {@link generateAttempts} throws once `maxAttempts` attempts have not made `count` puzzles. */
export class GaveUp extends Error {
  constructor(
    readonly made: number,
    readonly count: number,
    readonly attempts: number,
  ) {
    super(`made ${made} of ${count} puzzles in ${attempts} attempts; loosen the clue target or guess range`);
  }
}

/** Generates `count` distinct unique puzzles, in attempt order (deterministic for equal options); throws after `maxAttempts` attempts. */
export function* generatePuzzles(judge: PuzzleJudge, options: GenerateOptions): Generator<GeneratedPuzzle> {
  for (const generated of generateAttempts(judge, options)) if (generated) yield generated;
}

/**
 * {@link generatePuzzles}, with a null for each attempt that made no puzzle it keeps (none found, out of the guess
 * range, or one made before): a caller can stop between attempts, however many it takes to find the next puzzle.
 * Within an attempt, an undefined after each hardening move: a caller can let its event loop turn in a long climb.
 */
export function* generateAttempts(judge: PuzzleJudge, options: GenerateOptions): Generator<GeneratedPuzzle | null | undefined> {
  const settings = resolveGenerateOptions(options);
  const seen = new PuzzleSet(); // not a Set of strings: that stops at 2^24 puzzles
  let made = 0;
  for (let attempt = 0; made < settings.count; attempt++) {
    if (attempt >= settings.maxAttempts) {
      throw new GaveUp(made, settings.count, attempt);
    }
    const generated = yield* attemptSteps(judge, settings, attempt);
    if (!generated || generated.guesses < settings.minGuesses || generated.guesses > settings.maxGuesses || !seen.add(generated.puzzle)) {
      yield null;
      continue;
    }
    made++;
    yield generated;
  }
}

/** Count, clue range and guess statistics of a corpus, as recorded in datasets/manifest.json. */
export interface CorpusSummary {
  count: number;
  clues: { min: number; max: number };
  guesses: { mean: number; median: number; min: number; max: number };
}

/** A {@link CorpusSummary} kept as the puzzles come, in memory that does not grow with their number (see {@link FigureTally}). */
export class CorpusTally {
  private readonly clues = new FigureTally();
  private readonly guesses = new FigureTally();

  /** The puzzles added so far. */
  get count(): number {
    return this.guesses.count;
  }

  add(clues: number, guesses: number): void {
    this.clues.add(clues);
    this.guesses.add(guesses);
  }

  summary(): CorpusSummary {
    return { count: this.count, clues: this.clues.range(), guesses: this.guesses.figures() };
  }
}

/**
 * The mean, median, least and most of values added one at a time, without keeping the list: a running sum (added in the
 * order the values come, so the mean is the list's to the last bit), the least and most, and how many times each distinct
 * value came, from which the median is read. Its memory grows with the distinct values (guesses, or the grades their
 * combinations make), not with the count.
 */
export class FigureTally {
  /** The values added so far. */
  count = 0;
  private sum = 0;
  private least = Infinity;
  private most = -Infinity;
  private readonly times = new Map<number, number>();

  add(value: number): void {
    this.count++;
    this.sum += value;
    [this.least, this.most] = [Math.min(this.least, value), Math.max(this.most, value)]; // NaN stays, as in a list's loop
    this.times.set(value, (this.times.get(value) ?? 0) + 1);
  }

  /** The distinct values added so far: what the tally holds, whatever the count. */
  get distinct(): number {
    return this.times.size;
  }

  /** The least and most (Infinity and -Infinity for no value). */
  range(): { min: number; max: number } {
    return { min: this.least, max: this.most };
  }

  /** The median, as quantile.ts's `median` of the list would give it: the middle value, or the mean of the two middle values. */
  median(): number {
    if (this.count === 0) return NaN;
    const values = Float64Array.from(this.times.keys()).sort(); // ascending, NaN last, as the list would sort
    const at = (this.count - 1) * 0.5;
    const low = Math.floor(at);
    const high = Math.min(low + 1, this.count - 1);
    let [lowValue, highValue] = [NaN, NaN];
    let seen = 0; // values of the list below the one looked at
    for (const value of values) {
      const next = seen + this.times.get(value)!;
      if (low >= seen && low < next) lowValue = value;
      if (high >= seen && high < next) {
        highValue = value;
        break;
      }
      seen = next;
    }
    return lowValue + (highValue - lowValue) * (at - low); // (the arithmetic of quantile.ts)
  }

  /** Mean, median, least and most, each {@link round2}ed (the mean of no value is 0/1). */
  figures(): CorpusSummary["guesses"] {
    return { mean: round2(this.sum / Math.max(1, this.count)), median: round2(this.median()), min: round2(this.least), max: round2(this.most) };
  }
}

/** Rounded to 2 decimals: grades of several graders are fractions. */
export const round2 = (value: number): number => Math.round(value * 100) / 100;
