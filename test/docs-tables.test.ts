/**
 * The docs' figure tables come from their scripts: each marked region of README.md and docs/*.md
 * (bench/report/regions.ts) has the header row its script writes today, its command takes the
 * options it passes, and `npm run docs:tables` rewrites a region and nothing else. No benchmark
 * runs here: the headers come from the scripts' own column tables.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COLUMNS, MARKDOWN_COLUMNS, markdownTable } from "../bench/report/format.js";
import { PROFILE_COLUMNS } from "../bench/profile/table.js";
import { type Region, allRegions, linesBesideTable, regionsOf, replaceRegion, tablesOf } from "../bench/report/regions.js";
import { BULK_COLUMNS, SIZING_COLUMNS } from "../bench/bulk-table.js";
import { versusTable } from "../bench/versus.js";

const root = new URL("..", import.meta.url).pathname;
const regions = allRegions(root);

/** The script a region's command runs (`npm run NAME -- …`) and its arguments. */
function scriptOf(region: Region): { script: string; args: string[] } {
  const match = /^npm run ([\w:-]+)(?: -- (.*))?$/.exec(region.command!);
  if (!match) throw new Error(`${region.file}: region '${region.name}': '${region.command}' is not \`npm run SCRIPT -- ARGS\``);
  return { script: match[1], args: match[2]?.split(/\s+/) ?? [] };
}

const optionValue = (args: string[], flag: string): string | undefined => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);

/**
 * The header rule lines the region's script writes today for its arguments (a table region), or
 * the column names of its terminal table (an output region); an error for a script that prints
 * no such table.
 */
function expectedHeader(region: Region): string[] {
  const { script, args } = scriptOf(region);
  const markdown = region.kind === "table";
  if (script === "kernel-vs" && markdown) {
    const ref = optionValue(args, "--ref");
    if (!ref) throw new Error(`region '${region.name}': name the old kernel with --ref (its column is named for it)`);
    return versusTable([], ref).split("\n");
  }
  if (script === "bench" && markdown && optionValue(args, "--markdown") === "-") return markdownTable(MARKDOWN_COLUMNS, []);
  if (script === "bench" && !markdown) return COLUMNS.map((column) => column.header);
  if (script === "profile" && markdown && args.includes("--markdown")) return markdownTable(PROFILE_COLUMNS, []);
  if (script === "bulk-bench" && markdown && args.includes("--sizing")) return markdownTable(SIZING_COLUMNS, []);
  if (script === "bulk-bench" && markdown && args.includes("--markdown")) return markdownTable(BULK_COLUMNS, []);
  throw new Error(`region '${region.name}': no known ${region.kind} of '${region.command}'`);
}

/** What a region holds where its script's header goes: its table's first two lines, or its terminal table's column names. */
function actualHeader(region: Region): string[] {
  if (region.kind === "table") {
    const tables = tablesOf(region.body.join("\n"));
    expect(tables, `region '${region.name}' holds one table`).toHaveLength(1);
    return tables[0].slice(0, 2);
  }
  const first = COLUMNS[0].header;
  const line = region.body.find((text) => text.startsWith(first + " "));
  expect(line, `region '${region.name}' holds a table whose header starts with '${first}'`).toBeDefined();
  return line!.trim().split(/\s{2,}/);
}

const scripted = regions.filter((region) => region.command !== null);

