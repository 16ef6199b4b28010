/**
 * What the bench's report says beside its figures: flag advice that fits the run (a noisy run
 * already at --time 2000 is not told to use --time 2000), and a threads row whose batches are too
 * short to split says so in its row.
 */
import { describe, expect, it } from "vitest";
import type { BenchRecord } from "../bench/records.js";
import { CompactLayout, formatFlagNotes, moreTime } from "../bench/report/compact.js";
import { formatNotes } from "../bench/report/format.js";
import { benchRecord } from "./bench-record.js";

function record(row: string, puzzlesPerSecond: number, overrides: Partial<BenchRecord> = {}): BenchRecord {
  return benchRecord("easy", row, puzzlesPerSecond, {
    solver: "wasm",
    datasetSize: 1000,
    selected: 20,
    puzzles: 20,
    p50Micros: 2,
    p99Micros: 9,
    guessesPerPuzzle: 0,
    noGuessPercent: 100,
    ...overrides,
  });
}

describe("bench report: advice and notes that fit the run", () => {
  it("the noisy flag's advice asks for more time than the run had", () => {
    const noisy = [record("wasm", 400_000, { rmePercent: 12 })];
    expect(formatFlagNotes(noisy, 140, 500).join("\n")).toContain("(--time 2000)");
    expect(formatFlagNotes(noisy, 140, 2000).join("\n")).toContain("(--time 8000)");
    expect(formatFlagNotes(noisy, 140, 2000).join("\n")).not.toContain("--time 2000");
    expect(moreTime(100)).toBe(2000);
    expect(moreTime(3000)).toBe(12_000);
  });

  it("a threads row whose batch is small (20 puzzles, or under 2 ms) says the hand-off sets its speed; a large one does not", () => {
    const short = record("wasm (2 threads)", 29_113, { mode: "threads", threads: 2, cpuPerWall: 1.2 }); // 20 puzzles: 0.69 ms a batch
    const long = record("wasm (2 threads)", 5_000, { mode: "threads", threads: 2, cpuPerWall: 1.9, puzzles: 300, selected: 300 }); // 60 ms
    const layout = new CompactLayout(["wasm (2 threads)"], 140);
    expect(layout.line(short)).toContain("hand-off bound");
    expect(layout.line(long)).not.toContain("hand-off");
    expect(formatNotes(short)).toContain("a batch of 20 puzzles is too small to split: handing it to the threads, not solving, sets this speed");
    expect(formatNotes({ ...short, puzzlesPerSecond: 9_937, meanMicros: 101 })).toContain("too small to split"); // 20 puzzles, 2.02 ms
    expect(formatNotes(long)).not.toContain("handing");
  });

  it("a row with batches beyond Tukey's far fences says how many in every view (the flags' notes explain \"K outliers\" in any view)", () => {
    const batchMs = [10, 10.1, 9.9, 10, 10.2, 9.8, 10, 10.1, 30]; // one batch 3 IQR beyond the quartiles
    const row = record("wasm", 400_000, { batchMs, samples: batchMs.length });
    expect(formatNotes(row)).toContain("1 outlier"); // --wide and Markdown
    expect(new CompactLayout(["wasm"], 140).line(row)).toContain("1 outlier");
    expect(formatFlagNotes([row], 140).join("\n")).toContain('Outliers ("K outliers" in notes, 1 row)');
    expect(formatNotes(record("wasm", 400_000, { batchMs: batchMs.slice(0, -1) }))).not.toContain("outlier");
  });
});
