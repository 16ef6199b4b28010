/**
 * `npm run profile -- [options]`: the kernel variants puzzle by puzzle (options, help and the run in
 * bench/profile/run.ts, the work beside it in bench/profile/).
 * Prints the tables on stdout, progress on stderr; a wrong or disagreeing count exits non-zero.
 */
import { profileCommand } from "./profile/run.js";
import { quietUsage, runTool } from "./tool.js";

await runTool("profile", () => quietUsage(profileCommand().name("npm run profile --")).parseAsync(process.argv.slice(2), { from: "user" }));
