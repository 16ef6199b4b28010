/**
 * The public sets by name: `--datasets` resolution (public name from the cache folder, then
 * bundled names, then paths; a set not fetched names the command that fetches it, and the bench
 * tools exit 2 on it), the normaliser's formats and errors, the built-in catalog's shape, and
 * `datasets verify` on the shared copy of the sets (CI points SUDOKU_WASM_DATASETS at it).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DatasetSpecError, loadDatasets } from "../src/datasets/read.js";
import { PUBLIC_SETS, readCatalogFile } from "../src/datasets/catalog.js";
import { cacheFolder, sha256 } from "../src/datasets/cache.js";
import { NormaliseError, decodeLineNumbers, normalise } from "../src/datasets/normalise.js";
import { BIN, scratchFolder } from "./cli-run.js";
import { PUBLIC_DATASETS_FOLDER, describeWithPublicDatasets } from "./public-datasets.js";

const { dir, file } = scratchFolder("sudoku-datasets-names-");
const A = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const B = "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("--datasets names", () => {
  /** A cache folder holding `text` as forum_hardest_1106, and a catalog whose entry for it expects `${A}\n${B}\n`. */
  const cacheHolding = (folder: string, text: string) => {
    const cache = join(dir, folder);
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, "forum_hardest_1106.txt"), text);
    const expected = `${A}\n${B}\n`;
    const set = PUBLIC_SETS.find((entry) => entry.name === "forum_hardest_1106")!;
    const catalogFile = file(`${folder}-catalog.json`, JSON.stringify({ sets: [{ ...set, count: 2, sha256: sha256(expected) }] }));
    vi.stubEnv("SUDOKU_WASM_DATASETS", cache);
    vi.stubEnv("SUDOKU_WASM_DATASETS_CATALOG", catalogFile);
    return cache;
  };

  it("a fetched public set resolves from the cache folder, before bundled names and paths", () => {
    const cache = cacheHolding("cache", `${A}\n${B}\n`);
    const [dataset] = loadDatasets("forum_hardest_1106");
    expect(dataset.path).toBe(join(cache, "forum_hardest_1106.txt"));
    expect(dataset.puzzles).toEqual([A, B]);
    expect(loadDatasets("hard")[0].name).toBe("hard"); // bundled names still resolve
  });

  it("a cached public set that does not match the catalog (cut, CRLF, empty) throws one line with the command that fetches it again", () => {
    for (const [folder, text] of [
      ["cut", `${A}\n${B.slice(0, 40)}`],
      ["crlf", `${A}\r\n${B}\r\n`],
      ["empty", ""],
    ]) {
      const cache = cacheHolding(folder, text);
      const load = () => loadDatasets("forum_hardest_1106");
      expect(load).toThrow(DatasetSpecError);
      expect(load).toThrow(
        `dataset 'forum_hardest_1106': the cached file ${join(cache, "forum_hardest_1106.txt")} does not match the catalog (` +
          `${text.split("\n").length - 1} puzzles with sha256 ${sha256(text)}; the catalog expects 2 with ${sha256(`${A}\n${B}\n`)}` +
          `${folder === "crlf" ? ": its lines end in \\r\\n (a copy converted to Windows line ends?)" : ""}): ` +
          "run npx sudoku-wasm datasets fetch forum_hardest_1106, which fetches it again",
      );
    }
    const cache = cacheHolding("folder", "");
    rmSync(join(cache, "forum_hardest_1106.txt"));
    mkdirSync(join(cache, "forum_hardest_1106.txt")); // a folder in the file's place
    expect(() => loadDatasets("forum_hardest_1106")).toThrow(/the cached file .* does not match the catalog \(it is not a file\): run npx/);
  });

  it("a public set not fetched yet throws one line with the command that fetches it", () => {
    vi.stubEnv("SUDOKU_WASM_DATASETS", join(dir, "empty-cache"));
    vi.stubEnv("SUDOKU_WASM_DATASETS_CATALOG", "");
    const load = () => loadDatasets("magictour_top1465");
    expect(load).toThrow(DatasetSpecError);
    expect(load).toThrow(
      /^dataset 'magictour_top1465' is not fetched yet \(no .*magictour_top1465\.txt\): run npx sudoku-wasm datasets fetch magictour_top1465$/,
    );
  });

  it("the cache folder: SUDOKU_WASM_DATASETS, else XDG_CACHE_HOME, else ~/.cache", () => {
    expect(cacheFolder({ SUDOKU_WASM_DATASETS: "/sets", XDG_CACHE_HOME: "/xdg" })).toBe("/sets");
    expect(cacheFolder({ XDG_CACHE_HOME: "/xdg" })).toBe("/xdg/sudoku-wasm/datasets");
    expect(cacheFolder({ HOME: "/home/someone" })).toMatch(/\.cache\/sudoku-wasm\/datasets$/);
    expect(cacheFolder({ XDG_CACHE_HOME: "relative/cache" })).toBe(join(homedir(), ".cache", "sudoku-wasm", "datasets")); // invalid by the spec: ignored
  });

  for (const tool of ["kernel-vs", "profile"]) {
    it(`${tool} exits 2 with the fetch command for a set not fetched`, () => {
      const env = { ...process.env, SUDOKU_WASM_DATASETS: join(dir, "empty-cache"), SUDOKU_WASM_DATASETS_CATALOG: "" };
      const script = new URL(`../dist/bench/${tool}.js`, import.meta.url).pathname;
      const run = spawnSync(process.execPath, [script, "--datasets", "forum_hardest_1106"], { env, encoding: "utf8", timeout: 60_000 });
      expect(run.stderr).toMatch(
        new RegExp(`^${tool}: dataset 'forum_hardest_1106' is not fetched yet .*: run npx sudoku-wasm datasets fetch forum_hardest_1106\\n$`),
      );
      expect(run.status).toBe(2);
    });
  }
});

