// Builds every kernel variant of assembly/variants.json except the default twice, with the
// release target's settings into build/variants/<name>.wasm and with the debug target's (asserts
// on) into build/variants-debug/<name>.wasm (+ raw bindings). The debug builds are for the tests
// (test/fixture.test.ts runs them): dist/ does not get them. They come second, when asc is warm
// in this process, so they add about a second each.
import asc from "assemblyscript/asc";
import { readFile } from "node:fs/promises";

const { variants } = JSON.parse(await readFile(new URL("../assembly/variants.json", import.meta.url), "utf8"));
const builds = [
  { target: "release", folder: "variants" },
  { target: "debug", folder: "variants-debug" },
];
for (const { target, folder } of builds) {
  for (const { name, use } of variants.filter((v) => v.name !== "")) {
    const flags = Object.entries(use).flatMap(([key, value]) => ["--use", `${key}=${value}`]);
    const out = target === "debug" ? ["--textFile", `build/${folder}/${name}.wat`] : []; // else the debug target's build/debug.wat
    const { error, stderr } = await asc.main(["assembly/index.ts", "--target", target, "-o", `build/${folder}/${name}.wasm`, ...out, ...flags]);
    if (error) {
      console.error(stderr.toString());
      process.exit(1);
    }
  }
}
