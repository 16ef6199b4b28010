/**
 * What a right answer is: the count a dataset promises (the catalog records each public set's; bundled sets are unique;
 * any other file is "unknown", checked only for agreement between solvers) and a valid solution that keeps the clues.
 */
import { PUBLIC_SETS } from "../src/datasets/catalog.js";
import { type Grid, formatGrid, isValidSolution } from "../src/model/puzzle.js";
import { isWhole } from "../src/model/whole-number.js";

export type Expectation = "unique" | "multiple" | "unknown";

/** The public sets' names by what their puzzles' solution counts are. */
const PUBLIC_SOLUTIONS = new Map(PUBLIC_SETS.map((set) => [set.name, set.solutions]));

/** What the solution counts of a dataset should be, from its name; `bundled` names count as unique. */
export function expectationOf(name: string, bundled: ReadonlySet<string> = new Set()): Expectation {
  const publicSolutions = PUBLIC_SOLUTIONS.get(name);
  if (publicSolutions !== undefined) return publicSolutions;
  if (bundled.has(name)) return "unique";
  return "unknown";
}

/** The count a correct solver returns under `limit`, or null when it is not known. */
export function expectedCount(expectation: Expectation, limit: number): number | null {
  if (expectation === "unique") return 1;
  if (expectation === "multiple") return Math.min(limit, 2);
  return null;
}

export interface Answer {
  count: number;
  /** The first solution (N² bytes); read only when count > 0. */
  solution: Grid;
  timedOut: boolean;
}

/** Why `answer` is wrong for `puzzle`, or null when it is right (a timed-out count is not checked). */
export function answerProblem(puzzle: Grid, answer: Answer, expectation: Expectation, limit: number): string | null {
  const { count, solution, timedOut } = answer;
  if (!isWhole(count, 0, limit)) return `count ${count} is outside 0..${limit}`;
  if (count > 0 && !isValidSolution(puzzle, solution)) {
    return `solution ${formatGrid(solution)} is not a valid grid that keeps the clues`;
  }
  const expected = expectedCount(expectation, limit);
  if (!timedOut && expected !== null && count !== expected) {
    return `expected ${expected} solution${expected === 1 ? "" : "s"} (the dataset is ${expectation}), got ${count}`;
  }
  return null;
}

/** A wrong answer from a solver: fails the bench run. */
export class WrongAnswerError extends Error {
  constructor(row: string, dataset: string, line: number, puzzle: Grid, problem: string) {
    super(`${row} on ${dataset} line ${line}: ${problem}\n  puzzle ${formatGrid(puzzle)}`);
    this.name = "WrongAnswerError";
  }
}

/** The counts rows report for each puzzle, so that solvers must agree where no expectation is known; compared capped at each row's limit. */
export class CountConsensus {
  private readonly seen = new Map<number, { count: number; limit: number; row: string }>();

  /** Records `count` (under `limit`) for puzzle `index`; returns a disagreement, or null. */
  check(index: number, count: number, limit: number, row: string): string | null {
    const earlier = this.seen.get(index);
    if (!earlier) {
      this.seen.set(index, { count, limit, row });
      return null;
    }
    const common = Math.min(limit, earlier.limit);
    if (Math.min(count, common) === Math.min(earlier.count, common)) return null;
    return `counted ${count} solution(s) where ${earlier.row} counted ${earlier.count}`;
  }
}
