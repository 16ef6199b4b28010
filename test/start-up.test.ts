/**
 * What a command's start-up reads: a run imports the modules of the path it takes and no
 * others (start-up is most of a small run, and most of start-up is reading modules). The CLI
 * runs in a child process with a hook that records every module loaded, by the ESM loader or
 * by require; each package named here is loaded only on the path that uses it. bin/ runs the
 * bundle (dist/cli/, one chunk per lazy path); the compiled modules it is made of
 * (dist/src/cli/main.js, which runs as a command too) show the same paths module by module.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commaGrouped } from "../src/model/whole-number.js";
import { BIN, scratchFolder } from "./cli-run.js";
import { loadFixture } from "./fixture.js";

const { dir, file } = scratchFolder("sudoku-start-up-");

/** Hooks that append the URL of each module the ESM loader loads to $LOADED_MODULES; require's modules are added as the process exits. */
const hooks = file(
  "record-loads-hooks.mjs",
  [
    'import { appendFileSync } from "node:fs";',
    "export async function load(url, context, nextLoad) {",
    "  appendFileSync(process.env.LOADED_MODULES, url + '\\n');",
    "  return nextLoad(url, context);",
    "}",
    "",
  ].join("\n"),
);
const register = file(
  "record-loads.mjs",
  [
    'import { appendFileSync } from "node:fs";',
    'import { createRequire, register } from "node:module";',
    'import { pathToFileURL } from "node:url";',
    `register(${JSON.stringify(pathToFileURL(hooks).href)});`,
    'process.on("exit", () => appendFileSync(process.env.LOADED_MODULES, Object.keys(createRequire(import.meta.url).cache).map((path) => pathToFileURL(path).href + "\\n").join("")));',
    "",
  ].join("\n"),
);

/** The unbundled command line, as tsc wrote it. */
const MAIN = new URL("../dist/src/cli/main.js", import.meta.url).pathname;
let runs = 0;

/** Runs `entry` (BIN or MAIN) with `args`; its status, output and the modules it loaded (URLs). */
function loadsOf(entry: string, args: string[]) {
  const record = join(dir, `loads-${runs++}.txt`);
  const result = spawnSync(process.execPath, ["--import", pathToFileURL(register).href, entry, ...args], {
    encoding: "utf8",
    env: { ...process.env, LOADED_MODULES: record },
  });
  const modules = readFileSync(record, "utf8")
    .split("\n")
    .filter((url) => url !== "");
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, modules };
}

/** The packages among `modules` (URLs under node_modules/), by name. */
const packagesOf = (modules: readonly string[]): string[] =>
  [...new Set(modules.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []))].sort();
/** The modules of this package's dist/src among `modules`, as paths under it (`cli/solve.js`). */
const ownOf = (modules: readonly string[]): string[] => modules.flatMap((url) => /\/dist\/src\/(.+)$/.exec(url)?.[1] ?? []);
/** The bundle's chunks among `modules`, by name: `main`, `solve` (a lazy path's chunk is named for its module), `chunk` (shared). */
const chunksOf = (modules: readonly string[]): string[] => modules.flatMap((url) => /\/dist\/cli\/(.+?)(?:-[A-Z0-9]{8})?\.mjs$/.exec(url)?.[1] ?? []);

/** The packages a run loads only on the path that uses them (piscina: the worker pool). */
const ON_THEIR_PATH = ["cli-progress", "csv-parse", "proper-lockfile", "piscina"];

const fixture = loadFixture();
const unique = fixture.filter((c) => c.count === 1 && c.puzzle.includes("."));
const lines = file(
  "lines.txt",
  unique
    .slice(0, 3)
    .map((c) => c.puzzle)
    .join("\n") + "\n",
);
const solutions = unique
  .slice(0, 3)
  .map((c) => c.solution + "\n")
  .join("");

