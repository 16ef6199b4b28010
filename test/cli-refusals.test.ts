/**
 * Inputs and set-ups the command line must refuse with one clear line and status 2, or answer
 * plainly: standard input named twice; a package without its
 * worker module or its N×N kernel; standard input that is a directory or closed; a character device named (read);
 * a binary file given to solve; a limit given as a string; `--resume` of a complete output; and
 * the command an interrupted run says to go on with, worded as the run was started.
 * Spawns bin/sudoku-wasm.mjs (dist/, built by `pretest`).
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli, scratchFolder } from "./cli-run.js";
import { relabelledPuzzles } from "../bench/corpus.js";
import { createSolver } from "../src/index.js";
import { invocation, resumeCommand } from "../src/cli-kit/resume.js";

const { dir, file } = scratchFolder("sudoku-refusals-");
const A = file("a.txt", relabelledPuzzles(40, 41));

/** One `sudoku-wasm: …` line and nothing else (no stack trace). */
const ONE_ERROR_LINE = /^sudoku-wasm: [^\n]+\n$/;

describe("standard input named twice", () => {
  const all = readFileSync(A, "utf8");
  it("is refused, redirected from a file and through a pipe, before anything is written", () => {
    const out = join(dir, "twice.txt");
    const fromFile = spawnSync("sh", ["-c", `exec "$@" < '${A}'`, "sh", process.execPath, BIN, "solve", "--no-progress", "-o", out, "-", "-"], {
      encoding: "utf8",
    });
    expect([fromFile.status, fromFile.stderr]).toEqual([2, "sudoku-wasm: standard input ('-') is named 2 times: it can be read once; name it once\n"]);
    expect(existsSync(out)).toBe(false);
    const piped = runCli(["solve", "--no-progress", A, "-", "-"], { input: all });
    expect([piped.status, piped.stdout, piped.stderr]).toEqual([
      2,
      "",
      "sudoku-wasm: standard input ('-') is named 2 times: it can be read once; name it once\n",
    ]);
    // canon reads its inputs as solve does
    expect(runCli(["canon", "--no-progress", A, "-", "-"], { input: all })).toMatchObject({
      status: 2,
      stdout: "",
      stderr: "sudoku-wasm: standard input ('-') is named 2 times: it can be read once; name it once\n",
    });
  });
});

