/**
 * `sudoku-wasm solve` end to end: spawns bin/sudoku-wasm.mjs, which runs dist/ (built by
 * `npm run build`, which `pretest` runs) with the WASM kernel in build/.
 */
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchCommand, parseOptions } from "../bench/options.js";
import { commaList, solverIdList, wholeNumber } from "../src/cli-kit/options.js";
import { HELP_COLUMNS, solverHelpLines } from "../src/cli-kit/solver-help.js";
import { VARIANT_NOT_HERE, solvers } from "../src/solvers/registry.js";
import { runCli, scratchFolder } from "./cli-run.js";
import { loadFixture } from "./fixture.js";

const { dir, file } = scratchFolder("sudoku-cli-");
const cli = (args: string[], input?: string) => runCli(args, { input });
/** `solve --help`, run once for the tests that read it. */
let solveHelpRun: ReturnType<typeof cli> | undefined;
const solveHelp = () => (solveHelpRun ??= cli(["solve", "--help"]));

const fixture = loadFixture();
const unique = fixture.filter((c) => c.count === 1 && c.puzzle.includes("."));
const multiple = fixture.find((c) => c.count === 2)!;
const unsolvable = fixture.find((c) => c.count === 0)!;
const rows = (grid: string) => Array.from({ length: 9 }, (_, r) => grid.slice(r * 9, r * 9 + 9));

/** One of each status, in several formats, with comments and blank lines between. */
const MIXED = [
  "# a mixed corpus",
  unique[0].puzzle, // line 2: solved
  unique[1].puzzle.replace(".", "z"), // line 3: invalid character
  "",
  `${unsolvable.puzzle}:0`, // line 5: unsolvable
  ...rows(unique[2].puzzle.replaceAll(".", "0")), // lines 6-14: a grid, solved
  multiple.puzzle, // line 15: multiple
  "55" + unique[0].puzzle.slice(2), // line 16: a repeated clue
  "",
].join("\n");

