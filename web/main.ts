/**
 * The page: sends puzzles and bench plans to the worker (worker.ts) and draws what comes back,
 * a table and a chart, with the browser and JS engine they were measured on.
 */
import easyUrl from "../datasets/easy.txt?url";
import mediumUrl from "../datasets/medium.txt?url";
import hardUrl from "../datasets/hard.txt?url";
import hardestUrl from "../datasets/hardest.txt?url";
import type { SolveRecord } from "../src/index.js";
import type { WebBenchPlan, WebBenchRow, WebDataset } from "./bench.js";
import { barChart } from "./chart.js";
import type { FromWorker, ToWorker } from "./protocol.js";
import { versusWasm } from "./versus.js";

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
  const hints = (navigator as { userAgentData?: { getHighEntropyValues(keys: string[]): Promise<{ fullVersionList?: { brand: string; version: string }[] }> } }).userAgentData;
  const brands = hints ? ((await hints.getHighEntropyValues(["fullVersionList"])).fullVersionList ?? []) : [];
  const chromium = brands.find((b) => b.brand === "Chromium") ?? brands.find((b) => b.brand === "Google Chrome");
  const described = describeBrowser(navigator.userAgent);
  return chromium ? described.replace(/[\d.]+ \(V8\)$/, `${chromium.version} (V8)`) : described;
}

const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
const send = (message: ToWorker) => worker.postMessage(message);
let droppedFile: WebDataset | null = null;
let benchRows: WebBenchRow[] = [];

function cell(row: HTMLTableRowElement, text: string, className?: string): void {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
}

const number = (value: number, digits = 0) => value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

function showSolved(records: SolveRecord[], lines: number[], milliseconds: number): void {
  const table = $<HTMLTableElement>("solve-results");
  const body = table.tBodies[0];
  body.replaceChildren();
  records.forEach((record, i) => {
    const row = body.insertRow();
    row.dataset.status = record.status;
    cell(row, String(lines[i]));
    cell(row, record.status + (record.error ? `: ${record.error}` : ""));
    cell(row, String(record.count));
    cell(row, record.guesses === null ? "n/a" : String(record.guesses));
    cell(row, record.solution ?? "", "solution");
  });
  table.hidden = false;
  $("solve-status").textContent = `${records.length} puzzle${records.length === 1 ? "" : "s"} in ${number(milliseconds, 2)} ms`;
}

function addBenchRow(row: WebBenchRow): void {
  benchRows.push(row);
  const table = $<HTMLTableElement>("bench-table");
  const tr = table.tBodies[0].insertRow();
  tr.dataset.dataset = row.dataset;
  tr.dataset.solver = row.solver;
  tr.dataset.puzzlesPerSecond = String(row.puzzlesPerSecond);
  const wasm = benchRows.find((r) => r.dataset === row.dataset && r.solver === "wasm");
  cell(tr, row.dataset);
  cell(tr, row.solver + (row.batchCall ? " (1 call/pass)" : ""));
  cell(tr, String(row.puzzles));
  cell(tr, number(row.puzzlesPerSecond));
  cell(tr, number(row.meanMicros, 1));
  cell(tr, `${number(row.rmePercent, 1)}%`);
  cell(tr, row.guessesPerPuzzle === null ? "n/a" : number(row.guessesPerPuzzle, 2));
  cell(tr, `${row.verified}/${row.puzzles}${row.timeouts ? ` (${row.timeouts} over budget)` : ""}`);
  cell(tr, wasm && wasm !== row ? versusWasm(wasm.puzzlesPerSecond, row.puzzlesPerSecond) : wasm === row ? "—" : "n/a");
  table.hidden = false;
  $("bench-chart").innerHTML = barChart(benchRows);
}

async function benchPlan(): Promise<WebBenchPlan> {
  const ticked = (container: string) =>
    [...$(container).querySelectorAll<HTMLInputElement>("input[type=checkbox]:checked")].map((box) => box.value);
  const datasets: WebDataset[] = [];
  for (const name of ticked("bench-datasets")) {
    const response = await fetch(TIERS[name]);
    datasets.push({ name, text: await response.text(), expectation: "unique" });
  }
  if (droppedFile) datasets.push(droppedFile);
  const whole = (id: string) => Number.parseInt($<HTMLInputElement>(id).value, 10);
  return {
    datasets,
    solvers: ticked("bench-solvers"),
    puzzles: whole("bench-puzzles"),
    timeMs: whole("bench-time"),
    seed: whole("bench-seed"),
    limit: Number($<HTMLSelectElement>("bench-limit").value),
    budget: 100_000,
  };
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
  droppedFile = { name: file.name.replace(/\.txt$/, ""), text: await file.text(), expectation: "unknown" };
  $("dropped").textContent = `${file.name} added (answers checked for validity and agreement between solvers)`;
}

worker.addEventListener("message", (event: MessageEvent<FromWorker>) => {
  const message = event.data;
  switch (message.type) {
    case "ready":
      $("kernel").textContent = `Kernel: ${message.kernel}`;
      for (const solver of message.solvers) checkbox("bench-solvers", solver.id, solver.description, DEFAULT_SOLVERS.has(solver.id));
      $<HTMLButtonElement>("solve").disabled = false;
      $<HTMLButtonElement>("run-bench").disabled = false;
      break;
    case "solved":
      showSolved(message.records, message.lines, message.milliseconds);
      break;
    case "progress":
      $("bench-status").textContent = `running ${message.text}…`;
      break;
    case "row":
      addBenchRow(message.row);
      break;
    case "benchDone":
      $("bench-status").textContent = `done: ${message.rows.length} rows, every answer checked`;
      $("bench-status").dataset.done = "true";
      $<HTMLButtonElement>("run-bench").disabled = false;
      break;
    case "error": {
      $("bench-status").textContent = "";
      $("solve-status").textContent = "";
      const target = $(benchRunning ? "bench-status" : "solve-status");
      target.textContent = message.message;
      target.className = "error";
      $<HTMLButtonElement>("run-bench").disabled = false;
      break;
    }
  }
  if (message.type === "benchDone" || message.type === "error") benchRunning = false;
});
let benchRunning = false;

$("env").textContent = `${await browserLine()} · ${navigator.hardwareConcurrency ?? "?"} logical cores · timer ${self.crossOriginIsolated ? "fine" : "coarse"} (${navigator.platform})`;
$<HTMLTextAreaElement>("puzzles").value = SAMPLE_PUZZLES;
for (const tier of Object.keys(TIERS)) checkbox("bench-datasets", tier, `datasets/${tier}.txt`, DEFAULT_TIERS.has(tier));

$("solve").addEventListener("click", () => {
  $("solve-status").className = "";
  $("solve-status").textContent = "solving…";
  send({ type: "solve", text: $<HTMLTextAreaElement>("puzzles").value, limit: Number($<HTMLSelectElement>("solve-limit").value) });
});
$("run-bench").addEventListener("click", async () => {
  benchRunning = true;
  benchRows = [];
  $<HTMLTableElement>("bench-table").tBodies[0].replaceChildren();
  $("bench-chart").replaceChildren();
  $("bench-status").className = "";
  delete $("bench-status").dataset.done;
  $<HTMLButtonElement>("run-bench").disabled = true;
  send({ type: "bench", plan: await benchPlan() });
});
$<HTMLInputElement>("bench-file").addEventListener("change", (event) => {
  const file = (event.target as HTMLInputElement).files?.[0];
  if (file) void takeFile(file);
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
  if (file) void takeFile(file);
});
