/**
 * The page: sends puzzles and bench plans to the worker (worker.ts) and draws what comes back,
 * a table and a chart, with the browser and JS engine they were measured on.
 */
import easyUrl from "../datasets/easy.txt?url";
import mediumUrl from "../datasets/medium.txt?url";
import hardUrl from "../datasets/hard.txt?url";
import hardestUrl from "../datasets/hardest.txt?url";
import type { SolveRecord } from "../src/index.js";
import type { WebBenchPlan, WebBenchProgress, WebBenchRow, WebDataset } from "./bench.js";
import { BENCH_COLUMNS, benchCells, doneLine, duration, flagNotes, number } from "./bench-table.js";
import { type ChartScale, barChart } from "./chart.js";
import { type PageEnvironment, contentHash, pageCsv, pageJson, pageRun } from "./export.js";
import { gridHtml } from "./grid.js";
import type { FromWorker, ToWorker } from "./protocol.js";
import { type Result, ResultsTable } from "./results.js";
import { counted, isWhole } from "../src/model/whole-number.js";
import { checkUtf8Start } from "../src/stream/lines.js";

const TIERS: Record<string, string> = { easy: easyUrl, medium: mediumUrl, hard: hardUrl, hardest: hardestUrl };
/** The rows ticked at first: the kernel, its TS twin and the fastest pure-TS baselines. */
const DEFAULT_SOLVERS = new Set(["wasm", "bitmask", "dlx", "mrv"]);
const DEFAULT_TIERS = new Set(["easy", "hard"]);
const SAMPLE_PUZZLES = [
  "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
  "..86....4......32..2...4......8.....5...9.1...763..9..6..9....578.5.126........1.",
  "..3..4.22...4..1",
].join("\n");

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** "Chromium 150.0.7871.100 (V8)" from the user agent; the engine from the browser family. */
export function describeBrowser(userAgent: string): string {
  const firefox = /Firefox\/([\d.]+)/.exec(userAgent);
  if (firefox) return `Firefox ${firefox[1]} (SpiderMonkey)`;
  const edge = /Edg\/([\d.]+)/.exec(userAgent);
  if (edge) return `Edge ${edge[1]} (V8)`;
  const chrome = /(HeadlessChrome|Chrome|Chromium)\/([\d.]+)/.exec(userAgent);
  if (chrome) return `${chrome[1] === "HeadlessChrome" ? "Chromium (headless)" : "Chromium/Chrome"} ${chrome[2]} (V8)`;
  const safari = /Version\/([\d.]+).*Safari/.exec(userAgent);
  if (safari) return `Safari ${safari[1]} (JavaScriptCore)`;
  return `unknown browser (${userAgent})`;
}

/** Chromium's user agent string says only "150.0.0.0"; its client hints give the full version. */
async function browserLine(): Promise<string> {
  const hints = (navigator as { userAgentData?: { getHighEntropyValues(keys: string[]): Promise<{ fullVersionList?: { brand: string; version: string }[] }> } })
    .userAgentData;
  const brands = hints ? ((await hints.getHighEntropyValues(["fullVersionList"])).fullVersionList ?? []) : [];
  const chromium = brands.find((b) => b.brand === "Chromium") ?? brands.find((b) => b.brand === "Google Chrome");
  const described = describeBrowser(navigator.userAgent);
  return chromium ? described.replace(/[\d.]+ \(V8\)$/, `${chromium.version} (V8)`) : described;
}

let worker = startWorker();
const send = (message: ToWorker) => worker.postMessage(message);
let droppedFile: { dataset: WebDataset; sha256: string } | null = null;
let benchRows: WebBenchRow[] = [];
/** The bench run started last: a run stopped while its datasets were read is not sent to the worker made since. */
let benchRunId = 0;
/** The plan and page facts of the run on screen, for its exports. */
let benchRun: { plan: WebBenchPlan; page: PageEnvironment; started: number } | null = null;

/** Shows `result` in full below the table: its solution as a grid (the clues set apart), else its status and message. */
function showResult(result: Result | undefined): void {
  const solution = result?.record.solution;
  $("grid").innerHTML = result && solution ? gridHtml(result.puzzle, solution) : "";
  $("grid-caption").textContent = result ? resultCaption(result) : "";
}

