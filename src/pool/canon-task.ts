/**
 * The canon side of batching (`sudoku-wasm canon`): a {@link BatchTask} whose `canon` is set goes to the minlex kernel
 * instead of the solver, and comes back as its output bytes, one record per input record, in order.
 *
 *   fast records (81 cell bytes)  ─┐
 *   other records: parseRecord,    ├─► minlex kernel: forms, automorphisms ─► records in --out
 *     9×9 ones only                ─┘     (--minimal: each clue removed, counted to 2 by the
 *                                          9×9 solving engine, one call for the batch)
 *
 * Output: `line` the form alone (`invalid` for a record without one); `jsonl` and `csv` the
 * index, the form, the puzzle as read, its file and line, then the automorphism count and
 * minimality when asked, and the error (csv: `index,canon,puzzle,file,line,…`, so the form is
 * the second field, what `sort -t, -k2,2 -u` keys on).
 */
import { CanonKernel, REPEATED_CLUE } from "../canon/canon.js";
import { parseRecord } from "../formats/record.js";
import { csvField } from "../formats/output/format.js";
import { CELLS, SHAPE_9 } from "../model/shape.js";
import { STATUSES, solveGroup } from "../solvers/solver.js";
import { type BatchOutcome, type BatchTask, ERRORS_PER_BATCH, fastText, outputRoom, readRecord, taskBuffers } from "./batch.js";
import type { BatchEngines } from "./engines.js";

/** The `--out` formats of canon. */
export const CANON_OUTPUTS = ["line", "jsonl", "csv"] as const;

let kernel: Promise<CanonKernel> | undefined;

/** This thread's minlex kernel, made at its first batch. */
function canonKernel(): Promise<CanonKernel> {
  kernel ??= CanonKernel.create();
  kernel.catch(() => (kernel = undefined)); // a failed load is tried again
  return kernel;
}

/** One record's answer: a form (with its count and minimality) or the reason it has none. */
interface CanonAnswer {
  form: string | null;
  automorphisms: number | null;
  minimal: boolean | null;
  error: string | null;
}

/**
 * The minimality of each puzzle: true when it is unique and every removal of one clue is not; false when some removal stays
 * unique; null when it is not unique itself. Every puzzle and its removals are counted to 2 in one engine call.
 */
function minimality(engines: BatchEngines, grids: readonly Uint8Array[]): (boolean | null)[] {
  const starts: number[] = [];
  let total = 0;
  for (const grid of grids) {
    starts.push(total);
    total += 1 + grid.reduce((clues, cell) => clues + (cell === 0 ? 0 : 1), 0);
  }
  const fill = (packed: Uint8Array) => {
    let at = 0;
    for (const grid of grids) {
      packed.set(grid, at);
      at += CELLS;
      for (let cell = 0; cell < CELLS; cell++) {
        if (grid[cell] === 0) continue;
        packed.set(grid, at);
        packed[at + cell] = 0;
        at += CELLS;
      }
    }
  };
  const { counts } = solveGroup(engines.get(SHAPE_9.size)!.engine, CELLS, total, fill, 2);
  return grids.map((_, k) => {
    const start = starts[k];
    const end = k + 1 < starts.length ? starts[k + 1] : total;
    if (counts[start] !== 1) return null;
    for (let j = start + 1; j < end; j++) if (counts[j] === 1) return false;
    return true;
  });
}

