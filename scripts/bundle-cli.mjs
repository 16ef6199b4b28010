#!/usr/bin/env node
/**
 * `npm run build`'s bundle step: the command line's main thread, from the modules tsc wrote
 * (dist/src/cli/main.js and what it imports), as dist/cli/main.mjs and a chunk for each path it
 * imports lazily (a command, judge mode, the TypeScript baselines), which bin/sudoku-wasm.mjs
 * runs: a solve reads a few files where it read about 45 (start-up: 938M against 885M
 * instructions for one puzzle, counted by callgrind). Packages stay imports of node_modules: nothing of
 * theirs is copied into dist/. A module's `new URL("…", import.meta.url)` (how the kernel host
 * finds dist/build/*.wasm) is written relative to dist/cli/, where the chunks sit, instead of
 * its own folder under dist/src/ (see {@link urlsFromCli}). The worker threads run
 * dist/src/pool/worker-entry.cjs, which imports the worker module bundled on its own as
 * dist/cli/worker.mjs (with nothing of the CLI's); every importer of the library runs
 * dist/src/index.js.
 */
import { rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, relative as relativePath, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const dist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url));
const outdir = dist("cli");
rmSync(outdir, { recursive: true, force: true }); // the chunks' names change with their content: no stale one stays
const distRoot = dist("");

/**
 * Rewrites each relative `new URL("…", import.meta.url)` of a module under dist/src/ so that it
 * names the same file from dist/cli/: esbuild copies the expression into a chunk as it is, and
 * the chunk sits in another folder than the module did.
 */
const urlsFromCli = {
  name: "urls-from-cli",
  setup(build) {
    build.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      const contents = text.replace(/new URL\((["'])(\.\.?\/[^"']*)\1/g, (whole, quote, relative) => {
        const target = resolve(dirname(args.path), relative);
        if (!target.startsWith(distRoot)) return whole;
        const fromCli = relativePath(outdir, target).split(sep).join("/") + (relative.endsWith("/") ? "/" : "");
        return `new URL(${quote}${fromCli.startsWith(".") ? fromCli : "./" + fromCli}${quote}`;
      });
      return { contents, loader: "js" };
    });
  },
};
const shared = { bundle: true, format: "esm", platform: "node", target: "node20", packages: "external", logLevel: "warning", plugins: [urlsFromCli] };
await build({
  entryPoints: [dist("src/cli/main.js")],
  outdir,
  // Names from dist/, so that the library's entry (src/index.js), which a command imports lazily, is the chunk "src-…"
  // (from dist/src/cli/ esbuild would name it ".-…", a dot file).
  outbase: distRoot,
  entryNames: "[name]",
  outExtension: { ".js": ".mjs" },
  splitting: true,
  ...shared,
});
// The worker module, whole in one file (dist/cli/worker.mjs), which the workers' entry imports:
// a worker loads it in about 20 ms less than the modules it was built from (a worker ready in
// 64–84 ms against 82–104 ms, AMD EPYC).
await build({ entryPoints: [dist("src/pool/worker.js")], outfile: join(outdir, "worker.mjs"), ...shared });
