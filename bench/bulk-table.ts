/** The two tables of `npm run bulk-bench`: speed (each `solve` run against K and `--threads 0`) and sizing. */
import type { Column } from "./report/format.js";
import { median } from "../src/model/quantile.js";
import { rate } from "./measure/reference.js";

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

export interface SizingRow {
  tier: string;
  puzzles: number;
  /** Puzzles per CPU-second of `solve --threads 0`, start-up taken off (a string: why not measured). */
  perCpuSecond: number | string;
  /** Puzzles per wall second of `solve --threads 2`, start-up taken off (a string: why not measured). */
  perMachineSecond: number | string;
}

const rateCell = (rate: number | string) => (typeof rate === "string" ? `not measured (${rate})` : figure(rate));
/** `cell` of the machine-hours 10⁹ puzzles take, or empty when the rate is not measured. */
const hoursCell = (row: SizingRow, cell: (hours: number) => string) =>
  typeof row.perMachineSecond === "string" ? "" : cell(1e9 / row.perMachineSecond / 3600);

export const SIZING_COLUMNS: readonly Column<SizingRow>[] = [
  { header: "tier", align: "left", cell: (r) => r.tier },
  { header: "puzzles", align: "right", cell: (r) => figure(r.puzzles) },
  { header: "puzzles per CPU-second, `--threads 0`", align: "right", cell: (r) => rateCell(r.perCpuSecond) },
  { header: "puzzles/s, `--threads 2` (one 2-core machine)", align: "right", cell: (r) => rateCell(r.perMachineSecond) },
  { header: "10⁹ puzzles: machine-hours", align: "right", cell: (r) => hoursCell(r, (hours) => hours.toFixed(hours < 10 ? 2 : 1)) },
  { header: "machines for 10⁹ in 1 hour", align: "right", cell: (r) => hoursCell(r, (hours) => `${Math.ceil(hours)}`) },
];

/**
 * A tier's sizing row from its rounds: medians of `puzzles` per CPU-second of `zero` and per wall second of `two`, each
 * round's start-up (`start`, a 1-record run) taken off; a rate is not measured when a run is barely longer than the start-up.
 */
export function sizingRow(
  tier: string,
  puzzles: number,
  rounds: readonly Record<"start" | "zero" | "two", { wallSeconds: number; cpuSeconds: number }>[],
): SizingRow {
  const rateOf = (run: "zero" | "two", clock: "cpuSeconds" | "wallSeconds") => {
    const [runs, startUps] = [rounds.map((round) => round[run][clock]), rounds.map((round) => round.start[clock])];
    return shortRun(runs, startUps) ?? median(runs.map((seconds, i) => puzzles / (seconds - startUps[i])));
  };
  return { tier, puzzles, perCpuSecond: rateOf("zero", "cpuSeconds"), perMachineSecond: rateOf("two", "wallSeconds") };
}

/** A figure of per-round ratios, or why it was not measured. */
export type Measured = { ratios: number[] } | { notMeasured: string };

/** `measured`'s median and range, or "not measured (why)". */
export const measuredCell = (measured: Measured): string => ("ratios" in measured ? ratioCell(measured.ratios) : `not measured (${measured.notMeasured})`);

/**
 * Why a start-up-free figure of `runs` (round i's start-up `startUps[i % rounds]` taken off) is not measured, or null:
 * some run's solving phase is shorter than its start-up, and the difference of two times barely apart is mostly their
 * noise (it gave 0.18 where the truth was near 1).
 */
export function shortRun(runs: readonly number[], startUps: readonly number[]): string | null {
  const solving = runs.map((run, i) => run - startUps[i % startUps.length]);
  if (solving.every((phase, i) => phase >= startUps[i % startUps.length])) return null;
  return `a run's solving took ${Math.max(0, Math.min(...solving)).toFixed(3)} s, less than the start-up`;
}

/** Per round, `zero`'s solving phase ÷ `run`'s, the round's start-up (a 1-record run's wall seconds) taken off both, unless {@link shortRun}. */
export function solvingRatios(run: readonly number[], zero: readonly number[], startUps: readonly number[]): Measured {
  const short = shortRun([...run, ...zero], startUps);
  if (short) return { notMeasured: `${short}: give a larger --hard` };
  return { ratios: run.map((wall, i) => (zero[i] - startUps[i]) / (wall - startUps[i])) };
}

/** A note when the start-up is more than half of `solve --threads 0`'s wall time on `records` (`share`), or null: their ÷ K is true, start-up included, but says little of the solving. */
export function startUpNote(share: number, records: string, option: string): string | null {
  if (!(share > 0.5)) return null;
  return `note: the start-up is ${(share * 100).toFixed(0)}% of \`solve --threads 0\`'s wall time on ${records}: their ÷ K measures the start-up more than the solving; give a larger ${option}`;
}

/** Why K on 2 threads at once is not measured with `cores` available, or null: two kernels on one core share it. */
export const twoAtOnceProblem = (cores: number): string | null => (cores < 2 ? `${cores} core available: two kernels would share it` : null);

/**
 * The rate of `count` puzzles over `seconds` or more of `run`, after `warmSeconds` or more of it untimed: a cold kernel
 * (its code not yet optimised, cold caches) ran several times slower, and K is the base of every ratio.
 */
export async function warmRate(count: number, seconds: number, warmSeconds: number, run: () => unknown): Promise<{ wall: number; cpu: number }> {
  await rate(count, warmSeconds, run);
  return rate(count, seconds, run);
}
