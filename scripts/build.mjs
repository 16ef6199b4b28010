#!/usr/bin/env node
/**
 * `npm run build` (and so `npm test`'s pretest and `npm pack`'s prepack): runs each build step
 * whose inputs changed since it last succeeded, or any of whose outputs is missing (every file
 * the step writes, e.g. a deleted dist/src/pool/pool.js makes the host due); `--all` runs
 * every step; `--no-variants` leaves out the kernel's variants (the CLI, the library and the
 * bench's main rows load none; scripts/run-built.mjs asks for them only where they are used);
 * `--dry-run` prints the steps with inputs that are due, one a line, and runs nothing. Each
 * step's inputs are hashed (path and bytes, scripts/build-stamp.mjs) and the hash of its last
 * success is kept in build/.steps.json, so a change to a test builds nothing, a change under src/
 * only the host, and a change to one kernel only that kernel (and the host, whose types read the
 * kernels' bindings).
 *
 *   step      runs                                         inputs
 *   kernel    asbuild:debug, asbuild:release               assembly/ but general.ts and canon.ts, asconfig.json,
 *                                                          package-lock.json
 *   variants  asbuild:variants                             the kernel's inputs and scripts/build-variants.mjs
 *   general   asbuild:general                              assembly/ but the 9×9 kernel's own files (index.ts,
 *                                                          text.ts, variants.*; batch.ts is shared) and
 *                                                          canon.ts, asconfig.json, package-lock.json
 *   canon     asbuild:canon                                assembly/canon.ts, asconfig.json, package-lock.json
 *   facts     scripts/build-facts.mjs (every build: it records the commit)
 *   host      scripts/clean-dist.mjs, tsc                  src/, bench/, the tsconfigs, package.json,
 *                                                          package-lock.json, the kernels' bindings; also
 *                                                          due when its outputs' bytes changed since (a
 *                                                          `tsc` run by hand wrote dist/)
 *   copy      scripts/copy-kernels.mjs (every build)
 *   bundle    scripts/bundle-cli.mjs (every build): the CLI's main thread from dist/src/ as
 *             dist/cli/*.mjs, which bin/sudoku-wasm.mjs runs, and the worker module as
 *             dist/cli/worker.mjs, which the workers' entry imports
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { filesHash, filesIn, root } from "./build-stamp.mjs";

const RECORD = join(root, "build", ".steps.json");
const LOCK = ["package-lock.json"];
const variants = JSON.parse(readFileSync(join(root, "assembly", "variants.json"), "utf8")).variants.filter((v) => v.name !== "");

/** The files asc writes for a release build of build/<stem>.wasm: the module and its raw bindings. */
const releaseBuild = (stem) => [".wasm", ".js", ".d.ts"].map((end) => join("build", stem + end));
/** The files asc writes for a debug build (asconfig's debug targets): a release build's, its text and its source map. */
const debugBuild = (stem) => [...releaseBuild(stem), ...[".wat", ".wasm.map"].map((end) => join("build", stem + end))];

/** The 9×9 kernel's sources: assembly/ but the other kernels, the compiler's settings and the lock file (its version). */
const kernelInputs = () => filesIn(root, ["assembly"], ["asconfig.json", ...LOCK]).filter((file) => !/^assembly[/\\](general|canon)\.ts$/.test(file));

/**
 * The build steps, in order (see the table above); a step without `inputs` runs every time.
 * `outputs` lists every file the step writes: one missing makes the step due.
 */
