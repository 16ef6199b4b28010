/**
 * A browser pool's Web Worker (web-pool.ts): the first message brings the kernels and solver ids, answered "ready" once the
 * engines have loaded; each later message is a batch, answered under its id. Transferred memory goes back with the answer,
 * a failure's too, so a retry can use it. Where the page can take Web Locks, the worker holds a lock of its own for its
 * life ("watch" says so, before "ready"): the page's request for it is granted once the worker has ended, however it ended.
 */
import type { WasmModule } from "../kernel/kernel-source.js";
import { adoptKernels } from "../kernel/wasm.js";
import type { SizeEngine } from "../solvers/solver.js";
import { loadBatchEngines } from "./engines.js";
import { type RecordsOutcome, type RecordsTask, recordsOutcomeBuffers, solveRecordsHere } from "./records-task.js";

/** What the page sends: the start (with the name of the lock to hold, where there are Web Locks), then batches. */
export type ToWorker =
  | { kind: "start"; kernels: Record<string, WasmModule>; solvers: string[]; lock?: string }
  | { kind: "batch"; id: number; task: RecordsTask };

/** What the worker sends: that it holds its lock, ready (or why not), then each batch's outcome or failure. */
export type FromWorker =
  | { kind: "watch" }
  | { kind: "ready"; error?: string }
  | { kind: "solved"; id: number; outcome: RecordsOutcome }
  | { kind: "failed"; id: number; error: string; memory?: ArrayBuffer };

/** The worker's global scope, as far as this module uses it (the project's types have no WebWorker lib). */
interface WorkerScope {
  onmessage: ((event: { data: ToWorker }) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  navigator?: { locks?: LockRequests };
}

/** The Web Locks API, as far as the pool uses it (a secure context has it: https, localhost). */
export interface LockRequests {
  request(name: string, callback: () => Promise<unknown> | unknown): Promise<unknown>;
}

const scope = globalThis as unknown as WorkerScope;
let engines: ReadonlyMap<number, SizeEngine> | null = null;

/** The task's memory when it was transferred here (not shared): it goes back with the answer. */
const transferredMemory = (task: RecordsTask): ArrayBuffer | undefined => (task.memory instanceof ArrayBuffer ? task.memory : undefined);

/**
 * Takes the lock named `name` for the worker's life, where there are Web Locks, and says "watch" once it holds it: the page's
 * request for it is granted when the worker ends, however it ends (self.close() fires no error event). Resolves once it is
 * held (or cannot be), so that "ready", and any batch, comes after it.
 */
function holdLock(name: string | undefined): Promise<void> {
  const locks = scope.navigator?.locks;
  if (name === undefined || locks === undefined) return Promise.resolve();
  return new Promise((held) => {
    const hold = () => {
      scope.postMessage({ kind: "watch" });
      held();
      return new Promise(() => {}); // never settles: the lock is let go as the worker ends
    };
    locks.request(name, hold).catch(() => held());
  });
}

scope.onmessage = ({ data: message }) => {
  if (message.kind === "start") {
    adoptKernels(message.kernels);
    Promise.all([loadBatchEngines(message.solvers), holdLock(message.lock)]).then(
      ([loaded]) => {
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