describe("solve", () => {
  const mixed = file("mixed.txt", MIXED);

  it("writes one jsonl record per input record, in order, with every field", () => {
    const { status, stdout, stderr } = cli(["solve", "--out", "jsonl", "--no-progress", mixed]);
    expect(status).toBe(1); // some records are invalid or timed out
    const records = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((r) => [r.index, r.line, r.status, r.count])).toEqual([
      [0, 2, "solved", 1],
      [1, 3, "invalid", 0],
      [2, 5, "unsolvable", 0],
      [3, 6, "solved", 1],
      [4, 15, "multiple", 2],
      [5, 16, "invalid", 0],
    ]);
    expect(records[0]).toMatchObject({ file: mixed, puzzle: unique[0].puzzle, solution: unique[0].solution, error: null });
    expect(typeof records[0].guesses).toBe("number");
    expect(records[1]).toMatchObject({ solution: null, guesses: null });
    expect(records[1].error).toMatch(new RegExp(`^${mixed}:3: cell \\d+ \\(row \\d, column \\d\\) contains invalid character 'z'$`));
    expect(records[3].solution).toBe(unique[2].solution);
    expect(records[5].error).toBe(`${mixed}:16: cell 2 (row 1, column 2): digit 5 is repeated in row 1 (also at cell 1 (row 1, column 1))`);
    expect(stderr).toContain("6 puzzles: 2 solved, 1 unsolvable, 1 multiple, 2 invalid");
  });

  it("the closing line says where the puzzles were solved: the main thread, the workers that started, or the main thread where workers would not have paid", () => {
    const closing = (args: string[], input?: string) =>
      runCli(["solve", "--no-progress", ...args], { input })
        .stderr.trimEnd()
        .split("\n")
        .at(-1);
    expect(closing(["--threads", "0", mixed])).toMatch(/puzzles\/s, main thread\)$/);
    expect(closing(["--threads", "2", mixed])).toMatch(/puzzles\/s, main thread: workers would not have paid for their start\)$/);
    // Standard input's size is unknown: the workers start after the main thread's first 50 ms of solving (here well over).
    const hard = readFileSync(new URL("../datasets/hard.txt", import.meta.url), "utf8").repeat(20);
    expect(closing(["--threads", "2"], hard)).toMatch(/puzzles\/s, 2 threads\)$/);
  });

  it("line output: the solution or the status word, one line per record", () => {
    const { stdout } = cli(["solve", "--no-progress", mixed]);
    expect(stdout).toBe([unique[0].solution, "invalid", "unsolvable", unique[2].solution, "multiple", "invalid", ""].join("\n"));
  });

  it("csv output: a header and one row per record", () => {
    const lines = cli(["solve", "--out", "csv", mixed]).stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("index,file,line,puzzle,status,solution,count,guesses,error");
    expect(lines).toHaveLength(7);
    expect(lines[5].split(",").slice(0, 7)).toEqual(["4", mixed, "15", multiple.puzzle, "multiple", expect.stringMatching(/^\d{81}$/), "2"]);
  });

  it("gives the same bytes with 2 threads, 1 thread and the main thread, over thousands of records and many batches", () => {
    const lines = MIXED.split("\n");
    const big = file("big.txt", Array.from({ length: 200 }, () => lines.join("\n")).join("\n")); // 1,200 records
    const run = (threads: string) => cli(["solve", "--out", "jsonl", "--batch", "97", "--threads", threads, big, mixed, big]);
    const two = run("2");
    expect(two.status).toBe(1); // some records are invalid or timed out
    expect(two.stdout.split("\n")).toHaveLength(2 * 1200 + 6 + 1);
    expect(run("1").stdout).toBe(two.stdout);
    expect(run("0").stdout).toBe(two.stdout);
    const last = JSON.parse(two.stdout.trimEnd().split("\n").at(-1)!);
    expect(last).toMatchObject({ index: 2405, file: big, line: 200 * lines.length - 1, status: "invalid" });
  });

  it("reads standard input when no file or - is given, and writes -o FILE", () => {
    const input = `${unique[0].puzzle}\n${unique[1].puzzle}\n`;
    const expected = `${unique[0].solution}\n${unique[1].solution}\n`;
    expect(cli(["solve"], input).stdout).toBe(expected);
    const out = join(dir, "out.txt");
    const result = cli(["solve", "-", "-o", out], input);
    expect(result.stdout).toBe("");
    expect(readFileSync(out, "utf8")).toBe(expected);
    expect(cli(["solve", "-", "--out", "jsonl"], input).stdout).toContain('"file":"<stdin>"');
  });

  it("--count counts exactly past the default limit", () => {
    const eight = "8596124377.38541.91.43795.8.86147.52.75268.14241593786432981675.1742.893.9873.241";
    expect(JSON.parse(cli(["solve", "--out", "jsonl"], eight).stdout).count).toBe(2);
    expect(JSON.parse(cli(["solve", "--count", "--out", "jsonl"], eight).stdout).count).toBe(8);
  });

  it("judge formats read standard input and write the exact output", () => {
    const input = `${unique[0].puzzle}\n${unique[1].puzzle}\nend\n`;
    expect(cli(["solve", "--format", "poj3074"], input).stdout).toBe(`${unique[0].solution}\n${unique[1].solution}\n`);
  });

  it("fails with a clear message and status 2 on a missing file or a bad option", () => {
    const missing = cli(["solve", join(dir, "nope.txt")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("nope.txt': no such file");
    const badThreads = cli(["solve", "--threads", "many"]);
    expect(badThreads.status).toBe(2);
    expect(badThreads.stderr).toMatch(/^sudoku-wasm: option '-t, --threads <n>' argument 'many' is invalid\. expected a whole number/);
  });
});