describe("the normaliser", () => {
  const lines = (text: string, format: Parameters<typeof normalise>[0][0]["format"], setAside?: string) =>
    normalise([{ text, format, setAside, label: "src" }], 9);

  it("drops comments, count lines, blank and control-only lines and duplicates; 0 _ - become .", () => {
    const text = `# header\n2\n${A.replaceAll(".", "0")}\r\n\x1a\n\n${B.replaceAll(".", "-")}  trailing words\n${A.replaceAll(".", "_")}\n`;
    expect(lines(text, { kind: "lines" })).toEqual({ text: `${A}\n${B}\n`, count: 2 });
  });

  it("takes a column of CSV or whitespace records, skips a header, filters on a rating, leaves set-aside lines out", () => {
    expect(lines(`puzzle,solution\n${A},x\n${B},y\n`, { kind: "lines", separator: ",", header: true }).text).toBe(`${A}\n${B}\n`);
    const bank = `id1 ${A}  7.9\nid2 ${B}  8.0\n`;
    expect(lines(bank, { kind: "lines", column: 1, minRating: { column: 2, min: 8 } }).text).toBe(`${B}\n`);
    expect(lines(`${A}\n${B}\n`, { kind: "lines" }, "1").text).toBe(`${B}\n`);
  });

  it("reads numeric grids (commas or spaces, blank = empty) as 25×25 puzzles in A-Y", () => {
    const row = (shift: number) => Array.from({ length: 25 }, (_, column) => (column === shift ? String(shift + 1) : "0"));
    const spaced = Array.from({ length: 25 }, (_, r) => row(r).join(" ")).join("\n");
    const commas = Array.from({ length: 25 }, (_, r) =>
      row(r)
        .map((cell) => (cell === "0" ? "  " : cell))
        .join(","),
    ).join("\n");
    const made = normalise(
      [
        { text: spaced, format: { kind: "grid" }, label: "a" },
        { text: commas, format: { kind: "grid" }, label: "b" },
      ],
      25,
    );
    expect(made.count).toBe(1); // the second is the same puzzle
    expect(made.text).toBe(Array.from({ length: 25 }, (_, r) => ".".repeat(r) + "ABCDEFGHIJKLMNOPQRSTUVWXY"[r] + ".".repeat(24 - r)).join("") + "\n");
  });

  it("a bad line is an error naming the source, the line and the reason", () => {
    const repeated = "11" + A.slice(2);
    expect(() => lines(`${A}\n${repeated}\n`, { kind: "lines" })).toThrow(new NormaliseError("src line 2: cell 2: '1' repeats in its row"));
    expect(() => lines(`${A}\n${A.slice(1)}\n`, { kind: "lines" })).toThrow(/^src line 2: 80 cells, expected 81$/);
    expect(() => lines(`${A}x\n`, { kind: "lines" })).toThrow(/^src line 1: 82 cells/);
  });

  it("counts of one read '1 cell' and '1 row', not '1 cells'", () => {
    expect(() => normalise([{ text: "A\n", format: { kind: "lines" }, label: "src" }], 9)).toThrow(new NormaliseError("src line 1: 1 cell, expected 81"));
    const grid = (text: string) => normalise([{ text, format: { kind: "grid" }, label: "src" }], 9);
    expect(() => grid("5\n")).toThrow(new NormaliseError("src line 1: 1 cell in the row, expected 9"));
    expect(() => grid("1 2 3 4 5 6 7 8 9\n")).toThrow(new NormaliseError("src line 1: a puzzle of 1 row, expected 9"));
  });

  it("set-aside line numbers decode from their delta encoding", () => {
    expect([...decodeLineNumbers("10,45,15")]).toEqual([10, 55, 70]);
    expect(() => decodeLineNumbers("3,0")).toThrow(/not a positive whole number/);
  });
});

describe("the built-in catalog", () => {
  it("passes the checks a catalog file gets, with unique names, pinned raw URLs and known checksums", () => {
    const sets = readCatalogFile(file("catalog.json", JSON.stringify({ sets: PUBLIC_SETS })));
    expect(sets.map((set) => set.name)).toHaveLength(15);
    for (const set of sets) {
      for (const source of set.sources) {
        expect(source.url).toMatch(/^https:\/\/raw\.githubusercontent\.com\/[^/]+\/[^/]+\/[0-9a-f]{40}\//);
        expect(source.sha256).toMatch(/^[0-9a-f]{64}$/);
      }
    }
    const setAside = sets.find((set) => set.name === "forum_hardest_1905_11plus")!.sources[0].setAside!;
    expect(decodeLineNumbers(setAside).size).toBe(48_766 - 44_766);
  });

  it("a catalog file with a bad entry is refused, naming the file, the set and the reason", () => {
    const bad = file("bad.json", JSON.stringify({ sets: [{ ...PUBLIC_SETS[0], sha256: "xyz" }] }));
    expect(() => readCatalogFile(bad)).toThrow(/^catalog '.*bad\.json': set 'kaggle_bryanpark_10k': sha256 is not 64 lowercase hex digits$/);
  });
});

describeWithPublicDatasets("datasets verify on the fetched public sets", () => {
  it("every set of the catalog verifies (count and SHA-256) in the folder the CLI reads them from", () => {
    const env = { ...process.env, SUDOKU_WASM_DATASETS: PUBLIC_DATASETS_FOLDER, SUDOKU_WASM_DATASETS_CATALOG: "" };
    const run = spawnSync(process.execPath, [BIN, "datasets", "verify"], { env, encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(`${PUBLIC_SETS.length} checked, 0 failed`);
    expect(run.status).toBe(0);
  });
});
