/**
 * Exits: the process.exit() paths left open to the V8 shutdown race
 * (nodejs/node#54918) end the way a failed standard stream does: the worker pools are stopped
 * first, then the process idles a moment, then it exits. Spawns scripts over dist/.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchFolder } from "./cli-run.js";

const { dir } = scratchFolder("sudoku-exits-");
const dist = (path: string) => new URL(`../dist/src/cli-kit/${path}`, import.meta.url).href;

describe("a second signal that does not end the process stops the worker pools before it exits", () => {
  it("runs the pools' stop (a registered stopper) and exits 130 when another SIGINT listener keeps the self-kill from ending it", async () => {
    const script = `const { InterruptWatch } = await import("${dist("progress.js")}");
const { stopBeforeStreamExit } = await import("${dist("errors.js")}");
const { writeSync } = await import("node:fs");
stopBeforeStreamExit(() => new Promise((resolve) => setTimeout(() => { writeSync(2, "pool stopped\\n"); resolve(); }, 200)));
new InterruptWatch();
// A library's listener (the watch's own kill then does not end the process); it says when a SIGINT has been handled.
process.on("SIGINT", () => writeSync(1, "SIGINT handled\\n"));
setInterval(() => {}, 1000); // a run stuck in a batch
writeSync(1, "ready\\n");`;
    writeFileSync(join(dir, "stuck.mjs"), script);
    const child = spawn(process.execPath, [join(dir, "stuck.mjs")], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    /** Resolves once standard output holds `text`; rejects if the child ends first. */
    const said = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!stdout.includes(text)) return;
          child.stdout.off("data", check).off("end", ended);
          resolve();
        };
        const ended = () =>
          reject(new Error(`the child ended without saying ${JSON.stringify(text)}; stdout ${JSON.stringify(stdout)}, stderr ${JSON.stringify(stderr)}`));
        child.stdout.on("data", check).on("end", ended);
        check();
      });
    await said("ready\n");
    child.kill("SIGINT");
    // The second only once the first was handled: two of one kind sent while the child waits for a core arrive as one.
    await said("SIGINT handled\n");
    child.kill("SIGINT");
    const status = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    expect(stderr).toBe("pool stopped\n");
    expect(status).toBe(130);
  });
});