describe("solve: 4×4, 16×16 and 25×25", () => {
  /** sudoku16_kr100.txt line 1 (1–9, A–G) and its solution; the same mirrored on the diagonal is a second puzzle. */
  const SIXTEEN =
    "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69..F.....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.42E1A.4C.5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E";
  const SOLUTION =
    "1GDBC2349A586EF74E6A57F8123CBD9G52C769GBFDE4A18339F81AED76GB24C59426D31FAGBE587C8C7EB6954F12G3ADGF1DE47A5C839B26B3A5G8C269D7EF14263G418EB57FCAD97BE13CAG249D865FF8597DB6C3AG42E1AD4CF5298E617G3BE194AG63D8C5F7B2D78F9E51GB263C4ACAG32B47E1F9D56865B28FDC374A19GE";
  const transpose = (grid: string) => Array.from({ length: 256 }, (_, i) => grid[(i % 16) * 16 + Math.floor(i / 16)]).join("");
  const rows16 = (grid: string) => Array.from({ length: 16 }, (_, r) => grid.slice(r * 16, r * 16 + 16));
  const HEX_LIKE = "123456789ABCDEFG";
  const POJ = "ABCDEFGHIJKLMNOP";
  const toPoj = (line: string) => line.replace(/[^.]/g, (ch) => POJ[HEX_LIKE.indexOf(ch)]);
  const sixteen = file("sixteen.txt", `${SIXTEEN}\n${transpose(SIXTEEN)}\n`);

  it("writes every output format for a 16×16 file, in the input's alphabet", () => {
    expect(cli(["solve", sixteen]).stdout).toBe(`${SOLUTION}\n${transpose(SOLUTION)}\n`);
    expect(cli(["solve", "--out", "grid", sixteen]).stdout).toBe([...rows16(SOLUTION), "", ...rows16(transpose(SOLUTION)), "", ""].join("\n"));
    const records = cli(["solve", "--out", "jsonl", sixteen])
      .stdout.trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records[1]).toMatchObject({ index: 1, line: 2, puzzle: transpose(SIXTEEN), status: "solved", solution: transpose(SOLUTION), count: 1, error: null });
    expect(typeof records[0].guesses).toBe("number");
    const csv = cli(["solve", "--out", "csv", sixteen]).stdout.trimEnd().split("\n");
    expect(csv).toHaveLength(3);
    expect(csv[1].split(",").slice(0, 7)).toEqual(["0", sixteen, "1", SIXTEEN, "solved", SOLUTION, "1"]);
  });

  it("reads a 16×16 grid of 16 lines and a 4×4 line", () => {
    const grid = file("grid16.txt", [...rows16(SIXTEEN), "", "1...3..1.....14."].join("\n"));
    const lines = cli(["solve", grid]).stdout.split("\n");
    expect(lines[0]).toBe(SOLUTION);
    expect(lines[1]).toMatch(/^[1-4]{16}$/);
  });

  it("keeps the order of mixed 9×9 and 16×16 lines across batches and threads", () => {
    const lines = [SIXTEEN, unique[0].puzzle, transpose(SIXTEEN), unique[1].puzzle, multiple.puzzle, SIXTEEN];
    const mixedSizes = file("mixed-sizes.txt", Array.from({ length: 20 }, () => lines.join("\n")).join("\n") + "\n");
    const expected = [SOLUTION, unique[0].solution, transpose(SOLUTION), unique[1].solution, "multiple", SOLUTION];
    const two = cli(["solve", "--threads", "2", "--batch", "4", mixedSizes]);
    expect(two.status).toBe(0);
    expect(two.stdout).toBe(Array.from({ length: 20 }, () => expected.join("\n")).join("\n") + "\n");
    expect(cli(["solve", "--threads", "0", "--batch", "7", mixedSizes]).stdout).toBe(two.stdout);
  });

  it("names the line and the cell of bad 16×16 input", () => {
    const bad = file("bad16.txt", `${SIXTEEN}\n${SIXTEEN.slice(0, 17)}Z${SIXTEEN.slice(18)}\n${rows16(SIXTEEN).slice(0, 5).join("\n")}\n`);
    const { stdout, stderr } = cli(["solve", "--out", "jsonl", bad]);
    const records = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((r) => r.status)).toEqual(["solved", "invalid", "invalid"]);
    expect(records[1].error).toBe(`${bad}:2: cell 18 (row 2, column 2) contains invalid character 'Z' (symbols 1-9A-G or A-P, empty . - 0)`);
    expect(records[2].error).toBe(`${bad}:3: the grid ends after 5 rows, expected 16`);
    expect(stderr).toContain(`invalid: ${bad}:2: cell 18 (row 2, column 2)`);
  });

  it("--alphabet gives the symbols; solutions are written in them", () => {
    const shuffled = "GFEDCBA987654321";
    const recoded = (line: string) => line.replace(/[^.]/g, (ch) => shuffled[HEX_LIKE.indexOf(ch)]);
    const input = `${recoded(SIXTEEN)}\n${unique[0].puzzle}\n`;
    expect(cli(["solve", "--alphabet", shuffled], input).stdout).toBe(`${recoded(SOLUTION)}\n${unique[0].solution}\n`);
    const wrong = cli(["solve", "--alphabet", "ABCA"]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain("repeats a character");
  });

  it("--format poj3076 reads A–P grids with - for empty and writes the solved grids", () => {
    const poj = (grid: string) => rows16(toPoj(grid).replaceAll(".", "-"));
    const input = [...poj(SIXTEEN), "", ...poj(transpose(SIXTEEN)), ""].join("\n");
    const result = cli(["solve", "--format", "poj3076"], input);
    expect(result.stdout).toBe([...poj(SOLUTION), "", ...poj(transpose(SOLUTION)), ""].join("\n"));
  });
});

