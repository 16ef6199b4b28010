/**
 * The page's Web Worker: the library (WASM kernels included) runs here, off the main thread.
 * It solves pasted puzzles of any size through createSolver() and runs the benchmark.
 */
import { buildLine } from "../src/build-line.js";
import { type Solver, createSolver, solvers } from "../src/index.js";
import { runWebBench } from "./bench.js";
import type { FromWorker, ToWorker } from "./protocol.js";

const post = (message: FromWorker) => (self as unknown as Worker).postMessage(message);
let solver: Promise<Solver> | undefined;

async function handle(message: ToWorker): Promise<void> {
  if (message.type === "solve") {
    solver ??= createSolver();
    const ready = await solver;
    const rows = message.text.split("\n").map((line, index) => ({ line: line.trim(), number: index + 1 }));
    const puzzles = rows.filter((row) => row.line !== "" && !row.line.startsWith("#"));
    const start = performance.now();
    const records = ready.solveMany(puzzles.map((p) => p.line), { limit: message.limit });
    post({ type: "solved", records, lines: puzzles.map((p) => p.number), milliseconds: performance.now() - start });
  } else {
    const rows = await runWebBench(message.plan, (row) => post({ type: "row", row }), (text) => post({ type: "progress", text }));
    post({ type: "benchDone", rows });
  }
}

self.addEventListener("message", (event: MessageEvent<ToWorker>) => {
  handle(event.data).catch((error: unknown) => post({ type: "error", message: error instanceof Error ? error.message : String(error) }));
});

post({
  type: "ready",
  kernel: buildLine(),
  solvers: solvers.filter((s) => !s.external && !s.id.startsWith("wasm:") && s.sizes.includes(9)).map((s) => ({ id: s.id, description: s.description })),
});
