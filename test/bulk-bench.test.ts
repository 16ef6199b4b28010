/**
 * `npm run bulk-bench`'s figures that small sizes made impossible (bench/bulk-table.ts): K timed warm, the start-up-free
 * ratios not measured when the runs are barely longer than the start-up, K on 2 threads at once not measured on one core.
 */
import { describe, expect, it } from "vitest";
import { SIZING_COLUMNS, measuredCell, sizingRow, solvingRatios, startUpNote, twoAtOnceProblem, warmRate } from "../bench/bulk-table.js";
import { markdownTable } from "../bench/report/format.js";
import { machineLine } from "../bench/tool.js";

describe("bulk-bench figures", () => {
  it("times K only after an untimed warm-up", async () => {
    const calls: string[] = [];
    let phase = "warm";
    await warmRate(10, 0, 0, () => {
      calls.push(phase);
      phase = "timed";
    });
    expect(calls).toEqual(["warm", "timed"]);
  });

  it("gives the start-up-free ratio when every solving phase is longer than the start-up", () => {
    const measured = solvingRatios([3, 2], [5, 4], [1, 1]);
    expect(measured).toEqual({ ratios: [2, 3] });
    expect(measuredCell(measured)).toBe("2.50 (2.00–3.00)");
  });

  it("says the start-up-free ratio is not measured when a run is barely longer than the start-up", () => {
    const measured = solvingRatios([0.3, 3], [0.36, 5], [0.25, 0.25]);
    expect("ratios" in measured).toBe(false);
    expect(measuredCell(measured)).toBe("not measured (a run's solving took 0.050 s, less than the start-up: give a larger --hard)");
  });

  it("gives --sizing's rates not measured when a run is barely longer than the start-up, each for its own reason", () => {
    const run = (wallSeconds: number, cpuSeconds: number) => ({ wallSeconds, cpuSeconds });
    const start = run(0.25, 0.3);
    const cells = (two: number, zeroCpu: number) =>
      markdownTable(SIZING_COLUMNS, [sizingRow("easy", 1000, [{ start, zero: run(9, zeroCpu), two: run(two, 9) }])])[2]
        .split("|")
        .map((cell) => cell.trim());
    expect(cells(2.25, 1.3)).toEqual(["", "easy", "1,000", "1,000", "500", "555.6", "556", ""]);
    const [, , , cpu, machine, hours, machines] = cells(0.3, 0.5);
    expect(cpu).toBe("not measured (a run's solving took 0.200 s, less than the start-up)");
    expect(machine).toBe("not measured (a run's solving took 0.050 s, less than the start-up)");
    expect([hours, machines]).toEqual(["", ""]);
  });

  it("notes runs that are mostly start-up, whose ÷ K says little of the solving", () => {
    expect(startUpNote(0.81, "the easy records", "--records")).toBe(
      "note: the start-up is 81% of `solve --threads 0`'s wall time on the easy records: their ÷ K measures the start-up more than the solving; give a larger --records",
    );
    expect(startUpNote(0.2, "the easy records", "--records")).toBeNull();
  });

  it("does not measure two kernels at once on one core", () => {
    expect(twoAtOnceProblem(1)).toBe("1 core available: two kernels would share it");
    expect(twoAtOnceProblem(2)).toBeNull();
  });

  it("heads the report with the commit measured, as every tool's machine line does", () => {
    expect(machineLine("bulk-bench", "0123456789ab-dirty")).toMatch(/^bulk-bench: .+ cores?, Node v[\d.]+, commit 0123456789ab-dirty, load average /);
  });
});
