/**
 * The bench against solver modules that misbehave (dist/bench/bench.js, built by `npm test`): one
 * that answers right only while it thinks its answers are checked, ones that throw what is not an
 * Error, dataset files whose names carry terminal escapes. Each run must end with one clear line
 * naming what went wrong, never a stack trace, and never report a figure it did not check.
 */
import asc from "assemblyscript/asc";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { threadTicks, workerThreadBusy } from "./busy-thread.js";
import { CHROMIUM_PATH, chromiumRequired, hasChromium } from "./browser.js";

const BENCH = new URL("../dist/bench/bench.js", import.meta.url).pathname;
const EXAMPLE = pathToFileURL(new URL("../examples/my-solver.mjs", import.meta.url).pathname).href;
const dir = mkdtempSync(join(tmpdir(), "sudoku-bench-outside-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a solver module into the test folder; returns its path. */
function solverModule(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

/** A short bench run of the given --solvers (20 puzzles, 100 ms per row; on easy unless `more` gives --datasets), no threads row. */
function bench(solvers: string, ...more: string[]) {
  const datasets = more.includes("--datasets") ? [] : ["--datasets", "easy"];
  const threads = more.includes("--threads") ? [] : ["--threads", "0"];
  const args = [BENCH, "--solvers", solvers, ...datasets, "--puzzles", "20", "--time", "100", ...threads, ...more];
  // The limit kills a run that hangs, inside the tests' 120 s: one of these runs took 52 s on two loaded cores.
  return spawnSync(process.execPath, args, { encoding: "utf8", timeout: 110_000 });
}

describe("bench: only checked answers are timed", () => {
  // Honest wherever the bench checks, as far as it can tell, and "1 solution" at once, without writing one, elsewhere.
  // On the bench's own thread: honest on every stats object for at most 21 calls (a checked pass: one warm-up call
  // and the 20 puzzles), so only the timed loop (which reuses its stats object) and the retimes get the cheat. In a
  // worker thread (where the bench runs solver modules): honest for the first batch of 20 (the checked one) only.
  const cheat = solverModule(
    "cheat.mjs",
    `import honest from ${JSON.stringify(EXAMPLE)};
import { isMainThread } from "node:worker_threads";
export const id = "cheat";
const calls = new WeakMap();
let all = 0;
export default {
  countSolutions(puzzle, limit, solution, stats, budget) {
    const n = (calls.get(stats) ?? 0) + 1;
    calls.set(stats, n);
    const checked = isMainThread ? n <= 21 : ++all <= 20;
    return checked ? honest.countSolutions(puzzle, limit, solution, stats, budget) : 1;
  },
};
`,
  );

  it("a solver that answers right only in its checked passes is refused with status 1, naming the row and the call", () => {
    const run = bench(cheat);
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^bench: cheat on easy line \d+: timed batch \d+: solution .* is not a valid grid that keeps the clues; the row is refused\n/);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stdout).not.toMatch(/\n {2}cheat +[\d,]+ /); // no figure for it
  });
});

describe("bench: a solver module wrong from its first answer", () => {
  it("ends the run with status 1 at its checked pass (its worker thread ended too, not left to hold the process)", () => {
    const wrong = solverModule("wrong.mjs", "export default { countSolutions(puzzle, limit, solution) { solution.fill(1); return 1; } };\n");
    const run = bench(`wasm,${wrong}`);
    expect(run.status, run.stdout + run.stderr).toBe(1); // (null: it hung until the spawn's limit)
    expect(run.stderr).toMatch(/^bench: \S*wrong\.mjs on easy line \d+: solution 1{81} is not a valid grid that keeps the clues\n/);
  });
});

describe("bench: a solver that throws what is not an Error", () => {
  for (const [thrown, shown] of [
    ['"x"', '"x"'],
    ["null", "null"],
    ["42", "42"],
  ] as const) {
    it(`throw ${thrown}: one line naming the row and the value, status 1, no stack trace`, () => {
      const path = solverModule(
        `throws-${shown.replace(/\W/g, "")}.mjs`,
        `export const id = "thrower";\nexport default { countSolutions() { throw ${thrown}; } };\n`,
      );
      const run = bench(path);
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toBe(`bench: easy · thrower: threw ${shown} (not an Error)\n`);
    });
  }

  it("an Error's message is kept, with the row named", () => {
    const path = solverModule("throws-error.mjs", `export const id = "thrower";\nexport default { countSolutions() { throw new Error("out of cheese"); } };\n`);
    const run = bench(path);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toBe("bench: easy · thrower: out of cheese\n");
  });
});

describe("bench: dataset file names with terminal escapes", () => {
  it("are escaped wherever the report shows them", () => {
    const folder = join(dir, "escapes");
    mkdirSync(folder);
    const puzzles = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    const names = ["title\x1B]0;pwned\x07", "clear\x1B[2J\x1B[H"];
    for (const name of names) writeFileSync(join(folder, `${name}.txt`), puzzles);
    const run = bench("bitmask", "--datasets", folder);
    expect(run.status, run.stderr).toBe(0);
    const shown = run.stdout + run.stderr;
    expect(shown).not.toContain("\x1B");
    expect(shown).not.toContain("\x07");
    expect(run.stdout).toContain("title\\x1b]0;pwned\\x07");
    expect(run.stdout).toContain("clear\\x1b[2J\\x1b[H");
  });
});

describe("bench: nothing but the report on its streams", () => {
  it("a threads row prints no deprecation warning (the pool copies a Buffer's bytes into a plain Uint8Array)", () => {
    const run = bench("wasm", "--threads", "1");
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/wasm \(1 thread\)/);
    expect(run.stdout + run.stderr).not.toMatch(/DeprecationWarning|DEP0005/);
  });
});

