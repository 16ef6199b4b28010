/**
 * `npm run bench` as a user meets it (dist/bench/bench.js, built by `npm test`): rows appear as
 * they finish, Ctrl-C (SIGINT) or SIGTERM in the middle of a run keeps the finished rows, prints
 * them with the summary, writes the exports marked incomplete and exits 130/143 with the cursor
 * shown; --compare across another limit refuses before measuring.
 *
 * The signal is sent as soon as the first row's line is out, while the next row is being timed
 * (each row takes at least --time), so no timing guess decides the outcome.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { signalExitStatus } from "../src/cli-kit/progress.js";
import { fixtureAnswers } from "./fixture.js";

const BENCH = new URL("../dist/bench/bench.js", import.meta.url).pathname;
const PROFILE = new URL("../dist/bench/profile.js", import.meta.url).pathname;
const KERNEL_VS = new URL("../dist/bench/kernel-vs.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "sudoku-bench-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run of three rows (wasm, wasm once per puzzle, bitmask), each timed for 1 s. */
const ARGS = ["--solvers", "wasm,bitmask", "--datasets", "easy", "--threads", "0", "--time", "1000", "--puzzles", "30"];

/** Resolves with the output once `text()` matches `pattern`. */
async function waitFor(text: () => string, pattern: RegExp, child: ChildProcess): Promise<void> {
  while (!pattern.test(text())) {
    if (child.exitCode !== null) throw new Error(`the run ended early with status ${child.exitCode}:\n${text()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

/** The first row's line in the compact view. */
const FIRST_ROW = /\n {2}wasm +[\d,]+ /;

describe("bench: interrupts", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal} mid-run prints the finished rows, writes them marked incomplete and exits ${signalExitStatus(signal)}`, async () => {
      const json = join(dir, `${signal}.json`);
      const csv = join(dir, `${signal}.csv`);
      const child = spawn(process.execPath, [BENCH, ...ARGS, "--json", json, "--csv", csv], { stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      child.stdout!.on("data", (data) => (stdout += data));
      await waitFor(() => stdout, FIRST_ROW, child);
      child.kill(signal);
      expect(await exited(child)).toBe(signalExitStatus(signal));
      expect(stdout).toMatch(new RegExp(`interrupted by ${signal}: [12] of 3 rows finished`));
      expect(stdout).toMatch(/Summary: .*\n(?: {2}\S.*\n)? {2}easy: wasm/); // the heading may wrap
      expect(stdout).toContain(`wrote ${json}`);
      const written = JSON.parse(readFileSync(json, "utf8"));
      expect(written.incomplete).toEqual({ signal, rowsPlanned: 3 });
      expect(written.records.length).toBeGreaterThanOrEqual(1);
      expect(written.records.length).toBeLessThan(3);
      expect(written.records[0]).toMatchObject({ row: "wasm", dataset: "easy" });
      expect(written.records[0].batchMs.length).toBe(written.records[0].samples);
      expect(readFileSync(json.replace(/\.json$/, ".svg"), "utf8")).toContain("incomplete");
      // the CSV marks each line as the JSON marks the run (it carried no mark), with the CPU and commit
      const [header, ...lines] = readFileSync(csv, "utf8").trimEnd().split("\n");
      expect(header).toMatch(/,cpu,commit,incomplete$/);
      expect(lines).toHaveLength(written.records.length);
      for (const line of lines) expect(line.endsWith(`,${written.environment.commit},${signal}: ${written.records.length} of 3 rows`), line).toBe(true);
    });
  }

  it("stopped with WASM kernels alone unmeasured, says no pure-TS baseline was selected, not that the run stopped before it", async () => {
    const args = ["--solvers", "wasm,wasm:naked-pairs", "--datasets", "easy", "--threads", "0", "--time", "1000", "--puzzles", "30"];
    const child = spawn(process.execPath, [BENCH, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout!.on("data", (data) => (stdout += data));
    await waitFor(() => stdout, FIRST_ROW, child);
    child.kill("SIGINT");
    expect(await exited(child)).toBe(130);
    expect(stdout).toMatch(/interrupted by SIGINT: [12] of 3 rows finished/);
    expect(stdout).toContain("\n  No reference: no pure-TS baseline was selected; --reference ID names one.\n");
  });

  // npm passes a SIGTERM to the shell that runs the script, and the shell ends without passing it on: the bench, run by
  // scripts/run-built.mjs as npm runs it, must not run on orphaned. Here the shell is killed outright once the first row is out.
  it("orphaned by the shell npm runs it in (npm passes SIGTERM to the shell alone), stops as on SIGTERM", async () => {
    const json = join(dir, "orphan.json");
    const runBuilt = new URL("../scripts/run-built.mjs", import.meta.url).pathname;
    const command = `"${process.execPath}" "${runBuilt}" dist/bench/bench.js ${ARGS.join(" ")} --json "${json}"; :`; // (`; :`: no exec)
    const shell = spawn("sh", ["-c", command], { cwd: new URL("..", import.meta.url).pathname, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    shell.stdout!.on("data", (data) => (stdout += data));
    const closed = new Promise((resolve) => shell.stdout!.on("close", resolve)); // once the bench, which holds the pipe too, has ended
    await waitFor(() => stdout, FIRST_ROW, shell);
    shell.kill("SIGKILL");
    await closed;
    expect(stdout).toMatch(/interrupted by SIGTERM: [12] of 3 rows finished/);
    expect(JSON.parse(readFileSync(json, "utf8")).incomplete).toEqual({ signal: "SIGTERM", rowsPlanned: 3 });
  });

  const script = spawnSync("script", ["--version"]).status === 0;
  it.skipIf(!script)("in a terminal: the progress line hides the cursor and Ctrl-C shows it again (script gives the pseudo-terminal)", async () => {
    const command = `echo PID $$; exec "${process.execPath}" "${BENCH}" ${ARGS.join(" ")}`;
    const child = spawn("script", ["-qfec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, COLUMNS: "100" } });
    let terminal = "";
    child.stdout!.on("data", (data) => (terminal += data));
    await waitFor(() => terminal, FIRST_ROW, child);
    process.kill(Number(/PID (\d+)/.exec(terminal)![1]), "SIGINT");
    expect(await exited(child)).toBe(130);
    const hidden = terminal.indexOf("\x1B[?25l");
    expect(hidden).toBeGreaterThan(0);
    expect(terminal.indexOf("\x1B[?25h", hidden)).toBeGreaterThan(hidden);
    expect(terminal).toMatch(/bench .* rows \| .* elapsed \| ETA /);
    expect(terminal).toContain("interrupted by SIGINT");
  });

  // Ctrl-C as a person gives it: the key written into the terminal, which sends SIGINT to the bench. It is sent
  // once the second dataset's first row is out: by then every engine is loaded, and a run that never hands the
  // event loop a turn while it measures would not see the signal until it had run every row.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    const how = signal === "SIGINT" ? "Ctrl-C (the key, through the terminal)" : "SIGTERM";
    it.skipIf(!script)(
      `in a terminal: ${how} in the second dataset stops after the row, writes the finished rows, shows the cursor, exits ${signalExitStatus(signal)}`,
      async () => {
        const json = join(dir, `terminal-${signal}.json`);
        const args = ["--solvers", "wasm,bitmask", "--datasets", "easy,medium", "--threads", "0", "--time", "500", "--puzzles", "30", "--json", json];
        const command = `stty cols 100 rows 40; echo PID $$; exec "${process.execPath}" "${BENCH}" ${args.join(" ")}`;
        const child = spawn("script", ["-qfec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] });
        let terminal = "";
        child.stdout!.on("data", (data) => (terminal += data));
        await waitFor(() => terminal, /\nmedium: [\s\S]*\n {2}wasm +[\d,]+ /, child);
        if (signal === "SIGINT") child.stdin!.write("\x03");
        else process.kill(Number(/PID (\d+)/.exec(terminal)![1]), signal);
        expect(await exited(child)).toBe(signalExitStatus(signal));
        expect(terminal).toMatch(new RegExp(`interrupted by ${signal}: [45] of 6 rows finished`));
        expect(terminal.lastIndexOf("\x1B[?25h")).toBeGreaterThan(terminal.lastIndexOf("\x1B[?25l"));
        const written = JSON.parse(readFileSync(json, "utf8"));
        expect(written.incomplete).toEqual({ signal, rowsPlanned: 6 });
        expect(written.records.map((r: { dataset: string; row: string }) => `${r.dataset} ${r.row}`).slice(0, 4)).toEqual([
          "easy wasm",
          "easy wasm (1 call/puzzle)",
          "easy bitmask",
          "medium wasm",
        ]);
        expect(written.records.length).toBeLessThan(6);
      },
      30_000,
    );
  }

  it.skipIf(!script)(
    "profile in a terminal: Ctrl-C stops it after the variant, prints what finished, shows the cursor, exits 130",
    async () => {
      const profile = new URL("../dist/bench/profile.js", import.meta.url).pathname;
      const args = ["--datasets", "easy,medium", "--sample", "300", "--out", dir];
      const command = `stty cols 100 rows 40; exec "${process.execPath}" "${profile}" ${args.join(" ")}`;
      const child = spawn("script", ["-qfec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] });
      let terminal = "";
      child.stdout!.on("data", (data) => (terminal += data));
      await waitFor(() => terminal, / [1-9]\d*\/\d+ rows /, child); // a variant has finished
      child.stdin!.write("\x03");
      expect(await exited(child)).toBe(130);
      expect(terminal).toMatch(/interrupted by SIGINT: [1-9]\d* of \d+ variant rows finished/);
      expect(terminal.lastIndexOf("\x1B[?25h")).toBeGreaterThan(terminal.lastIndexOf("\x1B[?25l"));
    },
    60_000,
  );
});

describe("bench: exports", () => {
  it("--json /dev/stdout is standard output: the JSON alone there, the report on stderr, no chart", () => {
    const run = spawnSync(
      process.execPath,
      [BENCH, "--quick", "--solvers", "wasm", "--datasets", "easy", "--threads", "0", "--time", "20", "--json", "/dev/stdout"],
      { encoding: "utf8" },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).records.map((r: { row: string }) => r.row)).toEqual(["wasm", "wasm (1 call/puzzle)"]);
    expect(run.stderr).toMatch(/\n {2}wasm +[\d,]+ /);
    expect(run.stderr).not.toContain("wrote");
  });
});

describe("bench: usage", () => {
  it("refuses a --solvers that names none as a usage error, before measuring (it failed after the header, with status 1)", () => {
    for (const empty of [",,", ""]) {
      const run = spawnSync(process.execPath, [BENCH, "--solvers", empty, "--datasets", "easy"], { encoding: "utf8" });
      expect([run.status, run.stderr, run.stdout]).toEqual([2, "bench: --solvers names none: give registry ids, solver modules or wasm-abi: files\n", ""]);
    }
  });

  it("refuses --chart FILE with --no-chart, either way round, before measuring (the later one was taken, the other dropped unsaid)", () => {
    const svg = join(dir, "both.svg");
    for (const flags of [
      ["--chart", svg, "--no-chart"],
      ["--no-chart", "--chart", svg],
      [`--chart=${svg}`, "--no-chart"],
    ]) {
      const run = spawnSync(process.execPath, [BENCH, ...flags, "--json", join(dir, "both.json"), "--datasets", "easy", "--solvers", "wasm"], {
        encoding: "utf8",
      });
      expect([run.status, run.stderr, run.stdout], flags.join(" ")).toEqual([
        2,
        "bench: --chart FILE and --no-chart ask for a chart and for none: give one of them\n",
        "",
      ]);
    }
  });

  it("refuses the options of a comparison without --compare or --ref, before measuring (--threshold and --compare-anyway were ignored, the bench ran)", () => {
    for (const [flags, flag] of [
      [["--fail-on-regression"], "--fail-on-regression"],
      [["--threshold", "3"], "--threshold"],
      [["--compare-anyway"], "--compare-anyway"],
    ] as const) {
      const run = spawnSync(process.execPath, [BENCH, ...flags, "--datasets", "easy", "--solvers", "wasm"], { encoding: "utf8" });
      expect([run.status, run.stderr, run.stdout]).toEqual([2, `bench: ${flag} needs --compare OLD.json or --ref COMMIT: what to judge against\n`, ""]);
    }
    const hundred = spawnSync(process.execPath, [BENCH, "--threshold", "100"], { encoding: "utf8" });
    expect([hundred.status, hundred.stderr]).toEqual([
      2,
      "bench: option '--threshold <pct>' argument '100' is invalid. expected a percentage from 0 to below 100, got '100'\n",
    ]);
  });

  it("refuses an empty --ref, --compare or --against (an unset variable) as a usage error, before measuring (each ran a whole bench, exit 0)", () => {
    for (const [option, what] of [
      ["--ref", "a commit"],
      ["--compare", "an earlier --json file"],
      ["--against", "a --json file"],
    ]) {
      const run = spawnSync(process.execPath, [BENCH, option, "", "--solvers", "wasm", "--datasets", "easy", "--threads", "0", "--time", "10"], {
        encoding: "utf8",
      });
      expect([run.status, run.stderr, run.stdout], option).toEqual([
        2,
        `bench: ${option} is empty (an unset variable?): give ${what}, or leave ${option} out\n`,
        "",
      ]);
    }
  });

  it("refuses a dataset whose grid size no selected solver takes as a usage error, before the header (it failed with status 1)", () => {
    const sixteen = join(dir, "sixteen.txt");
    writeFileSync(sixteen, `${".".repeat(256)}\n`);
    const run = spawnSync(process.execPath, [BENCH, "--quick", "--solvers", "dlx", "--datasets", sixteen], { encoding: "utf8" });
    expect([run.status, run.stderr, run.stdout]).toEqual([2, "bench: sixteen holds 16×16 puzzles, which no selected solver takes (dlx takes 9×9)\n", ""]);
  });
});

describe("bench: --compare", () => {
  it("refuses, before measuring, to compare with a run of another limit, naming the difference", () => {
    const json = join(dir, "limit1.json");
    const first = spawnSync(process.execPath, [BENCH, "--quick", "--solvers", "wasm", "--datasets", "easy", "--threads", "0", "--limit", "1", "--json", json], {
      encoding: "utf8",
    });
    expect(first.status, first.stderr).toBe(0);
    const second = spawnSync(process.execPath, [BENCH, "--quick", "--solvers", "wasm", "--datasets", "easy", "--threads", "0", "--compare", json], {
      encoding: "utf8",
    });
    expect(second.status).toBe(2); // refused before measuring: a usage error, as in the CLI
    expect(second.stderr).toMatch(
      /--compare .*limit1\.json: the runs measure different experiments \(limit: 1 → 2\); run with the same settings, or add --compare-anyway/,
    );
    expect(second.stdout).not.toMatch(/ {2}wasm +[\d,]+ /); // nothing was measured
    // an export on the file --compare reads would replace the saved run with this one
    const over = spawnSync(
      process.execPath,
      [BENCH, "--quick", "--solvers", "wasm", "--datasets", "easy", "--threads", "0", "--limit", "1", "--compare", json, "--json", json],
      {
        encoding: "utf8",
      },
    );
    expect([over.status, over.stderr]).toEqual([2, `bench: --json ${json} would write over the run that --compare reads: give the export another file\n`]);
    // through a link, or as the chart, too
    const link = join(dir, "limit1-link.json");
    symlinkSync(json, link);
    for (const [flag, path] of [
      ["--csv", link],
      ["--chart", json],
    ]) {
      const run = spawnSync(
        process.execPath,
        [BENCH, "--quick", "--solvers", "wasm", "--datasets", "easy", "--threads", "0", "--limit", "1", "--compare", json, flag, path],
        {
          encoding: "utf8",
        },
      );
      expect([run.status, run.stderr]).toEqual([2, `bench: ${flag} ${path} would write over the run that --compare reads: give the export another file\n`]);
    }
    const anyway = spawnSync(
      process.execPath,
      [BENCH, "--quick", "--solvers", "wasm", "--datasets", "easy", "--threads", "0", "--compare", json, "--compare-anyway"],
      { encoding: "utf8" },
    );
    expect(anyway.status, anyway.stderr).toBe(0);
    expect(anyway.stdout).toContain("WARNING, different experiment: limit 1 → 2");
    expect(anyway.stdout).toMatch(/wasm +[\d,]+ +[\d,]+ +(no change|not judged|[\d.]+.*(faster|slower))/);
  });
});

describe("bench: datasets", () => {
  const { solved, multiple } = fixtureAnswers();
  const quick = ["--quick", "--solvers", "wasm", "--threads", "0", "--time", "20"];
  const folder = (name: string, files: Record<string, string>): string[] => {
    mkdirSync(join(dir, name), { recursive: true });
    return Object.entries(files).map(([file, text]) => {
      writeFileSync(join(dir, name, file), text);
      return join(dir, name, file);
    });
  };

  it("refuses two datasets of one name before measuring: results are told apart by name", () => {
    const [one] = folder("one", { "puzzles.txt": `${solved}\n` });
    const [two] = folder("two", { "puzzles.txt": `${multiple}\n` });
    for (const [datasets, says] of [
      [`${one},${two}`, `two datasets are named 'puzzles' (${one} and ${two}): results are told apart by file name, so rename one`],
      [`${one},${one}`, `dataset 'puzzles' (${one}) is given twice: give each once`],
    ]) {
      const run = spawnSync(process.execPath, [BENCH, ...quick, "--datasets", datasets], { encoding: "utf8" });
      expect([run.status, run.stderr]).toEqual([2, `bench: ${says}\n`]);
    }
  });

  it("expects a bundled or public set's solution counts of that set's own file only, not of a file of its name", () => {
    // puzzles of two solutions in a file named like the bundled tier of unique ones: counts unknown, checked for agreement
    const [hard] = folder("named-alike", { "hard.txt": `${multiple}\n${multiple}\n` });
    const run = spawnSync(process.execPath, [BENCH, ...quick, "--solvers", "wasm,bitmask", "--datasets", hard], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\n {2}wasm +[\d,]+ /);
  });

  it("a public set's cached file that no longer matches the catalog, given by its path, is checked as any file (its counts not expected)", () => {
    // norvig_hardest's cached file cut to two puzzles of two solutions: by name the bench refuses it (test/datasets-names.test.ts)
    const [cached] = folder("cache", { "norvig_hardest.txt": `${multiple}\n${multiple}\n` });
    const env = { ...process.env, SUDOKU_WASM_DATASETS: dirname(cached), SUDOKU_WASM_DATASETS_CATALOG: "" };
    const run = spawnSync(process.execPath, [BENCH, ...quick, "--solvers", "wasm,bitmask", "--datasets", cached], { encoding: "utf8", env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\n {2}wasm +[\d,]+ /);
  });

  for (const [what, line, says] of [
    ["of another size", "12345", "5 characters, where the file's first puzzle has 81 (every puzzle of a dataset is of one size, one a line)"],
    ["of a bad character", `${solved.slice(0, 4)}Y${solved.slice(5)}`, "cell 5 (row 1, column 5) contains invalid character 'Y'"],
  ] as const) {
    it(`refuses a file with a line ${what} before measuring, naming its line, whichever lines are drawn`, () => {
      const lines = Array.from({ length: 40 }, () => solved);
      lines.splice(25, 0, line);
      const [bad] = folder(`bad-${what.length}`, { "marked.txt": `# a comment\n${lines.join("\n")}\n` });
      for (const [tool, args] of [
        ["bench", [BENCH, ...quick, "--puzzles", "5", "--datasets", bad]],
        ["profile", [PROFILE, "--variants", "wasm", "--datasets", bad]],
      ] as const) {
        const run = spawnSync(process.execPath, args, { encoding: "utf8" });
        expect([run.status, run.stderr], tool).toEqual([2, `${tool}: ${bad} line 27: ${says}\n`]);
      }
    });
  }
});

describe("bench tools name the CPU beside the tables they print alone", () => {
  it("profile --markdown: a line naming the CPU, commit and dataset, then the table, on standard output, the machine on standard error; profile and kernel-vs refuse what they cannot measure", () => {
    const profile = spawnSync(process.execPath, [PROFILE, "--variants", "wasm", "--datasets", "easy", "--sample", "5", "--markdown"], { encoding: "utf8" });
    expect(profile.status, profile.stderr).toBe(0);
    // `profile --markdown > f` kept no CPU nor dataset in f
    const model = cpus()[0].model.trim();
    const [about, blank, ...table] = profile.stdout.split("\n");
    expect(about.startsWith(`CPU: ${model}`), about).toBe(true);
    expect(about).toMatch(
      /\(\d+ cores?\), Node v[\d.]+, commit [0-9a-f]{12}(-dirty)?, \d{4}-\d\d-\d\d; dataset easy: a seeded sample of 5 puzzles \(seed 1\), limit 2, budget /,
    );
    expect(blank).toBe("");
    expect(table[0]).toMatch(/^\| variant \|/);
    expect(profile.stderr).toMatch(/^CPU: .+ \(\d+ cores?\)\n/);
    expect(profile.stderr).toContain("\ndatasets: easy\n");
    // --json -: the JSON alone on standard output; --out that is a file is refused before measuring
    const json = spawnSync(process.execPath, [PROFILE, "--variants", "wasm", "--datasets", "easy", "--sample", "5", "--json", "-"], { encoding: "utf8" });
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).records.map((r: { variant: string }) => r.variant)).toEqual(["wasm"]);
    expect(json.stderr).toMatch(/^CPU: /);
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const out = spawnSync(process.execPath, [PROFILE, "--variants", "wasm", "--datasets", "easy", "--out", file, "--json"], { encoding: "utf8" });
    expect([out.status, out.stderr]).toEqual([2, `profile: --out ${file} is a file, not a folder: name a folder (made when missing)\n`]);
    const kernelVs = spawnSync(process.execPath, [KERNEL_VS, "--datasets", ","], { encoding: "utf8" });
    expect(kernelVs.status).toBe(2);
    expect([kernelVs.status, kernelVs.stderr]).toEqual([2, "kernel-vs: no datasets: --datasets names none\n"]); // (the machine heads a measurement)
    for (const [option, says] of [
      ["--ref=no-such-commit", "--ref no-such-commit: no such commit"],
      ["--build=bogus", "--build bogus: no such build of the 9×9 kernel; one of release, debug, variants/unweighted, "],
      ["--build=variants/nosuch", "--build variants/nosuch: no such build of the 9×9 kernel; one of release, debug, variants/unweighted, "], // (it gave the library's advice to copy the file)
      ["--limit=99999999999", "option '--limit <n>' argument '99999999999' is invalid. expected a whole number from 1 to 2147483647"], // (it printed the header, then failed with status 1)
      ["--rounds=5000000", "option '--rounds <n>' argument '5000000' is invalid. expected a whole number from 1 to 100"], // (it ran for days)
      ["--puzzles=99999999999", "option '--puzzles <n>' argument '99999999999' is invalid. expected a whole number from 0 to 10000000"],
    ]) {
      const refused = spawnSync(process.execPath, [KERNEL_VS, option, "--datasets", "easy"], { encoding: "utf8" });
      expect([refused.status, refused.stderr], option).toEqual([2, expect.stringContaining(says)]);
      expect(refused.stdout, option).toBe("");
    }
  });
});

describe("canon-bench and the pool benches", () => {
  const tool = (name: string) => new URL(`../dist/bench/${name}.js`, import.meta.url).pathname;

  it("canon-bench times each set for --seconds, says what it left out, and measures nothing of a set without 9×9 lines", () => {
    const { solved } = fixtureAnswers();
    mkdirSync(join(dir, "canon"), { recursive: true });
    const mixed = join(dir, "canon", "mixed.txt");
    writeFileSync(mixed, `${solved}\n${"1".repeat(256)}\n${solved}\n`);
    const empty = join(dir, "canon", "none.txt");
    writeFileSync(empty, "# no puzzle\n");
    const run = spawnSync(process.execPath, [tool("canon"), "--seconds", "0.1", mixed, empty], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\nmixed +2 +[\d.]+ +[\d,]+ +[\d,]+ {2}\(1 line not of 81 characters left out\)\n/);
    expect(run.stdout).toMatch(/\nnone +no 9×9 puzzles to measure\n/);
    expect(run.stdout).toMatch(/^canon-bench: .+ cores?, Node v[\d.]+, commit [0-9a-f]{12}(-dirty)?, load average /);
  });

  it("kernel-vs heads its output with the commit measured and the limit it counts to, and gives the limit a column of its table", () => {
    const run = spawnSync(process.execPath, [KERNEL_VS, "--ref", "HEAD", "--datasets", "easy", "--puzzles", "20", "--rounds", "1", "--limit", "1"], {
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    const [machine, settings, , header, , row] = run.stdout.split("\n");
    expect(machine).toMatch(/^kernel-vs: .+, commit [0-9a-f]{12}(-dirty)?, load average /);
    expect(settings).toBe("--ref HEAD, build release, limit 1 (solutions counted up to it), 1 round");
    expect(header).toMatch(/^\| dataset \| puzzles \| limit \| HEAD \(/);
    expect(row).toMatch(/^\| easy \| 20 \| 1 \| /);
  });

  it("refuse a measuring time that would be one cold call (status 2)", () => {
    for (const [name, value] of [
      ["canon", "0"],
      ["library", "abc"],
      ["library", "-1"],
    ]) {
      const run = spawnSync(process.execPath, [tool(name), "--seconds", value], { encoding: "utf8" });
      expect([run.status, run.stderr], `${name} ${value}`).toEqual([2, expect.stringContaining(`expected seconds from 0.01 to 3600`)]);
    }
  });
});

describe("bench tools: bounds", () => {
  it("refuse a --time, --puzzles or count of pairs past their bound before measuring (status 2; --time 99999999 ran for days)", () => {
    for (const [name, option, says] of [
      ["bench", "--time=99999999", "option '--time <ms>' argument '99999999' is invalid. expected a whole number from 1 to 3600000"],
      ["bench", "--puzzles=20000000", "expected a whole number from 1 to 10000000"],
      ["bench", "--solver-timeout=99999999", "expected a whole number from 1 to 3600000"],
      ["verdict-rates", "--planted-pairs=1000", "expected a whole number from 0 to 100"],
      ["verdict-rates", "--time=99999999", "expected a whole number from 1 to 3600000"],
    ]) {
      const run = spawnSync(process.execPath, [new URL(`../dist/bench/${name}.js`, import.meta.url).pathname, option], { encoding: "utf8" });
      expect([run.status, run.stderr, run.stdout], `${name} ${option}`).toEqual([2, expect.stringContaining(says), ""]);
    }
  });
});

describe("bench: presets", () => {
  const rowsOf = (args: string[]) => {
    const run = spawnSync(process.execPath, [BENCH, "--datasets", "easy", "--time", "10", "--puzzles", "10", "--json", "-", ...args], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(run.stdout).records.map((r: { row: string }) => r.row);
  };

  it("the default run is the main question: the kernel, its TS twin, the pure-TS baselines and the npm peers", () => {
    expect(rowsOf([])).toEqual(["wasm", "bitmask", "scan", "tables", "queue", "mrv", "dlx", "npm:dancing-links", "npm:algorithm.ts"]);
  }, 60_000);

  it("--preset variants is the kernel's variants with the kernel, its twin and its once-per-puzzle row; --threads adds the threads row", () => {
    const rows = rowsOf(["--preset", "variants", "--threads", "1"]);
    expect(rows.slice(0, 3)).toEqual(["wasm", "wasm (1 call/puzzle)", "wasm (1 thread)"]);
    expect(rows.filter((row: string) => row.startsWith("wasm:")).length).toBeGreaterThan(5);
    expect(rows.at(-1)).toBe("bitmask");
  }, 120_000);
});

describe("bench tools with scratch files", () => {
  it("bulk-bench, stopped by SIGINT or SIGTERM, removes its scratch folder (its easy file is hundreds of MB at the defaults) and exits 130 or 143", async () => {
    const BULK = new URL("../dist/bench/bulk.js", import.meta.url).pathname;
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const temporary = mkdtempSync(join(dir, "tmp-"));
      const child = spawn(process.execPath, [BULK, "--records", "300000", "--hard", "0", "--no-memory", "--rounds", "2", "--no-pin"], {
        env: { ...process.env, TMPDIR: temporary },
        stdio: "ignore",
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const scratch = () => readdirSync(temporary).filter((name) => name.startsWith("sudoku-bulk-bench-"));
      while (scratch().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 200)); // writing its files, or measuring
      child.kill(signal);
      expect(await exited).toBe(signalExitStatus(signal));
      expect(scratch()).toEqual([]);
    }
  });
});