describe("solve --budget", () => {
  /** AI Escargot: 19 guesses on the 9×9 kernel, which finds its solution within 10 nodes. */
  const ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
  const ESCARGOT_SOLUTION = "162857493534129678789643521475312986913586742628794135356478219241935867897261354";
  /** sudoku16_kr100.txt line 1: 132 guesses on the general kernel. */
  const SIXTEEN =
    "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69..F.....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.42E1A.4C.5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E";
  const corpus = file("budget.txt", `${ESCARGOT}\n${unique[0].puzzle}\n${SIXTEEN}\n1...3..1.....14.\n`);

  it("gives a hard 9×9 and a hard 16×16 puzzle status timeout in jsonl, csv, line and the summary", () => {
    const { status, stdout, stderr } = cli(["solve", "--out", "jsonl", "--budget", "3", "--no-progress", corpus]);
    expect(status).toBe(1); // some records are invalid or timed out
    const records = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((r) => [r.line, r.status])).toEqual([
      [1, "timeout"],
      [2, "solved"],
      [3, "timeout"],
      [4, "solved"],
    ]);
    expect(records[0]).toMatchObject({ count: 0, solution: null, error: null });
    expect(records[2]).toMatchObject({ count: 0, solution: null, error: null });
    expect(stderr).toContain("4 puzzles: 2 solved, 0 unsolvable, 0 multiple, 0 invalid, 2 timeout");
    const line = cli(["solve", "--budget", "3", "--threads", "0", corpus]).stdout.split("\n");
    expect([line[0], line[1], line[2]]).toEqual(["timeout", unique[0].solution, "timeout"]);
    const csv = cli(["solve", "--out", "csv", "--budget", "3", corpus]).stdout.trimEnd().split("\n");
    expect(csv[3].split(",").slice(3, 7)).toEqual([SIXTEEN, "timeout", "", "0"]);
  });

  it("solves them all with a budget they fit in, or with none", () => {
    const free = cli(["solve", corpus]);
    expect(free.stdout.split("\n")[0]).toBe(ESCARGOT_SOLUTION);
    expect(free.stderr).toContain("4 puzzles: 4 solved, 0 unsolvable, 0 multiple, 0 invalid, 0 timeout");
    expect(cli(["solve", "--budget", "1000000", corpus]).stdout).toBe(free.stdout);
    const bad = cli(["solve", "--budget", "0", corpus]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("expected a whole number from 1");
  });
});

