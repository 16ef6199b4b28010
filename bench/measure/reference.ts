/**
 * A kernel built as it was at an earlier commit (the old side of `npm run kernel-vs`), and the
 * process CPU clock that kernel-vs's rounds (measure/interleaved.ts) and the bulk bench time with
 * (the machine may be shared).
 */
import asc from "assemblyscript/asc";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { packageRoot } from "../../src/paths.js";

/**
 * Compiles `entry` (e.g. `assembly/index.ts`) as it was at `commit` with this checkout's asconfig
 * `target` into build/ref/<prefix><commit>.wasm (gitignored), unless it is there; returns its URL.
 */
export async function buildKernelAtCommit(commit: string, entry: string, target: string, prefix = ""): Promise<URL> {
  const root = packageRoot();
  const hash = execFileSync("git", ["rev-parse", "--short=12", commit], { cwd: root }).toString().trim();
  const folder = join(root, "build", "ref");
  const wasm = join(folder, `${prefix}${hash}.wasm`);
  if (!existsSync(wasm)) {
    mkdirSync(folder, { recursive: true });
    const source = join(folder, `${prefix}${hash}.ts`);
    writeFileSync(source, execFileSync("git", ["show", `${hash}:${entry}`], { cwd: root }));
    const { error, stderr } = await asc.main([source, "--config", join(root, "asconfig.json"), "--target", target, "-o", wasm]);
    if (error) throw new Error(`building ${entry} of ${hash}: ${stderr.toString()}`);
  }
  return pathToFileURL(wasm);
}

/** User plus system CPU time of this process, in seconds. */
export function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}
