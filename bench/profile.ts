/**
 * `npm run profile -- [options]`: the kernel variants puzzle by puzzle (options and help in
 * bench/profile/command.ts, the work beside it in bench/profile/).
 * Prints the tables on stdout, progress on stderr; a wrong or disagreeing count exits non-zero.
 */
import { profileCommand } from "./profile/command.js";

process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0); // the reader went away (`| head`): stop quietly
  throw error;
});

profileCommand()
  .name("npm run profile --")
  .parseAsync(process.argv.slice(2), { from: "user" })
  .catch((error: Error) => {
    process.stderr.write(`profile: ${error.message}\n`);
    process.exitCode = 1;
  });
