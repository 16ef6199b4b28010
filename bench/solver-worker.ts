/**
 * The worker thread of isolated.ts: answers each `solve` with every answer, the ms and CPU ms the batch took here,
 * and the calibration run after it. Each call is counted in shared `calls` first, so the bench sees one that hangs.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Grid } from "../src/model/puzzle.js";
import { type SearchStats, type SolverEngine, solvesBatches } from "../src/solvers/solver.js";
import { pack } from "./measure/draw.js";
import { batchAnswers, countingLoop } from "./measure/check.js";
import { type CalibrationWork, CalibrationMeter } from "./calibration.js";
import { resolveSolver } from "./custom-solvers.js";
import { describeThrown } from "./runner.js";

export type WorkerRequest = { kind: "open"; grids: Grid[]; limit: number; budget: number; batch?: boolean } | { kind: "solve"; calibrationShare: number };

export type WorkerReply =
  | { kind: "ready" }
  | { kind: "opened" }
  | {
      kind: "solved";
      counts: Int32Array;
      solutions: Uint8Array;
      guesses: Float64Array;
      timedOut: Uint8Array;
      ms: number;
      cpuMs: number;
      calibration?: CalibrationWork;
    }
  | { kind: "failed"; message: string };

const { spec, size, calls: shared } = workerData as { spec: string; size: number; calls: SharedArrayBuffer };
const calls = new Int32Array(shared);
const port = parentPort!;

let engine: SolverEngine;
let grids: Grid[] = [];
let limit = 2;
let budget = Infinity;
/** The puzzles packed for one solveBatch call, when the row times the engine's batch call. */
let packed: Uint8Array | null = null;
let meter: CalibrationMeter | undefined;

const counted: Pick<SolverEngine, "countSolutions"> = {
  countSolutions(puzzle: Grid, limit: number, solution: Grid, stats: SearchStats, budget: number): number {
    Atomics.add(calls, 0, 1);
    const count: unknown = engine.countSolutions(puzzle, limit, solution, stats, budget);
    if (typeof count !== "number") throw notACount(count);
    return count;
  },
};

/** The error of a countSolutions call that returned no number: a promise (an async countSolutions) is said as such. */
function notACount(returned: unknown): Error {
  const then = (returned as { then?: unknown } | null)?.then;
  if (typeof then === "function") {
    (then as (ok: unknown, failed: unknown) => void).call(returned, undefined, () => {}); // its rejection is not this process's to end
    return new Error("countSolutions returned a promise (is it async?): it must be synchronous and return the number of solutions found");
  }
  const what = returned === null ? "null" : typeof returned;
  return new Error(`countSolutions returned ${what}, not a number: it must be synchronous and return the number of solutions found`);
}

/** Solves every puzzle once; returns the answers and the wall and process CPU ms the solving took. */
function solveAll(): Extract<WorkerReply, { kind: "solved" }> {
  const batchEngine = packed && solvesBatches(engine) ? engine : null;
  const loop = batchEngine ? null : countingLoop(counted, grids, limit, budget); // its buffers made before the timing
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  if (batchEngine) Atomics.add(calls, 0, 1);
  const batch = batchEngine?.solveBatch(packed!, grids.length, limit, budget);
  loop?.call();
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const { counts, solutions, guesses, stopped } = loop ? loop.answers : batchAnswers(batch!, grids.length); // copied out of the engine's regions
  return { kind: "solved", counts, solutions, guesses, timedOut: stopped, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function reply(message: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

port.on("message", (request: WorkerRequest) => {
  try {
    if (request.kind === "open") {
      ({ grids, limit, budget } = request);
      packed = request.batch ? pack(grids) : null;
      reply({ kind: "opened" });
    } else {
      const solved = solveAll();
      if (request.calibrationShare > 0) solved.calibration = (meter ??= new CalibrationMeter()).pulse(solved.ms * request.calibrationShare);
      reply(solved, [solved.counts.buffer, solved.solutions.buffer, solved.guesses.buffer, solved.timedOut.buffer] as ArrayBuffer[]);
    }
  } catch (error) {
    reply({ kind: "failed", message: describeThrown(error) });
  }
});

try {
  engine = await (await resolveSolver(spec)).load(size);
  reply({ kind: "ready" });
} catch (error) {
  reply({ kind: "failed", message: describeThrown(error) });
}
