import type { Dataset } from "../../src/datasets/read.js";
import type { Expectation } from "../verify.js";
import { TimingAborted, yieldToEventLoop } from "./batches.js";

/** What every measuring run (bench, profiler, --ref) is given. */
export interface MeasurePlan {
  datasets: readonly Dataset[];
  limit: number;
  /** Work cap per puzzle for solvers that honour one (engine-defined nodes). */
  budget: number;
  seed: number;
  /** Expected solution counts of a dataset; default: verify.ts's expectationOf its name. */
  expectationOf?(dataset: Dataset): Expectation;
  /** Stops the run: the row being measured is dropped, the rows finished are returned. */
  signal?: AbortSignal;
}

/** Progress callbacks of a measuring run. */
export interface MeasureProgress<R> {
  begin(totalRows: number): void;
  row(label: string): void;
  done?(record: R): void;
  end(): void;
}

export const silentProgress: MeasureProgress<never> = { begin() {}, row() {}, end() {} };

/** The loop of a measuring run: per dataset, `prepare` once, then `measure` its rows in order; an abort drops the row being measured. */
export async function measureRows<D extends { name: string }, Row, Prepared, R extends object>(
  rows: readonly (readonly [D, readonly Row[]])[],
  label: (row: Row) => string,
  prepare: (dataset: D) => Prepared,
  measure: (row: Row, prepared: Prepared) => Promise<R>,
  progress: MeasureProgress<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const records: R[] = [];
  progress.begin(rows.reduce((sum, [, list]) => sum + list.length, 0));
  try {
    for (const [dataset, list] of rows) {
      const prepared = prepare(dataset);
      for (const row of list) {
        if (signal) await yieldToEventLoop(); // so a signal that came during the last row is seen
        if (signal?.aborted) return records;
        progress.row(`${dataset.name} · ${label(row)}`);
        const record = await measure(row, prepared).catch((error: unknown) => {
          if (error instanceof TimingAborted) return null;
          throw error;
        });
        if (record === null) return records;
        records.push(record);
        progress.done?.(record);
      }
    }
  } finally {
    progress.end();
  }
  return records;
}
