// Copies what the compiled host loads from build/ into dist/build/, so it sits at the same
// relative URL as from the sources: new URL("../build/release.wasm", import.meta.url) is build/
// from src/ and dist/build/ from dist/src/. That is the kernels (release, debug, general,
// general-debug, the variants, canon and canon-debug), the raw bindings the host imports
// (release.js: both solving kernel files export the same entry points, so it serves every build
// of them, see src/kernel/wasm.ts; canon.js, the minlex kernel's, serves both its builds) and the build
// facts. No source maps (their sources are not shipped), no .wat, no other bindings, nothing
// else asc or the bench put in build/ (ref/, examples).
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";

const from = new URL("../build/", import.meta.url);
const to = new URL("../dist/build/", import.meta.url);
const FILES = [
  "release.wasm",
  "debug.wasm",
  "general.wasm",
  "general-debug.wasm",
  "canon.wasm",
  "canon-debug.wasm",
  "release.js",
  "canon.js",
  "facts.js",
  "facts.d.ts",
];
// None when the build left them out (`npm run bench`'s, see scripts/build.mjs --no-variants).
const variants = existsSync(new URL("variants/", from)) ? readdirSync(new URL("variants/", from)).filter((file) => file.endsWith(".wasm")) : [];

rmSync(to, { recursive: true, force: true });
mkdirSync(new URL("variants/", to), { recursive: true });
for (const file of FILES) cpSync(new URL(file, from), new URL(file, to));
for (const file of variants) cpSync(new URL(`variants/${file}`, from), new URL(`variants/${file}`, to));
