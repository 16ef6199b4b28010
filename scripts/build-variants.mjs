// Builds every kernel variant of assembly/variants.json except the default into
// build/variants/<name>.wasm (+ raw bindings), with the release target's settings.
import asc from "assemblyscript/asc";
import { readFile } from "node:fs/promises";

const { variants } = JSON.parse(await readFile(new URL("../assembly/variants.json", import.meta.url), "utf8"));
for (const { name, use } of variants.filter((v) => v.name !== "")) {
  const flags = Object.entries(use).flatMap(([key, value]) => ["--use", `${key}=${value}`]);
  const { error, stderr } = await asc.main(["assembly/index.ts", "--target", "release", "-o", `build/variants/${name}.wasm`, ...flags]);
  if (error) {
    console.error(stderr.toString());
    process.exit(1);
  }
}
