/** The commit a bench measures (bench/env.ts records it, bench/tool.ts's first line names it). */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildFacts } from "../build/facts.js";
import { packageRoot } from "../src/kernel/paths.js";

/**
 * The commit checked out at the package root, `-dirty` after it when a tracked file differs from it (the sources measured
 * are not that commit's); in an installed package (no .git of its own) the one recorded at build time.
 */
export function gitCommit(root = packageRoot()): string {
  const built = buildFacts.commit === null ? "unknown" : `${buildFacts.commit}${buildFacts.dirty ? DIRTY : ""}`;
  if (!existsSync(join(root, ".git"))) return built;
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: root, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  try {
    return `${git("rev-parse", "--short=12", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") === "" ? "" : DIRTY}`;
  } catch {
    return built;
  }
}

/** What {@link gitCommit} adds to a commit whose tracked files were changed. */
const DIRTY = "-dirty";
