/**
 * Outside solvers (files of --solvers) run in a worker thread the bench can end, so a call over --solver-timeout or
 * Ctrl-C stops them whatever they do; such a row has no per-puzzle pass. `--fresh-rounds` uses the same workers.
 */
import { Worker } from "node:worker_threads";
import type { Grid } from "../src/model/puzzle.js";
import type { SolverInfo } from "../src/solvers/registry.js";
import { isOutsideSolver } from "./custom-solvers.js";
import { TimingAborted, type TimedElsewhere } from "./measure/batches.js";
import { sumOf } from "./measure/timing.js";
import type { BatchAnswers } from "./measure/check.js";
import { CALIBRATION_SHARE } from "./rounds.js";
import type { BatchRunner } from "./runner.js";
import type { WorkerReply, WorkerRequest } from "./solver-worker.js";

/** How often a waiting call checks the time limit and the signal, in ms. */
const WATCH_MS = 50;

export interface WorkerRowOptions {
  /** The limit of one countSolutions call, in ms. */
  timeoutMs: number;
  /** A fresh worker thread for each timing round (its own heap and compiled code), not one for the row. */
  freshRounds?: boolean;
  /** One solveBatch call per batch rather than a countSolutions loop (engines that have it). */
  batch?: boolean;
  signal?: AbortSignal;
}

/** Prepares `grids` in a worker thread running `info`; with `freshRounds`, a new worker each round, as two runs would see the code. */
export async function openWorkerRow(
  info: SolverInfo,
  grids: readonly Grid[],
  limit: number,
  budget: number,
  { timeoutMs, freshRounds = false, batch = false, signal }: WorkerRowOptions,
): Promise<BatchRunner> {
  // The --solvers item that loads `info` again in the worker: its id for a registry solver.
  const spec = !isOutsideSolver(info) ? info.id : info.id.startsWith("wasm-abi:") ? `wasm-abi:${info.source}` : info.source!;
  const start = async () => {
    const calls = new SharedArrayBuffer(4);
    const size = Math.round(Math.sqrt(grids[0]?.length ?? 81));
    const worker = new Worker(new URL("./solver-worker.js", import.meta.url), { workerData: { spec, size, calls } });
    const ask = waiter(worker, info.id, new Int32Array(calls), timeoutMs, signal);
    try {
      await ask(null);
      await ask({ kind: "open", grids: [...grids], limit, budget, batch });
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return { worker, ask };
  };
  let current = await start();
  let rounds = 0;
  let last: BatchAnswers | null = null;
  const solve = async (): Promise<TimedElsewhere> => {
    const solved = (await current.ask({ kind: "solve", calibrationShare: CALIBRATION_SHARE })) as Extract<WorkerReply, { kind: "solved" }>;
    last = { counts: solved.counts, solutions: solved.solutions, guesses: solved.guesses, timedOut: (i) => solved.timedOut[i] === 1 };
    return { total: sumOf(solved.counts), ms: solved.ms, cpuMs: solved.cpuMs, calibration: solved.calibration };
  };
  return {
    answers: async () => {
      await solve();
      return last!;
    },
    solve,
    lastAnswers: () => last,
    beginRound: freshRounds
      ? async () => {
          if (rounds++ === 0) return; // the first round takes the worker that gave the checked answers
          await current.worker.terminate();
          current = await start();
        }
      : undefined,
    close: async () => void (await current.worker.terminate()),
  };
}

/** Sends one request (or none: waits for the worker to load) and resolves with the reply; a call over `timeoutMs` or an abort terminates the worker. */
function waiter(worker: Worker, id: string, calls: Int32Array, timeoutMs: number, signal?: AbortSignal) {
  return (request: WorkerRequest | null): Promise<WorkerReply> =>
    new Promise((resolve, reject) => {
      let seen = Atomics.load(calls, 0);
      let since = performance.now();
      const done = (error?: unknown, reply?: WorkerReply) => {
        clearInterval(watch);
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        if (error) reject(error);
        else resolve(reply!);
      };
      const stop = (error: unknown) => {
        void worker.terminate();
        done(error);
      };
      const onMessage = (reply: WorkerReply) => (reply.kind === "failed" ? done(new Error(reply.message)) : done(undefined, reply));
      const onError = (error: unknown) => done(error);
      const onExit = (code: number) => done(new Error(`${id}: its worker thread ended (status ${code})`));
      const watch = setInterval(() => {
        if (signal?.aborted) return stop(new TimingAborted(id));
        const now = Atomics.load(calls, 0);
        if (now !== seen) [seen, since] = [now, performance.now()];
        else if (performance.now() - since > timeoutMs) {
          stop(new Error(`a countSolutions call ran longer than the limit of ${timeoutMs} ms (--solver-timeout); the solver was stopped`));
        }
      }, WATCH_MS);
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      if (request) worker.postMessage(request);
    });
}
