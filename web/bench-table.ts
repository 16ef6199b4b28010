/**
 * The page's bench table as text: each row's cells, its flags by the bench's own rule
 * (bench/noise.ts: a row whose ± is above 5% is marked N, noisy) and the closing line. No DOM
 * here, so the wording is tested in Node (test/web-bench.test.ts); main.ts puts it on the page.
 */
import { FLAG_NOTES, NOISY_MARGIN_PERCENT, type NoiseFlag, flagMarks, noiseFlags } from "../bench/noise.js";
import { formatTimes } from "../bench/report/format.js";
import type { WebBenchRow } from "./bench.js";
import { counted } from "../src/model/whole-number.js";

/** "12,345" or "1.50": `value` with `digits` decimals and thousands separators. */
export const number = (value: number, digits = 0) => value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The flags a page row earns by the bench's rule (a browser records no CPU time and no per-puzzle pass, so only N can apply). */
export const rowFlags = (row: WebBenchRow): NoiseFlag[] => noiseFlags({ ...row, cpuPerWall: null, threads: null });

/** The table's columns, in order. */
export const BENCH_COLUMNS = ["dataset", "solver", "puzzles", "puzzles/s", "µs mean", "±", "flags", "guesses/puzzle", "answers checked", "vs wasm"] as const;

/** The cells of `row`, given the same dataset's wasm row if there is one. */
export function benchCells(row: WebBenchRow, wasm: WebBenchRow | undefined): string[] {
  return [
    row.dataset,
    row.solver + (row.batchCall ? " (1 call/pass)" : ""),
    String(row.puzzles),
    number(row.puzzlesPerSecond),
    number(row.meanMicros, 1),
    `${number(row.rmePercent, 1)}%`,
    flagMarks(rowFlags(row)),
    row.guessesPerPuzzle === null ? "n/a" : number(row.guessesPerPuzzle, 2),
    `${row.verified}/${row.puzzles}${row.timeouts ? ` (${row.timeouts} over budget, not checked)` : ""}`,
    // "2.47× slower" than the kernel, or "1.56× faster" for a row that beats it (never "0.64× slower")
    wasm && wasm !== row ? formatTimes(wasm.puzzlesPerSecond / row.puzzlesPerSecond, "slower", "faster") : wasm === row ? "—" : "n/a",
  ];
}

/** What each flag on the page means and what to do about it: one line per flag some row has, in the bench's order. */
export function flagNotes(rows: readonly WebBenchRow[]): string[] {
  const count = (flag: NoiseFlag) => rows.filter((row) => rowFlags(row).includes(flag)).length;
  const rowsOf = (n: number) => `${n} row${n === 1 ? "" : "s"}`;
  const [noisy, timedOut] = [count("noisy"), count("timeouts")];
  const notes: string[] = [];
  if (noisy > 0) {
    notes.push(
      `${FLAG_NOTES.noisy.mark} noisy (${rowsOf(noisy)}): the ± of the mean is above ${NOISY_MARGIN_PERCENT}%, so the figure is not to be ` +
        "trusted as it stands; give each row more time (ms per row), close other tabs and programs, and run again",
    );
  }
  if (timedOut > 0) {
    notes.push(
      `${FLAG_NOTES.timeouts.mark} timed out (${rowsOf(timedOut)}): more than half its puzzles went over the budget, so its puzzles/s ` +
        "says how fast it gives up, not how fast it solves; raise the budget to time its solving",
    );
  }
  return notes;
}

/** "1 min 05 s", "12 s", "0.2 s" (tenths under 10 s: a short run is not "0 s"). */
export function duration(seconds: number): string {
  if (seconds < 9.95) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, "0")} s`;
}

/**
 * The closing line of a run: rows, time, how many answers were checked (and the solves over
 * the budget, which have none to check), and how many rows are flagged noisy.
 */
export function doneLine(rows: readonly WebBenchRow[], seconds: number | null, budget: number): string {
  const puzzles = rows.reduce((sum, r) => sum + r.puzzles, 0);
  const verified = rows.reduce((sum, r) => sum + r.verified, 0);
  const over = rows.filter((r) => r.timeouts > 0);
  const elapsed = seconds === null ? "" : ` in ${duration(seconds)}`;
  const noisy = rows.filter((row) => rowFlags(row).includes("noisy")).length;
  const flagged = noisy ? `; ${noisy} of them noisy (${FLAG_NOTES.noisy.mark}, see below the table)` : "";
  if (over.length === 0) return `done: ${counted(rows.length, "row")}${elapsed}, every answer checked (${counted(puzzles, "solve")})${flagged}`;
  const timeouts = over.reduce((sum, r) => sum + r.timeouts, 0);
  return (
    `done: ${counted(rows.length, "row")}${elapsed}; ${verified.toLocaleString("en-US")} of ${counted(puzzles, "answer")} checked: ` +
    `${counted(timeouts, "solve")} went over the budget of ${budget.toLocaleString("en-US")} nodes ` +
    `(${over.map((r) => `${r.dataset} · ${r.solver}`).join(", ")}) and have no answer to check` +
    flagged
  );
}
