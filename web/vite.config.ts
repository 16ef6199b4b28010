// `npm run web` serves this page; `npm run web:build` writes it to dist/web/ (gitignored), a
// static site that works from any folder (relative base).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const ISOLATED = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  // cross-origin isolated, so that the browser's clock is not rounded to 0.1 ms (Chromium) or 1 ms (Firefox) under the timed passes
  server: { fs: { allow: [fileURLToPath(new URL("..", import.meta.url))] }, headers: ISOLATED },
  preview: { headers: ISOLATED },
  worker: { format: "es" },
  build: { outDir: "../dist/web", emptyOutDir: true, target: "es2022" },
});
