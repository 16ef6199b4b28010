/**
 * The rough edges a new user met on a first try, each as the command they typed:
 * commander's "Did you mean" on a line of its own (not a literal `\n`), `-v` for the version,
 * `solve --quiet`, the hint when `solve` would wait on a terminal, and the bench's exit status
 * for a usage error (2, as the CLI's).
 */
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, runCli, scratchFolder } from "./cli-run.js";

const BENCH = new URL("../dist/bench/bench.js", import.meta.url).pathname;
const PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const { file } = scratchFolder("sudoku-newcomer-");

describe("the command line, as a newcomer types it", () => {
  it("prints commander's suggestion on its own line, not as a literal \\n", () => {
    const run = runCli(["solve", "--thread", "2"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("sudoku-wasm: unknown option '--thread'\n(Did you mean --threads?)\n");
  });

  it("takes -v for the version, as -V and --version", () => {
    const long = runCli(["--version"]);
    expect(long.status).toBe(0);
    expect(long.stdout).toMatch(/^sudoku-wasm \d+\.\d+\.\d+ /);
    for (const flag of ["-v", "-V"]) expect(runCli([flag])).toEqual(long);
  });

  it("solve --quiet writes the records and nothing on stderr but the errors", () => {
    const input = file("two.txt", `${PUZZLE}\n44${PUZZLE.slice(2)}\n`);
    const loud = runCli(["solve", "--threads", "0", input]);
    expect(loud.stderr).toMatch(/1 solved/);
    const quiet = runCli(["solve", "--threads", "0", "--quiet", "--progress", input]);
    expect(quiet.status).toBe(1);
    expect(quiet.stdout).toBe(loud.stdout);
    expect(quiet.stderr).toMatch(/^invalid: [^\n]*two\.txt:2: [^\n]*repeated[^\n]*\n$/);
  });

  const script = spawnSync("script", ["--version"]).status === 0;
  it.skipIf(!script)(
    "solve on a terminal says how to give it input, then reads what is typed (script gives the pseudo-terminal)",
    async () => {
      const child = spawn("script", ["-qfec", `"${process.execPath}" "${BIN}" solve --threads 0 --no-progress`, "/dev/null"], {
        stdio: ["pipe", "pipe", "pipe"],
      });
      let terminal = "";
      child.stdout!.on("data", (data) => (terminal += data));
      while (!terminal.includes("Ctrl-D")) {
        if (child.exitCode !== null) throw new Error(`solve ended early:\n${terminal}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(terminal).toContain("sudoku-wasm: reading puzzles from the terminal: type or paste them, one per line");
      child.stdin!.write(`${PUZZLE}\n\x04`);
      const status = await new Promise((resolve) => child.on("exit", resolve));
      expect(status).toBe(0);
      expect(terminal).toContain("417369825632158947958724316825437169791586432346912758289643571573291684164875293");
    },
    30_000,
  );

  it("the bench exits 2 for a usage error, as the CLI does, with one message", () => {
    const runs = [
      ["--thread", "2"],
      ["--datasets", "no-such-dataset"],
      ["--time", "fast"],
    ].map((args) => ({ args, run: spawnSync(process.execPath, [BENCH, ...args], { encoding: "utf8" }) }));
    for (const { args, run } of runs) {
      expect(run.status, args.join(" ")).toBe(2);
      expect(run.stderr.trim().split("\n")[0]).toMatch(/^bench: /);
    }
    expect(runs[0].run.stderr).toBe("bench: unknown option '--thread'\n(Did you mean --threads?)\n");
  });
});
