// Removes the compiled host before tsc writes it again, so no module of a moved or deleted
// source lingers in dist/ (and in the tarball). dist/web and dist/e2e are left alone.
import { rmSync } from "node:fs";

for (const folder of ["src", "bench", "test"]) rmSync(new URL(`../dist/${folder}/`, import.meta.url), { recursive: true, force: true });
