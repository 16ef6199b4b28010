// Builds every kernel variant of assembly/variants.json except the default twice, with the
// release target's settings into build/variants/<name>.wasm and with the debug target's (asserts
// on) into build/variants-debug/<name>.wasm (+ raw bindings). The debug builds are for the tests
// (test/fixture.test.ts runs them): dist/ does not get them.
//
// The builds are shared among one process per core (each compiles its share one after another,
// with asc warm after the first), so n cores take about 1/n of the time, plus a warm-up each.
//
//   node scripts/build-variants.mjs            all of them, on every core
//   node scripts/build-variants.mjs --part K/N the builds K, K + N, K + 2N, … of the list (one process's share)
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

const { variants } = JSON.parse(await readFile(new URL("../assembly/variants.json", import.meta.url), "utf8"));
const builds = [
  { target: "release", folder: "variants" },
  { target: "debug", folder: "variants-debug" },
].flatMap(({ target, folder }) => variants.filter((v) => v.name !== "").map((variant) => ({ target, folder, variant })));

const part = process.argv.indexOf("--part");
if (part < 0) {
  const processes = Math.min(availableParallelism(), builds.length);
  const script = fileURLToPath(import.meta.url);
  const statuses = await Promise.all(
    Array.from({ length: processes }, (_, k) => {
      const child = spawn(process.execPath, [script, "--part", `${k}/${processes}`], { stdio: "inherit" });
      return new Promise((done) => child.on("close", (status) => done(status ?? 1)));
    }),
  );
  process.exit(statuses.find((status) => status !== 0) ?? 0);
}

const [first, step] = process.argv[part + 1].split("/").map(Number);
const { default: asc } = await import("assemblyscript/asc"); // in the processes that compile, not in the one that starts them
for (let i = first; i < builds.length; i += step) {
  const { target, folder, variant } = builds[i];
  const flags = Object.entries(variant.use).flatMap(([key, value]) => ["--use", `${key}=${value}`]);
  const out = target === "debug" ? ["--textFile", `build/${folder}/${variant.name}.wat`] : []; // else the debug target's build/debug.wat
  const { error, stderr } = await asc.main(["assembly/index.ts", "--target", target, "-o", `build/${folder}/${variant.name}.wasm`, ...out, ...flags]);
  if (error) {
    console.error(stderr.toString());
    process.exit(1);
  }
}
