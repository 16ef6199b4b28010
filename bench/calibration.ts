/**
 * The calibration workload: a fixed piece of work timed beside every row, round by round
 * (rounds.ts), so that `--compare` can judge each row relative to it (report/compare.ts). What
 * slows the whole machine between two runs (another tenant on the host, CPU steal, the clock
 * frequency, a busy sibling core) slows the row and the calibration timed next to it alike; the
 * ratio row ÷ calibration keeps what the code changed.
 *
 * The work is a frozen miniature of a solver's inner loop: candidate masks of 81 cells in a
 * Uint16Array, updated from pseudo-random placements (xorshift32, fixed seed), with popcounts and
 * data-dependent branches. It never changes with the solvers; a run records its identity (a name
 * and the hash of the work's source, {@link calibrationIdentity}) and `--compare` refuses two runs
 * whose calibrations differ, since their normalised figures are then in different units.
 */
import { createHash } from "node:crypto";

/** The name of this calibration; bump it with any change to {@link calibrationUnit}. */
export const CALIBRATION_NAME = "masks-v1";

/** Placements per unit of work. */
const PLACEMENTS = 2_000;

/** One unit of the calibration work; returns a checksum so that the work cannot be optimised away. */
export function calibrationUnit(): number {
  const masks = new Uint16Array(81);
  let state = 0x9e3779b9;
  let checksum = 0;
  for (let step = 0; step < PLACEMENTS; step++) {
    if ((step & 63) === 0) masks.fill(0x1ff);
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const cell = (state >>> 0) % 81;
    const digit = 1 << ((state >>> 8) % 9);
    if ((masks[cell] & digit) === 0) {
      checksum += cell;
      continue;
    }
    const row = cell - (cell % 9);
    const column = cell % 9;
    for (let i = 0; i < 9; i++) {
      masks[row + i] &= ~digit;
      masks[column + 9 * i] &= ~digit;
    }
    let bits = masks[cell];
    bits -= (bits >>> 1) & 0x5555;
    bits = (bits & 0x3333) + ((bits >>> 2) & 0x3333);
    bits = (bits + (bits >>> 4)) & 0x0f0f;
    checksum += (bits + (bits >>> 8)) & 0x1f;
  }
  return checksum;
}

/** What a run records of its calibration: its name and the first 16 hex digits of the SHA-256 of its work's source. */
export function calibrationIdentity(): string {
  const source = `${CALIBRATION_NAME} ${PLACEMENTS} ${calibrationUnit.toString()}`;
  return `${CALIBRATION_NAME} ${createHash("sha256").update(source).digest("hex").slice(0, 16)}`;
}

let warm = false;
/** The units' checksums, kept so that the work is observable. */
let sink = 0;

/**
 * Times the calibration for about `ms` of wall-clock time (whole units, at least one) and returns
 * the process CPU ms per unit (time the process was not running is not counted); the first call
 * warms it up first (V8 compiles it).
 */
export function timeCalibration(ms: number): number {
  if (!warm) {
    const until = performance.now() + 30;
    while (performance.now() < until) sink ^= calibrationUnit();
    warm = true;
  }
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let units = 0;
  let now = start;
  do {
    sink ^= calibrationUnit();
    units++;
    now = performance.now();
  } while (now - start < ms);
  const cpu = process.cpuUsage(cpuStart);
  return (cpu.user + cpu.system) / 1000 / units;
}
