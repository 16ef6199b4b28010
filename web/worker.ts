/**
 * The page's Web Worker: the library (WASM kernels included) runs here, off the main thread.
 * It solves pasted puzzles of any size through createSolver() and runs the benchmark.
 */
import { buildLine } from "../src/kernel/build-line.js";
import { type Solver, type SolveRecord, createSolver, solvers } from "../src/index.js";
import { gridSides } from "../src/solvers/registry.js";
import { invalidRecord } from "../src/solvers/solver.js";
import { runWebBench } from "./bench.js";
import type { FromWorker, ToWorker } from "./protocol.js";

const post = (message: FromWorker) => (self as unknown as Worker).postMessage(message);
let solver: Promise<Solver> | undefined;

/** The characters of a line of each size the page takes: 4×4, 9×9, 16×16, 25×25. */
const LINE_LENGTHS = gridSides().map((side) => side * side);
const SIZES_TAKEN = gridSides()
  .map((side) => `${side}×${side}`)
  .join(", ");

/**
 * One record per line, in order. A line of no size's length gets the message of every size
 * (the library's own reader, given neither length, answers as the 9×9 reader would).
 */
function solveLines(solver: Solver, lines: readonly string[], limit: number): SolveRecord[] {
  const records = solver.solveMany(lines, { limit });
  return records.map((record, i) =>
    LINE_LENGTHS.includes(lines[i].length)
      ? record
      : invalidRecord(`expected ${LINE_LENGTHS.join(", ").replace(/, (\d+)$/, " or $1")} characters (${SIZES_TAKEN}), got ${lines[i].length}`),
  );
}

async function handle(message: ToWorker): Promise<void> {
  if (message.type === "solve") {
    solver ??= createSolver();
    const ready = await solver;
    const rows = message.text.split("\n").map((line, index) => ({ line: line.trim(), number: index + 1 }));
    const puzzles = rows.filter((row) => row.line !== "" && !row.line.startsWith("#"));
    const start = performance.now();
    const records = solveLines(
      ready,
      puzzles.map((p) => p.line),
      message.limit,
    );
    post({
      type: "solved",
      id: message.id,
      records,
      lines: puzzles.map((p) => p.number),
      puzzles: puzzles.map((p) => p.line),
      milliseconds: performance.now() - start,
    });
  } else {
    const rows = await runWebBench(
      message.plan,
      (row) => post({ type: "row", row }),
      (progress) => post({ type: "progress", ...progress }),
    );
    post({ type: "benchDone", rows });
  }
}

self.addEventListener("message", (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  handle(message).catch((error: unknown) =>
    post({ type: "error", message: error instanceof Error ? error.message : String(error), ...(message.type === "solve" ? { id: message.id } : {}) }),
  );
});

post({
  type: "ready",
  kernel: buildLine(),
  solvers: solvers.filter((s) => !s.external && !s.id.startsWith("wasm:") && s.sizes.includes(9)).map((s) => ({ id: s.id, description: s.description })),
});
