/** `npm run docs:tables -- --section NAME [--from FILE]`: rewrites one marked region of the docs (regions.ts) from its command's output. */
import { spawnSync } from "node:child_process";
import { InvalidArgumentError } from "commander";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseToolOptions, runTool } from "./tool.js";
import type { OptionRow } from "../src/cli-kit/options.js";
import { InputReadError } from "../src/cli-kit/errors.js";
import { packageRoot } from "../src/kernel/paths.js";
import { allRegions, linesBesideTable, replaceRegion } from "./report/regions.js";

interface Options {
  section?: string;
  from?: string;
  list: boolean;
}

const OPTIONS: readonly OptionRow[] = [
  { flags: "--section <name>", description: "the region to rewrite (--list names them)" },
  { flags: "--from <file>", description: "take the command's output from this file (-: standard input) instead of running it" },
  { flags: "--list", description: "list every region: name, file, command (with neither --section nor --from)", default: false },
];

function main(): void {
  const description = "rewrite a marked table of README.md or docs/*.md from its script's output";
  const options = parseToolOptions<Options>("npm run docs:tables --", description, OPTIONS);
  const regions = allRegions();
  if (options.list) {
    const others = [options.section !== undefined && "--section", options.from !== undefined && "--from"].filter(Boolean);
    if (others.length > 0) throw new InvalidArgumentError(`--list names the regions and rewrites none: leave out ${others.join(" and ")}`);
    for (const r of regions) process.stdout.write(`${r.name}\t${r.file}\t${r.command ?? `no script: ${r.reason}`}\n`);
    return;
  }
  if (options.section === undefined) throw new InvalidArgumentError("name a region with --section (--list names them)");
  const region = regions.find((r) => r.name === options.section);
  if (!region) throw new InvalidArgumentError(`no region '${options.section}' (--list names them)`);
  if (region.command === null) throw new InvalidArgumentError(`region '${region.name}' is a table no script prints (${region.reason}): edit it by hand`);
  let output: string;
  if (options.from !== undefined) {
    try {
      output = readFileSync(options.from === "-" ? 0 : options.from, "utf8");
    } catch (error) {
      throw new InputReadError(options.from, error); // names the file
    }
  } else {
    process.stderr.write(`docs:tables: ${region.command}\n`);
    const run = spawnSync(region.command.replace(/^npm run /, "npm run --silent "), {
      cwd: packageRoot(),
      shell: true,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 1 << 28,
    });
    if (run.status !== 0) throw new Error(`'${region.command}' exited with ${run.status ?? run.signal}`);
    output = run.stdout;
  }
  const path = join(packageRoot(), region.file);
  writeFileSync(path, replaceRegion(readFileSync(path, "utf8"), region.name, output, region.file));
  process.stderr.write(`docs:tables: ${region.file}: region '${region.name}' rewritten\n`);
  const beside = region.kind === "table" ? linesBesideTable(output) : [];
  if (beside.length > 0) {
    // the text above the table names its CPU, commit and date by hand: these lines say what they now are
    process.stderr.write(
      `docs:tables: the output's lines beside its table, which the text around the region should agree with:\n${beside.map((line) => `  ${line}\n`).join("")}`,
    );
  }
}

await runTool("docs:tables", main);
