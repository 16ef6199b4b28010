/**
 * `sudoku-wasm datasets list | fetch | verify | where`: the public benchmark sets of the catalog
 * (src/datasets/catalog.ts). Exit status 1 when a set could not be fetched or does not verify.
 */
import { existsSync } from "node:fs";
import { Command, InvalidArgumentError } from "commander";
import type { SingleBar } from "cli-progress";
import { type CatalogSet, CATALOG_VARIABLE, catalog } from "../datasets/catalog.js";
import { CACHE_VARIABLE, cacheFolder, cachedFileProblem, checkCacheFolder, checkCacheWritable, cachedPath, fetchCommand, isCached } from "../datasets/cache.js";
import { DEFAULT_TIMEOUT_MS, type DownloadProgress, FetchError, fetchSet } from "../datasets/fetch.js";
import { commaGrouped } from "../model/whole-number.js";
import { attempt, errorLine, writeStderr } from "../cli-kit/errors.js";
import { type OptionRow, toOption } from "../cli-kit/options.js";

/** The status of a run in which a set failed to fetch or verify. */
const FAILED_STATUS = 1;

/** The longest time limit, in seconds: a timer of more than 2^31-1 ms fires at once (Node's TimeoutOverflowWarning). */
const MAX_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** A positive number of seconds up to {@link MAX_TIMEOUT_SECONDS}, as ms. */
function seconds(text: string): number {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(value > 0) || value > MAX_TIMEOUT_SECONDS) {
    throw new InvalidArgumentError(`expected a positive number of seconds up to ${MAX_TIMEOUT_SECONDS} (24 days), got '${text}'`);
  }
  return value * 1000;
}

const CATALOG_OPTION: OptionRow = {
  flags: "--catalog <file>",
  description: `a JSON catalog ({"sets": [...]}, the shape of the built-in one) to use instead of the built-in one, e.g. for a mirror (also ${CATALOG_VARIABLE})`,
};

/** The catalog a subcommand's options name. */
function catalogOf(options: { catalog?: string }): readonly CatalogSet[] {
  return catalog(options.catalog ?? (process.env[CATALOG_VARIABLE] || undefined));
}

/** The sets `names` name, in the order given; an unknown name is a usage error listing the known ones. */
function pick(sets: readonly CatalogSet[], names: readonly string[]): CatalogSet[] {
  return names.map((name) => {
    const set = sets.find((entry) => entry.name === name);
    if (set === undefined) throw new InvalidArgumentError(`unknown dataset '${name}' (one of: ${sets.map((entry) => entry.name).join(", ")})`);
    return set;
  });
}

/** `owner/repo@commit` for a raw GitHub URL, the host otherwise. */
function shortSource(url: string): string {
  const raw = /^https:\/\/raw\.githubusercontent\.com\/([^/]+\/[^/]+)\/([0-9a-f]{7})[0-9a-f]*\//.exec(url);
  if (raw) return `${raw[1]}@${raw[2]}`;
  return attempt(() => new URL(url).host) ?? url;
}

/** Rows of cells as text columns, left-aligned but for the columns in `right`. */
function table(rows: readonly string[][], right: ReadonlySet<number>): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (right.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join("  ")
      .trimEnd();
  return [line(rows[0]), line(widths.map((width) => "-".repeat(width))), ...rows.slice(1).map(line)].join("\n") + "\n";
}

function listAction(options: { catalog?: string; json?: boolean }): void {
  const sets = catalogOf(options);
  const folder = cacheFolder();
  checkCacheFolder(folder); // else every set would read "not fetched", with no word why
  const rows = [["name", "puzzles", "grid", "source", "licence", "fetched"]];
  for (const set of sets) {
    const source = set.sources.length === 0 ? "-" : [...new Set(set.sources.map((source) => shortSource(source.url)))].join(" + ");
    const fetched = set.unavailable !== undefined ? "cannot be fetched" : isCached(set.name, folder) ? "yes" : "no";
    rows.push([set.name, commaGrouped(set.count), `${set.size}x${set.size}`, source, set.licence, fetched]);
  }
  if (options.json) {
    const listed = sets.map((set) => ({ ...set, fetched: set.unavailable === undefined && isCached(set.name, folder), path: cachedPath(set.name, folder) }));
    process.stdout.write(JSON.stringify({ cacheFolder: folder, sets: listed }, null, 2) + "\n");
    return;
  }
  let text = table(rows, new Set([1]));
  for (const set of sets.filter((entry) => entry.unavailable !== undefined)) text += `${set.name} cannot be fetched: ${set.unavailable}\n`;
  text += "\ncredits (as the sources state them):\n";
  for (const set of sets) text += `  ${set.name}: ${set.credit}\n`;
  text += `\ncache folder: ${folder} (set ${CACHE_VARIABLE} to use another)\n`;
  text += "fetch one: npx sudoku-wasm datasets fetch NAME; every one: npx sudoku-wasm datasets fetch --all\n";
  process.stdout.write(text);
}

