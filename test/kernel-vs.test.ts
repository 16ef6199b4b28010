/**
 * kernel-vs (bench/versus.ts): two kernels through the measuring core on every grid size — the
 * exact figures, the answer check (a kernel that miscounts, even when both agree, stops the run
 * naming it), and the table through the bench's Markdown writer. The old kernel is today's here
 * (building one from git takes asc a while); no timing is asserted.
 */
import { describe, expect, it } from "vitest";
import type { Dataset } from "../src/datasets/read.js";
import { WasmKernel } from "../src/kernel/wasm.js";
import type { BatchKernel } from "../bench/measure/kernel.js";
import { type Draw, drawPuzzles } from "../bench/measure/draw.js";
import { loadDatasets } from "../src/datasets/read.js";
import { WrongAnswerError } from "../bench/verify.js";
import { firstPuzzles, versus, versusTable } from "../bench/versus.js";
import { PIECE_SECONDS, WARMUP_SECONDS, timeInterleaved } from "../bench/measure/interleaved.js";
import { loadFixture } from "./fixture.js";

const ROUNDS = { rounds: 2, limit: 2 };
const RUN_SECONDS = 0.01;

/** The mean guesses and nodes of `kernel` on the draw, from its own batch. */
function ownFigures(kernel: BatchKernel, draw: Draw) {
  const n = draw.grids.length;
  kernel.input(n).set(draw.packed);
  const { guesses, nodes } = kernel.run(n, 2);
  return { guessesMean: guesses.reduce((a, b) => a + b, 0) / n, nodesMean: nodes.reduce((a, b) => a + Math.abs(b), 0) / n };
}

/** `kernel`, except that puzzle `index` reports `count` solutions. */
function miscounting(kernel: BatchKernel, index: number, count: number): BatchKernel {
  return {
    input: (n) => kernel.input(n),
    run: (n, limit, budget) => {
      const result = kernel.run(n, limit, budget);
      return { ...result, counts: result.counts.map((c, i) => (i === index ? count : c)) };
    },
  };
}

