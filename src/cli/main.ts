/**
 * The `sudoku-wasm` command line: one commander program, one subcommand per file
 * (`solve` in solve.ts, `generate` in generate.ts, `profile` in profile.ts). bin/sudoku-wasm.mjs runs the compiled
 * form of this file (dist/src/cli/main.js); running that file directly works too.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { generateCommand } from "./generate.js";
import { profileCommand } from "./profile.js";
import { solveCommand } from "./solve.js";

/** The program with every subcommand. */
export function buildProgram(): Command {
  return new Command("sudoku-wasm")
    .description("the fastest Sudoku solver JavaScript can reach: a WebAssembly kernel on every core")
    .addCommand(solveCommand())
    .addCommand(generateCommand())
    .addCommand(profileCommand());
}

/** Runs the command line; errors print as one `sudoku-wasm: …` line and exit with status 2. */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0); // the reader went away (`| head`): stop quietly
    throw error;
  });
  try {
    await buildProgram().parseAsync([...argv]);
  } catch (error) {
    process.stderr.write(`sudoku-wasm: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
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
