/**
 * The threads row: the WASM kernel on N worker threads through the CLI's pool, text in and out, every batch submitted
 * at once: end-to-end throughput. Answers are checked once, untimed, from the pool's `jsonl` output.
 */
import { type BatchTask, copyTask } from "../src/pool/batch.js";
import { openBatchSolver } from "../src/pool/pool.js";
import { type Grid, formatPuzzle } from "../src/model/puzzle.js";
import { CELLS } from "../src/model/shape.js";
import { type BatchAnswers, passAnswers } from "./measure/check.js";
import type { BatchRunner, ExtraRow } from "./runner.js";

/** Batches per worker thread per pass, so that a slow batch does not leave the others idle. */
const CHUNKS_PER_THREAD = 4;
const POOL_SOLVER = "wasm";

export function poolRow(threads: number): ExtraRow {
  return {
    solver: POOL_SOLVER,
    mode: "threads",
    label: `${POOL_SOLVER} (${threads} ${threads === 1 ? "thread" : "threads"})`,
    threads,
    open: (grids, limit, budget) => openPoolRunner(threads, grids, limit, budget),
  };
}

/** Splits `grids` into batches of near-equal size, each grid as the cell bytes of its line (`.` empty). */
function chunkTasks(grids: readonly Grid[], limit: number, budget: number, chunks: number): BatchTask[] {
  const tasks: BatchTask[] = [];
  const size = Math.ceil(grids.length / chunks);
  for (let first = 0; first < grids.length; first += size) {
    const part = grids.slice(first, first + size);
    tasks.push({
      file: "bench",
      firstIndex: first,
      lines: Int32Array.from(part, (_, i) => first + i + 1),
      fastBytes: Buffer.from(part.map((grid) => formatPuzzle(grid)).join(""), "latin1"),
      textAt: new Int32Array(0),
      texts: [],
      readErrors: [],
      limit,
      budget,
      output: "line",
    });
  }
  return tasks;
}

const LF = 10;

/** Solutions a `line` output stands for: a solution line is 1, `multiple` (m) is the limit, `unsolvable` (u) and `timeout` (t: what the budget-stopped search found is not in the line) 0. */
export function countFromLineOutput(output: Uint8Array, limit: number): number {
  let total = 0;
  for (let start = 0; start < output.length; ) {
    let end = output.indexOf(LF, start);
    if (end < 0) end = output.length;
    const first = output[start];
    if (first === 109 /* m */) total += limit;
    else if (first !== 117 /* u */ && first !== 116 /* t */) total += first >= 49 && first <= 57 && end - start === CELLS ? 1 : NaN;
    start = end + 1;
  }
  return total;
}

/** Parses the pool's `jsonl` output back into answers (a record without guesses gives NaN: unknown). */
function parseJsonlAnswers(outputs: readonly Uint8Array[], count: number): BatchAnswers {
  const answers = passAnswers(count, CELLS);
  const { counts, guesses, solutions, stopped } = answers;
  let i = 0;
  for (const output of outputs) {
    for (const line of Buffer.from(output.buffer, output.byteOffset, output.byteLength).toString("utf8").split("\n")) {
      if (line === "") continue;
      const record = JSON.parse(line) as { status: string; count: number; guesses: number | null; solution: string | null; error: string | null };
      if (record.error) throw new Error(`the pool rejected puzzle ${i + 1}: ${record.error}`);
      counts[i] = record.count;
      guesses[i] = record.guesses ?? NaN;
      stopped[i] = record.status === "timeout" ? 1 : 0;
      for (let cell = 0; record.solution && cell < CELLS; cell++) solutions[i * CELLS + cell] = record.solution.charCodeAt(cell) - 48;
      i++;
    }
  }
  if (i !== count) throw new Error(`the pool answered ${i} of ${count} puzzles`);
  return answers;
}

async function openPoolRunner(threads: number, grids: readonly Grid[], limit: number, budget: number): Promise<BatchRunner> {
  const pool = await openBatchSolver(threads, [POOL_SOLVER]);
  const tasks = chunkTasks(grids, limit, budget, threads * CHUNKS_PER_THREAD);
  // The pool transfers each task's buffers, so every submission gets its own copy.
  const submit = (output: BatchTask["output"]) => Promise.all(tasks.map((task) => pool.solve({ ...copyTask(task), output })));
  let stoppedFound = 0; // solutions the budget-stopped puzzles found in the checked pass, which their `timeout` lines do not carry
  return {
    answers: async () => {
      const answers = parseJsonlAnswers(
        (await submit("jsonl")).map((outcome) => outcome.bytes),
        grids.length,
      );
      stoppedFound = 0;
      for (let i = 0; i < grids.length; i++) if (answers.timedOut(i)) stoppedFound += answers.counts[i];
      return answers;
    },
    solve: async () => (await submit("line")).reduce((total, outcome) => total + countFromLineOutput(outcome.bytes, limit), stoppedFound),
    close: () => pool.close(),
  };
}
