// Copies what the compiled host loads from build/ into dist/build/, so it sits at the same
// relative URL as from the sources: new URL("../build/release.wasm", import.meta.url) is build/
// from src/ and dist/build/ from dist/src/. That is every kernel (.wasm), the two raw bindings
// the host imports (release.js serves every 9×9 build, general.js both N×N builds) and the build
// facts. No source maps (their sources are not shipped), no .wat.
import { cpSync, rmSync } from "node:fs";
import { basename } from "node:path";

const KEPT = new Set(["release.js", "general.js", "facts.js", "facts.d.ts"]);
const from = new URL("../build/", import.meta.url);
const to = new URL("../dist/build/", import.meta.url);
rmSync(to, { recursive: true, force: true });
cpSync(from, to, {
  recursive: true,
  filter: (source) => !/\.[a-z]+$/.test(basename(source)) || source.endsWith(".wasm") || KEPT.has(basename(source)),
});