/** "line 3: multiple (the first solution found); clues in bold", or "line 4: invalid: cell 17 …". */
function resultCaption({ line, record }: Result): string {
  if (record.solution) return `line ${line}: ${record.status}${record.status === "multiple" ? " (the first solution found)" : ""}; clues in bold`;
  return `line ${line}: ${record.status}${record.error ? `: ${record.error}` : ""}`;
}

const results = new ResultsTable($("solve-view"), $<HTMLTableElement>("solve-results"), showResult);

/** "12 solved, 3 invalid": how many results have each status, in order of first appearance. */
function statusCounts(records: readonly SolveRecord[]): string {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(record.status, (counts.get(record.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count.toLocaleString("en-US")} ${status}`).join(", ");
}

function showSolved(records: SolveRecord[], lines: number[], puzzles: string[], milliseconds: number): void {
  if (records.length === 0) {
    clearSolved("no puzzles in the box: only blank lines and comments (lines starting with #)");
    return;
  }
  const shown = records.map((record, i): Result => ({ line: lines[i], puzzle: puzzles[i], record }));
  results.show(shown);
  $("solve-find").hidden = shown.length <= 20;
  $<HTMLInputElement>("solve-line").max = String(lines[lines.length - 1]);
  showResult(shown.find((result) => result.record.solution !== null) ?? shown[0]);
  const count = records.length.toLocaleString("en-US");
  $("solve-status").textContent = `${count} puzzle${records.length === 1 ? "" : "s"} in ${number(milliseconds, 2)} ms: ${statusCounts(records)}`;
}

/** The latest solve asked for: the answer to an earlier one (the box emptied or solved again since) is not shown. */
let solveId = 0;

/** Empties the results and says why in the status line. */
function clearSolved(why: string): void {
  solveId++;
  results.show([]);
  $("solve-find").hidden = true;
  showResult(undefined);
  $("solve-status").textContent = why;
}

function addBenchRow(row: WebBenchRow): void {
  benchRows.push(row);
  const table = $<HTMLTableElement>("bench-table");
  const tr = table.tBodies[0].insertRow();
  tr.dataset.dataset = row.dataset;
  tr.dataset.solver = row.solver;
  tr.dataset.puzzlesPerSecond = String(row.puzzlesPerSecond);
  tr.dataset.rmePercent = String(row.rmePercent);
  const wasm = benchRows.find((r) => r.dataset === row.dataset && r.solver === "wasm");
  benchCells(row, wasm).forEach((text, i) => {
    const td = tr.insertCell();
    td.textContent = text;
    td.dataset.column = BENCH_COLUMNS[i];
  });
  table.hidden = false;
  const notes = flagNotes(benchRows);
  $("bench-notes").replaceChildren(...notes.map((note) => Object.assign(document.createElement("li"), { textContent: note })));
  $("bench-notes").hidden = notes.length === 0;
  drawChart();
}

const chartScale = () => $<HTMLSelectElement>("chart-scale").value as ChartScale;
const drawChart = () => ($("bench-chart").innerHTML = barChart(benchRows, chartScale(), $("bench-chart").clientWidth || undefined));

/** The progress bar and its line: the row being measured, rows done of all, time gone and (after the first row) the time left. */
function showProgress(progress: WebBenchProgress): void {
  const bar = $<HTMLProgressElement>("bench-progress");
  bar.hidden = false;
  bar.max = progress.total;
  bar.value = progress.done;
  const elapsed = (performance.now() - (benchRun?.started ?? performance.now())) / 1000;
  const left = progress.done > 0 ? `ETA ${duration((elapsed / progress.done) * (progress.total - progress.done))}` : "ETA after the first row";
  $("bench-status").textContent = `row ${progress.done + 1} of ${progress.total}: ${progress.text} · ${duration(elapsed)} elapsed · ${left}`;
}

/** Points the export links at the run on screen, in the bench's JSON and CSV. */
function offerExports(): void {
  if (!benchRun) return;
  const run = pageRun(benchRows, benchRun.plan, benchRun.page);
  const stamp = benchRun.page.started.toISOString().replace(/[:.]/g, "-");
  const link = (id: string, text: string, type: string, name: string) => {
    const anchor = $<HTMLAnchorElement>(id);
    if (anchor.href) URL.revokeObjectURL(anchor.href);
    anchor.href = URL.createObjectURL(new Blob([text], { type }));
    anchor.download = name;
  };
  link("export-json", pageJson(run), "application/json", `web-bench-${stamp}.json`);
  link("export-csv", pageCsv(run), "text/csv", `web-bench-${stamp}.csv`);
  $("exports").hidden = false;
}

/** The puzzles of a file's text: its lines that are neither blank nor comments (as the bench counts them). */
const puzzleCount = (text: string) => text.split("\n").filter((line) => line.trim() !== "" && !line.trim().startsWith("#")).length;

/** The plan the form describes, and each dataset's identity (name, content hash, puzzles) for the exports. */
async function benchPlan(): Promise<{ plan: WebBenchPlan; identities: PageEnvironment["datasets"] }> {
  const ticked = (container: string) => [...$(container).querySelectorAll<HTMLInputElement>("input[type=checkbox]:checked")].map((box) => box.value);
  const datasets: WebDataset[] = [];
  const identities: PageEnvironment["datasets"] = [];
  for (const name of ticked("bench-datasets")) {
    const bytes = await (await fetch(TIERS[name])).arrayBuffer();
    const text = new TextDecoder().decode(bytes);
    datasets.push({ name, text, expectation: "unique" });
    identities.push({ name, sha256: await contentHash(bytes), size: puzzleCount(text) });
  }
  if (droppedFile) {
    datasets.push(droppedFile.dataset);
    identities.push({ name: droppedFile.dataset.name, sha256: droppedFile.sha256, size: puzzleCount(droppedFile.dataset.text) });
  }
  const whole = (id: string) => Number.parseInt($<HTMLInputElement>(id).value, 10);
  const plan = {
    datasets,
    solvers: ticked("bench-solvers"),
    puzzles: whole("bench-puzzles"),
    timeMs: whole("bench-time"),
    seed: whole("bench-seed"),
    limit: Number($<HTMLSelectElement>("bench-limit").value),
    budget: whole("bench-budget"),
  };
  return { plan, identities };
}

function checkbox(container: string, value: string, title: string, checked: boolean): void {
  const label = document.createElement("label");
  label.title = title;
  const box = document.createElement("input");
  box.type = "checkbox";
  box.value = value;
  box.checked = checked;
  label.append(box, " " + value);
  $(container).append(label);
}

async function takeFile(file: File): Promise<void> {
  const bytes = await file.arrayBuffer();
  checkUtf8Start(new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength))); // UTF-16 or UTF-32 text: refused, naming it
  droppedFile = {
    dataset: { name: file.name.replace(/\.txt$/, ""), text: new TextDecoder().decode(bytes), expectation: "unknown" },
    sha256: await contentHash(bytes),
  };
  $("dropped").textContent = `${file.name} added (answers checked for validity and agreement between solvers)`;
  $("drop-remove").hidden = false;
}

/** The page's worker, listened to; made again when a bench is stopped (its worker is ended). */
function startWorker(): Worker {
  const started = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
  started.addEventListener("error", (event) => {
    if (started !== worker) return; // a worker ended by Stop
    // a worker that fails to start (a module that cannot load, a kernel that cannot compile) would otherwise leave the page at "loading the kernel…"
    $("kernel").textContent = `The page's worker failed to start: ${event.message || "see the browser console"}`;
    $("solve-status").textContent = "the solver could not start (Technical details says why)";
    $("solve-status").className = "error";
  });
  started.addEventListener("message", (event: MessageEvent<FromWorker>) => {
    if (started === worker) fromWorker(event.data); // not a message a worker ended by Stop had already sent
  });
  return started;
}

