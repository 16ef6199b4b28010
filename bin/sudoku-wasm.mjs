#!/usr/bin/env node
// The sudoku-wasm command: runs the compiled CLI (dist/src/cli/main.js), which `npm run build` makes.
import { existsSync } from "node:fs";

const cli = new URL("../dist/src/cli/main.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write("sudoku-wasm: dist/src/cli/main.js is missing; run `npm run build` first\n");
  process.exit(1);
}
const { main } = await import(cli.href);
await main(process.argv);
