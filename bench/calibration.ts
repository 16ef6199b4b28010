/**
 * The calibration work, timed between the calls of every row so that `--compare` judges each row relative to it: what
 * slows the whole machine slows the row and the calibration beside it alike. A frozen miniature of a solver's inner
 * loop; `--compare` refuses two runs whose calibrations differ, since their figures are then in different units.
 */
import { createHash } from "node:crypto";

/** The name of this calibration; bump it with any change to {@link calibrationUnit}. */
export const CALIBRATION_NAME = "masks-v2";

const PLACEMENTS = 2_000;

/** Allocated once: a unit allocates nothing, so no garbage collection lands in the calibration's time. */
const masks = new Uint16Array(81);

/** One unit of the calibration work; returns a checksum so that the work cannot be optimised away. */
export function calibrationUnit(): number {
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
  const source = `${CALIBRATION_NAME} ${PLACEMENTS} ${masks.length} ${calibrationUnit.toString()}`;
  return `${CALIBRATION_NAME} ${createHash("sha256").update(source).digest("hex").slice(0, 16)}`;
}

let warm = false;
/** The units' checksums, kept so that the work is observable. */
let _sink = 0;

/** Runs the calibration for 30 ms once, so that V8 has compiled it before it is timed. */
function warmUp(): void {
  if (warm) return;
  const until = performance.now() + 30;
  while (performance.now() < until) _sink ^= calibrationUnit();
  warm = true;
}

export interface CalibrationWork {
  cpuMs: number;
  units: number;
}

/** The calibration timed in pulses beside a row's calls, in process CPU time; {@link take} gives the CPU ms per unit since the last take. */
export class CalibrationMeter {
  private cpuMs = 0;
  private units = 0;

  constructor() {
    warmUp();
  }

  /** Runs the work for about `ms` (at least one unit); returns what this pulse did. */
  pulse(ms: number): CalibrationWork {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    let units = 0;
    do {
      _sink ^= calibrationUnit();
      units++;
    } while (performance.now() - start < ms);
    const cpu = process.cpuUsage(cpuStart);
    const work = { cpuMs: (cpu.user + cpu.system) / 1000, units };
    this.add(work);
    return work;
  }

  /** Counts a pulse run elsewhere (a worker thread, beside the call it made there). */
  add(work: CalibrationWork): void {
    this.cpuMs += work.cpuMs;
    this.units += work.units;
  }

  /** CPU ms per unit of the pulses since the last take (NaN when none ran); starts the count again. */
  take(): number {
    const perUnit = this.cpuMs / this.units;
    this.cpuMs = 0;
    this.units = 0;
    return perUnit;
  }
}