describe("usage errors: exit status 2 and one line naming the problem", () => {
  it("every usage error exits 2 with one `sudoku-wasm: …` line; --help exits 0", () => {
    const cases: [string[], string][] = [
      [["solve", "--limit", "0"], "sudoku-wasm: option '--limit <n>' argument '0' is invalid. expected a whole number from 1 to 2147483647, got '0'"],
      [
        ["solve", "--budget", "0"],
        "sudoku-wasm: option '--budget <nodes>' argument '0' is invalid. expected a whole number from 1 to 2147483647, or none, got '0'",
      ],
      [["solve", "--count", "--limit", "5"], "sudoku-wasm: option '--count' cannot be used with option '--limit <n>'"],
      [["solve", "--in", "xml"], "sudoku-wasm: option '--in <format>' argument 'xml' is invalid. Allowed choices are auto, line, grid, csv, colon."],
      [["solve", "--bogus"], "sudoku-wasm: unknown option '--bogus'"],
      [["generate", "--count", "0"], "sudoku-wasm: option '-n, --count <n>' argument '0' is invalid. expected a whole number from 1 up, got '0'"],
      [["generate", "--manifest", join(dir, "m.json")], "sudoku-wasm: --manifest needs --output FILE (a file, not standard output: the manifest records it)"],
      [["bogus"], "sudoku-wasm: unknown command 'bogus'"],
      [["datasets", "find", "17_clue"], "sudoku-wasm: datasets: unknown command 'find' (one of list, fetch, verify, where)"],
      [["datasets", "where", "17_clue", "extra"], "sudoku-wasm: too many arguments for 'where'. Expected 1 argument but got 2."],
    ];
    for (const [args, message] of cases) {
      const result = cli(args, "");
      expect({ args, status: result.status, stderr: result.stderr }).toEqual({ args, status: 2, stderr: message + "\n" });
    }
    const help = solveHelp();
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("a count of 1,000,000 means at least that many");
    expect(cli(["--help"]).status).toBe(0);
  });

  it("takes -o - as standard output, as - as an input is standard input (solve, generate): no file named '-'", () => {
    const input = file("dash-out.txt", `${unique[0].puzzle}\n`);
    const solved = runCli(["solve", "--no-progress", input, "-o", "-"], { cwd: dir });
    expect(solved.status).toBe(0);
    expect(solved.stdout).toBe(cli(["solve", "--no-progress", input]).stdout);
    expect(runCli(["generate", "--count", "2", "--quiet", "-o", "-"], { cwd: dir }).stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(existsSync(join(dir, "-"))).toBe(false);
  });

  it("names a directory given as input and reads nothing", () => {
    for (const args of [
      ["solve", dir],
      ["solve", "--format", "poj3074", dir],
    ]) {
      const result = cli(args);
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`sudoku-wasm: ${dir} is a directory, not a puzzle file\n`);
      expect(result.stdout).toBe("");
    }
  });
});

