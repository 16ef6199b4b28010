/**
 * The speed table `npm run bulk-bench -- --markdown` prints (and docs/where-it-stands.md holds):
 * one row per run, the kernel's own rate (K) first on each corpus, then each `solve` run with its
 * ratio to K and to `--threads 0` on the same corpus, its CPU time and its peak RSS. bench/bulk.ts
 * measures the rows; ratios are medians of the per-round ratios, with their range.
 */
import type { Column } from "./report/format.js";
import { quantile } from "../src/model/quantile.js";

/** One run's medians over the rounds (null: not measured for this run). */
export interface BulkRow {
  run: string;
  perSecond: number;
  /** Per round: this run's rate ÷ K. */
  perK: number[] | null;
  /** Per round: the `--threads 0` run's wall time ÷ this run's. */
  perZero: number[] | null;
  cpuSeconds: number | null;
  rssMb: number | null;
}

/** The median of a list of figures. */
export const median = (values: number[]): number =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
/** A whole figure with thousands separators. */
export const figure = (n: number): string => Math.round(n).toLocaleString("en-US");
/** The median of per-round ratios with their range, or empty. */
export const ratioCell = (values: number[] | null): string =>
  values === null || values.length === 0 ? "" : `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;

export const BULK_COLUMNS: readonly Column<BulkRow>[] = [
  { header: "run", align: "left", cell: (r) => r.run },
  { header: "puzzles/s", align: "right", cell: (r) => figure(r.perSecond) },
  { header: "÷ K (range)", align: "left", cell: (r) => ratioCell(r.perK) },
  { header: "÷ `--threads 0` (range)", align: "left", cell: (r) => ratioCell(r.perZero) },
  { header: "CPU s", align: "right", cell: (r) => (r.cpuSeconds === null ? "" : r.cpuSeconds.toFixed(2)) },
  { header: "peak RSS MB", align: "right", cell: (r) => (r.rssMb === null ? "" : figure(r.rssMb)) },
];
