/**
 * Noise and consistency flags: pure checks over one row's figures that say when its numbers should not be trusted as
 * they stand. Reporters print a flag's mark beside the row and its note (FLAG_NOTES) once below the table.
 */
import { median } from "../src/model/quantile.js";
import type { BenchRecord } from "./records.js";

/** What the checks read from one row (a BenchRecord, or the web page's row, which has no per-puzzle pass). */
export type RowFigures = Pick<BenchRecord, "rmePercent" | "meanMicros" | "passMeanMicros" | "cpuPerWall" | "threads"> &
  Partial<Pick<BenchRecord, "p99Micros" | "batchCall" | "puzzles" | "timeouts" | "speedShift">>;

/** A row's margin of error above this (percent) marks it noisy. */
export const NOISY_MARGIN_PERCENT = 5;
/** The two passes' means may differ by this factor (times the batch margin) before the row is marked. */
export const PASS_RATIO_LIMIT = 1.5;
/** CPU/wall below this share of the threads used marks the row pre-empted. */
export const PREEMPTED_SHARE = 0.85;
/** A row whose calibration ran more than this factor slower or faster than the run's marks it (see {@link markSpeedShifts}). */
export const SPEED_SHIFT_LIMIT = 1.2;
/** One-thread rows with a calibration a run needs before any is marked for its speed. */
export const SPEED_SHIFT_ROWS = 3;

export type NoiseFlag = "noisy" | "disagree" | "preempted" | "timeouts" | "speed";

export const FLAG_NOTES: Readonly<Record<NoiseFlag, { mark: string; note: string }>> = {
  noisy: {
    mark: "N",
    note: `noisy: ± above ${NOISY_MARGIN_PERCENT}%; give each row more time (--time 2000) or use a quieter machine`,
  },
  disagree: {
    mark: "D",
    note:
      `passes disagree: the timed batches' mean and the per-puzzle pass (p50, p99) differ by more than ${PASS_RATIO_LIMIT}×, ` +
      "or the mean lies above the pass's p99; " +
      "one pass was disturbed: rerun, pin the process (taskset -c 1 npm run bench) or use a quieter machine",
  },
  preempted: {
    mark: "P",
    note:
      `pre-empted: CPU time / wall time while timing was below ${PREEMPTED_SHARE} per thread, so another process had the core; ` +
      "use a quieter machine or pin (taskset -c 1)",
  },
  timeouts: {
    mark: "T",
    note:
      "timed out: more than half its puzzles hit --budget, so its puzzles/s says how fast it gives up, not how fast it solves " +
      "(its passes are not compared, and --compare does not judge it); raise --budget to time its solving",
  },
  speed: {
    mark: "S",
    note:
      `speed changed: the calibration work timed between the row's calls ran more than ${SPEED_SHIFT_LIMIT}× slower or faster than ` +
      "in the run's median row, so the machine ran at another speed while the row was timed than through most of the run (a " +
      "virtual machine's CPU can, for seconds at a time; when the run was slowed throughout, the rows marked faster are the " +
      "ones timed at its usual speed) and its puzzles/s does not compare with the other rows'; rerun (--compare is not " +
      "misled: it judges each row relative to its calibration)",
  },
};

/** Whether more than half of a row's puzzles hit the budget (flag T): its puzzles/s is how fast it gives up. */
export const mostlyTimedOut = (row: Pick<RowFigures, "timeouts" | "puzzles">): boolean =>
  row.timeouts !== undefined && row.puzzles !== undefined && row.timeouts * 2 > row.puzzles;

export function noiseFlags(row: RowFigures): NoiseFlag[] {
  const flags: NoiseFlag[] = [];
  if (row.rmePercent > NOISY_MARGIN_PERCENT) flags.push("noisy");
  const timedOut = mostlyTimedOut(row);
  if (passesDisagree(row) && !timedOut) flags.push("disagree");
  if (row.cpuPerWall !== null && Number.isFinite(row.cpuPerWall) && row.cpuPerWall < PREEMPTED_SHARE * (row.threads ?? 1)) {
    flags.push("preempted");
  }
  if (timedOut) flags.push("timeouts");
  const shift = row.speedShift;
  if (typeof shift === "number" && shift > 0 && (shift > SPEED_SHIFT_LIMIT || shift < 1 / SPEED_SHIFT_LIMIT)) flags.push("speed");
  return flags;
}

/**
 * Sets each one-thread row's `speedShift`: its mean calibration CPU µs per unit over the run's median row's (above 1:
 * the machine ran slower while the row was timed). The mean, as the row's rate pools all its rounds. A worker pool's
 * row has none: its calibration shares the process's CPU time with its workers'.
 */
export function markSpeedShifts<R extends Pick<BenchRecord, "threads" | "calibrationMicros" | "speedShift">>(records: R[]): R[] {
  const own = new Map<R, number>();
  for (const r of records) {
    const rounds = r.threads === null ? (r.calibrationMicros ?? []).filter((micros) => Number.isFinite(micros) && micros > 0) : [];
    if (rounds.length > 0) own.set(r, rounds.reduce((sum, micros) => sum + micros, 0) / rounds.length);
  }
  const run = median([...own.values()]);
  for (const r of records) {
    const mine = own.get(r);
    r.speedShift = mine !== undefined && own.size >= SPEED_SHIFT_ROWS && run > 0 ? mine / run : null;
  }
  return records;
}

/** The batch and per-puzzle means differ beyond PASS_RATIO_LIMIT, or the batch mean lies above the pass's p99, each widened by the batch margin. */
export function passesDisagree(row: RowFigures): boolean {
  const pass = row.passMeanMicros;
  if (pass === null || pass === undefined || !(pass > 0) || !(row.meanMicros > 0)) return false;
  const margin = 1 + (Number.isFinite(row.rmePercent) ? row.rmePercent : 0) / 100;
  const allowed = PASS_RATIO_LIMIT * margin;
  const ratio = row.meanMicros / pass;
  const p99 = row.p99Micros;
  const aboveP99 = p99 !== null && p99 !== undefined && p99 > 0 && pass <= p99 && row.meanMicros > p99 * margin;
  // A batch call's pass times single calls, which cost more than their share of a batch: expected, not a disturbance.
  const passSlower = ratio < 1 / allowed && !row.batchCall;
  return ratio > allowed || passSlower || aboveP99;
}

/** "N P", or "" with no flags. */
export function flagMarks(flags: readonly NoiseFlag[]): string {
  return flags.map((flag) => FLAG_NOTES[flag].mark).join(" ");
}
