/**
 * The `sudoku-wasm` command line (bin/sudoku-wasm.mjs runs its bundle, dist/cli/main.mjs): one
 * subcommand per module, imported only when named, as reading modules is most of a small run's
 * start-up. Every error is one `sudoku-wasm: …` line and status 2.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command, CommanderError, Option } from "commander";
import { buildLine } from "../kernel/build-line.js";
import { dieOnceStopped, stopWhenOrphanedByNpm } from "../cli-kit/progress.js";
import { USAGE_ERROR_STATUS, attempt, errorLine, guardStandardStreams, writeStderr } from "../cli-kit/errors.js";

/** The subcommands in help order, each built by its own module, imported when it is built. */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  solve: async () => (await import("./solve.js")).solveCommand(),
  merge: async () => (await import("./merge.js")).mergeCommand(),
  generate: async () => (await import("./generate.js")).generateCommand(),
  datasets: async () => (await import("./datasets.js")).datasetsCommand(),
  canon: async () => (await import("./canon.js")).canonCommand(),
};

/** The subcommands a command line needs: the one it starts with, or every one (for the help or error of `--help`, a typo, nothing). */
function commandsFor(argv: readonly string[]): string[] {
  const first = argv[2];
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
}

/** The program with the subcommands `names`; commander throws instead of exiting, so {@link main} reports every error once. */
export async function buildProgram(names: readonly string[] = Object.keys(COMMANDS)): Promise<Command> {
  const program = new Command("sudoku-wasm")
    .description("the fastest Sudoku solver JavaScript can reach: a WebAssembly kernel on every core")
    .version(buildLine(), "-V, --version", "print the version and the build: commit, asc version, the kernel's flags (-v too)")
    .addOption(new Option("-v", "the same as -V").hideHelp());
  for (const command of await Promise.all(names.map((name) => COMMANDS[name]()))) program.addCommand(command);
  // -v as most tools take it: commander's version option has room for one short flag.
  program.on("option:v", () => {
    process.stdout.write(`${buildLine()}\n`);
    throw new CommanderError(0, "commander.version", buildLine());
  });
  const withDescendants = (command: Command): Command[] => [command, ...command.commands.flatMap(withDescendants)];
  for (const command of withDescendants(program)) {
    command.exitOverride().configureOutput({ outputError: () => {} });
  }
  return program;
}

/** Runs the command line; every error prints as one `sudoku-wasm: …` line and exits with status 2 (`--help` exits 0). */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  guardStandardStreams();
  stopWhenOrphanedByNpm();
  const program = await buildProgram(commandsFor(argv));
  try {
    await program.parseAsync([...argv]);
    dieOnceStopped(); // (a read of a pipe no signal ends may still wait)
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
  return attempt(() => process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) ?? false;
}

if (isEntryPoint()) await main();
