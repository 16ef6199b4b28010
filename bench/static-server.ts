/** A static server of a built page's folder on a free port of 127.0.0.1, for a headless browser; plain or cross-origin isolated. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { type Server, createServer } from "node:http";
import { extname, join, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".txt": "text/plain",
};

/** Serves the files under `folder` (404 for anything else); `isolated`: with COOP `same-origin` and COEP `require-corp`. */
export function serveFolder(folder: string, isolated = false): Promise<Server> {
  const isolation = isolated ? { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" } : {};
  const server = createServer((request, response) => {
    const path = join(folder, decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    if (!path.startsWith(folder + sep) || !existsSync(path) || !statSync(path).isFile()) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream", ...isolation }).end(readFileSync(path));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** The address of `server`'s `path` (from {@link serveFolder}). */
export function servedUrl(server: Server, path: string): string {
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/${path}`;
}
