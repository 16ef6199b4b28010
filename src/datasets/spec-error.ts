/**
 * A `--datasets` name that names nothing to measure (a usage error: status 2). A module of its
 * own, without Node's modules: the web page's worker draws puzzles too.
 */
export class DatasetSpecError extends Error {
  override name = "DatasetSpecError";
}
