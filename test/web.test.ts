/**
 * End to end: the web page (web/) built as `npm run web:build` builds it, served statically and
 * driven in headless Chromium and, where it is installed, Firefox ESR. In each it solves pasted
 * puzzles of three sizes in the Web Worker, runs a short benchmark, and the answers, the table
 * and the chart are checked; a screenshot is written to dist/e2e/web-<browser>.png for review.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { PreviewServer } from "vite";
import { build, preview } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isValidSolution, parsePuzzle } from "../src/puzzle.js";
import { type BrowserName, type Page, FIREFOX_PATH, chromiumRequired, hasChromium, hasFirefox, withPage } from "./browser.js";

const CONFIG = fileURLToPath(new URL("../web/vite.config.ts", import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL("../dist/e2e/", import.meta.url));
const HARD_9 = "..86....4......32..2...4......8.....5...9.1...763..9..6..9....578.5.126........1.";
const FOUR = "..3..4.22...4..1";
const TWO_SOLUTIONS = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
const BAD = HARD_9.slice(0, 16) + "x" + HARD_9.slice(17);

/** Each browser, the engine its page must name, and why it is skipped here (undefined: it runs). */
const BROWSERS: { name: BrowserName; engine: RegExp; skip: string | undefined }[] = [
  { name: "chromium", engine: /Chromium.*\(V8\)/, skip: hasChromium || chromiumRequired ? undefined : "no Chromium here (apt-get install chromium)" },
  { name: "firefox", engine: /Firefox.*\(SpiderMonkey\)/, skip: hasFirefox ? undefined : `no Firefox ESR at ${FIREFOX_PATH} (apt-get install firefox-esr)` },
];

/** The text of the first element matching `selector`. */
const text = (page: Page, selector: string): Promise<string | null> => page.$eval(selector, (element) => element.textContent);

/** Sets a form field's value, as typing would leave it. */
const fill = (page: Page, selector: string, value: string): Promise<void> =>
  page.$eval(selector, (element, value) => void ((element as HTMLInputElement).value = value), value);

describe.skipIf(BROWSERS.every((browser) => browser.skip))("the web page in headless browsers", () => {
  let server: PreviewServer;
  let url: string;

  beforeAll(async () => {
    await build({ configFile: CONFIG, logLevel: "warn" });
    server = await preview({ configFile: CONFIG, logLevel: "warn", preview: { port: 0, host: "127.0.0.1" } });
    url = server.resolvedUrls!.local[0];
  });
  afterAll(async () => server?.close());

  it.for(BROWSERS)("$name: solves pasted puzzles in the worker, runs a short bench whose answers, table and chart check out", { timeout: 120_000 }, async ({ name, engine, skip }, context) => {
    if (skip) context.skip(skip);
    await withPage(
      url,
      async (page) => {
        await page.waitForSelector("#solve:not([disabled])");
        expect(await text(page, "#env")).toMatch(engine);

        await fill(page, "#puzzles", [HARD_9, FOUR, TWO_SOLUTIONS, BAD].join("\n"));
        await page.click("#solve");
        await page.waitForSelector("#solve-results:not([hidden]) tbody tr");
        const solved = await page.$$eval("#solve-results tbody tr", (rows) =>
          rows.map((row) => Array.from(row.querySelectorAll("td"), (td) => td.textContent ?? "")),
        );
        expect(solved.map((cells) => cells[1].split(":")[0])).toEqual(["solved", "solved", "multiple", "invalid"]);
        expect(isValidSolution(parsePuzzle(HARD_9), parsePuzzle(solved[0][4]))).toBe(true);
        expect(solved[1][4]).toMatch(/^[1-4]{16}$/);
        expect(solved[3][1]).toContain("cell 17");

        await fill(page, "#bench-puzzles", "20");
        await fill(page, "#bench-time", "100");
        await page.click("#run-bench");
        await page.waitForSelector("#bench-status[data-done]", { timeout: 90_000 });
        const rows = await page.$$eval("#bench-table tbody tr", (trs) =>
          trs.map((tr) => ({ dataset: tr.getAttribute("data-dataset"), solver: tr.getAttribute("data-solver"), pps: Number(tr.getAttribute("data-puzzles-per-second")), checked: (tr as HTMLTableRowElement).cells[7].textContent })),
        );
        const expected = ["easy", "hard"].flatMap((dataset) => ["wasm", "bitmask", "mrv", "dlx"].map((solver) => ({ dataset, solver })));
        expect(rows.map(({ dataset, solver }) => ({ dataset, solver })).sort(byKey)).toEqual(expected.sort(byKey));
        for (const row of rows) {
          expect(row.pps).toBeGreaterThan(0);
          expect(row.checked).toBe("20/20");
        }
        expect(await page.$$eval("#bench-svg rect.bar", (bars) => bars.length)).toBe(rows.length);
        console.log(`web bench in ${await text(page, "#env")}\n` + rows.map((r) => `  ${r.dataset} ${r.solver}: ${Math.round(r.pps)}/s`).join("\n"));

        mkdirSync(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: `${SCREENSHOTS}web-${name}.png`, fullPage: true });
      },
      name,
    );
  });
});

function byKey(a: { dataset: string | null; solver: string | null }, b: { dataset: string | null; solver: string | null }): number {
  return `${a.dataset}/${a.solver}`.localeCompare(`${b.dataset}/${b.solver}`);
}