interface FetchFlags {
  all?: boolean;
  force?: boolean;
  timeout: number;
  catalog?: string;
}

/** What a fetch shows of its downloads: a progress bar each on a terminal (stderr), a plain line each otherwise (stdout). */
interface DownloadReporter {
  start(set: CatalogSet, url: string): DownloadProgress;
  stop(): void;
}

async function downloadReporter(): Promise<DownloadReporter> {
  if (process.stderr.isTTY !== true) {
    return {
      start: (set, url) => (process.stdout.write(`${set.name}: downloading ${url}\n`), () => {}),
      stop: () => {},
    };
  }
  const { Presets, SingleBar } = await import("cli-progress");
  let bar: SingleBar | null = null;
  return {
    start(set) {
      bar?.stop();
      const current = new SingleBar(
        { format: `${set.name} [{bar}] {percentage}% | {value}/{total} bytes`, stream: process.stderr, hideCursor: true, fps: 10 },
        Presets.shades_classic,
      );
      current.start(1, 0);
      bar = current;
      return (received, total) => {
        current.setTotal(total ?? Math.max(received, 1));
        current.update(received);
      };
    },
    stop() {
      bar?.stop();
      bar = null;
    },
  };
}

async function fetchAction(names: string[], flags: FetchFlags): Promise<void> {
  const sets = catalogOf(flags);
  if (flags.all && names.length > 0) throw new InvalidArgumentError("give set names or --all, not both");
  if (!flags.all && names.length === 0) throw new InvalidArgumentError("name the sets to fetch, or give --all (the names: npx sudoku-wasm datasets list)");
  const chosen = flags.all ? sets.filter((set) => set.unavailable === undefined) : pick(sets, names);
  const folder = cacheFolder();
  checkCacheFolder(folder); // before any download
  let writable = false; // checked before the first download: a folder that cannot be written still answers for the sets it holds
  const reporter = await downloadReporter();
  const downloads = new Map<string, Promise<Uint8Array>>();
  let failed = 0;
  let unreachable = 0;
  for (const set of chosen) {
    try {
      if (!flags.force && set.unavailable === undefined && isCached(set.name, folder)) {
        const problem = cachedFileProblem(set, folder);
        if (problem === null) {
          process.stdout.write(`${set.name}: already fetched and verified (${cachedPath(set.name, folder)})\n`);
          continue;
        }
        process.stdout.write(`${set.name}: the cached file does not verify (${problem}); fetching it again\n`);
      }
      if (!writable && set.unavailable === undefined) {
        checkCacheWritable(folder);
        writable = true;
      }
      const path = await fetchSet(set, folder, { timeoutMs: flags.timeout, downloads, onDownload: (entry, url) => reporter.start(entry, url) });
      reporter.stop();
      process.stdout.write(`${set.name}: ${commaGrouped(set.count)} puzzles, sha256 ${set.sha256.slice(0, 12)}… verified, written to ${path}\n`);
    } catch (error) {
      reporter.stop();
      if (!(error instanceof FetchError)) throw error;
      failed++;
      if (error.unreachable) unreachable++;
      writeStderr(errorLine(`datasets fetch: ${error.message}`));
    }
  }
  if (failed > 0) {
    writeStderr(`sudoku-wasm: datasets fetch: ${failed} of ${chosen.length} sets failed; nothing of them was written\n`);
    if (unreachable > 0) writeStderr(offlineHint(folder, unreachable, flags.catalog));
    process.exitCode = FAILED_STATUS;
  }
}

/** What to do when `count` sources' hosts could not be connected to (no network, a firewall): the ways to the sets without them. */
function offlineHint(folder: string, count: number, catalogFile: string | undefined): string {
  const sources = count === 1 ? "a source could not be connected to" : `${count} sources could not be connected to`;
  const mirror = catalogFile === undefined ? "; or fetch from a mirror with --catalog FILE" : "";
  return (
    `sudoku-wasm: datasets fetch: ${sources} (no network?). Without it: copy the sets' files (NAME.txt) ` +
    `from a machine that has them into ${folder}, or point ${CACHE_VARIABLE} at such a copy, then run npx sudoku-wasm datasets verify${mirror}\n`
  );
}

