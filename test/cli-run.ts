/**
 * What the command-line tests share: the CLI's entry point, a scratch folder removed after the
 * file's tests, and a synchronous run that returns status, standard output and standard error.
 * The CLI runs dist/ (built by `npm run build`, which `pretest` runs).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

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
