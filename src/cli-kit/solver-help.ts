/**
 * The registry's rows in a command's help (`solve`, the bench, the profiler), laid out as
 * commander lays out the options.
 */
import { Help } from "commander";
import { type SolverInfo, VARIANT_NOT_HERE, sizeNames, solvers } from "../solvers/registry.js";

/** The width the solver lists in --help wrap to when standard output is not a terminal. */
export const HELP_COLUMNS = 100;

/**
 * Registry rows as help lines: id, sizes, and the description wrapped to `width` under its own
 * column, as commander lays out options. The kernel variants missing from an install (the npm
 * package ships none) are one row.
 */
export function solverHelpLines(
  all: readonly SolverInfo[] = solvers,
  width = process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : HELP_COLUMNS,
): string[] {
  const missing = all.filter((info) => info.unavailable === VARIANT_NOT_HERE);
  const rows = all.filter((info) => !missing.includes(info));
  const after = rows.findIndex((info) => info.id === "wasm") + 1;
  if (missing.length > 0)
    rows.splice(after, 0, { ...missing[0], id: "wasm:<variant>", description: `${missing.length} compile-time variants of the wasm kernel` });
  const help = new Help();
  help.helpWidth = width;
  help.minWidthToWrap = 30; // commander's 40 would leave the lines unwrapped in an 80-column terminal
  const idWidth = Math.max(...rows.map((info) => info.id.length));
  const terms = rows.map((info) => `${info.id.padEnd(idWidth)}  ${sizeNames(info)}`);
  const termWidth = Math.max(...terms.map((term) => term.length));
  return rows.flatMap((info, i) => {
    const description = `${info.unavailable ? `(unavailable: ${info.unavailable}) ` : ""}${info.description}`;
    return help.formatItem(terms[i], termWidth, description, help).split("\n");
  });
}
