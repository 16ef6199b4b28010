#!/usr/bin/env node
/**
 * `npm run bench` and `npm run profile`: runs a compiled script of dist/ with the arguments
 * given, after `npm run build` only when a source changed since the last successful build
 * (scripts/build-stamp.mjs). `--help` / `-h` answers from dist/ without building when it exists.
 * The kernel's variants are built only for a script that may load one (build-stamp.mjs
 * usesVariants: not the bench's main rows), so a first `npm run bench` on a fresh clone skips
 * their minute of compiling.
 *
 *   node scripts/run-built.mjs dist/bench/bench.js [arguments…]
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { builtHash, root, sourcesHash, usesVariants, variantsBuilt } from "./build-stamp.mjs";

const [script, ...args] = process.argv.slice(2);
if (!script) {
  process.stderr.write("usage: node scripts/run-built.mjs dist/<script>.js [arguments…]\n");
  process.exit(2);
}
const target = resolve(root, script);
const asksForHelp = args.some((arg) => arg === "--help" || arg === "-h");
const variants = usesVariants(relative(root, target), args);
const current = existsSync(target) && existsSync(join(root, "build", "release.wasm")) && builtHash() === sourcesHash() && (!variants || variantsBuilt());
if (!existsSync(target) || (!asksForHelp && !current)) {
  const why =
    builtHash() === null || !existsSync(target)
      ? "not built yet"
      : builtHash() !== sourcesHash()
        ? "sources changed since the last build"
        : "the kernel's variants are not built yet";
  process.stderr.write(`${why}: npm run build\n`);
  const steps = variants ? [] : ["--", "--no-variants"];
  const build = spawnSync("npm", ["run", "build", "--silent", ...steps], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    shell: process.platform === "win32",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// npm passes a SIGTERM (`kill`, `timeout`, a cancelled CI job) to the shell that runs this script alone: orphaned, this
// process takes it itself, as the CLI does (src/cli-kit/progress.ts).
const signals = join(root, "dist", "src", "cli-kit", "progress.js");
if (existsSync(signals)) (await import(pathToFileURL(signals).href)).stopWhenOrphanedByNpm();
process.argv = [process.argv[0], target, ...args];
await import(pathToFileURL(target).href);
