#!/usr/bin/env node
/**
 * `npm run build`'s bundle step: the command line's main thread, from the modules tsc wrote
 * (dist/src/cli/main.js and what it imports), as dist/cli/main.mjs and a chunk for each path it
 * imports lazily (a command, judge mode, the TypeScript baselines), which bin/sudoku-wasm.mjs
 * runs: a solve reads a few files where it read about 45 (start-up: 938M against 885M
 * instructions for one puzzle, counted by callgrind). Packages stay imports of node_modules: nothing of
 * theirs is copied into dist/. The chunks sit one folder below dist/, as dist/src/*.js do, so
 * `new URL("../build/…", import.meta.url)` finds the kernels. The worker threads run
 * dist/src/pool/worker-entry.cjs, which imports the worker module bundled on its own as
 * dist/cli/worker.mjs (with nothing of the CLI's); every importer of the library runs
 * dist/src/index.js.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const dist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url));
const outdir = dist("cli");
rmSync(outdir, { recursive: true, force: true }); // the chunks' names change with their content: no stale one stays
const shared = { bundle: true, format: "esm", platform: "node", target: "node20", packages: "external", logLevel: "warning" };
await build({
  entryPoints: [dist("src/cli/main.js")],
  outdir,
  outExtension: { ".js": ".mjs" },
  splitting: true,
  ...shared,
});
// The worker module, whole in one file (dist/cli/worker.mjs), which the workers' entry imports:
// a worker loads it in about 20 ms less than the modules it was built from (a worker ready in
// 64–84 ms against 82–104 ms, AMD EPYC).
await build({ entryPoints: [dist("src/pool/worker.js")], outfile: join(outdir, "worker.mjs"), ...shared });
