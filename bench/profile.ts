/**
 * `npm run profile -- [options]`: the kernel variants puzzle by puzzle (options and help in
 * bench/profile/command.ts, the work beside it in bench/profile/).
 * Prints the tables on stdout, progress on stderr; a wrong or disagreeing count exits non-zero.
 */
import { guardStandardStreams } from "../src/cli/errors.js";
import { DatasetSpecError } from "../src/datasets.js";
import { profileCommand } from "./profile/command.js";

// The reader went away (`| head`): stop quietly, status 0, the way the CLI does (idle first, so
// the exit cannot race V8's background work, nodejs/node#54918); another failure is one line, status 2.
guardStandardStreams();

profileCommand()
  .name("npm run profile --")
  .parseAsync(process.argv.slice(2), { from: "user" })
  .catch((error: Error) => {
    process.stderr.write(`profile: ${error.message}\n`);
    process.exitCode = error instanceof DatasetSpecError ? 2 : 1;
  });
