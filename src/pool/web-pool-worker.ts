/**
 * A browser pool's Web Worker (web-pool.ts): the first message brings the kernels and solver ids, answered "ready" once the
 * engines have loaded; each later message is a batch, answered under its id. Transferred memory goes back with the answer,
 * a failure's too, so a retry can use it.
 */
import type { WasmModule } from "../kernel/kernel-source.js";
import { adoptKernels } from "../kernel/wasm.js";
import type { SizeEngine } from "../solvers/solver.js";
import { loadBatchEngines } from "./engines.js";
import { type RecordsOutcome, type RecordsTask, recordsOutcomeBuffers, solveRecordsHere } from "./records-task.js";

/** What the page sends: the start, then batches. */
export type ToWorker = { kind: "start"; kernels: Record<string, WasmModule>; solvers: string[] } | { kind: "batch"; id: number; task: RecordsTask };

/** What the worker sends: ready (or why not), then each batch's outcome or failure. */
export type FromWorker =
  | { kind: "ready"; error?: string }
  | { kind: "solved"; id: number; outcome: RecordsOutcome }
  | { kind: "failed"; id: number; error: string; memory?: ArrayBuffer };

/** The worker's global scope, as far as this module uses it (the project's types have no WebWorker lib). */
interface WorkerScope {
  onmessage: ((event: { data: ToWorker }) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
let engines: ReadonlyMap<number, SizeEngine> | null = null;

/** The task's memory when it was transferred here (not shared): it goes back with the answer. */
const transferredMemory = (task: RecordsTask): ArrayBuffer | undefined => (task.memory instanceof ArrayBuffer ? task.memory : undefined);

scope.onmessage = ({ data: message }) => {
  if (message.kind === "start") {
    adoptKernels(message.kernels);
    loadBatchEngines(message.solvers).then(
      (loaded) => {
        engines = loaded;
        scope.postMessage({ kind: "ready" });
      },
      (error: unknown) => scope.postMessage({ kind: "ready", error: error instanceof Error ? error.message : String(error) }),
    );
    return;
  }
  const { id, task } = message;
  const memory = transferredMemory(task);
  try {
    if (engines === null) throw new Error("the worker's engines have not loaded");
    const outcome = solveRecordsHere(engines, task);
    scope.postMessage({ kind: "solved", id, outcome: { ...outcome, memory } }, [...(memory ? [memory] : []), ...recordsOutcomeBuffers(outcome)]);
  } catch (error) {
    scope.postMessage({ kind: "failed", id, error: error instanceof Error ? error.message : String(error), memory }, memory ? [memory] : []);
  }
};
