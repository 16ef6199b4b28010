/** Where this package's files are: its root (the folder with package.json, from src/ or dist/src/) and paths under it. */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let root: string | undefined;

/** The root of this package (the folder with package.json), from src/ or dist/src/. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("sudoku-wasm: package.json not found above " + import.meta.url);
    dir = parent;
  }
  return (root = dir);
}

export const packagePath = (...parts: string[]): string => join(packageRoot(), ...parts);
