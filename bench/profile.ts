/**
 * `npm run profile -- [options]`: the kernel variants puzzle by puzzle (options and help in
 * bench/profile/command.ts, the work beside it in bench/profile/).
 * Prints the tables on stdout, progress on stderr; a wrong or disagreeing count exits non-zero.
 */
import { CommanderError } from "commander";
import { USAGE_ERROR_STATUS, describeError, guardStandardStreams } from "../src/cli-kit/errors.js";
import { DatasetSpecError } from "../src/datasets/read.js";
import { terminalSafe } from "./report/format.js";
import { profileCommand } from "./profile/command.js";

// The reader went away (`| head`): stop quietly, status 0, the way the CLI does (idle first, so
// the exit cannot race V8's background work, nodejs/node#54918); another failure is one line, status 2.
guardStandardStreams("profile");

// A usage error (an unknown option, a bad value, a dataset name that does not resolve) exits 2 naming
// the tool, as the bench and the CLI do; a failed run exits 1.
profileCommand()
  .name("npm run profile --")
  .exitOverride()
  .configureOutput({ outputError: () => {} })
  .parseAsync(process.argv.slice(2), { from: "user" })
  .catch((error: unknown) => {
    if (error instanceof CommanderError && error.exitCode === 0) return; // --help, already printed
    process.stderr.write(`profile: ${terminalSafe(describeError(error).replace(/^error: /, ""))}\n`);
    process.exitCode = error instanceof CommanderError || error instanceof DatasetSpecError ? USAGE_ERROR_STATUS : 1;
  });
