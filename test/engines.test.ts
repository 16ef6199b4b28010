/**
 * A thread's engines (src/pool/engines.ts): the 9×9 kernel at once, the N×N kernel with the
 * first record of a size it serves, one instance of it for 4×4, 16×16 and 25×25; and the main
 * thread's scanner on the engines it solves on, also after a failed batch moved it to fresh ones.
 */
import { describe, expect, it } from "vitest";
import { ThreadEngines, loadBatchEngines } from "../src/pool/engines.js";
import { runTask } from "../src/pool/solve-task.js";
import { type BatchOutcome, type BatchTask, textTask } from "../src/pool/batch.js";
import { mainThreadSolver } from "../src/pool/pool.js";
import { LineSplitter } from "../src/stream/lines.js";
import { WasmKernel } from "../src/kernel/wasm.js";
import { STATUSES } from "../src/solvers/solver.js";
import { loadFixture } from "./fixture.js";

const fixture = loadFixture("all");
/** The first uniquely solvable fixture puzzle of each side. */
const unique = (size: number) => fixture.find((c) => c.size === size && c.count === 1 && c.solution !== undefined)!;
const text = (outcome: BatchOutcome) => Buffer.from(outcome.bytes).toString("utf8");
const task = (texts: string[]): BatchTask => textTask({ file: "f.txt", firstIndex: 0, texts, limit: 2, output: "line" });
const SOLVED = STATUSES.indexOf("solved");

describe("a thread's engines load on first use, one instance per kernel", () => {
  it("loads the 9×9 kernel alone for 9×9 records, the N×N kernel once for the first other size, and shares it with the rest", async () => {
    const engines = await ThreadEngines.open();
    expect(engines.made).toBe(1);
    expect([4, 9, 16, 25].map((size) => engines.get(size) !== undefined)).toEqual([false, true, false, false]);

    const nine = await runTask(engines, task([unique(9).puzzle, unique(9).puzzle]));
    expect(text(nine)).toBe(`${unique(9).solution}\n`.repeat(2));
    expect(engines.made).toBe(1); // no N×N kernel for 9×9 records

    const small = runTask(engines, task([unique(4).puzzle]));
    expect(small).toBeInstanceOf(Promise); // its engine loads first
    expect(text(await small)).toBe(`${unique(4).solution}\n`);
    expect(engines.made).toBe(2);

    const mixed = await runTask(engines, task([unique(16).puzzle, unique(9).puzzle, unique(25).puzzle, unique(4).puzzle]));
    expect(text(mixed)).toBe([16, 9, 25, 4].map((size) => `${unique(size).solution}\n`).join(""));
    expect(mixed.tally[SOLVED]).toBe(4);
    expect(engines.made).toBe(2); // 16×16 and 25×25 on the 4×4 grids' instance
    const general = engines.get(4)!.engine as WasmKernel;
    expect(general.sharesInstanceWith(engines.get(16)!.engine)).toBe(true);
    expect(general.sharesInstanceWith(engines.get(25)!.engine)).toBe(true);
    expect(general.sharesInstanceWith(engines.get(9)!.engine)).toBe(false);
  });

  it("gives the library's pool every size at once, on one N×N instance", async () => {
    const engines = await loadBatchEngines();
    expect([...engines.keys()].sort((a, b) => a - b)).toEqual([4, 9, 16, 25]);
    const general = engines.get(16)!.engine as WasmKernel;
    expect(general.sharesInstanceWith(engines.get(4)!.engine) && general.sharesInstanceWith(engines.get(25)!.engine)).toBe(true);
  });

  it("solves 9×9 on the N×N instance too when --solver general-wasm names it for every size", async () => {
    const engines = await ThreadEngines.open(["general-wasm"]);
    expect(engines.made).toBe(1);
    const outcome = await runTask(engines, task([unique(9).puzzle, unique(25).puzzle, unique(4).puzzle]));
    expect(text(outcome)).toBe([9, 25, 4].map((size) => `${unique(size).solution}\n`).join(""));
    expect(engines.made).toBe(1);
  });

  it("refuses a run() on a view of the instance whose batch another view replaced", async () => {
    const sixteen = await WasmKernel.create(undefined, "general", 4);
    const four = sixteen.forBox(2)!;
    expect(sixteen.forBox(4)).toBe(sixteen);
    four.input(1).set(Uint8Array.from(unique(4).puzzle, (c) => (c === "." ? 0 : Number(c))));
    sixteen.input(1);
    expect(() => four.run(1, 2)).toThrow(/without a matching input\(\) first/);
    expect((await WasmKernel.create()).forBox(4)).toBeNull(); // the 9×9 kernel takes 9×9 alone
  });
});

describe("the main thread's scanner follows its engines", () => {
  it("scans on the fresh engines once a failed batch moved the solving there", async () => {
    const made: ThreadEngines[] = [];
    const load = async () => {
      const engines = await ThreadEngines.open();
      made.push(engines);
      return engines;
    };
    const first = await load();
    const failing = first.get(9)!.engine as WasmKernel;
    failing.run = () => {
      throw new Error("this kernel failed");
    };
    const solver = mainThreadSolver(first, load);
    const line = new TextEncoder().encode(`${unique(9).puzzle}\n`);
    const memoryOf = (engines: ThreadEngines) => (engines.get(9)!.engine as WasmKernel).input(1).buffer;
    /** The line as the reader splits it on the solver's scanner: its cells, or undefined when it came as text. */
    const scanned = () => {
      let cells: Uint8Array | undefined;
      const sink = { line: () => {}, fastLines: (all: Uint8Array, start: number) => ((cells = all.slice(start, start + 81)), 1) };
      new LineSplitter(sink, solver.scanner).push(line);
      return cells === undefined ? undefined : Buffer.from(cells).toString("latin1");
    };
    expect(solver.scanner!.kernel.memory.buffer).toBe(memoryOf(first));
    expect(scanned()).toBe(unique(9).puzzle);

    const outcome = await solver.solve(task([unique(9).puzzle]));
    expect(text(outcome)).toBe(`${unique(9).solution}\n`); // retried on fresh engines
    expect(made.length).toBe(2);
    expect(solver.scanner!.kernel.memory.buffer).toBe(memoryOf(made[1]));
    expect(scanned()).toBe(unique(9).puzzle);
    expect((runTask(made[1], task([unique(9).puzzle])) as BatchOutcome).tally[SOLVED]).toBe(1);
  });
});
