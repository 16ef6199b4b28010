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
