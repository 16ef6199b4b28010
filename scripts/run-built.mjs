#!/usr/bin/env node
/**
 * `npm run bench` and `npm run profile`: runs a compiled script of dist/ with the arguments
 * given, after `npm run build` only when a source changed since the last successful build
 * (scripts/build-stamp.mjs). `--help` / `-h` answers from dist/ without building when it exists.
 *
 *   node scripts/run-built.mjs dist/bench/bench.js [arguments…]
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { builtHash, root, sourcesHash } from "./build-stamp.mjs";

const [script, ...args] = process.argv.slice(2);
if (!script) {
  process.stderr.write("usage: node scripts/run-built.mjs dist/<script>.js [arguments…]\n");
  process.exit(2);
}
const target = resolve(root, script);
const asksForHelp = args.some((arg) => arg === "--help" || arg === "-h");
const current = existsSync(target) && existsSync(join(root, "build", "release.wasm")) && builtHash() === sourcesHash();
if (!existsSync(target) || (!asksForHelp && !current)) {
  const never = builtHash() === null || !existsSync(target);
  process.stderr.write(never ? "not built yet: npm run build\n" : "sources changed since the last build: npm run build\n");
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: ["ignore", "inherit", "inherit"], shell: process.platform === "win32" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
process.argv = [process.argv[0], target, ...args];
await import(pathToFileURL(target).href);
