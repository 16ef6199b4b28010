/**
 * The sizing table `npm run bulk-bench -- --sizing` prints (and docs/where-it-stands.md holds):
 * per tier, the CLI's puzzles per CPU-second with `--threads 0` and per second of one 2-core
 * machine with `--threads 2`, then what 10⁹ such puzzles take. bench/bulk.ts measures the rows.
 */
import type { Column } from "./report/format.js";

/** One tier's medians. */
export interface SizingRow {
  tier: string;
  puzzles: number;
  /** Puzzles per CPU-second of `solve --threads 0`, start-up taken off. */
  perCpuSecond: number;
  /** Puzzles per wall second of `solve --threads 2`, start-up taken off. */
  perMachineSecond: number;
}

const figure = (n: number) => Math.round(n).toLocaleString("en-US");
const machineHours = (row: SizingRow) => 1e9 / row.perMachineSecond / 3600;

export const SIZING_COLUMNS: readonly Column<SizingRow>[] = [
  { header: "tier", align: "left", cell: (r) => r.tier },
  { header: "puzzles", align: "right", cell: (r) => figure(r.puzzles) },
  { header: "puzzles per CPU-second, `--threads 0`", align: "right", cell: (r) => figure(r.perCpuSecond) },
  { header: "puzzles/s, `--threads 2` (one 2-core machine)", align: "right", cell: (r) => figure(r.perMachineSecond) },
  { header: "10⁹ puzzles: machine-hours", align: "right", cell: (r) => machineHours(r).toFixed(machineHours(r) < 10 ? 2 : 1) },
  { header: "machines for 10⁹ in 1 hour", align: "right", cell: (r) => `${Math.ceil(machineHours(r))}` },
];