describe("the docs' marked tables", () => {
  it("are found, scripted and not", () => {
    expect(scripted.map((r) => r.name)).toEqual(
      expect.arrayContaining(["kernel-vs-9d21114", "bench-twin-npm", "bench-run", "profile-magictour", "profile-1905", "sizing", "bulk-speed"]),
    );
    expect(regions.filter((r) => r.command === null).map((r) => r.name)).toEqual(expect.arrayContaining(["tdoku", "many-machines"]));
    expect(new Set(regions.map((r) => r.name)).size).toBe(regions.length); // --section finds one
  });

  it.each(scripted.map((r) => [r.name, r] as const))("%s: its header is the one its script writes today", (_name, region) => {
    expect(actualHeader(region)).toEqual(expectedHeader(region));
  });

  it.each(scripted.map((r) => [r.name, r] as const))("%s: every row has the header's columns", (_name, region) => {
    if (region.kind !== "table") return;
    const cells = (line: string) => line.replace(/\\\|/g, "").split("|").length;
    const [header, ...rows] = tablesOf(region.body.join("\n"))[0];
    for (const row of rows) expect(cells(row), row).toBe(cells(header));
  });

  it("name only options their scripts take (each script's --help, from dist/)", () => {
    const entry: Record<string, string> = {
      "kernel-vs": "dist/bench/kernel-vs.js",
      bench: "dist/bench/bench.js",
      profile: "dist/bench/profile.js",
      "bulk-bench": "dist/bench/bulk.js",
    };
    for (const [script, file] of Object.entries(entry)) {
      const used = scripted.filter((r) => scriptOf(r).script === script);
      if (used.length === 0) continue;
      const help = spawnSync(process.execPath, [file, "--help"], { cwd: root, encoding: "utf8" });
      expect(help.status, `${file} --help`).toBe(0);
      for (const region of used) {
        for (const flag of scriptOf(region).args.filter((arg) => arg.startsWith("--"))) expect(help.stdout, `${region.name}: ${flag}`).toContain(flag);
      }
    }
  });

  it("where-it-stands.md holds no table outside a region", () => {
    const text = readFileSync(new URL("../docs/where-it-stands.md", import.meta.url), "utf8");
    const lines = text.split("\n");
    const inside = new Set(regionsOf(text, "docs/where-it-stands.md").flatMap((r) => Array.from({ length: r.to - r.from - 1 }, (_, k) => r.from + 1 + k)));
    const outside = lines.flatMap((line, index) => (line.startsWith("|") && !inside.has(index) ? [`line ${index + 1}: ${line.slice(0, 60)}`] : []));
    expect(outside).toEqual([]);
  });
});

