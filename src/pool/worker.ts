/**
 * The piscina worker: loads its engines ({@link ThreadEngines}) from the pool's `workerData` on the
 * kernel modules the main thread compiled, lowers its priority by `workerData.nice`, says
 * {@link ENGINES_LOADED}, then solves one {@link BatchTask} or {@link RecordsTask} per call; a batch
 * it fails on ends it (retire.ts). Bundled into dist/cli/worker.mjs, imported by worker-entry.cts.
 */
import { parentPort, workerData } from "node:worker_threads";
import { move, transferableSymbol, valueSymbol } from "piscina";
import { adoptKernels } from "../kernel/wasm.js";
import { type BatchOutcome, type BatchTask, outcomeBuffers, transferable } from "./batch.js";
import { type WorkerData, ENGINES_LOADED, runTask } from "./solve-task.js";
import { ThreadEngines } from "./engines.js";
import { retiringOnFailure } from "./retire.js";
import { lowerThreadPriority } from "./priority.js";
import { type RecordsOutcome, type RecordsTask, recordsOutcomeBuffers, solveRecordsHere } from "./records-task.js";

const { solvers, kernels, nice } = workerData as WorkerData;
adoptKernels(kernels ?? {});

/** `outcome` with `buffers` transferred to the main thread, not copied. */
function transferred<Outcome extends object>(outcome: Outcome, buffers: readonly ArrayBuffer[]): Outcome {
  return move({
    get [transferableSymbol]() {
      return buffers;
    },
    get [valueSymbol]() {
      return outcome;
    },
  }) as unknown as Outcome; // piscina sends the value, transferring the buffers
}

const transferredBatch = (outcome: BatchOutcome): BatchOutcome => transferred(outcome, transferable(outcomeBuffers(outcome)));
const transferredRecords = (outcome: RecordsOutcome): RecordsOutcome => transferred(outcome, recordsOutcomeBuffers(outcome));

/** The handler piscina calls once per task. A library batch may hold records of any size: the first loads every size's engine. */
function handler(engines: ThreadEngines) {
  return retiringOnFailure((task: BatchTask | RecordsTask) => {
    if ("kind" in task) {
      if (engines.whole) return transferredRecords(solveRecordsHere(engines, task));
      return engines.all().then(() => transferredRecords(solveRecordsHere(engines, task)));
    }
    const outcome = runTask(engines, task); // at once, unless a size's engine (or a canon batch's kernel) loads first
    return outcome instanceof Promise ? outcome.then(transferredBatch) : transferredBatch(outcome);
  });
}

/**
 * The handler once the engines have loaded, which the entry hands to piscina. Not a top-level await:
 * on Node 20.20 a worker terminated while such a module is evaluated aborts the process.
 */
export default ThreadEngines.open(solvers).then((engines) => {
  lowerThreadPriority(nice ?? 0); // only now: its engines load at full priority
  parentPort?.postMessage(ENGINES_LOADED);
  return handler(engines);
});
