#!/usr/bin/env node
// The sudoku-wasm command: runs the bundled CLI (dist/cli/main.mjs, from the compiled dist/src/cli/main.js), which `npm run build` makes.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli/main.mjs", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write("sudoku-wasm: dist/cli/main.mjs is missing; run `npm run build` first\n");
  process.exit(1);
}
const { main } = await import(cli.href);
await main(process.argv);