describe("library-bench: a short run", () => {
  it("prints a row for each path (the pool's stream of an array and of a file, its bytes and through readline, too), K on the pool's threads at once and the records alone among them, with ratios to K and to that ceiling, and solveMany's ceiling", () => {
    const tool = new URL("../dist/bench/library.js", import.meta.url).pathname;
    const args = ["--records", "2000", "--sample", "200", "--rounds", "1", "--seconds", "0.05", "--threads", "2"];
    const run = spawnSync(process.execPath, [tool, ...args], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^library-bench: .+ cores?, Node v[\d.]+, commit [0-9a-f]{12}(-dirty)?, load average /);
    expect(run.stdout).toMatch(/ for the pool \(2 threads\); limit 2; 1 round; one-thread runs (and K pinned to core \d+|not pinned \(.+\))\n/); // (it said "1 rounds")
    const row = (path: string) => run.stdout.split("\n").find((line) => line.startsWith(path)) ?? "";
    expect(row("K on 2 threads at once")).toMatch(/^K on 2 threads at once \(a kernel each, no pool\)\s+[\d,]+\s+[\d.]+ \([\d.–]+\) of K's wall rate\s+1$/);
    expect(row("records alone")).toMatch(/^records alone \(pool\.solveMany's main thread[^)]*\)\s+[\d,]+\s+[\d,]+\s+[\d.]+ \([\d.–]+\)$/);
    expect(row("pool.solveMany can reach at most")).toMatch(/^pool\.solveMany can reach at most [\d.]+ \([\d.–]+\) K here/);
    for (const path of [
      "pool.solveMany, 2 threads",
      "pool.solveStream, 2 threads",
      "pool.solveStream over a file stream, 2 threads",
      "pool.solveStream over readline, 2 threads",
    ]) {
      expect(row(path)).toMatch(/of K's wall rate\s+[\d.]+ \([\d.–]+\)$/);
      expect(row(path.split(",")[0] + ":")).toMatch(/the main thread was busy [01]\.\d\d \([\d.–]+\) of the wall time$/);
    }
  });
});

describe.skipIf(!hasChromium && !chromiumRequired)("web-pool-bench: a short run in Chromium", () => {
  it("prints K, K in Web Workers at once, solveMany and the pool's two calls for a page without and with cross-origin isolation, with their ratios", () => {
    const tool = new URL("../dist/bench/web-pool.js", import.meta.url).pathname;
    const args = ["--records", "3000", "--sample", "200", "--rounds", "1", "--seconds", "0.05", "--threads", "2"];
    const run = spawnSync(process.execPath, [tool, ...args], { encoding: "utf8", env: { ...process.env, CHROMIUM: CHROMIUM_PATH } });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^web-pool-bench: .+ cores?, Node v/m); // (one core: a machine, or CI's tests pinned to one)
    expect(run.stdout).toMatch(/\(headless\), (1 core|([2-9]|\d\d+) cores) as the page sees them/);
    for (const page of ["not isolated: memory sent", "isolated: memory shared"]) {
      const rows = run.stdout.split("\n").filter((line) => line.startsWith(page));
      expect(
        rows.map(
          (row) =>
            row
              .slice(page.length)
              .trim()
              .split(/\s{2,}/)[0],
        ),
      ).toEqual([
        "K (kernel batch, on the page's thread)",
        "K in 2 Web Workers at once (a kernel each, no pool)",
        "solver.solveMany, on the page's thread",
        "pool.solveMany, 2 workers",
        "pool.solveStream, 2 workers",
      ]);
      for (const row of rows.slice(3)) expect(row).toMatch(/[\d,]+\s+[\d.]+ \([\d.–]+\)\s+[\d.]+ \([\d.–]+\)\s+[\d.]+ \/ [\d.]+$/);
    }
  }, 120_000);
});

describe("bench tools: usage errors", () => {
  for (const [file, tool] of [
    ["bench", "bench"],
    ["profile", "profile"],
    ["kernel-vs", "kernel-vs"],
    ["canon", "canon-bench"],
    ["library", "library-bench"],
    ["web-pool", "web-pool-bench"],
    ["bulk", "bulk-bench"],
    ["verdict-rates", "verdict-rates"],
    ["docs-tables", "docs:tables"],
  ]) {
    it(`${tool} answers an unknown option with one line naming itself, status 2`, () => {
      const run = spawnSync(process.execPath, [new URL(`../dist/bench/${file}.js`, import.meta.url).pathname, "--bogus"], { encoding: "utf8" });
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(`${tool}: unknown option '--bogus'\n`);
    });

    it(`${tool} --help into a reader gone at once (as \`| head\` leaves it) exits 0 with nothing on standard error`, async () => {
      const child = spawn(process.execPath, [new URL(`../dist/bench/${file}.js`, import.meta.url).pathname, "--help"], { stdio: ["ignore", "pipe", "pipe"] });
      child.stdout.destroy(); // the read end closed before the tool writes: its writes fail with EPIPE
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const status = await new Promise((resolve) => child.on("close", resolve));
      expect([status, stderr]).toEqual([0, ""]);
    });
  }

  it("canon-bench answers a set that does not resolve with one line, status 2, and --help with its usage", () => {
    const tool = new URL("../dist/bench/canon.js", import.meta.url).pathname;
    const run = spawnSync(process.execPath, [tool, "no-such-set"], { encoding: "utf8" });
    expect([run.status, run.stdout]).toEqual([2, ""]);
    expect(run.stderr).toMatch(/^canon-bench: no dataset 'no-such-set': [^\n]+\n$/);
    const help = spawnSync(process.execPath, [tool, "--help"], { encoding: "utf8" });
    expect([help.status, help.stdout]).toEqual([0, expect.stringContaining("Usage: npm run canon-bench -- [options] [sets...]")]);
  });

  it("an empty dataset file is refused before the header, in one line, status 2", () => {
    const empty = join(dir, "empty.txt");
    writeFileSync(empty, "");
    const run = bench("wasm", "--datasets", empty);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`bench: ${empty}: holds no puzzles\n`);
  });
});

describe("bench: a solver module or wasm-abi: file that cannot give an engine", () => {
  it("is a usage error said before the header: one line naming the file and what is wrong, status 2 (it failed at its row, status 1)", () => {
    const junk = join(dir, "junk.wasm");
    writeFileSync(junk, "not wasm");
    const notEngine = solverModule("not-engine.mjs", "export default { solve() {} };\n");
    for (const [solvers, says] of [
      [`wasm-abi:${junk}`, `bench: --solvers wasm-abi:${junk}: not a WebAssembly module (`],
      [`wasm,${notEngine}`, `bench: --solvers ${notEngine}: the default export is not a solver engine (`],
    ]) {
      const run = bench(solvers);
      expect([run.status, run.stdout], solvers).toEqual([2, ""]);
      expect(run.stderr, solvers).toMatch(/^[^\n]+\n$/);
      expect(run.stderr.startsWith(says), run.stderr).toBe(true);
    }
  });

  it("a module whose id is a built-in solver's is refused, saying so (it read 'given twice'), status 2", () => {
    const taken = solverModule("taken.mjs", `export { default } from ${JSON.stringify(EXAMPLE)};\nexport const id = "wasm";\n`);
    const run = bench(`wasm,${taken}`);
    expect([run.status, run.stdout]).toEqual([2, ""]);
    expect(run.stderr).toBe(
      `bench: --solvers ${taken}: its id 'wasm' is a built-in solver's; rename it (export const id = "my-wasm"), or export no id (its row is then named by its path)\n`,
    );
  });

  it("an async countSolutions fails its row saying that it must be synchronous (it read 'expected 1 solution, got 0')", () => {
    const later = solverModule(
      "later.mjs",
      `import honest from ${JSON.stringify(EXAMPLE)};\nexport const id = "later";\nexport default { async countSolutions(...args) { return honest.countSolutions(...args); } };\n`,
    );
    const run = bench(later);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "bench: easy · later: countSolutions returned a promise (is it async?): it must be synchronous and return the number of solutions found\n",
    );
  });
});

describe("bench: a solver that never returns", () => {
  const loopingJs = solverModule("loop.mjs", `export const id = "loop";\nexport default { countSolutions() { for (;;); } };\n`);
  let loopingWasm = "";
  let trappingWasm = "";
  beforeAll(async () => {
    // A wasm-abi module whose solve spins until the puzzle's first byte is 255 (never: it is '.' or a digit).
    const source = join(dir, "loop.ts");
    writeFileSync(
      source,
      `export function malloc(size: usize): usize { return heap.alloc(size); }
export function solve(puzzle: usize, limit: u32, flags: u32, solution: usize, guesses: usize): u32 {
  let spins: u32 = 0;
  while (load<u8>(puzzle) != 255) spins++;
  return spins;
}
`,
    );
    loopingWasm = join(dir, "loop.wasm");
    const { error, stderr } = await asc.main([source, "--target", "release", "-o", loopingWasm]);
    if (error) throw new Error(`asc failed: ${error.message}\n${stderr.toString()}`);
    const trapSource = join(dir, "trap.ts");
    writeFileSync(
      trapSource,
      `export function malloc(size: usize): usize { return heap.alloc(size); }
export function solve(puzzle: usize, limit: u32, flags: u32, solution: usize, guesses: usize): u32 {
  unreachable();
  return 0;
}
`,
    );
    trappingWasm = join(dir, "trap.wasm");
    const trap = await asc.main([trapSource, "--target", "release", "-o", trappingWasm]);
    if (trap.error) throw new Error(`asc failed: ${trap.error.message}\n${trap.stderr.toString()}`);
  }, 60_000);

  it("a wasm-abi module that traps: one line naming the row (and so the module) once", () => {
    const run = bench(`wasm-abi:${trappingWasm}`);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toBe(`bench: easy · wasm-abi:${trappingWasm}: solve trapped (unreachable)\n`);
  });

  it("a JS module: the call past --solver-timeout fails the row, naming it and the limit, status 1", () => {
    const run = bench(loopingJs, "--solver-timeout", "300");
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toBe("bench: easy · loop: a countSolutions call ran longer than the limit of 300 ms (--solver-timeout); the solver was stopped\n");
  });

  it("a wasm-abi module: the same", () => {
    const run = bench(`wasm-abi:${loopingWasm}`, "--solver-timeout", "300");
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toBe(
      `bench: easy · wasm-abi:${loopingWasm}: a countSolutions call ran longer than the limit of 300 ms (--solver-timeout); the solver was stopped\n`,
    );
  });

  /** A bench run whose second row's solver loops, once that row has begun: the child, its stdout so far, and its exit. */
  async function loopingRun(solver: string) {
    const args = [
      BENCH,
      "--solvers",
      `wasm,${solver}`,
      "--datasets",
      "easy",
      "--puzzles",
      "20",
      "--time",
      "100",
      "--threads",
      "0",
      "--solver-timeout",
      "600000",
    ];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    const run = {
      child,
      stdout: "",
      exited: new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on("exit", (code, signal) => resolve([code, signal]))),
    };
    child.stdout!.on("data", (data) => (run.stdout += data));
    while (!/\n {2}wasm \(1 call\/puzzle\) +[\d,]+ /.test(run.stdout)) {
      if (child.exitCode !== null) throw new Error(`the run ended early with status ${child.exitCode}:\n${run.stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The looping row has begun once its worker thread has spun 200 ms of CPU since the row before it ended.
    await workerThreadBusy(child, 20, 300, threadTicks(child.pid!));
    return run;
  }

  for (const which of ["JS", "wasm-abi"] as const) {
    it(`Ctrl-C stops a run whose ${which} solver loops (no time limit near), keeping the rows done, status 130`, async () => {
      const run = await loopingRun(which === "JS" ? loopingJs : `wasm-abi:${loopingWasm}`);
      run.child.kill("SIGINT");
      expect(await run.exited).toEqual([130, null]);
      expect(run.stdout).toContain("interrupted by SIGINT: 2 of 3 rows finished");
    }, 120_000);
  }

  it("a second signal ends the process at once, by the first signal, while a solver loops", async () => {
    const run = await loopingRun(loopingJs);
    run.child.kill("SIGINT");
    run.child.kill("SIGTERM"); // another kind: two of one kind sent together may arrive as one
    // The first alone ends the run by its own path, with the status 130 and the summary; the second kills it by the first signal (either may arrive first).
    const [code, signal] = await run.exited;
    expect(code).toBeNull();
    expect(signal).toBeOneOf(["SIGINT", "SIGTERM"]);
    expect(run.stdout).not.toMatch(/interrupted by SIG/);
  }, 120_000);
});

describe("bench --fresh-rounds: each timing round in a worker thread of its own", () => {
  // A module that notes the thread it is loaded in, once per load: each load is a fresh instance of its code.
  const noting = (log: string) =>
    solverModule(
      "noting.mjs",
      `import honest from ${JSON.stringify(EXAMPLE)};
import { appendFileSync } from "node:fs";
import { threadId } from "node:worker_threads";
appendFileSync(${JSON.stringify(log)}, threadId + "\\n");
export const id = "noting";
export default honest;
`,
    );

  it("a solver module is loaded anew for each round, its answers checked in each; the file says so", () => {
    const log = join(dir, "threads.log");
    const json = join(dir, "fresh.json");
    const run = bench(`${noting(log)},bitmask`, "--rounds", "3", "--fresh-rounds", "--json", json, "--no-chart");
    expect(run.status, run.stdout + run.stderr).toBe(0);
    // The bench's own thread (0) reads the module's id; the first worker gives the checked answers and times the first round, two more the others.
    const [main, ...workers] = readFileSync(log, "utf8").trim().split("\n");
    expect(main).toBe("0");
    expect(workers).toHaveLength(3);
    expect(new Set(workers).size).toBe(3);
    expect(workers).not.toContain("0");
    const written = JSON.parse(readFileSync(json, "utf8"));
    expect(written.settings.freshRounds).toBe(true);
    for (const record of written.records) expect(record.roundCpuMicros).toHaveLength(3);
    expect(written.records.map((r: { row: string }) => r.row)).toEqual(["noting", "bitmask"]);
  }, 240_000); // three rounds of two rows, each round in a fresh worker: 52 s on two loaded cores

  it("is refused with --ref, which times both commits in one process", () => {
    const run = bench("bitmask", "--fresh-rounds", "--ref", "HEAD");
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--fresh-rounds is for runs judged later with --compare");
  });
});