describe("start-up loads what the run's path uses", () => {
  it("solve --threads 0 of a line file: the bundle, and none of cli-progress, csv-parse, proper-lockfile, piscina, nor the other commands", () => {
    const run = loadsOf(BIN, ["solve", "--threads", "0", lines]);
    expect(run.stderr).toMatch(/^3 puzzles: 3 solved/);
    expect(run.stdout).toBe(solutions);
    expect(packagesOf(run.modules)).toContain("commander"); // the record sees packages
    expect(packagesOf(run.modules).filter((name) => ON_THEIR_PATH.includes(name))).toEqual([]);
    expect(chunksOf(run.modules)).toEqual(expect.arrayContaining(["main", "solve"])); // and the bundle's chunks
    expect(chunksOf(run.modules).filter((name) => ["merge", "generate", "judge"].includes(name))).toEqual([]);
    expect(ownOf(run.modules)).toEqual([]); // nothing of dist/src: the bundle holds it
  });

  it("solve --threads 0, unbundled: not the other commands, judge mode or the library entry", () => {
    const run = loadsOf(MAIN, ["solve", "--threads", "0", lines]);
    expect(run.stdout).toBe(solutions);
    const own = ownOf(run.modules);
    expect(own).toContain("cli/solve.js"); // the record sees this package's modules
    expect(own.filter((path) => ["cli/merge.js", "cli/generate.js", "cli/judge.js", "generate/generate.js", "index.js"].includes(path))).toEqual([]);
    expect(packagesOf(run.modules).filter((name) => ON_THEIR_PATH.includes(name))).toEqual([]);
  });

  it("merge loads no solving: not the pipeline, the kernels, the worker pool or the registry", () => {
    const shard = (k: number) => file(`shard-${k}.txt`, unique[k].solution + "\n");
    const merged = unique[0].solution + "\n" + unique[1].solution + "\n";
    const unbundled = loadsOf(MAIN, ["merge", shard(0), shard(1)]);
    expect(unbundled.status).toBe(0);
    expect(unbundled.stdout).toBe(merged);
    expect(ownOf(unbundled.modules)).toContain("cli/merge.js");
    expect(
      ownOf(unbundled.modules).filter((path) => ["cli/solve.js", "stream/pipeline.js", "kernel/wasm.js", "pool/pool.js", "solvers/registry.js"].includes(path)),
    ).toEqual([]);
    expect(packagesOf(unbundled.modules)).toEqual(["commander"]);
    const bundled = loadsOf(BIN, ["merge", shard(0), shard(1)]);
    expect(bundled.stdout).toBe(merged);
    expect(chunksOf(bundled.modules)).toContain("merge");
    expect(chunksOf(bundled.modules)).not.toContain("solve");
    expect(packagesOf(bundled.modules)).toEqual(["commander"]);
  });

  it("a quoted CSV field loads csv-parse, and reads the field", () => {
    const csv = file("quoted.csv", `id,puzzle\n1,"${unique[0].puzzle}"\n`);
    const run = loadsOf(BIN, ["solve", "--threads", "0", csv]);
    expect(run.stdout).toBe(unique[0].solution + "\n");
    expect(packagesOf(run.modules)).toContain("csv-parse");
  });

  it("-o FILE loads proper-lockfile, and --progress cli-progress; the output is the same", () => {
    const output = join(dir, "locked.txt");
    const run = loadsOf(BIN, ["solve", "--threads", "0", "--progress", "-o", output, lines]);
    expect(run.status).toBe(0);
    expect(readFileSync(output, "utf8")).toBe(solutions);
    expect(packagesOf(run.modules)).toEqual(expect.arrayContaining(["cli-progress", "proper-lockfile"]));
  });
});

describe("commaGrouped", () => {
  it('writes a safe integer as toLocaleString("en-US") does', () => {
    const safe = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
    fc.assert(fc.property(safe, (value) => commaGrouped(value) === value.toLocaleString("en-US")));
    for (const value of [0, -0, 999, 1000, -1000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(commaGrouped(value)).toBe(value.toLocaleString("en-US"));
    }
  });

  it("leaves any other number to toLocaleString", () => {
    for (const value of [0.5, 1234.5678, 2 ** 60, Infinity, -Infinity, NaN]) expect(commaGrouped(value)).toBe(value.toLocaleString("en-US"));
  });
});