function verifyAction(names: string[], options: { catalog?: string }): void {
  const sets = catalogOf(options);
  const folder = cacheFolder();
  checkCacheFolder(folder);
  const chosen = names.length > 0 ? pick(sets, names) : sets.filter((set) => set.unavailable === undefined);
  let failed = 0;
  let checked = 0;
  for (const set of chosen) {
    if (set.unavailable !== undefined || !isCached(set.name, folder)) {
      if (names.length === 0) {
        process.stdout.write(`${set.name}: not fetched\n`);
        continue;
      }
      failed++;
      writeStderr(errorLine(`datasets verify: ${set.name}: not fetched (${set.unavailable ?? `fetch it: ${fetchCommand(set.name, options.catalog)}`})`));
      continue;
    }
    checked++;
    const problem = cachedFileProblem(set, folder);
    if (problem === null) {
      process.stdout.write(`${set.name}: ok, ${commaGrouped(set.count)} puzzles, sha256 ${set.sha256.slice(0, 12)}…\n`);
    } else {
      failed++;
      writeStderr(
        errorLine(`datasets verify: ${set.name}: ${cachedPath(set.name, folder)}: ${problem} (fetch it again: ${fetchCommand(set.name, options.catalog)})`),
      );
    }
  }
  process.stdout.write(`${checked} checked, ${failed} failed (${folder})\n`);
  if (failed > 0) process.exitCode = FAILED_STATUS;
}

function whereAction(name: string | undefined, options: { catalog?: string }): void {
  const folder = cacheFolder();
  if (name === undefined) {
    process.stdout.write(`${folder}\n`);
    return;
  }
  const [set] = pick(catalogOf(options), [name]);
  const path = cachedPath(set.name, folder);
  if (!existsSync(path)) {
    writeStderr(errorLine(`datasets where: ${set.name} is not fetched yet: run ${fetchCommand(set.name, options.catalog)}`));
    process.exitCode = FAILED_STATUS;
    return;
  }
  process.stdout.write(`${path}\n`);
}

/** The `datasets` subcommand and its own subcommands, ready to be added to the main program. */
export function datasetsCommand(): Command {
  const command = new Command("datasets")
    .description("the public benchmark sets by name: list them, fetch them into a cache, verify them, find them")
    .usage("<command> [options]")
    .argument("[command...]", "list, fetch, verify or where (an unknown one is named, whatever follows it)")
    .addHelpText(
      "after",
      `\nThe cache folder: $${CACHE_VARIABLE} if set, else $XDG_CACHE_HOME/sudoku-wasm/datasets, else ~/.cache/sudoku-wasm/datasets.\n` +
        "The bench tools read a fetched set by its name (--datasets of npm run bench, profile, kernel-vs and verdict-rates; canon-bench's arguments).\n" +
        "Exit status: 0 done; 1 a set failed to fetch or verify; 2 a usage error.",
    )
    .action(([name]: string[]) => {
      const known = "one of list, fetch, verify, where";
      throw new InvalidArgumentError(name === undefined ? `datasets: missing command (${known})` : `datasets: unknown command '${name}' (${known})`);
    });
  command
    .command("list")
    .description("the public sets: name, puzzles, grid, source, licence, whether fetched; then each one's credit")
    .addOption(
      toOption({
        flags: "--json",
        description: "print the catalog as JSON instead (URLs, formats, checksums, credits), with each set's path and whether it is fetched",
      }),
    )
    .addOption(toOption(CATALOG_OPTION))
    .action(listAction);
  command
    .command("fetch")
    .description("download sets from their public sources, normalise and check them (count, SHA-256), and write them into the cache")
    .argument("[names...]", "the sets to fetch (npx sudoku-wasm datasets list names them)")
    .addOption(toOption({ flags: "--all", description: "fetch every set that can be fetched" }))
    .addOption(toOption({ flags: "--force", description: "fetch again sets already fetched and verified" }))
    .addOption(
      toOption({
        flags: "--timeout <seconds>",
        description: "give up a download after this long without a byte from the server",
        default: DEFAULT_TIMEOUT_MS,
        defaultText: `${DEFAULT_TIMEOUT_MS / 1000}`,
        parse: seconds,
      }),
    )
    .addOption(toOption(CATALOG_OPTION))
    .action(fetchAction);
  command
    .command("verify")
    .description("check fetched sets against the catalog: line count and SHA-256 (default: every fetched set)")
    .argument("[names...]", "the sets to check")
    .addOption(toOption(CATALOG_OPTION))
    .action(verifyAction);
  command
    .command("where")
    .description("print the cache folder, or the path of a fetched set")
    .argument("[name]", "a set's name")
    .addOption(toOption(CATALOG_OPTION))
    .action(whereAction);
  return command;
}
