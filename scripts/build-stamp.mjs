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

/** Every source file under `root`, relative to it, sorted. */
function sourceFiles(root) {
  const files = SOURCE_FILES.filter((file) => existsSync(join(root, file)));
  const walk = (folder) => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(path)) walk(path);
      } else if (entry.isFile()) files.push(path);
    }
  };
  for (const folder of SOURCE_FOLDERS) if (existsSync(join(root, folder))) walk(folder);
  return files.sort();
}

/** The hash of every source's path and bytes (of the package at `folder`, this one by default). */
export function sourcesHash(folder = root) {
  const hash = createHash("sha256");
  for (const file of sourceFiles(folder)) {
    hash.update(file.replaceAll("\\", "/") + "\0");
    hash.update(readFileSync(join(folder, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** The hash the last successful build saw, or null. */
export function builtHash() {
  return existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : null;
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
