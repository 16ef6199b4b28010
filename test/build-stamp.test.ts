/**
 * No needless rebuild: the sources hash that decides whether `npm run bench` builds,
 * `--help` answering from dist/ without a build, and the build steps `npm run build` (so
 * `npm test`) takes again after a change (scripts/build.mjs), the kernel's variants left out on request.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;
const folder = mkdtempSync(join(tmpdir(), "sudoku-stamp-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** sourcesHash of the package at `at`, computed by scripts/build-stamp.mjs in a child process. */
function hashOf(at: string): string {
  const script = `import(${JSON.stringify(join(root, "scripts/build-stamp.mjs"))}).then((m) => process.stdout.write(m.sourcesHash(process.argv[1])))`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", script, at]).toString();
}

function write(path: string, text: string): void {
  mkdirSync(join(folder, path, ".."), { recursive: true });
  writeFileSync(join(folder, path), text);
}

describe("build stamp", () => {
  it("changes with a source's bytes or name, not with results or unrelated files", () => {
    write("package.json", "{}");
    write("assembly/index.ts", "export const a = 1;");
    write("src/main.ts", "export {};");
    const first = hashOf(folder);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    write("bench/results/run.json", "{}");
    write("notes.txt", "not a source");
    write("test/x.test.ts", "tests are not built");
    expect(hashOf(folder)).toBe(first);
    write("assembly/index.ts", "export const a = 2;");
    const second = hashOf(folder);
    expect(second).not.toBe(first);
    rmSync(join(folder, "src/main.ts"));
    write("src/renamed.ts", "export {};");
    expect(hashOf(folder)).not.toBe(second);
  });

  it("asks for the kernel's variants only where a script may load one: not for the bench's main rows", async () => {
    const { usesVariants } = (await import(join(root, "scripts/build-stamp.mjs"))) as { usesVariants(script: string, args: string[]): boolean };
    expect(usesVariants("dist/bench/bench.js", [])).toBe(false);
    expect(usesVariants("dist/bench/bench.js", ["--datasets", "hard", "--rounds", "3"])).toBe(false);
    expect(usesVariants("dist/bench/bulk.js", ["--records", "1000000"])).toBe(false);
    expect(usesVariants("dist/bench/library.js", [])).toBe(false);
    for (const args of [["--quick"], ["--all"], ["--preset", "all"], ["--preset=all"], ["--preset", "variants"], ["--solvers", "wasm,wasm:weighted"]])
      expect(usesVariants("dist/bench/bench.js", args), args.join(" ")).toBe(true);
    expect(usesVariants("dist/bench/profile.js", [])).toBe(true);
    expect(usesVariants("dist/bench/kernel-vs.js", ["--ref", "HEAD"])).toBe(true);
  });

  it("answers --help from dist/ without building", () => {
    const result = spawnSync(process.execPath, ["scripts/run-built.mjs", "dist/bench/bench.js", "--help"], { cwd: root, encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Usage: bench/);
    expect(result.stdout).toContain("--solvers");
    expect(result.stderr).not.toContain("npm run build");
  });
});

describe("npm run build", () => {
  /** A copy of this package's sources and of its last build's outputs and record, in the scratch folder. */
  function copyOfThisBuild(): string {
    const copy = join(folder, "package");
    rmSync(copy, { recursive: true, force: true });
    for (const path of [
      "assembly",
      "src",
      "bench",
      "scripts",
      "build",
      "asconfig.json",
      "tsconfig.json",
      "tsconfig.build.json",
      "package.json",
      "package-lock.json",
    ]) {
      cpSync(join(root, path), join(copy, path), { recursive: true, filter: (from) => !from.includes(join("bench", "results")) });
    }
    for (const path of ["dist/src", "dist/bench"]) cpSync(join(root, path), join(copy, path), { recursive: true });
    return copy;
  }

  /** The steps scripts/build.mjs would take in `at`. */
  const due = (at: string, ...options: string[]): string[] =>
    execFileSync(process.execPath, ["scripts/build.mjs", "--dry-run", ...options], { cwd: at, encoding: "utf8" })
      .split("\n")
      .filter(Boolean);

  it("takes again only the steps whose inputs changed or whose outputs are gone", () => {
    const copy = copyOfThisBuild();
    expect(due(copy)).toEqual([]); // pretest built it: nothing is due
    mkdirSync(join(copy, "test"));
    writeFileSync(join(copy, "test/x.test.ts"), "// tests are not built");
    expect(due(copy)).toEqual([]);
    appendFileSync(join(copy, "src/solvers/solver.ts"), "\n");
    expect(due(copy)).toEqual(["host"]);
    appendFileSync(join(copy, "assembly/general.ts"), "\n");
    expect(due(copy)).toEqual(["general", "host"]);
    appendFileSync(join(copy, "assembly/index.ts"), "\n");
    expect(due(copy)).toEqual(["kernel", "variants", "general", "host"]);
    cpSync(join(root, "src/solvers/solver.ts"), join(copy, "src/solvers/solver.ts"));
    cpSync(join(root, "assembly/general.ts"), join(copy, "assembly/general.ts"));
    cpSync(join(root, "assembly/index.ts"), join(copy, "assembly/index.ts"));
    expect(due(copy)).toEqual([]);
    rmSync(join(copy, "build/variants/first.wasm"));
    expect(due(copy)).toEqual(["variants"]);
    expect(due(copy, "--no-variants")).toEqual([]); // npm run bench's build: the variants are left out
    appendFileSync(join(copy, "scripts/build-variants.mjs"), "\n");
    expect(due(copy)).toEqual(["variants"]);
  });

  it("takes the host again when dist/ was written since its last build (a tsc run by hand), and not when it was copied as it was", () => {
    const copy = copyOfThisBuild();
    expect(due(copy)).toEqual([]); // copied byte for byte: its outputs' hash is the record's
    appendFileSync(join(copy, "dist/bench/rounds.js"), "// written by hand\n");
    expect(due(copy)).toEqual(["host"]);
    cpSync(join(root, "dist/bench/rounds.js"), join(copy, "dist/bench/rounds.js"));
    expect(due(copy)).toEqual([]);
    // A record from before outputs were hashed trusts the outputs it finds.
    const recordFile = join(copy, "build/.steps.json");
    const record = JSON.parse(readFileSync(recordFile, "utf8"));
    delete record.outputs;
    writeFileSync(recordFile, JSON.stringify(record));
    appendFileSync(join(copy, "dist/bench/rounds.js"), "// written by hand\n");
    expect(due(copy)).toEqual([]);
  });

  it("takes a step again when any file it writes is gone, not only the first", () => {
    const copy = copyOfThisBuild();
    expect(due(copy)).toEqual([]);
    rmSync(join(copy, "dist/src/pool/pool.js"));
    expect(due(copy)).toEqual(["host"]);
    cpSync(join(root, "dist/src/pool/pool.js"), join(copy, "dist/src/pool/pool.js"));
    rmSync(join(copy, "dist/bench/measure/check.d.ts"));
    expect(due(copy)).toEqual(["host"]);
    cpSync(join(root, "dist/bench/measure/check.d.ts"), join(copy, "dist/bench/measure/check.d.ts"));
    rmSync(join(copy, "build/general-debug.js"));
    expect(due(copy)).toEqual(["general"]);
    cpSync(join(root, "build/general-debug.js"), join(copy, "build/general-debug.js"));
    rmSync(join(copy, "build/variants/first.js"));
    expect(due(copy)).toEqual(["variants"]);
    rmSync(join(copy, "build/debug.wasm"));
    expect(due(copy)).toEqual(["kernel", "variants"]);
  });
});
