/**
 * What the command-line tests share: the CLI's entry point, a scratch folder removed after the
 * file's tests, a synchronous run that returns status, standard output and standard error, and
 * an in-process run for tests that call the CLI often. The spawned CLI runs dist/ (built by
 * `npm run build`, which `pretest` runs); the in-process one runs src/.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { buildProgram } from "../src/cli/main.js";
import { USAGE_ERROR_STATUS } from "../src/cli-kit/errors.js";

/** bin/sudoku-wasm.mjs, as a file path. */
export const BIN = new URL("../bin/sudoku-wasm.mjs", import.meta.url).pathname;

export interface CliRunOptions {
  input?: string;
  cwd?: string;
  stdio?: ("pipe" | number)[];
}

/** Runs the CLI with `args`; returns its exit status, standard output and standard error. */
export function runCli(args: string[], options: CliRunOptions = {}) {
  const { input, cwd, stdio } = options;
  const result = spawnSync(process.execPath, [BIN, ...args], { input, cwd, stdio, encoding: "utf8", maxBuffer: 1 << 28 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A scratch folder for one test file (removed after its tests) and a writer of files in it. */
export function scratchFolder(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** Writes `text` to `name` in the folder; returns its path. */
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  return { dir, file };
}

/**
 * Runs the CLI in this process (no start-up: for tests that run it often); returns the exit
 * status main.ts would give and what went to standard error. Output must go to a file (`-o`):
 * standard output is the test runner's.
 */
export async function runCliInProcess(args: string[]): Promise<{ status: number; stderr: string }> {
  const write = process.stderr.write;
  let stderr = "";
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  try {
    await (await buildProgram()).parseAsync(["node", "sudoku-wasm", ...args]);
    return { status: Number(process.exitCode ?? 0), stderr };
  } catch (error) {
    return { status: USAGE_ERROR_STATUS, stderr: stderr + String(error) };
  } finally {
    process.stderr.write = write;
    process.exitCode = undefined;
  }
}

/** Solves shards 0 … n-1 of the file `puzzles` in `format` into `dir` (one thread each); returns their paths. */
export function solveShards(dir: string, puzzles: string, n: number, format = "line", stem = "m"): string[] {
  return Array.from({ length: n }, (_, k) => {
    const path = join(dir, `${stem}${k}.${format}`);
    const run = runCli(["solve", "--no-progress", "--threads", "1", "--out", format, "--shard", `${k}/${n}`, "-o", path, puzzles]);
    expect(run.status, run.stderr).toBe(0);
    return path;
  });
}
