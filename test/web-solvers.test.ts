/**
 * The library's `solvers` in a browser (headless Chromium): the npm comparison solvers import their
 * package by name, which a page resolves only through its import map and a Web Worker not at all.
 * The pages load the built library (dist/src) and the packages from node_modules, served as files.
 */
import type { Server } from "node:http";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveFolder, servedUrl } from "../bench/static-server.js";
import { chromiumRequired, hasChromium, withPage } from "./browser.js";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const PAGES = join(ROOT, "dist", "e2e", "web-solvers");
const PUZZLE = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
const PEERS = ["npm:dancing-links", "npm:algorithm.ts"];

/** The page's script: the npm rows of `solvers` on the page and in a module worker, and what each row's createSolver gives. */
const SCRIPT = `import { createSolver, solvers } from "/dist/src/index.js";
const rows = (list) => list.filter((s) => s.peer).map((s) => ({ id: s.id, unavailable: s.unavailable ?? null }));
const loads = {};
for (const id of ${JSON.stringify(PEERS)}) loads[id] = await createSolver({ solver: id }).then((s) => s.solve("${PUZZLE}").status, (e) => e.message);
const source = \`import { solvers } from "\${location.origin}/dist/src/index.js";
postMessage(solvers.filter((s) => s.peer).map((s) => ({ id: s.id, unavailable: s.unavailable ?? null })));\`;
const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" });
const inWorker = await new Promise((done) => { worker.onmessage = (e) => done(e.data); worker.onerror = (e) => done(String(e.message)); });
globalThis.result = { page: rows(solvers), loads, worker: inWorker };`;

/** Every name the two packages import, mapped to its ES module under node_modules. */
const IMPORT_MAP = {
  imports: {
    "dancing-links": "/node_modules/dancing-links/built/lib/index.js",
    "@algorithm.ts/sudoku": "/node_modules/@algorithm.ts/sudoku/lib/esm/index.mjs",
    "@algorithm.ts/dlx": "/node_modules/@algorithm.ts/dlx/lib/esm/index.mjs",
    "@algorithm.ts/shuffle": "/node_modules/@algorithm.ts/shuffle/lib/esm/index.mjs",
  },
};

interface PageResult {
  page: { id: string; unavailable: string | null }[];
  loads: Record<string, string>;
  worker: { id: string; unavailable: string | null }[];
}

describe.skipIf(!hasChromium && !chromiumRequired)("the npm solvers in a browser", () => {
  let server: Server;

  beforeAll(async () => {
    mkdirSync(PAGES, { recursive: true });
    const page = (head: string) => `<!doctype html>${head}<script type="module">${SCRIPT}</script>`;
    writeFileSync(join(PAGES, "unmapped.html"), page(""));
    writeFileSync(join(PAGES, "mapped.html"), page(`<script type="importmap">${JSON.stringify(IMPORT_MAP)}</script>`));
    server = await serveFolder(ROOT);
  });
  afterAll(() => {
    server?.close();
    rmSync(PAGES, { recursive: true, force: true });
  });

  const resultOf = (name: string): Promise<PageResult> =>
    withPage(servedUrl(server, `dist/e2e/web-solvers/${name}`), async (page) => {
      await page.waitForFunction(() => (globalThis as { result?: unknown }).result !== undefined, { timeout: 60_000 });
      return (await page.evaluate(() => (globalThis as { result?: unknown }).result)) as PageResult;
    });

  it("marks them unavailable on a page that maps neither package, saying it needs an import map, and in its worker, which takes none", {
    timeout: 120_000,
  }, async () => {
    const { page, loads, worker } = await resultOf("unmapped.html");
    const packages = ["dancing-links", "@algorithm.ts/sudoku"];
    expect(page).toEqual(
      PEERS.map((id, i) => ({
        id,
        unavailable: `needs the optional package ${packages[i]}, which it imports by name: this page cannot, as it has no import map that maps ${packages[i]} to the package's module`,
      })),
    );
    expect(worker).toEqual(
      PEERS.map((id, i) => ({
        id,
        unavailable: `needs the optional package ${packages[i]}, which it imports by name: a Web Worker cannot, as it takes no import map (use it on the page, with an import map that maps ${packages[i]} to the package's module)`,
      })),
    );
    // asked for anyway, each still fails on its import, naming the solver and the package
    for (const [i, id] of PEERS.entries())
      expect(loads[id]).toMatch(new RegExp(`^solver '${id}' could not import the optional package ${packages[i]}, .*import map`));
  });

  it("lists them as available on a page whose import map maps the packages, where they load and solve", { timeout: 120_000 }, async () => {
    const { page, loads, worker } = await resultOf("mapped.html");
    expect(page).toEqual(PEERS.map((id) => ({ id, unavailable: null })));
    expect(loads).toEqual(Object.fromEntries(PEERS.map((id) => [id, "solved"])));
    expect(worker.map((row) => row.unavailable)).toEqual(PEERS.map(() => expect.stringContaining("a Web Worker cannot")));
  });
});
