#!/usr/bin/env node
/**
 * npm's `prepack` step: `npm run build` unless dist/ is current (scripts/build-stamp.mjs). npm
 * runs it before `npm pack` and `npm publish`, and when a project installs this package from a
 * git URL (dist/ is not committed, so that install builds it here, with this package's
 * devDependencies, before packing). A current build is left as it is. Not `prepare`: npm lists
 * a package with a `prepare` script as one whose install scripts need approving, and installing
 * the tarball would warn about a script whose file it does not hold.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { builtHash, root, sourcesHash } from "./build-stamp.mjs";

const built = ["dist/src/index.js", "dist/build/release.wasm", "dist/build/facts.js"].every((file) => existsSync(join(root, file)));
if (!built || builtHash() !== sourcesHash()) {
  process.stderr.write("sudoku-wasm: prepack: dist/ is missing or older than the sources: npm run build\n");
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: ["ignore", "inherit", "inherit"], shell: process.platform === "win32" });
  process.exit(build.status ?? 1);
}
