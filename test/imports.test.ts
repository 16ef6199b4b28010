/**
 * The modules of src/, bench/ and web/ import each other in no circle (type-only imports and
 * re-exports count too): a circle means two files that each need the other to be read first,
 * which is one module split in two or a leaf that grew a dependency on its readers.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;

/** Every .ts file under `folder`, as an absolute path. */
function tsFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Each file's relative imports among `files` (`./x.js` is the source `./x.ts`). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      const targets = importedFiles
        .map(({ fileName }) => fileName)
        .filter((name) => name.startsWith("."))
        .map((name) => resolve(dirname(file), name.replace(/\.js$/, ".ts")))
        .filter((target) => known.has(target));
      return [file, targets];
    }),
  );
}

/** One circle of `graph` per back edge a depth-first walk meets, each as the files around it. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    path.push(file);
    for (const target of graph.get(file)!) {
      const at = path.indexOf(target);
      if (at >= 0) found.push([...path.slice(at), target]);
      else if (!done.has(target)) visit(target);
    }
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return found;
}

describe("module imports", () => {
  it("form no circle in src/, bench/ and web/", () => {
    const files = ["src", "bench", "web"].flatMap((folder) => tsFiles(join(root, folder)));
    expect(files.length).toBeGreaterThan(50); // the walk found the tree
    const named = circles(importGraph(files)).map((circle) => circle.map((file) => relative(root, file)).join(" → "));
    expect(named).toEqual([]);
  });

  it("finds a circle when there is one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(circles(graph)).toEqual([["a", "b", "c", "a"]]);
  });
});
