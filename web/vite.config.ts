// `npm run web` serves this page; `npm run web:build` writes it to dist/web/ (gitignored), a
// static site that works from any folder (relative base).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  server: { fs: { allow: [fileURLToPath(new URL("..", import.meta.url))] } },
  worker: { format: "es" },
  build: { outDir: "../dist/web", emptyOutDir: true, target: "es2022" },
});