describe("kernel-vs", () => {
  it("times two 9×9 kernels on the first puzzles of a file, with each kernel's exact guesses and nodes", async () => {
    const draw = firstPuzzles(loadDatasets("hard")[0], 40);
    const [a, b] = [await WasmKernel.create(), await WasmKernel.create()];
    const record = versus([a, b], ["old", "new"], draw, ROUNDS, RUN_SECONDS);
    const own = ownFigures(a, draw);
    expect(record).toMatchObject({ dataset: "hard", puzzles: 40 });
    for (const side of [record.old, record.current]) {
      expect(side.guessesMean).toBeCloseTo(own.guessesMean, 9);
      expect(side.nodesMean).toBeCloseTo(own.nodesMean, 9);
    }
    expect(record.speedup.min).toBeLessThanOrEqual(record.speedup.ratio);
    expect(record.speedup.ratio).toBeLessThanOrEqual(record.speedup.max);
  });

  it("takes 4×4 puzzles to the N×N kernel at their box size", async () => {
    const cases = loadFixture(4).filter((c) => c.count === 1);
    const dataset: Dataset = { name: "four", path: "four.txt", puzzles: cases.map((c) => c.puzzle), lines: cases.map((c) => c.line) };
    const draw = drawPuzzles(
      dataset,
      cases.map((_, i) => i),
      "unique",
    );
    const kernel = await WasmKernel.create(undefined, "general", 2);
    const record = versus([kernel, await WasmKernel.create(undefined, "general", 2)], ["old", "new"], draw, ROUNDS, RUN_SECONDS);
    expect(record.puzzles).toBe(cases.length);
    expect(record.current.guessesMean).toBeCloseTo(ownFigures(kernel, draw).guessesMean, 9);
  });

  it("stops, naming the kernel and the line, when a kernel's count is wrong — even when both kernels agree on it", async () => {
    const draw = () => firstPuzzles(loadDatasets("hard")[0], 10);
    const kernel = await WasmKernel.create();
    expect(() => versus([kernel, miscounting(kernel, 3, 0)], ["old", "new"], draw(), ROUNDS, RUN_SECONDS)).toThrow(WrongAnswerError);
    const line = draw().lines[3];
    const both = () => versus([miscounting(kernel, 3, 2), miscounting(kernel, 3, 2)], ["old", "new"], draw(), ROUNDS, RUN_SECONDS);
    expect(both).toThrow(new RegExp(`^old on hard line ${line}: expected 1 solution \\(the dataset is unique\\), got 2`));
  });

  it("writes its table through the bench's Markdown writer: the old kernel's column named by its commit", () => {
    const side = { puzzlesPerSecond: 12_345.6, guessesMean: 8.9536, guessesMedian: 6, nodesMean: 18.91 };
    const table = versusTable(
      [{ dataset: "magic|tour", puzzles: 1465, limit: 2, old: side, current: { ...side, guessesMean: 8.9 }, speedup: { ratio: 1.234, min: 1.1, max: 1.5 } }],
      "0287653",
    );
    expect(table.split("\n")).toEqual([
      "| dataset | puzzles | limit | 0287653 puzzles/s | new puzzles/s | new ÷ old (range) | guesses/puzzle old → new | median guesses old → new | nodes/puzzle old → new |",
      "|:---|---:|---:|---:|---:|:---|:---|:---|:---|",
      "| magic\\|tour | 1,465 | 2 | 12,346 | 12,346 | **1.23×** (1.10–1.50) | 8.954 → 8.9 | 6 → 6 | 18.91 → 18.91 |",
    ]);
    // one round has no range; an old kernel that counts no nodes shows none, not 0
    const uncounted = versusTable(
      [{ dataset: "hard", puzzles: 5, limit: 1, old: { ...side, nodesMean: 0 }, current: side, speedup: { ratio: 1.16, min: 1.16, max: 1.16 } }],
      "HEAD",
    );
    expect(uncounted.split("\n")[2]).toBe("| hard | 5 | 1 | 12,346 | 12,346 | **1.16×** | 8.954 → 8.954 | 6 → 6 | n/a → 18.91 |");
  });
});

describe("interleaved timing (kernel-vs and --ref)", () => {
  it("warms every contender up first, then takes turns within each round instead of one block each", () => {
    // A clock of its own that each call moves by its cost: 200 µs and 400 µs.
    let now = 0;
    const log: number[] = [];
    const call = (who: number, seconds: number) => () => {
      log.push(who);
      now += seconds;
    };
    const seconds = timeInterleaved([call(0, 200e-6), call(1, 400e-6)], { rounds: 3, runSeconds: 0.012, clock: () => now });
    expect(seconds.map((rounds) => rounds.map((s) => s * 1e6))).toEqual([
      [200, 200, 200].map((s) => expect.closeTo(s, 6)),
      [400, 400, 400].map((s) => expect.closeTo(s, 6)),
    ]);
    // Warm-up: in turns, until each has WARMUP_SECONDS (the faster one sets the count).
    const warm = Math.ceil(WARMUP_SECONDS / 200e-6);
    expect(log.slice(0, 2 * warm)).toEqual(Array.from({ length: 2 * warm }, (_, i) => i % 2));
    // Then each round: turns of about PIECE_SECONDS each (10 and 5 calls), six of each, who goes first alternating.
    const timed = log.slice(2 * warm);
    expect(timed).toHaveLength(3 * (60 + 30));
    const turn = (who: number, calls: number) => Array(calls).fill(who);
    const firstRound = Array.from({ length: 6 }, () => [...turn(0, 10), ...turn(1, 5)]).flat();
    const secondRound = Array.from({ length: 6 }, () => [...turn(1, 5), ...turn(0, 10)]).flat();
    expect(timed).toEqual([...firstRound, ...secondRound, ...firstRound]);
    expect(PIECE_SECONDS).toBe(0.002);
  });
});
