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
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ElementHandle, HTTPRequest } from "puppeteer-core";
import type { PreviewServer } from "vite";
import { build, createServer, preview } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_FIELDS } from "../bench/report/format.js";
import { RUN_CSV_FIELDS } from "../bench/report/run-csv.js";
import { parseJson } from "../bench/report/json.js";
import { isValidSolution, parsePuzzle } from "../src/model/puzzle.js";
import { type BrowserName, type Page, FIREFOX_PATH, chromiumRequired, hasChromium, hasFirefox, withPage } from "./browser.js";

const CONFIG = fileURLToPath(new URL("../web/vite.config.ts", import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL("../dist/e2e/", import.meta.url));
const HARD_9 = "..86....4......32..2...4......8.....5...9.1...763..9..6..9....578.5.126........1.";
const FOUR = "..3..4.22...4..1";
const TWO_SOLUTIONS = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
const BAD = HARD_9.slice(0, 16) + "y" + HARD_9.slice(17);
const SHORT = HARD_9.slice(0, 50);
const BENCH = fileURLToPath(new URL("../dist/bench/bench.js", import.meta.url));
const EASY = readFileSync(new URL("../datasets/easy.txt", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.length === 81);
/** Markup that would run if the page put a name or a puzzle line into its HTML unescaped. */
const MARKUP = `<img src=x onerror="window.hacked=1">`;
/** The large paste, as the page builds it from EASY: 100,000 lines, every 1,000th a comment, every 997th too short. */
const LARGE = Array.from({ length: 100_000 }, (_, index) => {
  const i = index + 1;
  return i % 1000 === 0 ? "# comment" : i % 997 === 0 ? EASY[i % EASY.length].slice(0, 40) : EASY[i % EASY.length];
});

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

  // A Vite build: the tests' time limit, not Vitest's 10 s for a hook, which a loaded machine can outlast.
  beforeAll(async () => {
    await build({ configFile: CONFIG, logLevel: "warn" });
    server = await preview({ configFile: CONFIG, logLevel: "warn", preview: { port: 0, host: "127.0.0.1" } });
    url = server.resolvedUrls!.local[0];
  }, 120_000);
  afterAll(async () => server?.close());

  it.for(BROWSERS)(
    "$name: solves pasted puzzles in the worker, runs a short bench whose answers, table and chart check out",
    { timeout: 120_000 },
    async ({ name, engine, skip }, context) => {
      if (skip) context.skip(skip);
      await withPage(
        url,
        async (page) => {
          await page.waitForSelector("#solve:not([disabled])");
          expect(await text(page, "#env")).toMatch(engine);

          await fill(page, "#puzzles", [HARD_9, FOUR, TWO_SOLUTIONS, BAD, SHORT].join("\n"));
          await page.click("#solve");
          await page.waitForSelector("#solve-results:not([hidden]) tbody tr");
          const solved = await page.$$eval("#solve-results tbody tr[data-index]", (rows) =>
            rows.map((row) => Array.from(row.querySelectorAll("td"), (td) => td.textContent ?? "")),
          );
          expect(solved.map((cells) => cells[1].split(":")[0])).toEqual(["solved", "solved", "multiple", "invalid", "invalid"]);
          expect(isValidSolution(parsePuzzle(HARD_9), parsePuzzle(solved[0][4]))).toBe(true);
          expect(solved[1][4]).toMatch(/^[1-4]{16}$/);
          expect(solved[3][1]).toContain("cell 17");
          expect(solved[4][1]).toBe("invalid: expected 16, 81, 256 or 625 characters (4×4, 9×9, 16×16, 25×25), got 50");

          // The first solution shows as a grid at once; a click on the 4×4 row shows that one, its clues in bold.
          expect(await gridCells(page)).toEqual({ size: "9", text: solved[0][4], clues: HARD_9.replaceAll(".", "").length });
          await page.click('#solve-results tbody tr[data-index="1"]');
          expect(await gridCells(page)).toEqual({ size: "4", text: solved[1][4], clues: FOUR.replaceAll(".", "").length });

          await fill(page, "#bench-puzzles", "20");
          await fill(page, "#bench-time", "100");
          await fill(page, "#bench-budget", "300"); // some hard puzzles go over it for the slower solvers
          await page.click("#run-bench");
          await page.waitForSelector("#bench-progress:not([hidden])");
          await page.waitForSelector("#bench-status[data-done]", { timeout: 90_000 });
          const rows = await page.$$eval("#bench-table tbody tr", (trs) =>
            trs.map((tr) => {
              const cell = (column: string) => tr.querySelector(`td[data-column="${column}"]`)!.textContent!;
              const pps = Number(tr.getAttribute("data-puzzles-per-second"));
              const rme = Number(tr.getAttribute("data-rme-percent")); // the exact figure; the ± cell is rounded
              const [dataset, solver] = [tr.getAttribute("data-dataset"), tr.getAttribute("data-solver")];
              return { dataset, solver, pps, rme, checked: cell("answers checked"), margin: cell("±"), flags: cell("flags") };
            }),
          );
          const expected = ["easy", "hard"].flatMap((dataset) => ["wasm", "bitmask", "mrv", "dlx"].map((solver) => ({ dataset, solver })));
          expect(rows.map(({ dataset, solver }) => ({ dataset, solver })).sort(byKey)).toEqual(expected.sort(byKey));
          let overBudget = 0;
          for (const row of rows) {
            expect(row.pps).toBeGreaterThan(0);
            const [, verified, over] = /^(\d+)\/20(?: \((\d+) over budget, not checked\))?$/.exec(row.checked)!;
            const marks = [row.rme > 5 ? "N" : "", Number(over ?? 0) * 2 > 20 ? "T" : ""].filter(Boolean).join(" "); // the bench's rules
            expect(row.flags, `${row.dataset} ${row.solver} ± ${row.margin}, ${row.checked}`).toBe(marks);
            expect(Math.abs(Number.parseFloat(row.margin.replaceAll(",", "")) - row.rme)).toBeLessThanOrEqual(0.05 + 1e-9); // shown to one decimal
            expect(Number(verified) + Number(over ?? 0)).toBe(20);
            overBudget += Number(over ?? 0);
          }
          expect(overBudget).toBeGreaterThan(0);
          const status = (await text(page, "#bench-status"))!;
          expect(status).not.toContain("every answer checked");
          expect(status).toMatch(
            new RegExp(`^done: 8 rows in [\\d.]+ s; ${160 - overBudget} of 160 answers checked: ${overBudget} solves went over the budget of 300 nodes`),
          );
          const noisy = rows.filter((row) => row.flags.includes("N")).length;
          const timedOut = rows.filter((row) => row.flags.includes("T")).length;
          if (noisy > 0) {
            expect(status).toContain(`; ${noisy} of them noisy (N, see below the table)`);
            expect(await text(page, "#bench-notes")).toMatch(new RegExp(`^N noisy \\(${noisy} rows?\\): the ± of the mean is above 5%`));
          }
          if (timedOut > 0) expect(await text(page, "#bench-notes")).toMatch(new RegExp(`T timed out \\(${timedOut} rows?\\): more than half its puzzles`));
          if (noisy + timedOut === 0) expect(await page.$eval("#bench-notes", (notes) => (notes as HTMLElement).hidden)).toBe(true);
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
          expect(csv[0]).toBe([...CSV_FIELDS, ...RUN_CSV_FIELDS].join(","));
          expect(csv.length).toBe(rows.length + 1);
          // every row ends with the run's CPU (quoted: it may hold commas), commit and an empty incomplete mark
          for (const line of csv.slice(1)) expect(line.endsWith(`,${run.environment.commit ?? ""},`), line).toBe(true);

          await page.select("#chart-scale", "linear");
          expect(await page.$eval("#bench-svg", (svg) => svg.getAttribute("data-scale"))).toBe("linear");
          // The sizes below are set by puppeteer's setViewport, which in Firefox sends a WebDriver BiDi command Firefox ESR 140
          // does not know (emulation.setScreenOrientationOverride): the layout is checked in Chromium.
          if (name === "firefox") return;
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
    },
  );

  it("chromium: the page of the dev server (npm run web) starts its worker and solves", { timeout: 120_000 }, async (context) => {
    if (BROWSERS[0].skip) context.skip(BROWSERS[0].skip);
    const dev = await createServer({ configFile: CONFIG, logLevel: "warn", server: { port: 0, host: "127.0.0.1" } });
    try {
      await dev.listen();
      await withPage(dev.resolvedUrls!.local[0], async (page) => {
        await page.waitForSelector("#solve:not([disabled])", { timeout: 60_000 });
        await fill(page, "#puzzles", HARD_9);
        await page.click("#solve");
        await page.waitForSelector("#solve-results:not([hidden]) tbody tr");
        expect(await text(page, "#solve-status")).toMatch(/^1 puzzle in .* ms: 1 solved$/);
      });
    } finally {
      await dev.close();
    }
  });

  it("chromium: Stop ends a running bench, keeps its rows, and a new run works; a dropped file can be removed", { timeout: 120_000 }, async (context) => {
    if (BROWSERS[0].skip) context.skip(BROWSERS[0].skip);
    const folder = mkdtempSync(join(tmpdir(), "sudoku-wasm-web-"));
    const dropped = join(folder, "mine.txt");
    writeFileSync(dropped, `${EASY.slice(0, 3).join("\n")}\n`);
    try {
      await withPage(url, async (page) => {
        await page.waitForSelector("#run-bench:not([disabled])");
        const solvers = await page.$$eval("#bench-solvers input", (boxes) => boxes.map((box) => (box as HTMLInputElement).value));
        expect(await page.$eval("#stop-bench", (button) => (button as HTMLElement).hidden)).toBe(true);
        await fill(page, "#bench-time", "3000"); // 8 rows of 3 s each: the stop comes long before the end
        await page.click("#run-bench");
        await page.waitForSelector("#bench-table tbody tr");
        await page.click("#stop-bench");
        const status = (await text(page, "#bench-status"))!;
        const [, shown] = /^stopped: (\d+) rows? measured before the stop \(shown, not exported\)$/.exec(status) ?? [status, "none"];
        expect(Number(shown)).toBeGreaterThan(0);
        expect(Number(shown)).toBeLessThan(8);
        expect(await page.$$eval("#bench-table tbody tr", (rows) => rows.length)).toBe(Number(shown));
        const hidden = (selector: string) => page.$eval(selector, (element) => (element as HTMLElement).hidden);
        expect([await hidden("#stop-bench"), await hidden("#bench-progress"), await hidden("#exports")]).toEqual([true, true, true]);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await page.$$eval("#bench-table tbody tr", (rows) => rows.length)).toBe(Number(shown)); // nothing more came from the old worker

        // Stopped while its datasets are still being read (their requests held): the run never reaches the new worker.
        await page.waitForSelector("#run-bench:not([disabled])");
        await page.setRequestInterception(true);
        const held: HTTPRequest[] = [];
        let stopped = false;
        const hold = (request: HTTPRequest) => void (!stopped && request.url().endsWith(".txt") ? held.push(request) : request.continue());
        page.on("request", hold);
        await page.click("#run-bench");
        await page.waitForFunction(() => document.getElementById("bench-status")!.textContent === "reading the datasets…");
        await page.click("#stop-bench");
        stopped = true;
        let answers = 0;
        const tiersRead = new Promise<void>((resolve) =>
          page.on("response", (response) => void (response.url().endsWith(".txt") && ++answers === 2 && resolve())),
        );
        for (const request of held) await request.continue();
        await tiersRead; // both ticked tiers (easy, hard) of the stopped run are read now
        await page.waitForSelector("#run-bench:not([disabled])");
        await new Promise((resolve) => setTimeout(resolve, 500)); // what the run would do next, given time
        page.off("request", hold);
        await page.setRequestInterception(false);
        expect(await text(page, "#bench-status")).toBe("stopped: 0 rows measured before the stop (shown, not exported)");
        expect([await page.$$eval("#bench-table tbody tr", (rows) => rows.length), await hidden("#bench-progress")]).toEqual([0, true]);

        // The new worker runs the next bench (its solvers listed once); a file dropped and removed is not among its datasets.
        await page.waitForSelector("#run-bench:not([disabled])");
        expect(await page.$$eval("#bench-solvers input", (boxes) => boxes.map((box) => (box as HTMLInputElement).value))).toEqual(solvers);
        await ((await page.$("#bench-file")) as ElementHandle<HTMLInputElement>).uploadFile(dropped);
        await page.waitForFunction(() => document.getElementById("dropped")!.textContent !== "");
        await page.click("#drop-remove");
        expect([await text(page, "#dropped"), await hidden("#drop-remove")]).toEqual(["", true]);
        await page.$$eval("#bench-solvers input", (boxes) =>
          boxes.forEach((box) => void ((box as HTMLInputElement).checked = (box as HTMLInputElement).value === "wasm")),
        );
        await fill(page, "#bench-puzzles", "3");
        await fill(page, "#bench-time", "20");
        await page.click("#run-bench");
        await page.waitForFunction(() => document.getElementById("bench-status")!.textContent!.startsWith("done: "), { timeout: 60_000 });
        const rows = await page.$$eval("#bench-table tbody tr", (trs) =>
          trs.map((tr) => `${tr.getAttribute("data-dataset")} ${tr.getAttribute("data-solver")}`),
        );
        expect(rows).toEqual(["easy wasm", "hard wasm"]);
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  const LARGE_TEST = "chromium: a 100,000-line paste shows every result in order while the page stays responsive; the header, empty states and escaping";
  it(LARGE_TEST, { timeout: 120_000 }, async (context) => {
    if (BROWSERS[0].skip) context.skip(BROWSERS[0].skip);
    const folder = mkdtempSync(join(tmpdir(), "sudoku-wasm-web-"));
    const hostile = join(folder, `${MARKUP}.txt`);
    writeFileSync(hostile, `${EASY.slice(0, 3).join("\n")}\n`);
    try {
      await withPage(url, async (page) => {
        await page.waitForSelector("#solve:not([disabled])");

        // The header says what runs, on how many threads, in which browser; the build flags wait behind "Technical details".
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, without what the closed "Technical details" holds
        const header = await page.$eval("header", (element) => (element as HTMLElement).innerText);
        expect(header).toMatch(/WebAssembly/);
        expect(header).toMatch(/Running in Chromium.*\(V8\), on one thread of this machine's \d+ logical cores?\./);
        expect(header).not.toMatch(/runtime=|noAssert|optimizeLevel|asc \d|timer coarse/);
        expect(await text(page, "#kernel")).toMatch(/^Build: sudoku-wasm .*asc \d.*optimizeLevel=3/);
        expect(await page.$eval("#details", (details) => (details as HTMLDetailsElement).open)).toBe(false);

        // An empty box, and one of only blank lines and comments, are said to be so; nothing is shown.
        const empty = "the box is empty: paste puzzles into it, one per line";
        const comments = "no puzzles in the box: only blank lines and comments (lines starting with #)";
        for (const [box, said] of [
          ["", empty],
          [" \n\n  ", empty],
          ["# a comment\n\n", comments],
        ]) {
          await fill(page, "#puzzles", box);
          await page.click("#solve");
          await page.waitForFunction((said) => document.getElementById("solve-status")!.textContent === said, {}, said);
          expect(await page.$eval("#solve-results", (table) => (table as HTMLTableElement).hidden)).toBe(true);
        }

        // Nothing to run: said so, and no run starts.
        const untick = (container: string) =>
          page.$$eval(`${container} input[type=checkbox]`, (boxes) => boxes.forEach((box) => void ((box as HTMLInputElement).checked = false)));
        await untick("#bench-solvers");
        await page.click("#run-bench");
        expect(await text(page, "#bench-status")).toBe("nothing to run: tick at least one solver");
        await page.click('#bench-solvers input[value="wasm"]');
        // A setting that is not a whole number in its range is refused, named, before anything runs (the CLI refuses them too).
        await fill(page, "#bench-puzzles", "-5");
        await page.click("#run-bench");
        expect(await text(page, "#bench-status")).toBe("puzzles per dataset must be a whole number from 1 up, got '-5'");
        await fill(page, "#bench-puzzles", "3");
        await fill(page, "#bench-budget", "");
        await page.click("#run-bench");
        expect(await text(page, "#bench-status")).toBe("budget must be a whole number from 1 up, got ''");
        await fill(page, "#bench-budget", "100000");
        await untick("#bench-datasets");
        await page.click("#run-bench");
        expect(await text(page, "#bench-status")).toBe("nothing to run: tick a dataset or drop a puzzle file");
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await page.$eval("#bench-progress", (bar) => (bar as HTMLElement).hidden)).toBe(true);
        const benchTable = await page.$eval("#bench-table", (table) => [(table as HTMLElement).hidden, (table as HTMLTableElement).tBodies[0].rows.length]);
        expect(benchTable).toEqual([true, 0]);

        // A UTF-16 file is refused naming its encoding, as the CLI refuses it (it read as one line of 1 character per puzzle).
        const wide = join(folder, "wide.txt");
        writeFileSync(wide, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${EASY[0]}\n`, "utf16le")]));
        await ((await page.$("#bench-file")) as ElementHandle<HTMLInputElement>).uploadFile(wide);
        await page.waitForFunction(() => document.getElementById("dropped")!.textContent !== "");
        expect(await text(page, "#dropped")).toMatch(/^wide\.txt could not be read: the input is UTF-16 LE text/);

        // Markup in a file name and in a puzzle line is shown as text: no element is made of it, no handler runs.
        await ((await page.$("#bench-file")) as ElementHandle<HTMLInputElement>).uploadFile(hostile);
        await page.waitForFunction(() => document.getElementById("dropped")!.textContent !== "");
        expect(await text(page, "#dropped")).toContain(`${MARKUP}.txt added`);
        await fill(page, "#bench-puzzles", "3");
        await fill(page, "#bench-time", "20");
        await page.click("#run-bench");
        await page.waitForSelector("#bench-status[data-done]", { timeout: 60_000 });
        expect(await page.$$eval("#bench-table tbody tr", (trs) => trs.map((tr) => tr.getAttribute("data-dataset")))).toEqual([MARKUP]);
        expect(await text(page, '#bench-table td[data-column="dataset"]')).toBe(MARKUP);
        expect(await page.$$eval("#bench-svg text", (texts) => texts.map((t) => t.textContent))).toContain(MARKUP);
        await fill(page, "#puzzles", `${MARKUP}\n${EASY[0]}`);
        await page.click("#solve");
        await page.waitForFunction(() => /^2 puzzles in/.test(document.getElementById("solve-status")!.textContent!));
        expect(await text(page, '#solve-results tr[data-index="0"] td:nth-child(2)')).toContain("invalid");
        const goTo = () => page.$eval("#solve-find", (element) => getComputedStyle(element).display);
        expect(await goTo()).toBe("none"); // "go to line" only past 20 results
        await page.click('#solve-results tr[data-index="0"]');
        expect(await text(page, "#grid-caption")).toMatch(/^line 1: invalid: /);
        expect(await page.evaluate(() => [document.querySelectorAll("img").length, (window as { hacked?: number }).hacked ?? 0])).toEqual([0, 0]);

        // 100,000 lines: every 1,000th a comment, every 997th too short; the rest easy puzzles in turn.
        const results = LARGE.filter((line) => !line.startsWith("#"));
        await page.evaluate(
          async (easy, count) => {
            const lines: string[] = [];
            for (let i = 1; i <= count; i++) {
              lines.push(i % 1000 === 0 ? "# comment" : i % 997 === 0 ? easy[i % easy.length].slice(0, 40) : easy[i % easy.length]);
            }
            (document.getElementById("puzzles") as HTMLTextAreaElement).value = lines.join("\n");
            await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))); // the box laid out with the paste
            // A heartbeat from the click on: how often the page's thread ran it before the solve's last status, and the
            // longest time it went without running it (printed, not asserted: a figure of this machine's speed).
            const beat = window as { longestGap?: number; beatsWhileSolving?: number };
            beat.longestGap = 0;
            beat.beatsWhileSolving = 0;
            const status = document.getElementById("solve-status")!;
            let last = performance.now();
            setInterval(() => {
              const now = performance.now();
              beat.longestGap = Math.max(beat.longestGap!, now - last);
              last = now;
              if (!/^[\d,]+ puzzles in/.test(status.textContent!)) beat.beatsWhileSolving!++;
            }, 20);
          },
          EASY,
          LARGE.length,
        );
        await page.click("#solve");
        await page.waitForFunction(() => /^[\d,]+ puzzles in/.test(document.getElementById("solve-status")!.textContent!), { timeout: 60_000, polling: 100 });
        const invalid = results.filter((line) => line.length !== 81).length;
        const counts = `${(results.length - invalid).toLocaleString("en-US")} solved, ${invalid} invalid`;
        expect(await text(page, "#solve-status")).toMatch(new RegExp(`^${results.length.toLocaleString("en-US")} puzzles in [\\d,.]+ ms: ${counts}$`));
        // The old page built a row per result (100,000 of them, minutes of a frozen page); this one builds those in view.
        expect(await page.$$eval("#solve-results tbody tr", (rows) => rows.length)).toBeLessThan(100);
        expect(await goTo()).not.toBe("none");

        // Through the whole list, at 13 scroll positions from top to bottom, then in wheel-sized steps through a
        // stretch of it, the rows in view are consecutive results in order, each with its line, status and a valid solution.
        const seen = await page.evaluate(async () => {
          const view = document.getElementById("solve-view")!;
          const head = document.querySelector("#solve-results thead")!.getBoundingClientRect().height;
          const inView = () => {
            const box = view.getBoundingClientRect();
            return Array.from(document.querySelectorAll<HTMLTableRowElement>("#solve-results tbody tr[data-index]"))
              .filter((row) => row.getBoundingClientRect().bottom > box.top + head && row.getBoundingClientRect().top < box.bottom)
              .map((row) => `${row.dataset.index} ${Array.from(row.cells, (cell) => cell.textContent).join(" ")}`);
          };
          const scrollTo = async (top: number) => {
            const before = view.scrollTop;
            view.scrollTop = top;
            if (view.scrollTop !== before) await new Promise((resolve) => view.addEventListener("scroll", resolve, { once: true }));
            return inView();
          };
          const end = view.scrollHeight - view.clientHeight;
          const positions: string[][] = [];
          for (let k = 0; k <= 12; k++) positions.push(await scrollTo(Math.round((end * k) / 12)));
          const steps: string[][] = [];
          for (let k = 0; k < 30; k++) steps.push(await scrollTo(Math.round(end / 3) + 150 * k));
          return { positions, steps, rowCount: document.getElementById("solve-results")!.getAttribute("aria-rowcount") };
        });
        expect(seen.rowCount).toBe(String(results.length + 1));
        const expectedLines = LARGE.flatMap((line, i) => (line.startsWith("#") ? [] : [i + 1]));
        /** The indexes of a view's rows, each row checked against the paste. */
        const checked = (rows: string[]) =>
          rows.map((row) => {
            const [at, line, status, ...rest] = row.split(" ");
            const index = Number(at);
            if (Number(line) !== expectedLines[index]) expect({ index, row }).toEqual({ index, row: `${index} ${expectedLines[index]} …` });
            const puzzle = LARGE[expectedLines[index] - 1];
            if (puzzle.length !== 81) expect(`${line} ${status}`).toBe(`${line} invalid:`);
            else if (status !== "solved" || !isValidSolution(parsePuzzle(puzzle), parsePuzzle(rest[rest.length - 1]))) expect(row).toBe("a solved row");
            return index;
          });
        const consecutive = (indexes: number[]) => indexes.every((index, i) => i === 0 || index === indexes[i - 1] + 1);
        for (const rows of seen.positions) {
          const indexes = checked(rows);
          expect(indexes.length).toBeGreaterThan(5);
          expect(consecutive(indexes), String(indexes)).toBe(true);
        }
        expect(checked(seen.positions[0])[0]).toBe(0);
        expect(checked(seen.positions[12]).at(-1)).toBe(results.length - 1);
        expect(seen.positions.map((rows) => checked(rows)[0]).every((first, k, all) => k === 0 || first > all[k - 1])).toBe(true);
        const stretch = [...new Set(seen.steps.flatMap(checked))].sort((a, b) => a - b);
        expect(consecutive(stretch), "a wheel-sized scroll skips no row").toBe(true);
        expect(stretch.length).toBeGreaterThan(150);

        // "Go to line" shows that line's result at the top of the view, and in full below it.
        await fill(page, "#solve-line", "50000"); // a comment: the next result is shown
        await page.$eval("#solve-line", (input) => input.dispatchEvent(new Event("change")));
        expect(await text(page, "#grid-caption")).toMatch(/^line 50001: solved; clues in bold$/);
        const top = await page.evaluate(() => {
          const box = document.getElementById("solve-view")!.getBoundingClientRect();
          const head = document.querySelector("#solve-results thead")!.getBoundingClientRect().height;
          const rows = Array.from(document.querySelectorAll<HTMLTableRowElement>("#solve-results tbody tr[data-index]"));
          const row = rows.find((tr) => tr.getBoundingClientRect().top >= box.top + head - 1)!;
          return row.cells[0].textContent;
        });
        expect(top).toBe("50001");

        // The page's thread ran other work while the worker solved (a solve on that thread would be one long task), and the
        // rows above are those in view only (the old page ran nothing until it had built a row for each result).
        const { longestGap, beatsWhileSolving } = await page.evaluate(() => {
          const beat = window as { longestGap?: number; beatsWhileSolving?: number };
          return { longestGap: beat.longestGap!, beatsWhileSolving: beat.beatsWhileSolving! };
        });
        console.log(`100,000-line paste: the page's longest pause was ${Math.round(longestGap)} ms`);
        expect(beatsWhileSolving).toBeGreaterThan(0);
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
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
