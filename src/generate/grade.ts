/**
 * Grading a puzzle by several solvers, of one family or of different families.
 *
 * Glossary
 *   grader     a registry solver whose guesses for a limit-2 search count as a puzzle's cost.
 *   family     the graders that share a registry id before any ':' (`wasm`, `wasm:first` and
 *              `wasm:static` are one family, `dlx` another, `mrv` a third).
 *   reference  a fixed set of puzzles; a grader's reference mean is its mean guesses on them.
 *   grade      one number per puzzle, in the first grader's guesses.
 *
 * Solvers of different families count guesses on different scales (on the same puzzles `mrv`
 * guesses 10–60 times as often as `wasm`), so raw guesses cannot be averaged across families.
 * Each grader's guesses are first put on the first grader's scale by the ratio of the two
 * reference means, then combined by a weighted geometric mean in which every family weighs the
 * same (and the graders of a family share its weight):
 *
 *   grade = exp( Σ_g w_g · ln(c_g · m₁ / m_g + 1) ) − 1,   w_g = 1 / (F · |family(g)|)
 *
 * with c_g the grader's guesses on the puzzle, m_g its reference mean and F the number of
 * families; the +1 keeps puzzles solved without a guess finite. Properties: with one grader
 * the grade is its guesses; a puzzle no grader guesses on grades 0; scaling a grader's guesses
 * by a constant scales its reference mean too and leaves every grade unchanged, so how a family
 * counts does not matter, only how hard the puzzle is for it relative to the reference; a puzzle
 * at which every grader needs its reference mean grades m₁. A grader with no guess on the
 * reference keeps its own scale. The grade is rounded to 6 decimals so that filters do not turn
 * on the last bit of a logarithm.
 */

/** The family of a registry id: the part before any ':' (`wasm:first` → `wasm`). */
export function familyOf(id: string): string {
  const colon = id.indexOf(":");
  return colon < 0 ? id : id.slice(0, colon);
}

/** Each grader's weight: families weigh the same, and a family's graders share its weight. Sums to 1. */
export function graderWeights(ids: readonly string[]): number[] {
  const sizes = new Map<string, number>();
  for (const id of ids) sizes.set(familyOf(id), (sizes.get(familyOf(id)) ?? 0) + 1);
  return ids.map((id) => 1 / (sizes.size * sizes.get(familyOf(id))!));
}

/**
 * The grade of a puzzle from its graders' guesses `costs`, their reference means and weights
 * (see the module comment). NaN when a cost is NaN (a grader that reports no guesses).
 */
export function combineGrades(costs: readonly number[], referenceMeans: readonly number[], weights: readonly number[]): number {
  if (costs.length === 1) return costs[0];
  let logGrade = 0;
  for (let g = 0; g < costs.length; g++) {
    const scale = referenceMeans[g] > 0 && referenceMeans[0] > 0 ? referenceMeans[0] / referenceMeans[g] : 1;
    logGrade += weights[g] * Math.log(costs[g] * scale + 1);
  }
  return Math.round((Math.exp(logGrade) - 1) * 1e6) / 1e6;
}
