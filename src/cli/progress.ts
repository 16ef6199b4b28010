/**
 * Progress and the closing summary of `solve`, both on stderr. Progress is a cli-progress
 * bar over the bytes read (so the ETA holds for any format) when the input size is known,
 * and a running count otherwise; the summary is one line of counts, time and rate.
 */
import { Presets, SingleBar } from "cli-progress";
import { TALLY_STATUSES } from "../pool/batch.js";

/** Shows how far a run has got. */
export class ProgressDisplay {
  private readonly bar: SingleBar;
  private readonly started = performance.now();

  /** `totalBytes` is the input size, or null when it is unknown (standard input). */
  constructor(private readonly totalBytes: number | null) {
    const format =
      totalBytes === null
        ? "solve | {done} puzzles | {rate} puzzles/s"
        : "solve [{bar}] {percentage}% | {done} puzzles | {rate} puzzles/s | ETA {eta_formatted}";
    this.bar = new SingleBar({ format, stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2000, hideCursor: true, fps: 5 }, Presets.shades_classic);
    this.bar.start(totalBytes ?? 0, 0, { done: "0", rate: "0" });
  }

  /** Records written so far and input bytes read when the last of them was read. */
  update(done: number, bytesRead: number): void {
    const seconds = (performance.now() - this.started) / 1000;
    const payload = { done: done.toLocaleString("en-US"), rate: Math.round(done / Math.max(seconds, 1e-3)).toLocaleString("en-US") };
    this.bar.update(this.totalBytes === null ? 0 : Math.min(bytesRead, this.totalBytes), payload);
  }

  stop(): void {
    this.bar.stop();
  }
}

/** "9,999 puzzles: 9,990 solved, 0 unsolvable, 5 multiple, 4 invalid, 0 timeout in 0.51 s (19,606 puzzles/s, 2 threads)". */
export function summaryLine(tally: readonly number[], seconds: number, threads: number): string {
  const total = tally.reduce((sum, n) => sum + n, 0);
  const counts = TALLY_STATUSES.map((status, i) => `${tally[i].toLocaleString("en-US")} ${status}`).join(", ");
  const rate = Math.round(total / Math.max(seconds, 1e-6)).toLocaleString("en-US");
  const where = threads === 0 ? "main thread" : `${threads} thread${threads === 1 ? "" : "s"}`;
  return `${total.toLocaleString("en-US")} puzzle${total === 1 ? "" : "s"}: ${counts} in ${seconds.toFixed(2)} s (${rate} puzzles/s, ${where})`;
}