describe("solve reads every file given: byte order marks, CSV fields with colons, 4×4 runs, judge formats", () => {
  const [first, second] = unique;

  it("strips a byte order mark, reads a CSV field with a colon as CSV, and keeps every line of a 4×4 run", () => {
    const bom = file("bom.txt", `\uFEFF# comment\n${first.puzzle}\n`);
    const bomPuzzle = file("bom-puzzle.txt", `\uFEFF${second.puzzle}\n`);
    const csv = file("colon.csv", `puzzle,source\n${first.puzzle},http://example.com/a\n`);
    const four = Array.from({ length: 20 }, (_, i) => (i === 5 ? "1.....3..5.....2" : "1.....3..4.....2"));
    const run = file("four.txt", four.join("\n") + "\n");
    const { status, stdout } = cli(["solve", "--out", "jsonl", bom, bomPuzzle, csv, run]);
    expect(status).toBe(1); // some records are invalid or timed out
    const records = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(23);
    expect(records.slice(0, 3).map((r) => [r.line, r.puzzle, r.status])).toEqual([
      [2, first.puzzle, "solved"],
      [1, second.puzzle, "solved"],
      [2, first.puzzle, "solved"],
    ]);
    expect(records.slice(3).map((r) => r.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(
      records
        .slice(3)
        .filter((r) => r.status !== "solved")
        .map((r) => r.error),
    ).toEqual([`${run}:6: cell 10 (row 3, column 2) contains invalid character '5' (symbols 1-4, empty . - 0)`]);
  });

  it("judge mode joins several files, each ending with a line end, and names the file of an error", () => {
    const noLineEnd = file("a.txt", first.puzzle);
    const withLineEnd = file("b.txt", `${second.puzzle}\n`);
    const joined = cli(["solve", "--format", "poj3074", noLineEnd, withLineEnd]);
    expect(joined.status).toBe(0);
    expect(joined.stdout).toBe(`${first.solution}\n${second.solution}\n`);
    const bad = file("bad.txt", `${second.puzzle}\nxx\n`);
    const failed = cli(["solve", "--format", "poj3074", noLineEnd, bad]);
    expect(failed.status).toBe(2);
    expect(failed.stderr).toBe(`sudoku-wasm: ${bad}:2: expected 81 characters, got 2\n`);
  });
});

describe("solve --format sicily1317: the count cap", () => {
  it("sicily1317 prints a count at the cap as 'at least'", () => {
    const input = ["1", ...Array(9).fill("_________"), ""].join("\n");
    expect(cli(["solve", "--format", "sicily1317"], input).stdout).toBe("Puzzle 1 has at least 1000000 solutions\n");
  });
});

describe("the shared options helper", () => {
  it("takes decimal whole numbers in range only, the same rule for every command and the bench", () => {
    const percent = wholeNumber(0, 100);
    expect([percent("0"), percent(" 42 "), percent("100")]).toEqual([0, 42, 100]);
    for (const bad of ["1e3", "-1", "2.5", "0x10", "", "101"]) expect(() => percent(bad)).toThrow(`expected a whole number from 0 to 100, got '${bad}'`);
    expect(() => wholeNumber(1)("0")).toThrow("expected a whole number from 1 up, got '0'");
    const bench = () =>
      benchCommand()
        .exitOverride()
        .configureOutput({ outputError: () => {} });
    expect(() => parseOptions(["--time", "1e3"], bench())).toThrow("expected a whole number from 1 to 3600000, got '1e3'");
    expect(parseOptions(["--time", "1000", "--solvers", "wasm, ts-bitmask,"], bench())).toMatchObject({ time: 1000, solvers: ["wasm", "ts-bitmask"] });
  });

  it("lists the solvers in --help wrapped to the width, each description under its own column", () => {
    for (const width of [80, HELP_COLUMNS]) {
      const lines = solverHelpLines(solvers, width);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
      const column = lines[0].indexOf(solvers[0].description.split(" ")[0]);
      const starts = lines.flatMap((line, i) => (line.startsWith("  ") && !line.startsWith("   ") ? [i] : []));
      expect(starts.map((i) => lines[i].trim().split(" ")[0])).toEqual(solvers.map((info) => info.id));
      solvers.forEach((info, k) => {
        const entry = lines.slice(starts[k], starts[k + 1]);
        for (const continued of entry.slice(1)) expect(continued.slice(0, column).trim()).toBe("");
        expect(entry.map((line) => line.slice(column)).join(" ")).toContain(info.description);
      });
    }
    // Piped (not a terminal): every line of the help fits HELP_COLUMNS.
    for (const line of solveHelp().stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(HELP_COLUMNS);
  });

  it("gives --threads's default as one worker fewer than the cores (at least one)", () => {
    const help = solveHelp().stdout.replace(/\s+/g, " ");
    const shown = /-t, --threads <n> .*?\(default: (\d+)/.exec(help);
    expect(shown, help).not.toBeNull();
    expect(Number(shown![1])).toBe(Math.max(1, availableParallelism() - 1));
  });

  it("lists the kernel variants missing from an install (the npm package ships none) as one row", () => {
    const missing = solvers.map((info) => (info.id.startsWith("wasm:") ? { ...info, unavailable: VARIANT_NOT_HERE } : info));
    const ids = solverHelpLines(missing, HELP_COLUMNS).flatMap((line) => (line.startsWith("  ") && !line.startsWith("   ") ? [line.trim().split(" ")[0]] : []));
    const variants = solvers.filter((info) => info.id.startsWith("wasm:")).length;
    expect(ids).toEqual(["wasm", "wasm:<variant>", ...solvers.filter((info) => !info.id.startsWith("wasm")).map((info) => info.id)]);
    expect(solverHelpLines(missing, HELP_COLUMNS).join(" ")).toMatch(
      new RegExp(`\\(unavailable: its kernel file is not here: .*\\) +${variants} compile-time variants`),
    );
  });

  it("splits comma lists, trimming and dropping empty items; a list of solver ids that names none is refused, not read as the default", () => {
    expect(commaList(" a, b ,,c, ")).toEqual(["a", "b", "c"]);
    for (const none of ["", " , ", ","]) expect(() => solverIdList(none)).toThrow(`expected registry solver ids separated by commas, got '${none}'`);
    for (const command of [
      ["solve", "--solver", ""],
      ["generate", "--graders", ","],
    ]) {
      const empty = cli(command, "\n");
      expect(empty.status).toBe(2);
      expect(empty.stderr).toMatch(
        /^sudoku-wasm: option '--(solver|graders) <ids>' argument ',?' is invalid\. expected registry solver ids separated by commas/,
      );
    }
  });
});