/** Does a canon batch: the forms of its 9×9 records in one minlex kernel call, minimality when asked, then every record as output bytes. */
export async function canonTask(engines: BatchEngines, task: BatchTask): Promise<BatchOutcome> {
  const kernel = await canonKernel();
  const began = performance.now();
  const request = task.canon!;
  const count = task.lines.length;
  const answers = new Array<CanonAnswer>(count);
  const texts = new Array<string | null>(count).fill(null);
  const readErrors = new Map(task.readErrors);
  const positions: number[] = []; // batch position of each puzzle given to the kernel
  const grids: (Uint8Array | null)[] = []; // its cells when parsed (text records), null for a fast record (cell bytes)
  for (let i = 0, t = 0; i < count; i++) {
    if (t < task.textAt.length && task.textAt[t] === i) {
      const text = task.texts[t++];
      texts[i] = text;
      const read = readRecord(task, i, text, readErrors.get(i) ?? null);
      const parsed = parseRecord(read, task.alphabet ?? undefined);
      if (parsed.grid === null) answers[i] = invalid(parsed.error!);
      else if (parsed.box !== SHAPE_9.box)
        answers[i] = invalid(`${task.file}:${task.lines[i]}: canon takes 9×9 puzzles; this one is ${parsed.box ** 2}×${parsed.box ** 2}`);
      else {
        positions.push(i);
        grids.push(parsed.grid);
      }
    } else {
      positions.push(i);
      grids.push(null);
    }
  }
  const input = kernel.input(positions.length);
  for (let j = 0, k = 0; j < positions.length; j++) {
    const grid = grids[j];
    if (grid !== null) input.set(grid, j * CELLS);
    else input.set(task.fastBytes.subarray(k * CELLS, ++k * CELLS), j * CELLS);
  }
  const { forms, automorphisms } = kernel.run(positions.length);
  const valid: number[] = [];
  for (let j = 0, k = 0; j < positions.length; j++) {
    const i = positions[j];
    if (grids[j] === null) texts[i] = fastText(task, k++);
    const found = automorphisms[j];
    if (found === REPEATED_CLUE) {
      answers[i] = invalid(parseRecord(readRecord(task, i, texts[i]!)).error ?? `${task.file}:${task.lines[i]}: a digit is repeated in a row, column or box`);
      continue;
    }
    answers[i] = { form: String.fromCharCode(...forms.subarray(j * CELLS, (j + 1) * CELLS)), automorphisms: found, minimal: null, error: null };
    valid.push(j);
  }
  if (request.minimal && valid.length > 0) {
    // The kernel's memory is read above; the cells again, as 0–9, for the solving engine.
    const cells = valid.map((j) => grids[j] ?? cellsOf(texts[positions[j]]!));
    minimality(engines, cells).forEach((minimal, v) => (answers[positions[valid[v]]].minimal = minimal));
  }
  return { ...writeRecords(task, texts, answers), spent: taskBuffers(task), solveMs: performance.now() - began };
}

/** An answer without a form. */
const invalid = (error: string): CanonAnswer => ({ form: null, automorphisms: null, minimal: null, error });

/** A fast record's cells (0–9) from its text: `1`–`9` the digits, any other character empty. */
function cellsOf(text: string): Uint8Array {
  const cells = new Uint8Array(CELLS);
  for (let i = 0; i < CELLS; i++) {
    const digit = text.charCodeAt(i) - 48;
    cells[i] = digit >= 1 && digit <= 9 ? digit : 0;
  }
  return cells;
}

const SOLVED = STATUSES.indexOf("solved");
const INVALID = STATUSES.indexOf("invalid");
const encoder = new TextEncoder();

/** Every record of `task` in its output format, as bytes, with the tally (a form counts as `solved`, see canon's summary) and the first errors. */
function writeRecords(task: BatchTask, texts: readonly (string | null)[], answers: readonly CanonAnswer[]): BatchOutcome {
  const request = task.canon!;
  const tally = STATUSES.map(() => 0);
  const errors: string[] = [];
  let text = "";
  answers.forEach((answer, i) => {
    tally[answer.form === null ? INVALID : SOLVED]++;
    if (answer.error !== null && errors.length < ERRORS_PER_BATCH) errors.push(`invalid: ${answer.error}`);
    const index = task.firstIndex + i * (task.indexStep ?? 1);
    if (task.output === "line") text += (answer.form ?? "invalid") + "\n";
    else if (task.output === "jsonl") {
      const record: Record<string, unknown> = { index, canon: answer.form, puzzle: texts[i], file: task.file, line: task.lines[i] };
      if (request.automorphisms) record.automorphisms = answer.automorphisms;
      if (request.minimal) record.minimal = answer.minimal;
      record.error = answer.error;
      text += JSON.stringify(record) + "\n";
    } else {
      const fields: (string | number | null)[] = [index, answer.form, texts[i], task.file, task.lines[i]];
      if (request.automorphisms) fields.push(answer.automorphisms);
      if (request.minimal) fields.push(answer.minimal === null ? null : String(answer.minimal));
      fields.push(answer.error);
      text += fields.map(csvField).join(",") + "\n";
    }
  });
  // The batch's own output room (from the pool, batch.ts) when the text fits it, as it nearly always does.
  const room = Buffer.byteLength(text, "utf8");
  const bytes = task.out !== undefined && task.out.length >= room ? task.out : new Uint8Array(Math.max(room, outputRoom(task, answers.length)));
  const written = encoder.encodeInto(text, bytes).written;
  return { bytes: bytes.subarray(0, written), tally, errors };
}