/** Shows the bench as running (Stop offered) or not (Run offered). */
function benchRunning(running: boolean): void {
  $<HTMLButtonElement>("run-bench").disabled = running;
  $("stop-bench").hidden = !running;
}

function fromWorker(message: FromWorker): void {
  switch (message.type) {
    case "ready":
      $("kernel").textContent = `Build: ${message.kernel}`;
      if ($("bench-solvers").querySelector("input") === null) {
        // (a worker made again after a stop keeps the ticks as they are)
        for (const solver of message.solvers) checkbox("bench-solvers", solver.id, solver.description, DEFAULT_SOLVERS.has(solver.id));
      }
      $<HTMLButtonElement>("solve").disabled = false;
      benchRunning(false);
      break;
    case "solved":
      if (message.id !== solveId) break; // an earlier solve, overtaken
      showSolved(message.records, message.lines, message.puzzles, message.milliseconds);
      break;
    case "progress":
      showProgress(message);
      break;
    case "row":
      addBenchRow(message.row);
      break;
    case "benchDone":
      showProgress({ done: message.rows.length, total: message.rows.length, text: "" });
      $("bench-status").textContent = doneLine(message.rows, benchRun ? (performance.now() - benchRun.started) / 1000 : null, benchRun?.plan.budget ?? 0);
      $("bench-status").dataset.done = "true";
      offerExports();
      benchRunning(false);
      break;
    case "error":
      if (message.id !== undefined) {
        // a solve's: shown unless a later solve has overtaken it
        if (message.id !== solveId) break;
        $("solve-status").textContent = message.message;
        $("solve-status").className = "error";
        break;
      }
      $("bench-status").textContent = message.message;
      $("bench-status").className = "error";
      $("bench-progress").hidden = true;
      benchRunning(false);
      break;
  }
}

