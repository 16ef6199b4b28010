/**
 * A `--datasets` name that names nothing to measure: a public set not fetched yet (the message
 * gives the command that fetches it), neither a public set, a bundled name nor a path, two
 * datasets of one name, or a file with a line of another size. A usage error: the bench tools exit
 * with status 2 on it. (A module of its own, without Node's modules: the web page's worker draws
 * puzzles too.)
 */
export class DatasetSpecError extends Error {
  override name = "DatasetSpecError";
}
