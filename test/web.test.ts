/**
 * End to end: the web page (web/) built as `npm run web:build` builds it, served statically and
 * driven in headless Chromium and, where it is installed, Firefox ESR. In each it solves pasted
 * puzzles of three sizes in the Web Worker (a bad line's message names every size; a solution
 * shows as a grid), runs a short benchmark with a budget small enough for some puzzles to go
 * over it, and the answers, the wording, the progress bar, the table, the chart (error bars, log
 * and linear) and the JSON/CSV exports are checked; the JSON is read by the bench's own reader
 * and judged by `bench --compare … --against` against itself. Screenshots go to
 * dist/e2e/web-<browser>.png (desktop width) and web-<browser>-phone.png (390 px), where the
 * page must not scroll sideways.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PreviewServer } from "vite";
import { build, preview } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_FIELDS } from "../bench/report/csv.js";
import { parseJson } from "../bench/report/json.js";
import { isValidSolution, parsePuzzle } from "../src/puzzle.js";
import { type BrowserName, type Page, FIREFOX_PATH, chromiumRequired, hasChromium, hasFirefox, withPage } from "./browser.js";

const CONFIG = fileURLToPath(new URL("../web/vite.config.ts", import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL("../dist/e2e/", import.meta.url));
const HARD_9 = "..86....4......32..2...4......8.....5...9.1...763..9..6..9....578.5.126........1.";
const FOUR = "..3..4.22...4..1";
const TWO_SOLUTIONS = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
const BAD = HARD_9.slice(0, 16) + "x" + HARD_9.slice(17);
const SHORT = HARD_9.slice(0, 50);
const BENCH = fileURLToPath(new URL("../dist/bench/bench.js", import.meta.url));

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

        await fill(page, "#puzzles", [HARD_9, FOUR, TWO_SOLUTIONS, BAD, SHORT].join("\n"));
        await page.click("#solve");
        await page.waitForSelector("#solve-results:not([hidden]) tbody tr");
        const solved = await page.$$eval("#solve-results tbody tr", (rows) =>
          rows.map((row) => Array.from(row.querySelectorAll("td"), (td) => td.textContent ?? "")),
        );
        expect(solved.map((cells) => cells[1].split(":")[0])).toEqual(["solved", "solved", "multiple", "invalid", "invalid"]);
        expect(isValidSolution(parsePuzzle(HARD_9), parsePuzzle(solved[0][4]))).toBe(true);
        expect(solved[1][4]).toMatch(/^[1-4]{16}$/);
        expect(solved[3][1]).toContain("cell 17");
        expect(solved[4][1]).toBe("invalid: expected 16, 81, 256 or 625 characters (4×4, 9×9, 16×16, 25×25), got 50");

        // The first solution shows as a grid at once; a click on the 4×4 row shows that one, its clues in bold.
        expect(await gridCells(page)).toEqual({ size: "9", text: solved[0][4], clues: HARD_9.replaceAll(".", "").length });
        await page.click("#solve-results tbody tr:nth-child(2)");
        expect(await gridCells(page)).toEqual({ size: "4", text: solved[1][4], clues: FOUR.replaceAll(".", "").length });

        await fill(page, "#bench-puzzles", "20");
        await fill(page, "#bench-time", "100");
        await fill(page, "#bench-budget", "300"); // some hard puzzles go over it for the slower solvers
        await page.click("#run-bench");
        await page.waitForSelector("#bench-progress:not([hidden])");
        await page.waitForSelector("#bench-status[data-done]", { timeout: 90_000 });
        const rows = await page.$$eval("#bench-table tbody tr", (trs) =>
          trs.map((tr) => ({ dataset: tr.getAttribute("data-dataset"), solver: tr.getAttribute("data-solver"), pps: Number(tr.getAttribute("data-puzzles-per-second")), checked: (tr as HTMLTableRowElement).cells[7].textContent! })),
        );
        const expected = ["easy", "hard"].flatMap((dataset) => ["wasm", "bitmask", "mrv", "dlx"].map((solver) => ({ dataset, solver })));
        expect(rows.map(({ dataset, solver }) => ({ dataset, solver })).sort(byKey)).toEqual(expected.sort(byKey));
        let overBudget = 0;
        for (const row of rows) {
          expect(row.pps).toBeGreaterThan(0);
          const [, verified, over] = /^(\d+)\/20(?: \((\d+) over budget, not checked\))?$/.exec(row.checked)!;
          expect(Number(verified) + Number(over ?? 0)).toBe(20);
          overBudget += Number(over ?? 0);
        }
        expect(overBudget).toBeGreaterThan(0);
        const status = (await text(page, "#bench-status"))!;
        expect(status).not.toContain("every answer checked");
        expect(status).toMatch(new RegExp(`^done: 8 rows in \\d+ s; ${160 - overBudget} of 160 answers checked: ${overBudget} solves went over the budget of 300 nodes`));
        expect(await page.$eval("#bench-progress", (bar) => [(bar as HTMLProgressElement).value, (bar as HTMLProgressElement).max])).toEqual([8, 8]);
        expect(await page.$$eval("#bench-svg rect.bar", (bars) => bars.length)).toBe(rows.length);
        expect(await page.$$eval("#bench-svg path.error-bar", (bars) => bars.length)).toBe(rows.length);
        expect(await page.$eval("#bench-svg", (svg) => svg.getAttribute("data-scale"))).toBe("log");
        console.log(`web bench in ${await text(page, "#env")}\n` + rows.map((r) => `  ${r.dataset} ${r.solver}: ${Math.round(r.pps)}/s`).join("\n"));

        // The exports: the bench's JSON (its reader takes it, and --compare … --against judges it) and its CSV.
        const json = await download(page, "#export-json");
        const run = parseJson(json, "the page's JSON");
        expect(run.records.map((r) => `${r.dataset} ${r.row}`).sort()).toEqual(expected.map((r) => `${r.dataset} ${r.solver}`).sort());
        expect(run.environment).toMatchObject({ seed: 1, limit: 2, budget: 300, puzzles: 20, timeMs: 100 });
        expect(run.records.every((r) => r.batchMs!.length === r.samples)).toBe(true);
        const saved = join(SCREENSHOTS, `web-${name}.json`);
        mkdirSync(SCREENSHOTS, { recursive: true });
        writeFileSync(saved, json);
        const judged = spawnSync(process.execPath, [BENCH, "--compare", saved, "--against", saved], { encoding: "utf8" });
        expect(judged.status, judged.stderr).toBe(0);
        expect(judged.stdout).toMatch(/0 faster, 0 slower, \d+ no change, \d+ not judged, 0 undecided, 0 not run on one side/);
        const csv = (await download(page, "#export-csv")).trim().split("\n");
        expect(csv[0]).toBe(CSV_FIELDS.join(","));
        expect(csv.length).toBe(rows.length + 1);

        await page.select("#chart-scale", "linear");
        expect(await page.$eval("#bench-svg", (svg) => svg.getAttribute("data-scale"))).toBe("linear");
        await page.setViewport({ width: 1280, height: 900 });
        await page.screenshot({ path: `${SCREENSHOTS}web-${name}.png`, fullPage: true });

        // Phone width: nothing makes the page scroll sideways, and a puzzle stays on one line of the input box.
        await page.select("#chart-scale", "log");
        await page.setViewport({ width: 390, height: 844 }); // (isMobile would reload the page and lose the run)
        const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
        expect(widths.page).toBeLessThanOrEqual(widths.view);
        expect(await page.$eval("#puzzles", (box) => getComputedStyle(box).whiteSpace)).toBe("pre");
        await page.screenshot({ path: `${SCREENSHOTS}web-${name}-phone.png`, fullPage: true });
      },
      name,
    );
  });
});

/** The grid view: its size, its cells' text run together, and how many cells are shown as clues. */
function gridCells(page: Page): Promise<{ size: string | null; text: string; clues: number }> {
  return page.$eval("#grid table.grid", (table) => ({
    size: table.getAttribute("data-size"),
    text: Array.from(table.querySelectorAll("td"), (td) => td.textContent).join(""),
    clues: table.querySelectorAll("td.clue").length,
  }));
}

/** What an export link of the page gives (fetched inside the page, where its blob: URL lives). */
function download(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, async (link) => (await fetch((link as HTMLAnchorElement).href)).text());
}

function byKey(a: { dataset: string | null; solver: string | null }, b: { dataset: string | null; solver: string | null }): number {
  return `${a.dataset}/${a.solver}`.localeCompare(`${b.dataset}/${b.solver}`);
}