describe("the scripts' Markdown", () => {
  it("profile --markdown prints one table per dataset on stdout, the paths it wrote on stderr", () => {
    const out = mkdtempSync(join(tmpdir(), "sudoku-docs-tables-"));
    try {
      const args = ["dist/bench/profile.js", "--datasets", "easy", "--variants", "wasm,wasm:cells", "--sample", "20", "--markdown", "--json", "--out", out];
      const run = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      const [table, ...others] = tablesOf(run.stdout);
      expect(others).toEqual([]);
      expect(table.slice(0, 2)).toEqual(markdownTable(PROFILE_COLUMNS, []));
      expect(table.slice(2).map((line) => line.split(" | ")[0])).toEqual(["| wasm", "| wasm:cells"]);
      expect(run.stdout).not.toContain("wrote ");
      expect(run.stderr).toContain("wrote ");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("npm run docs:tables", () => {
  const doc = [
    "intro",
    "<!-- table speed: npm run kernel-vs -- --ref abc -->",
    "| dataset | x |",
    "|:---|---:|",
    "| 1 | 2 |",
    "<!-- /table -->",
    "between",
    "<!-- output run: npm run bench -- --wide -->",
    "```",
    "old output",
    "```",
    "<!-- /output -->",
    "<!-- table by-hand: no script (not ours) -->",
    "| a |",
    "|---|",
    "<!-- /table -->",
    "end",
  ].join("\n");

  it("puts the one table of the output in a table region, and nothing else changes", () => {
    const output = "progress 1 of 2\n| dataset | x |\n|:---|---:|\n| a | 3 |\n\ndone\n";
    const next = replaceRegion(doc, "speed", output);
    expect(next.split("\n").slice(1, 6)).toEqual([
      "<!-- table speed: npm run kernel-vs -- --ref abc -->",
      "| dataset | x |",
      "|:---|---:|",
      "| a | 3 |",
      "<!-- /table -->",
    ]);
    expect(next.replace("| a | 3 |", "| 1 | 2 |")).toBe(doc);
    // what the region leaves out, which the tool prints for the text around the region (its CPU, commit, date)
    expect(linesBesideTable(output)).toEqual(["progress 1 of 2", "done"]);
  });

  it("puts the whole output in an output region, fenced", () => {
    const next = replaceRegion(doc, "run", "line 1\nline 2\n\n");
    expect(regionsOf(next)[1].body).toEqual(["```", "line 1", "line 2", "```"]);
  });

  it("refuses output without exactly one table, a table no script prints, and a region it does not know", () => {
    expect(() => replaceRegion(doc, "speed", "no table here\n")).toThrow("printed 0 Markdown tables, not one");
    expect(() => replaceRegion(doc, "speed", "| a |\n|---|\n\n| b |\n|---|\n")).toThrow("printed 2 Markdown tables");
    expect(() => replaceRegion(doc, "by-hand", "| a |\n")).toThrow("no script prints (not ours): edit it by hand");
    expect(() => replaceRegion(doc, "nope", "")).toThrow("has no region 'nope'");
    // the tool: a region it does not know, or none named, is a usage error (status 2), and a --from file it cannot read is named
    const tool = (args: string[]) => spawnSync(process.execPath, [join(root, "dist/bench/docs-tables.js"), ...args], { encoding: "utf8" });
    expect([tool(["--section", "nope"]).status, tool([]).status]).toEqual([2, 2]);
    expect(tool(["--section", regions.find((r) => r.command !== null)!.name, "--from", "/no/such/file"]).stderr).toContain(
      "cannot read '/no/such/file': ENOENT",
    );
    // a table of other columns: another command's output (a --from file mixed up), not put in the region
    expect(() => replaceRegion(doc, "speed", "| set | old puzzles/s |\n|:---|---:|\n| a | 3 |\n")).toThrow(
      "region 'speed' has the columns | dataset | x |, the output | set | old puzzles/s |: is it the output of 'npm run kernel-vs -- --ref abc'?",
    );
  });

  it("refuses an empty output, in either kind of region, leaving the doc as it was (it became an empty fence, status 0)", () => {
    for (const [name, empty] of [
      ["run", ""],
      ["run", "\n\n  \n"],
      ["speed", ""],
    ]) {
      expect(() => replaceRegion(doc, name, empty), name).toThrow("the command printed nothing: the region is left as it was");
    }
    // the tool, on an output region of the docs, with nothing to read
    const region = regions.find((r) => r.kind === "output" && r.command !== null)!;
    const path = join(root, region.file);
    const before = readFileSync(path, "utf8");
    try {
      const run = spawnSync(process.execPath, [join(root, "dist/bench/docs-tables.js"), "--section", region.name, "--from", "/dev/null"], { encoding: "utf8" });
      expect([run.status, run.stderr]).toEqual([1, "docs:tables: the command printed nothing: the region is left as it was\n"]);
      expect(readFileSync(path, "utf8")).toBe(before);
    } finally {
      writeFileSync(path, before);
    }
  });

  it("refuses a region left open or opened inside another, naming the line", () => {
    expect(() => regionsOf("<!-- table a: npm run bench -->\n| x |\n", "f.md")).toThrow("f.md:1: region 'a' is not closed");
    expect(() => regionsOf("<!-- table a: npm run bench -->\n<!-- output b: npm run bench -->\n", "f.md")).toThrow("f.md:2: a region opens inside 'a'");
    expect(() => regionsOf("<!-- table a: npm run bench -->\n<!-- /output -->\n", "f.md")).toThrow("f.md:2: '<!-- /output -->' closes no open output region");
  });

  it("lists the regions, and refuses to rewrite one no script prints (from dist/)", () => {
    const list = spawnSync(process.execPath, ["dist/bench/docs-tables.js", "--list"], { cwd: root, encoding: "utf8" });
    expect(list.status).toBe(0);
    expect(list.stdout).toContain("sizing\tdocs/where-it-stands.md\tnpm run bulk-bench -- --sizing");
    const refused = spawnSync(process.execPath, ["dist/bench/docs-tables.js", "--section", "tdoku"], { cwd: root, encoding: "utf8" });
    expect(refused.status).toBe(2); // a usage error, as in the other tools
    expect(refused.stderr).toContain("edit it by hand");
    // --list rewrites nothing: --section or --from beside it is refused (it listed, and the section was left as it was, unsaid)
    for (const [others, names] of [
      [["--section", "tdoku"], "--section"],
      [["--from", "/dev/null"], "--from"],
      [["--section", "tdoku", "--from", "/dev/null"], "--section and --from"],
    ] as const) {
      const both = spawnSync(process.execPath, ["dist/bench/docs-tables.js", "--list", ...others], { cwd: root, encoding: "utf8" });
      expect([both.status, both.stdout, both.stderr]).toEqual([2, "", `docs:tables: --list names the regions and rewrites none: leave out ${names}\n`]);
    }
  });
});