const browser = await browserLine();
const cores = navigator.hardwareConcurrency;
$("env").textContent = `Running in ${browser}, on one thread${cores ? ` of this machine's ${counted(cores, "logical core")}` : ""}.`;
$("timer").textContent = self.crossOriginIsolated
  ? `Timer: fine (the page is cross-origin isolated). Platform: ${navigator.platform}.`
  : "Timer: coarse (the page is not cross-origin isolated, so the browser rounds its clock, to as much as 1 ms: a timed pass of a fast row " +
    `can read as 0; serve the page with the headers of docs/bench.md). Platform: ${navigator.platform}.`;
for (const column of BENCH_COLUMNS) {
  const th = document.createElement("th");
  th.textContent = column;
  if (column === "±") th.title = "the 95% margin of error of the mean pass time";
  if (column === "flags") th.title = "N: noisy (± above 5%); T: timed out (most puzzles over the budget); explained below the table";
  $<HTMLTableElement>("bench-table").tHead!.rows[0].append(th);
}
$<HTMLTextAreaElement>("puzzles").value = SAMPLE_PUZZLES;
for (const tier of Object.keys(TIERS)) checkbox("bench-datasets", tier, `datasets/${tier}.txt`, DEFAULT_TIERS.has(tier));

$("solve").addEventListener("click", () => {
  $("solve-status").className = "";
  const text = $<HTMLTextAreaElement>("puzzles").value;
  if (text.trim() === "") {
    clearSolved("the box is empty: paste puzzles into it, one per line");
    return;
  }
  $("solve-status").textContent = "solving…";
  send({ type: "solve", text, id: ++solveId, limit: Number($<HTMLSelectElement>("solve-limit").value) });
});
$("solve-line").addEventListener("change", () => {
  const line = Math.floor($<HTMLInputElement>("solve-line").valueAsNumber);
  if (Number.isFinite(line)) showResult(results.scrollToLine(line));
});
/** Why the form cannot run (nothing to run, two datasets of one name, a setting out of its range), or null when it can. */
function formRefusal(): string | null {
  const ticked = (container: string) => $(container).querySelectorAll("input[type=checkbox]:checked").length;
  if (ticked("bench-solvers") === 0) return "nothing to run: tick at least one solver";
  if (ticked("bench-datasets") === 0 && !droppedFile) return "nothing to run: tick a dataset or drop a puzzle file";
  const tiers = [...$("bench-datasets").querySelectorAll<HTMLInputElement>("input[type=checkbox]:checked")].map((box) => box.value);
  if (droppedFile && tiers.includes(droppedFile.dataset.name))
    return `two datasets are named '${droppedFile.dataset.name}' (the bundled tier and the dropped file): results are told apart by name, so untick the tier or rename the file`;
  // the ranges of the command line's --puzzles, --time, --seed and --budget (bench/options.ts)
  const fields: [string, string, number, number][] = [
    ["bench-puzzles", "puzzles per dataset", 1, Number.MAX_SAFE_INTEGER],
    ["bench-time", "ms per row", 1, Number.MAX_SAFE_INTEGER],
    ["bench-seed", "seed", 0, 0xffffffff],
    ["bench-budget", "budget", 1, Number.MAX_SAFE_INTEGER],
  ];
  for (const [id, label, least, most] of fields) {
    const text = $<HTMLInputElement>(id).value.trim();
    if (!/^\d+$/.test(text) || !isWhole(Number(text), least, most))
      return `${label} must be a whole number ${most === Number.MAX_SAFE_INTEGER ? `from ${least} up` : `from ${least} to ${most}`}, got '${text}'`;
  }
  return null;
}
$("run-bench").addEventListener("click", async () => {
  const nothing = formRefusal();
  if (nothing) {
    $("bench-status").className = "error";
    $("bench-status").textContent = nothing;
    delete $("bench-status").dataset.done;
    return;
  }
  benchRows = [];
  $<HTMLTableElement>("bench-table").tBodies[0].replaceChildren();
  $("bench-notes").hidden = true;
  $("bench-chart").replaceChildren();
  $("bench-status").className = "";
  $("bench-status").textContent = "reading the datasets…";
  $("exports").hidden = true;
  delete $("bench-status").dataset.done;
  benchRunning(true);
  const started = new Date();
  const run = ++benchRunId;
  try {
    const { plan, identities } = await benchPlan();
    if (run !== benchRunId) return; // stopped while the datasets were read
    benchRun = { plan, page: { browser, cores: navigator.hardwareConcurrency ?? 0, started, datasets: identities }, started: performance.now() };
    send({ type: "bench", plan });
  } catch (error) {
    if (run !== benchRunId) return;
    $("bench-status").className = "error";
    $("bench-status").textContent = `could not read the datasets: ${error instanceof Error ? error.message : String(error)}`;
    benchRunning(false);
  }
});
// A bench cannot be told to stop between its awaits without a check in every solver's loop: its worker is ended and a new one
// made (the kernels load again); the rows measured stay on screen, not offered for export as a run.
$("stop-bench").addEventListener("click", () => {
  benchRunId++;
  worker.terminate();
  $("stop-bench").hidden = true;
  $("bench-progress").hidden = true;
  const rows = benchRows.length;
  $("bench-status").textContent = `stopped: ${rows} row${rows === 1 ? "" : "s"} measured before the stop (shown, not exported)`;
  $("bench-status").dataset.done = "stopped";
  if ($("solve-status").textContent === "solving…") $("solve-status").textContent = "stopped with the benchmark: solve again";
  $<HTMLButtonElement>("solve").disabled = true; // until the new worker is ready
  worker = startWorker();
});
$("chart-scale").addEventListener("change", drawChart);
let chartWidth = $("bench-chart").clientWidth;
window.addEventListener("resize", () => {
  if ($("bench-chart").clientWidth !== chartWidth) drawChart(); // laid out anew at the page's width
  chartWidth = $("bench-chart").clientWidth;
});
/** Takes a chosen or dropped file; one that cannot be read leaves none taken (not the one before it), and says why. */
function offerFile(file: File): void {
  takeFile(file).catch((error: unknown) => {
    droppedFile = null;
    $("drop-remove").hidden = true;
    $("dropped").textContent = `${file.name} could not be read: ${error instanceof Error ? error.message : String(error)}`;
  });
}
$<HTMLInputElement>("bench-file").addEventListener("change", (event) => {
  const file = (event.target as HTMLInputElement).files?.[0];
  if (file) offerFile(file);
});
$("drop-remove").addEventListener("click", () => {
  droppedFile = null;
  $("dropped").textContent = "";
  $("drop-remove").hidden = true;
  $<HTMLInputElement>("bench-file").value = ""; // the same file chosen again is a change again
});
const zone = $("drop-zone");
zone.addEventListener("dragover", (event) => {
  event.preventDefault();
  zone.classList.add("over");
});
zone.addEventListener("dragleave", () => zone.classList.remove("over"));
zone.addEventListener("drop", (event) => {
  event.preventDefault();
  zone.classList.remove("over");
  const file = event.dataTransfer?.files[0];
  if (file) offerFile(file);
});