const STEPS = [
  {
    name: "kernel",
    scripts: ["asbuild:debug", "asbuild:release"],
    inputs: kernelInputs,
    outputs: () => [...debugBuild("debug"), ...releaseBuild("release")],
  },
  {
    name: "variants",
    scripts: ["asbuild:variants"],
    inputs: () => [...kernelInputs(), "scripts/build-variants.mjs"],
    outputs: () => variants.flatMap((v) => [...releaseBuild(`variants/${v.name}`), ...debugBuild(`variants-debug/${v.name}`)]),
  },
  {
    name: "general",
    scripts: ["asbuild:general"],
    inputs: () =>
      filesIn(root, ["assembly"], ["asconfig.json", ...LOCK]).filter((file) => !/^assembly[/\\](index\.ts|text\.ts|canon\.ts|variants\.)/.test(file)),
    outputs: () => [...releaseBuild("general"), ...debugBuild("general-debug")],
  },
  {
    name: "canon",
    scripts: ["asbuild:canon"],
    inputs: () => filesIn(root, [], ["assembly/canon.ts", "assembly/tsconfig.json", "asconfig.json", ...LOCK]),
    outputs: () => [...releaseBuild("canon"), ...debugBuild("canon-debug")],
  },
  { name: "facts", commands: [["node", "scripts/build-facts.mjs"]] },
  {
    name: "host",
    commands: [
      ["node", "scripts/clean-dist.mjs"],
      ["npx", "--no-install", "tsc", "-p", "tsconfig.build.json"],
    ],
    inputs: () => [
      ...filesIn(root, ["src", "bench"], ["tsconfig.json", "tsconfig.build.json", "package.json", "scripts/clean-dist.mjs", ...LOCK]),
      ...filesIn(
        root,
        [],
        ["release.d.ts", "release.js", "canon.d.ts", "canon.js", "facts.d.ts"].map((file) => join("build", file)),
      ),
    ],
    outputs: () =>
      filesIn(root, ["src", "bench"], [])
        .filter((file) => file.endsWith(".ts"))
        .flatMap((file) => [".js", ".d.ts"].map((end) => join("dist", file.slice(0, -3) + end))),
    // Its outputs are small (about 2 MB): their hash is kept too, so that dist/ written by hand since is built again.
    hashOutputs: true,
  },
  { name: "copy", commands: [["node", "scripts/copy-kernels.mjs"]] },
  { name: "bundle", commands: [["node", "scripts/bundle-cli.mjs"]] },
];

/** Runs one command in the package root with inherited output; exits with its status when it fails. */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const all = process.argv.includes("--all");
const dryRun = process.argv.includes("--dry-run");
const noVariants = process.argv.includes("--no-variants");
const record = existsSync(RECORD) ? JSON.parse(readFileSync(RECORD, "utf8")) : {};
/** The hash of a step's outputs as its last run left them (`hashOutputs` steps; absent in a record from before they were kept). */
const outputsRecord = (record.outputs ??= {});
const save = () => writeFileSync(RECORD, JSON.stringify(record, null, 2) + "\n");
for (const step of STEPS.filter(({ name }) => !(noVariants && name === "variants"))) {
  const hash = step.inputs ? filesHash(root, step.inputs()) : null;
  const outputs = step.outputs?.() ?? [];
  const present = outputs.every((file) => existsSync(join(root, file)));
  // Hashed only when nothing else makes the step due.
  const written = step.hashOutputs && present && record[step.name] === hash ? filesHash(root, outputs) : null;
  const untouched = written === null || outputsRecord[step.name] === undefined || outputsRecord[step.name] === written;
  const current = !all && hash !== null && record[step.name] === hash && present && untouched;
  if (dryRun) {
    if (hash !== null && !current) process.stdout.write(step.name + "\n");
    continue;
  }
  if (current) {
    if (written !== null && outputsRecord[step.name] === undefined) {
      outputsRecord[step.name] = written; // a record from before outputs were hashed: these outputs are taken as they are
      save();
    }
    continue;
  }
  if (hash !== null) process.stderr.write(`build: ${step.name} (${record[step.name] === undefined ? "no earlier build" : "its inputs or outputs changed"})\n`);
  for (const script of step.scripts ?? []) run("npm", ["run", "--silent", script]);
  for (const [command, ...args] of step.commands ?? []) run(command, args);
  if (hash !== null) {
    record[step.name] = hash;
    if (step.hashOutputs) outputsRecord[step.name] = filesHash(root, step.outputs());
    save(); // after each step: a later failure keeps what succeeded
  }
}
