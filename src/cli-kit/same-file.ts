/**
 * No output overwrites an input: before anything is opened for writing, the output (`-o FILE`, or a
 * redirected standard output) is compared with every input by device and inode, so links and
 * other spellings are caught.
 */
import { type Stats, fstatSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { attempt } from "./errors.js";

/** The file behind a path, or null when there is none yet (a new output file). */
export const statOf = (path: string): Stats | null => attempt(() => statSync(path)) ?? null;

/** The file behind an open descriptor, or null when it is not a regular file (a terminal, a pipe). */
export function regularFileOf(fd: number): Stats | null {
  const stats = attempt(() => fstatSync(fd));
  return stats?.isFile() ? stats : null;
}

const sameFile = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino;

/** True when paths `a` and `b` name one file: by device and inode when it exists (a link, another spelling), else the same resolved path. */
export function isSameFile(a: string, b: string): boolean {
  const [x, y] = [statOf(a), statOf(b)];
  return x !== null && y !== null ? sameFile(x, y) : resolve(a) === resolve(b);
}

/** Throws a one-line reason when `output` (the `-o` path; undefined: standard output) is one of `inputs` (`-`: standard input). */
export function checkOutputIsNoInput(inputs: readonly string[], output: string | undefined): void {
  const target = output === undefined ? regularFileOf(1) : statOf(output);
  if (target === null || !target.isFile()) return;
  const where = output === undefined ? "standard output" : `the output '${output}'`;
  for (const name of inputs) {
    const source = name === "-" ? regularFileOf(0) : statOf(name);
    if (source !== null && sameFile(source, target)) {
      const input = name === "-" ? "standard input" : `input '${name}'`;
      throw new Error(`${where} is the same file as ${input}; writing it would destroy the input (choose another output file)`);
    }
  }
}
