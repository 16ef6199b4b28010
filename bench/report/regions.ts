/**
 * The marked regions of README.md and docs/*.md that a script's output fills, so that no figure
 * table is typed by hand (`npm run docs:tables` rewrites one):
 *
 *   <!-- table NAME: COMMAND -->    the one Markdown table the command prints  <!-- /table -->
 *   <!-- output NAME: COMMAND -->   its whole stdout, in a fence               <!-- /output -->
 *   <!-- table NAME: no script (REASON) -->   a table edited by hand, and why
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../src/kernel/paths.js";

export interface Region {
  /** The document, relative to the package root. */
  file: string;
  kind: "table" | "output";
  name: string;
  /** The command whose output fills it, or null for a table no script prints. */
  command: string | null;
  /** Why no script prints it. */
  reason: string | null;
  /** 0-based line indexes of the opening and the closing marker. */
  from: number;
  to: number;
  body: string[];
}

const OPEN = /^<!-- (table|output) ([\w-]+): (.*) -->$/;
const CLOSE = /^<!-- \/(table|output) -->$/;
const NO_SCRIPT = /^no script \((.+)\)$/;

/** The regions of a Markdown text, in order; a region opened inside another, or left open, throws naming the line. */
export function regionsOf(text: string, file = "text"): Region[] {
  const lines = text.split("\n");
  const regions: Region[] = [];
  let open: Omit<Region, "to" | "body"> | null = null;
  lines.forEach((line, index) => {
    const start = OPEN.exec(line);
    const end = CLOSE.exec(line);
    if (start) {
      if (open) throw new Error(`${file}:${index + 1}: a region opens inside '${open.name}' (line ${open.from + 1})`);
      const none = NO_SCRIPT.exec(start[3]);
      open = { file, kind: start[1] as Region["kind"], name: start[2], command: none ? null : start[3], reason: none ? none[1] : null, from: index };
    } else if (end) {
      if (!open || open.kind !== end[1]) throw new Error(`${file}:${index + 1}: '${line}' closes no open ${end[1]} region`);
      regions.push({ ...open, to: index, body: lines.slice(open.from + 1, index) });
      open = null;
    }
  });
  if (open !== null) throw new Error(`${file}:${(open as Region).from + 1}: region '${(open as Region).name}' is not closed`);
  return regions;
}

/** Every region of the documents under `root` that may hold them: README.md and docs/*.md. */
export function allRegions(root = packageRoot()): Region[] {
  const docs = readdirSync(join(root, "docs")).filter((file) => file.endsWith(".md"));
  return ["README.md", ...docs.sort().map((file) => join("docs", file))].flatMap((file) => regionsOf(readFileSync(join(root, file), "utf8"), file));
}

/** The Markdown tables of a text: each a run of consecutive lines that start with "|". */
export function tablesOf(text: string): string[][] {
  const tables: string[][] = [];
  let current: string[] | null = null;
  for (const line of text.split("\n")) {
    if (!line.startsWith("|")) current = null;
    else if (current) current.push(line);
    else tables.push((current = [line]));
  }
  return tables;
}

/** What a command's output puts in a region of `kind`: its one table (else an error), or all of it in a fence (none: an error). */
export function regionBody(kind: Region["kind"], output: string): string[] {
  // an empty output is a command that failed quietly or printed elsewhere (or --from /dev/null), not an empty table
  if (output.trim() === "") throw new Error("the command printed nothing: the region is left as it was");
  if (kind === "output") return ["```", ...output.replace(/\n+$/, "").split("\n"), "```"];
  const tables = tablesOf(output);
  if (tables.length !== 1) throw new Error(`the command printed ${tables.length} Markdown tables, not one`);
  return tables[0];
}

/**
 * The lines of a command's `output` that a table region leaves out: every line not blank and not of its table (the CPU,
 * commit, date and notes most tools print around it), which the text around the region should agree with.
 */
export function linesBesideTable(output: string): string[] {
  return output.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("|"));
}

/** `text` with the body of its region `name` made from a command's `output`; the rest is kept byte for byte. */
export function replaceRegion(text: string, name: string, output: string, file = "text"): string {
  const region = regionsOf(text, file).find((r) => r.name === name);
  if (!region) throw new Error(`${file} has no region '${name}'`);
  if (region.command === null) throw new Error(`region '${name}' is a table no script prints (${region.reason}): edit it by hand`);
  const lines = text.split("\n");
  const body = regionBody(region.kind, output);
  // a table of other columns is another command's output (a --from file mixed up): refused, not put in its place
  const header = lines.slice(region.from + 1, region.to).find((line) => line.startsWith("|"));
  if (region.kind === "table" && header !== undefined && header !== body[0]) {
    throw new Error(
      `region '${name}' has the columns ${header}, the output ${body[0]}: is it the output of '${region.command}'? (If that script's columns changed, edit the region's header row first.)`,
    );
  }
  lines.splice(region.from + 1, region.to - region.from - 1, ...body);
  return lines.join("\n");
}
