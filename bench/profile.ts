/** `npm run profile`: the kernel variants puzzle by puzzle (bench/profile/). A wrong or disagreeing count exits non-zero. */
import { profileCommand } from "./profile/run.js";
import { quietUsage, runTool } from "./tool.js";

await runTool("profile", () => quietUsage(profileCommand().name("npm run profile --")).parseAsync(process.argv.slice(2), { from: "user" }));