describe("a package missing a file", () => {
  /** A copy of the package's shipped files (package.json, bin/, dist/{cli,src,build}) without `missing`. */
  function packageWithout(missing: string): string {
    const root = join(dir, `package-${missing.replaceAll("/", "-")}`);
    mkdirSync(join(root, "dist"), { recursive: true });
    const here = new URL("..", import.meta.url).pathname;
    for (const part of ["package.json", "bin", "dist/cli", "dist/src", "dist/build"]) cpSync(join(here, part), join(root, part), { recursive: true });
    symlinkSync(join(here, "node_modules"), join(root, "node_modules"));
    rmSync(join(root, missing));
    return root;
  }

  it("without dist/cli/worker.mjs: one line naming it, status 2, no lock left, before any record is solved", () => {
    const root = packageWithout("dist/cli/worker.mjs");
    const out = join(dir, "no-worker.txt");
    const input = file("no-worker-input.txt", relabelledPuzzles(20_000, 43));
    const run = spawnSync(process.execPath, [join(root, "bin", "sudoku-wasm.mjs"), "solve", "--no-progress", "--threads", "2", "-o", out, input], {
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `sudoku-wasm: ${join(root, "dist", "cli", "worker.mjs")} is missing: the package is incomplete (in a clone of sudoku-wasm, \`npm run build\` makes it)\n`,
    );
    expect([existsSync(`${out}.lock`), existsSync(`${out}.lock.owner`)]).toEqual([false, false]);
    expect(readFileSync(out, "utf8")).toBe("");
  });

  it("without the N×N kernel: the error line says sudoku-wasm once", () => {
    const root = packageWithout("dist/build/general.wasm");
    const input = file("sixteen.txt", `${".".repeat(256)}\n`);
    const run = spawnSync(process.execPath, [join(root, "bin", "sudoku-wasm.mjs"), "solve", "--no-progress", input], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(ONE_ERROR_LINE);
    expect(run.stderr).toMatch(/^sudoku-wasm: missing kernel /);
  });
});

describe("unclear messages made clear", () => {
  it("refuses standard input that is a directory, as it refuses a directory named", () => {
    const run = spawnSync("sh", ["-c", `exec "$@" < '${dir}'`, "sh", process.execPath, BIN, "solve", "--no-progress"], { encoding: "utf8" });
    expect([run.status, run.stdout, run.stderr]).toEqual([2, "", "sudoku-wasm: standard input is a directory, not a puzzle file\n"]);
  });

  it("reads a character device or a FIFO named as a path as a stream, as standard input is; still refuses a directory", () => {
    expect(runCli(["solve", "-q", "/dev/null"])).toMatchObject({ status: 0, stdout: "", stderr: "" });
    const fromStdin = runCli(["solve", "-q", "-"], { input: readFileSync(A, "utf8") });
    const piped = spawnSync("sh", ["-c", `cat '${A}' | "$@"`, "sh", process.execPath, BIN, "solve", "-q", "/dev/stdin"], { encoding: "utf8" });
    expect([piped.status, piped.stdout, piped.stderr]).toEqual([fromStdin.status, fromStdin.stdout, ""]); // /dev/stdin is a pipe
    const redirected = spawnSync("sh", ["-c", `exec "$@" < /dev/null`, "sh", process.execPath, BIN, "solve", "-q", "/dev/stdin"], { encoding: "utf8" });
    expect([redirected.status, redirected.stdout, redirected.stderr]).toEqual([0, "", ""]); // /dev/stdin is /dev/null: a character device
    expect(runCli(["solve", "-q", dir])).toMatchObject({ status: 2, stdout: "", stderr: `sudoku-wasm: ${dir} is a directory, not a puzzle file\n` });
  });

  it.runIf(process.platform === "linux")(
    "refuses standard input that is closed (`<&-`), named or implied, not reading it as empty; `< /dev/null` is read",
    () => {
      const closed = "sudoku-wasm: standard input is closed, not readable: give input files, or a pipe or a redirect (`< /dev/null` for no puzzles)\n";
      for (const [redirect, inputs, expected] of [
        ["<&-", [], [2, "", closed]],
        ["<&-", [A, "-"], [2, "", closed]],
        ["< /dev/null", [], [0, "", ""]],
      ] as const) {
        for (const command of ["solve", "canon"]) {
          const run = spawnSync("sh", ["-c", `exec "$@" ${redirect}`, "sh", process.execPath, BIN, command, "-q", ...inputs], { encoding: "utf8" });
          expect([run.status, run.stdout, run.stderr], `${command} ${redirect} ${inputs.length}`).toEqual(expected);
        }
      }
      // a closed standard input that is not named is not read: the files are
      const files = spawnSync("sh", ["-c", `exec "$@" <&-`, "sh", process.execPath, BIN, "solve", "-q", A], { encoding: "utf8" });
      expect([files.status, files.stderr]).toEqual([0, ""]);
    },
  );

  it("refuses a binary file (a NUL byte in its first 64 KiB) with one line, before any record", () => {
    const binary = join(dir, "program.bin");
    writeFileSync(binary, Buffer.concat([Buffer.from("\x7fELF\x02\x01\x01\0\0\0", "latin1"), Buffer.from(`"x",\n${relabelledPuzzles(3, 44)}`)]));
    const run = runCli(["solve", "--no-progress", binary]);
    expect([run.status, run.stdout]).toEqual([2, ""]);
    expect(run.stderr).toMatch(new RegExp(`^sudoku-wasm: ${binary} is a binary file \\(a NUL byte at byte \\d+\\), not a puzzle file\\n$`));
  });

  it("says a limit given as a string was a string", async () => {
    const solver = await createSolver();
    expect(() => solver.solve(".".repeat(81), { limit: "2" as never })).toThrow('limit must be a whole number from 1 to 2^31-1, got the string "2"');
  });

  it("--resume of a complete output says it was complete, not '0 puzzles … (0 puzzles/s)'", () => {
    const out = join(dir, "complete.txt");
    expect(runCli(["solve", "--no-progress", "-o", out, A]).status).toBe(0);
    const before = readFileSync(out, "utf8");
    const run = runCli(["solve", "--no-progress", "--resume", "-o", out, A]);
    expect([run.status, run.stderr]).toEqual([0, `'${out}' was already complete (40 records): every input record is in it already; nothing added\n`]);
    expect(readFileSync(out, "utf8")).toBe(before);
  });

  it("words the command to go on with as the run was started: npx, the installed command, or node and the script", () => {
    const args = ["solve", "-o", "out.txt", "in.txt"];
    expect(resumeCommand(args, invocation(["/usr/bin/node", "/home/u/.npm/_npx/1/node_modules/.bin/sudoku-wasm"], { npm_command: "exec" }))).toBe(
      "npx sudoku-wasm solve -o out.txt in.txt --resume",
    );
    expect(resumeCommand(args, invocation(["/usr/bin/node", "/usr/local/bin/sudoku-wasm"], {}))).toBe("sudoku-wasm solve -o out.txt in.txt --resume");
    expect(resumeCommand(args, invocation(["/usr/bin/node", "/src/my dir/bin/sudoku-wasm.mjs"], {}))).toBe(
      "node '/src/my dir/bin/sudoku-wasm.mjs' solve -o out.txt in.txt --resume",
    );
    // A script started from inside an npx or npm run (which set npm_command for every child) is still `node SCRIPT`.
    expect(resumeCommand(args, invocation(["/usr/bin/node", "/src/bin/sudoku-wasm.mjs"], { npm_command: "exec" }))).toBe(
      "node /src/bin/sudoku-wasm.mjs solve -o out.txt in.txt --resume",
    );
  });

  it("a run started as npx starts it (a bin link named sudoku-wasm, npm_command=exec) says to go on with npx sudoku-wasm after Ctrl-C", async () => {
    const bin = join(dir, "npx-bin", "sudoku-wasm");
    mkdirSync(join(dir, "npx-bin"));
    symlinkSync(BIN, bin);
    const out = join(dir, "npx.txt");
    const child = spawn(process.execPath, [bin, "solve", "--no-progress", "-o", out, "-"], {
      env: { ...process.env, npm_command: "exec" },
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.stdin!.write(readFileSync(A, "utf8")); // standard input stays open: the run waits for more
    while (!existsSync(`${out}.lock.owner`) || readFileSync(out, "utf8").split("\n").length <= 40) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain(`; to go on: npx sudoku-wasm solve --no-progress -o ${out} - --resume\n`);
  });
});

describe("a judge that counts, on a solver that stops at its first solution", () => {
  const blank = "_________\n".repeat(9);
  it("sicily1317 refuses npm:algorithm.ts (it would say 'solution is' of a grid with millions) and takes one that counts", () => {
    const refused = runCli(["solve", "--format", "sicily1317", "--solver", "npm:algorithm.ts"], { input: `1\n${blank}` });
    expect([refused.status, refused.stdout]).toEqual([2, ""]);
    expect(refused.stderr).toMatch(ONE_ERROR_LINE);
    expect(refused.stderr).toContain("--format sicily1317 counts each puzzle's solutions, but solver 'npm:algorithm.ts' stops at the first one");
    // the first listed solver of the size judges: a counting one before it is taken
    const eight = "8596124377.38541.91.43795.8.86147.52.75268.14241593786432981675.1742.893.9873.241".replaceAll(".", "_").match(/.{9}/g)!.join("\n");
    const counted = runCli(["solve", "--format", "sicily1317", "--solver", "dlx,npm:algorithm.ts"], { input: `1\n${eight}\n` });
    expect([counted.status, counted.stdout]).toEqual([0, "Puzzle 1 has 8 solutions\n"]);
    // a judge that finds one solution takes it
    const found = runCli(["solve", "--format", "poj3074", "--solver", "npm:algorithm.ts"], { input: `${".".repeat(81)}\nend\n` });
    expect([found.status, found.stdout.length]).toEqual([0, 82]);
  });
});
