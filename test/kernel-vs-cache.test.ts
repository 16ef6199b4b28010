/**
 * kernel-vs's old kernel (bench/measure/reference.ts buildKernelAtCommit) is compiled once and kept under build/ref/:
 * kept for the compiler settings it was built with, so that a change to asconfig.json builds it again, as the docs say
 * ("with this checkout's release settings"), rather than time today's kernel against one built with other settings.
 * Built here at HEAD with the N×N kernel's target at low optimisation levels (quick to compile), under a prefix of its own.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildKernelAtCommit, pruneKernels } from "../bench/measure/reference.js";
import { scratchFolder } from "./cli-run.js";

const ROOT = new URL("..", import.meta.url).pathname;
const PREFIX = "kernel-vs-cache-test-";
const { dir } = scratchFolder("sudoku-kernel-vs-cache-");

afterAll(() => {
  const folder = join(ROOT, "build", "ref");
  for (const name of readdirSync(folder).filter((entry) => entry.startsWith(PREFIX))) rmSync(join(folder, name), { recursive: true, force: true });
});

/** This checkout's asconfig.json with the `general` target at `optimizeLevel`, written to the scratch folder. */
function settings(optimizeLevel: number): string {
  const config = JSON.parse(readFileSync(join(ROOT, "asconfig.json"), "utf8"));
  config.targets.general = { ...config.targets.general, optimizeLevel, shrinkLevel: 0, converge: false };
  const path = join(dir, `asconfig-${optimizeLevel}.json`);
  writeFileSync(path, JSON.stringify(config));
  return path;
}

describe("kernel-vs's old kernel, kept under build/ref/", () => {
  it("is built again when the compiler settings change, and reused while they do not", async () => {
    const first = await buildKernelAtCommit("HEAD", "assembly/general.ts", "general", PREFIX, settings(0));
    const again = await buildKernelAtCommit("HEAD", "assembly/general.ts", "general", PREFIX, settings(0));
    const other = await buildKernelAtCommit("HEAD", "assembly/general.ts", "general", PREFIX, settings(1));
    expect(again.href).toBe(first.href);
    expect(other.href, "a kernel built with other settings was reused").not.toBe(first.href);
    expect(readFileSync(fileURLToPath(other))).not.toEqual(readFileSync(fileURLToPath(first)));
    // a reuse marks it used (the kernels used last are kept), and no source folder is left beside the kernels
    utimesSync(fileURLToPath(first), new Date(2000, 0, 1), new Date(2000, 0, 1));
    await buildKernelAtCommit("HEAD", "assembly/general.ts", "general", PREFIX, settings(0));
    expect(statSync(fileURLToPath(first)).mtime.getFullYear()).toBeGreaterThan(2000);
    const ours = readdirSync(join(ROOT, "build", "ref"), { withFileTypes: true }).filter((entry) => entry.name.startsWith(PREFIX));
    expect(ours.filter((entry) => !entry.isFile()).map((entry) => entry.name)).toEqual([]);
  }, 300_000);

  it("keeps the kernels used last, each with the files beside it, and nothing else of the folder is touched", () => {
    const folder = join(dir, "prune");
    mkdirSync(join(folder, "trees"), { recursive: true });
    const stems = ["a-11111111", "general-b-22222222", "c-33333333", "d-44444444"];
    stems.forEach((stem, age) => {
      for (const extension of [".wasm", ".js", ".d.ts"]) {
        writeFileSync(join(folder, stem + extension), "");
        utimesSync(join(folder, stem + extension), new Date(2020 - age, 0, 1), new Date(2020 - age, 0, 1));
      }
    });
    writeFileSync(join(folder, "notes.txt"), "");
    pruneKernels(folder, 2);
    const kept = ["a-11111111", "general-b-22222222"].flatMap((stem) => [".d.ts", ".js", ".wasm"].map((extension) => stem + extension));
    expect(readdirSync(folder).sort()).toEqual([...kept, "notes.txt", "trees"].sort());
  });

  it("names a commit that has no kernel of the size, with no folder left behind (it gave asc's error)", async () => {
    await expect(buildKernelAtCommit("40d7095", "assembly/general.ts", "general", PREFIX)).rejects.toThrow(
      "--ref 40d7095: commit 40d70959f139 has no assembly/general.ts, the kernel of this grid size",
    );
    expect(readdirSync(join(ROOT, "build", "ref")).filter((entry) => entry.startsWith(`${PREFIX}40d7095`))).toEqual([]);
  });
});
