/** Messages between the page (main.ts) and its worker (worker.ts). */
import type { SolveRecord } from "../src/index.js";
import type { WebBenchPlan, WebBenchProgress, WebBenchRow } from "./bench.js";

export type ToWorker = { type: "solve"; text: string; limit: number; id: number } | { type: "bench"; plan: WebBenchPlan };

export type FromWorker =
  | { type: "ready"; kernel: string; solvers: { id: string; description: string }[] }
  | { type: "solved"; id: number; records: SolveRecord[]; lines: number[]; puzzles: string[]; milliseconds: number }
  | ({ type: "progress" } & WebBenchProgress)
  | { type: "row"; row: WebBenchRow }
  | { type: "benchDone"; rows: WebBenchRow[] }
  /** A request failed: a solve's (its id) or the bench's (no id). */
  | { type: "error"; message: string; id?: number };
