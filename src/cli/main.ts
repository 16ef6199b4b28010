/**
 * The `sudoku-wasm` command line: one commander program, one subcommand per file
 * (`solve` in solve.ts, `merge` in merge.ts, `generate` in generate.ts; the kernel profiler is
 * a bench tool, `npm run profile`). bin/sudoku-wasm.mjs runs the compiled
 * form of this file (dist/src/cli/main.js); running that file directly works too.
 * Exit status: 0 on success and for `--help`; 2 for every error (a bad option or argument, an
 * unreadable input, a judge input error), which prints one `sudoku-wasm: …` line on standard
 * error. `solve` also exits 1 when a record is invalid or timed out, 130/143 on SIGINT/SIGTERM.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command, CommanderError, Option } from "commander";
import { buildLine } from "../build-line.js";
import { generateCommand } from "./generate.js";
import { mergeCommand } from "./merge.js";
import { solveCommand } from "./solve.js";
import { USAGE_ERROR_STATUS, errorLine, guardStandardStreams, writeStderr } from "./errors.js";

export { USAGE_ERROR_STATUS } from "./errors.js";

/**
 * The program with every subcommand. Commander throws instead of exiting and prints no
 * error of its own (help still prints), so {@link main} reports every error once.
 */
export function buildProgram(): Command {
  const program = new Command("sudoku-wasm")
    .description("the fastest Sudoku solver JavaScript can reach: a WebAssembly kernel on every core")
    .version(buildLine(), "-V, --version", "print the version and the build: commit, asc version, the kernel's flags (-v too)")
    .addOption(new Option("-v", "the same as -V").hideHelp())
    .addCommand(solveCommand())
    .addCommand(mergeCommand())
    .addCommand(generateCommand());
  // -v as most tools take it: commander's version option has room for one short flag.
  program.on("option:v", () => {
    process.stdout.write(`${buildLine()}\n`);
    throw new CommanderError(0, "commander.version", buildLine());
  });
  for (const command of [program, ...program.commands]) {
    command.exitOverride().configureOutput({ outputError: () => {} });
  }
  return program;
}

/** Runs the command line; every error prints as one `sudoku-wasm: …` line and exits with status 2 (`--help` exits 0). */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  guardStandardStreams();
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return; // help or version, already printed
    // No command given: commander has put the help on stderr, and its message is only a placeholder.
    const missingCommand = error instanceof CommanderError && error.code === "commander.help";
    const commands = program.commands.map((command) => command.name()).join(", ");
    writeStderr(missingCommand ? `sudoku-wasm: missing command (one of ${commands})\n` : errorLine(error));
    process.exitCode = USAGE_ERROR_STATUS;
  }
}

/** True when node runs this file itself (`node dist/src/cli/main.js solve …`), not an importer. */
function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) await main();
