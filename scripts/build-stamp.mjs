#!/usr/bin/env node
/**
 * Knowing whether the build is current: a SHA-256 over every source the build reads (path and
 * bytes of each file under assembly/, src/, bench/ and scripts/, and the package and compiler
 * configs), kept in build/.sources.sha256 by a build that succeeded.
 *
 *   node scripts/build-stamp.mjs begin   (prebuild)  hashes the sources as the build starts
 *   node scripts/build-stamp.mjs end     (postbuild) keeps that hash: the build saw those sources
 *
 * A failed build never reaches `end`, so it leaves no stamp. scripts/run-built.mjs reads it.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE_FOLDERS = ["assembly", "src", "bench", "scripts"];
const SOURCE_FILES = ["asconfig.json", "tsconfig.json", "tsconfig.build.json", "package.json", "package-lock.json"];
/** Folders under the source folders that hold outputs, not sources. */
const SKIPPED = new Set([join("bench", "results")]);
const STAMP = join(root, "build", ".sources.sha256");
const PENDING = STAMP + ".pending";

/**
 * The files of `files` that exist and every file under `folders` (but those under SKIPPED), all
 * relative to `base`, sorted.
 */
export function filesIn(base, folders, files) {
  const found = files.filter((file) => existsSync(join(base, file)));
  const walk = (folder) => {
    for (const entry of readdirSync(join(base, folder), { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(path)) walk(path);
      } else if (entry.isFile()) found.push(path);
    }
  };
  for (const folder of folders) if (existsSync(join(base, folder))) walk(folder);
  return found.sort();
}

/** The hash of the path and bytes of each of `files` (relative to `base`). */
export function filesHash(base, files) {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(file.replaceAll("\\", "/") + "\0");
    hash.update(readFileSync(join(base, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** The hash of every source's path and bytes (of the package at `folder`, this one by default). */
export function sourcesHash(folder = root) {
  return filesHash(folder, filesIn(folder, SOURCE_FOLDERS, SOURCE_FILES));
}

/** The hash the last successful build saw, or null. */
export function builtHash() {
  return existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : null;
}

/** Bench scripts that load no kernel variant unless their arguments ask for one (paths from the package root). */
const WITHOUT_VARIANTS = ["bench", "bulk", "library", "canon"].map((name) => `dist/bench/${name}.js`);

/**
 * Whether `script` (a path under the package root) run with `args` may load a kernel variant: every
 * script but the benches above, and the bench when the arguments ask for the variants' rows (its
 * main preset loads none; `--preset variants`, `--preset all`, `--all`, `--quick`, whose default is
 * all's rows, and a `wasm:` id do). scripts/run-built.mjs builds them only then.
 */
export function usesVariants(script, args) {
  return !WITHOUT_VARIANTS.includes(script.replaceAll("\\", "/")) || args.some((arg) => /variants|wasm:|^(--)?all$|^--preset=all$|^--quick$/.test(arg));
}

/** True when every variant of assembly/variants.json has its build in build/variants/ (a build may leave them out). */
export function variantsBuilt(folder = root) {
  const { variants } = JSON.parse(readFileSync(join(folder, "assembly", "variants.json"), "utf8"));
  return variants.filter((variant) => variant.name !== "").every((variant) => existsSync(join(folder, "build", "variants", `${variant.name}.wasm`)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const step = process.argv[2];
  mkdirSync(dirname(STAMP), { recursive: true });
  if (step === "begin") writeFileSync(PENDING, sourcesHash() + "\n");
  else if (step === "end" && existsSync(PENDING)) renameSync(PENDING, STAMP);
  else if (step !== "end") {
    process.stderr.write("usage: node scripts/build-stamp.mjs begin|end\n");
    process.exitCode = 2;
  }
}
