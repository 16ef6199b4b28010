/**
 * Node only: where this package sits on disk. The library itself never needs this (kernels load
 * by URL, see kernel-source.ts); the CLI, the worker pool and the bench use it for files that are
 * not kernels (bundled datasets, the compiled worker).
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The root of this package (the folder with package.json), from src/ or dist/src/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("sudoku-wasm: package.json not found above " + import.meta.url);
    dir = parent;
  }
  return dir;
}
