/**
 * The measuring core the bench and the profiler share (bench/measure/): the tinybench wrapper,
 * the guess summary, and the table writer. No timed assertions: counts of calls and totals only.
 */
import { tableLines } from "../bench/report/format.js";
import { describe, expect, it } from "vitest";
import { TimingAborted, timeBatches } from "../bench/measure/batches.js";
import { summarizeGuesses } from "../bench/measure/check.js";
import { timeRounds } from "../bench/rounds.js";

describe("guess summary", () => {
  it("gives mean, median and the share solved without a guess", () => {
    expect(summarizeGuesses([0, 0, 3, 5, 2])).toEqual({ mean: 2, median: 2, noGuessPercent: 40 });
    expect(summarizeGuesses(Int32Array.from([4, 1, 0, 7]))).toEqual({ mean: 3, median: 2.5, noGuessPercent: 25 });
  });

  it("never counts a puzzle the budget stopped as solved without a guess, but keeps its guesses in the mean", () => {
    const stopped = new Set([1]);
    expect(summarizeGuesses([0, 0, 6], (i) => stopped.has(i))).toEqual({ mean: 2, median: 0, noGuessPercent: 100 / 3 });
  });

  it("is null without puzzles or when a count is unknown", () => {
    expect(summarizeGuesses([])).toBeNull();
    expect(summarizeGuesses([1, NaN, 2])).toBeNull();
  });
});

describe("batch timing (tinybench)", () => {
  it("makes at least minCalls timed calls, each after beforeEach, and reports them in order", async () => {
    let calls = 0;
    let prepared = 0;
    let unprepared = 0;
    const timing = await timeBatches(
      "count",
      () => {
        if (prepared !== calls + 1) unprepared++;
        calls++;
        return 7;
      },
      7,
      { timeMs: 1, minCalls: 4, warmupMs: 0, beforeEach: () => prepared++ },
    );
    expect(unprepared).toBe(0);
    expect(timing.samples).toBeGreaterThanOrEqual(4);
    expect(timing.samples).toBe(calls);
    expect(timing.batchMs).toHaveLength(timing.samples);
    expect([...timing.batchMs].sort((a, b) => a - b)).toEqual(timing.batchMs);
    expect(timing.medianMs).toBeGreaterThanOrEqual(timing.batchMs[0]);
    expect(timing.medianMs).toBeLessThanOrEqual(timing.batchMs[timing.batchMs.length - 1]);
  });

  it("warms up before timing when asked (the warm-up calls are not samples)", async () => {
    let calls = 0;
    const timing = await timeBatches("warm", () => (calls++, 1), 1, { timeMs: 1, minCalls: 2, warmupMs: 1 });
    expect(calls).toBeGreaterThan(timing.samples);
  });

  it("fails when a timed call counts another total than the verified one", async () => {
    let calls = 0;
    const drifting = () => (++calls > 3 ? 2 : 1);
    await expect(timeBatches("drifts", drifting, 1, { timeMs: 1, minCalls: 6, warmupMs: 0 })).rejects.toThrow(
      /drifts: \d+ timed batch\(es\) counted a different total than the verified 1/,
    );
  });

  it("throws TimingAborted when its signal aborts", async () => {
    const controller = new AbortController();
    const aborting = () => {
      controller.abort();
      return 1;
    };
    await expect(timeBatches("stopped", aborting, 1, { timeMs: 10_000, minCalls: 1000, warmupMs: 0, signal: controller.signal })).rejects.toBeInstanceOf(
      TimingAborted,
    );
  });
});

describe("timing in rounds", () => {
  // Each call outlasts its round's share of timeMs (1 ms of 3), so each round makes exactly one call: call k is in round k.
  const slowCall = () => {
    const until = performance.now() + 2;
    while (performance.now() < until);
    return 1;
  };
  const options = { timeMs: 3, rounds: 3, minCalls: 3, warmupMs: 0 };

  it("checks the answers of every call of every round (afterEach), and keeps each round's mean", async () => {
    let calls = 0;
    let checked = 0;
    const timing = await timeRounds("rounds", () => (calls++, slowCall()), 1, { ...options, afterEach: () => void checked++ });
    expect(calls).toBe(3);
    expect(checked).toBe(calls);
    expect(timing.roundMs).toHaveLength(3);
    expect(timing.samples).toBe(3);
  });

  it("refuses a wrong answer given in the last round only", async () => {
    let checked = 0;
    const afterEach = () => {
      if (++checked === 3) throw new Error("call 3 answered wrong");
    };
    await expect(timeRounds("rounds", slowCall, 1, { ...options, afterEach })).rejects.toThrow("call 3 answered wrong");
  });

  it("starts no further round once its signal aborts (TimingAborted)", async () => {
    const controller = new AbortController();
    let calls = 0;
    const timing = timeRounds("stopped", () => (calls++, slowCall()), 1, { ...options, signal: controller.signal, afterEach: () => controller.abort() });
    await expect(timing).rejects.toBeInstanceOf(TimingAborted);
    expect(calls).toBe(1);
  });
});

describe("table writer", () => {
  it("aligns every column and hands each cell the table's first record", () => {
    type Row = { name: string; speed: number };
    const columns = [
      { header: "name", align: "left" as const, cell: (r: Row) => r.name },
      { header: "vs first", align: "right" as const, cell: (r: Row, first: Row) => `${r.speed / first.speed}×` },
    ];
    const lines = tableLines(columns, [
      { name: "a", speed: 2 },
      { name: "longer", speed: 5 },
    ]);
    expect(lines).toEqual(["name    vs first", "a             1×", "longer      2.5×"]);
  });
});
