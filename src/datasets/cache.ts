/**
 * Where fetched public sets live: one `NAME.txt` per set in one folder, the first of
 *
 *   $SUDOKU_WASM_DATASETS                       a folder of NAME.txt files (a shared copy, a mirror)
 *   $XDG_CACHE_HOME/sudoku-wasm/datasets
 *   ~/.cache/sudoku-wasm/datasets
 *
 * and how a file there is checked against its catalog entry (line count and SHA-256).
 */
import { createHash } from "node:crypto";
import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { CatalogSet } from "./catalog.js";
import { describeError } from "../cli-kit/errors.js";

/** The environment variable that names the folder of the fetched sets. */
export const CACHE_VARIABLE = "SUDOKU_WASM_DATASETS";

/** The folder of the fetched sets (see the file comment for the order). */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (env[CACHE_VARIABLE]) return env[CACHE_VARIABLE];
  // (the XDG base directory spec: a relative XDG_CACHE_HOME is invalid and ignored)
  const cacheHome = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(cacheHome, "sudoku-wasm", "datasets");
}

/** Throws when the cache folder is there but is not a folder (a file, say): nothing could be read from it or written to it. */
export function checkCacheFolder(folder: string = cacheFolder(), env: NodeJS.ProcessEnv = process.env): void {
  if (!existsSync(folder) || statSync(folder).isDirectory()) return;
  const named = env[CACHE_VARIABLE] ? `$${CACHE_VARIABLE} names it` : "it is where the cache goes";
  throw new Error(`the datasets folder '${folder}' is not a folder (${named}): point ${CACHE_VARIABLE} at a folder, or remove the file`);
}

/** Throws when the cache folder (or, while it does not exist, the folder it would be made in) cannot be written: nothing fetched could be kept. */
export function checkCacheWritable(folder: string = cacheFolder(), env: NodeJS.ProcessEnv = process.env): void {
  let existing = resolve(folder);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    accessSync(existing, constants.W_OK);
  } catch (error) {
    const named = env[CACHE_VARIABLE] ? `$${CACHE_VARIABLE} names it` : "it is where the cache goes";
    throw new Error(`cannot write to the datasets folder '${folder}' (${named}): ${describeError(error)}: point ${CACHE_VARIABLE} at a folder you can write`);
  }
}

/** The path a set's file has in the cache folder (whether or not it is there). */
export function cachedPath(name: string, folder: string = cacheFolder()): string {
  return join(folder, `${name}.txt`);
}

/** Whether a set's file is in the cache folder. */
export function isCached(name: string, folder: string = cacheFolder()): boolean {
  return existsSync(cachedPath(name, folder));
}

/** The one command that fetches a set. */
export function fetchCommand(name: string, catalogFile?: string): string {
  return `npx sudoku-wasm datasets fetch ${name}${catalogFile === undefined ? "" : ` --catalog ${catalogFile}`}`;
}

/** The SHA-256 of bytes, as hex. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Lines in a normalised file (every line ends with `\n`). */
export function lineCount(bytes: Uint8Array): number {
  let count = 0;
  for (const byte of bytes) if (byte === 10) count++;
  return count;
}

/** Why the bytes of a set's file differ from its catalog entry, or null when they match. */
export function fileProblem(set: CatalogSet, bytes: Uint8Array): string | null {
  const count = lineCount(bytes);
  const digest = sha256(bytes);
  if (count === set.count && digest === set.sha256) return null;
  const crlf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes("\r\n")
    ? ": its lines end in \\r\\n (a copy converted to Windows line ends?)"
    : "";
  return `${count} puzzles with sha256 ${digest}; the catalog expects ${set.count} with ${set.sha256}${crlf}`;
}

/** Why the cached file of a set differs from its catalog entry (a folder in its place, say), or null when it matches. */
export function cachedFileProblem(set: CatalogSet, folder: string = cacheFolder()): string | null {
  const path = cachedPath(set.name, folder);
  return statSync(path).isFile() ? fileProblem(set, readFileSync(path)) : "it is not a file";
}
