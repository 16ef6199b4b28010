/**
 * The shared fixture through the pure-TypeScript baselines (scan, tables, queue, mrv, dlx) and the
 * npm references: each solves every 9×9 line with limit 2 through `createSolver` + `solve`, and
 * must give the line's count (or `invalid`), its solution, and only valid solutions that keep
 * the clues; the row-major ones stop with `timeout` on the lines known to be beyond their budget
 * (test/fixture-rows.ts). The kernels' rows are in fixture.test.ts.
 */
import { BASELINE_IDS, ROWS, describeRows } from "./fixture-rows.js";

describeRows(ROWS.filter(([, info]) => BASELINE_IDS.has(info.id)));
