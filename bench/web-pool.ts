/**
 * `npm run web-pool-bench`: the browser's pool in headless Chromium against the kernel's own rate K on the page's
 * thread and against a bare kernel in each of as many Web Workers at once (just before each pool call: what the cores
 * give together), on a page served without and with cross-origin isolation. The page is built by Vite from the package
 * as a user's would be. Each pool call runs beside a 10 ms timer (its worst lateness: the page's event loop held); rounds
 * alternate K and the pool, each ratio the median of per-round ratios with its range. Needs Chromium. Figures, no verdicts.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { build } from "vite";
import { type PoolBenchOptions, loadAverage, machineLine, parseToolOptions, poolBenchRows, runTool } from "./tool.js";
import { relabelledPuzzles } from "./corpus.js";
import { figure, ratioCell } from "./bulk-table.js";
import { alignRows, column } from "./report/format.js";
import { median } from "../src/model/quantile.js";
import { serveFolder, servedUrl } from "./static-server.js";
import { packageRoot } from "../src/kernel/paths.js";
import { counted } from "../src/model/whole-number.js";

/** What the page measured: per round, K (puzzles/s on the page's thread), each pool call's rate and its timer's worst lateness. */
interface PageResult {
  isolated: boolean;
  cores: number;
  k: number[];
  /** createSolver()'s solveMany on the page's thread. */
  solveMany: number[];
  calls: { name: string; rates: number[]; lateness: number[]; ceilings: number[] }[];
}

/** A Web Worker of the page that solves the cells it is sent on its own kernel for the seconds it is told, and answers its rate: no pool. */
const KERNEL_WORKER = `import { WasmKernel, compileKernel } from "sudoku-wasm";
let kernel;
self.onmessage = async ({ data: { cells, seconds } }) => {
  kernel ??= await WasmKernel.create(await compileKernel());
  const count = cells.length / 81;
  let done = 0;
  const start = performance.now();
  do {
    for (let at = 0; at < count; at += 4096) {
      const n = Math.min(4096, count - at);
      kernel.input(n).set(cells.subarray(at * 81, (at + n) * 81));
      kernel.run(n, 2);
    }
    done += count;
  } while (performance.now() - start < seconds * 1000);
  self.postMessage(done / ((performance.now() - start) / 1000));
};
`;

/** The page: fetches its plan and lines, measures, and leaves a {@link PageResult} in `globalThis.result`. */
const PAGE = `import { createPool } from "sudoku-wasm/pool";
import { WasmKernel, compileKernel, createSolver, readDigits } from "sudoku-wasm";
const plan = await (await fetch("./plan.json")).json();
const lines = (await (await fetch("./lines.txt")).text()).split("\\n").slice(0, plan.records);
const sample = lines.slice(0, plan.sample);
const cells = new Uint8Array(sample.length * 81);
sample.forEach((line, i) => readDigits(line, cells, i * 81));
const kernel = await WasmKernel.create(await compileKernel());
const kernelRun = () => {
  for (let at = 0; at < sample.length; at += 4096) {
    const n = Math.min(4096, sample.length - at);
    kernel.input(n).set(cells.subarray(at * 81, (at + n) * 81));
    kernel.run(n, 2);
  }
};
/** Puzzles per second of \`run\` (of \`count\` puzzles), run until \`seconds\` have passed, and the worst lateness of a 10 ms timer meanwhile. */
const timed = async (count, run, seconds) => {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  }, 10);
  let done = 0;
  const start = performance.now();
  do {
    const records = await run();
    if (records !== undefined && records !== count) throw new Error("gave " + records + " records for " + count + " lines");
    done += count;
  } while (performance.now() - start < seconds * 1000);
  const elapsed = performance.now() - start;
  clearInterval(timer);
  return { rate: done / (elapsed / 1000), lateness: Math.max(worst, performance.now() - last - 10) };
};
const solver = await createSolver();
// A kernel on each of the pool's threads at once, each in a Web Worker of its own, no pool: what the cores give together.
const kernelWorkers = Array.from({ length: plan.threads }, () => new Worker(new URL("./kernel-worker.js", import.meta.url), { type: "module" }));
const atOnce = async () => {
  const rates = await Promise.all(kernelWorkers.map((worker) => new Promise((resolve) => {
    worker.onmessage = ({ data }) => resolve(data);
    worker.postMessage({ cells, seconds: Math.max(plan.seconds, 1) });
  })));
  return rates.reduce((sum, rate) => sum + rate, 0);
};
await atOnce(); // their kernels compiled and warm
const pool = await createPool({ threads: plan.threads });
await pool.solveMany(lines); // the workers' kernels and the page's code compiled at their best tier before any round
const calls = [
  { name: "pool.solveMany", run: async () => (await pool.solveMany(lines, { limit: 2 })).length },
  { name: "pool.solveStream", run: async () => { let n = 0; for await (const _ of pool.solveStream(lines, { limit: 2 })) n++; return n; } },
].map((call) => ({ ...call, rates: [], lateness: [], ceilings: [] }));
const k = [];
const one = [];
for (let round = 0; round < plan.rounds; round++) {
  k.push((await timed(sample.length, kernelRun, plan.seconds)).rate);
  one.push((await timed(sample.length, () => solver.solveMany(sample, { limit: 2 }).length, plan.seconds)).rate);
  for (const call of round % 2 === 0 ? calls : [...calls].reverse()) {
    call.ceilings.push(await atOnce()); // just before each call: the host's speed moves from one second to the next
    const { rate, lateness } = await timed(lines.length, call.run, 0);
    call.rates.push(rate);
    call.lateness.push(lateness);
  }
}
await pool.close();
for (const worker of kernelWorkers) worker.terminate();
globalThis.result = { isolated: globalThis.crossOriginIsolated, cores: navigator.hardwareConcurrency, k, solveMany: one, calls: calls.map(({ name, rates, lateness, ceilings }) => ({ name, rates, lateness, ceilings })) };
`;

async function main(): Promise<void> {
  const options = parseToolOptions<PoolBenchOptions>(
    "web-pool-bench",
    "the browser's pool (Web Workers) against the kernel's own rate on the page, in headless Chromium",
    poolBenchRows({
      records: "lines of each pool call",
      recordsDefault: 500_000,
      recordsMost: 10_000_000,
      sample: "lines of the K runs",
      rounds: 3,
      seconds: "least wall time of K per round",
      threads: "the pool's workers",
    }),
  );
  const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) throw new Error(`web-pool-bench needs Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM)`);

  // A page built as a user's: the package through node_modules, bundled by Vite for the browser.
  const scratch = mkdtempSync(join(tmpdir(), "sudoku-web-pool-bench-"));
  process.once("exit", () => rmSync(scratch, { recursive: true, force: true }));
  mkdirSync(join(scratch, "node_modules"));
  symlinkSync(packageRoot(), join(scratch, "node_modules", "sudoku-wasm"), "dir");
  writeFileSync(join(scratch, "index.html"), `<!doctype html><script type="module" src="./main.js"></script>`);
  writeFileSync(join(scratch, "main.js"), PAGE);
  writeFileSync(join(scratch, "kernel-worker.js"), KERNEL_WORKER);
  const out = join(scratch, "dist");
  await build({ root: scratch, configFile: false, logLevel: "error", build: { outDir: out, target: "es2022" } });
  writeFileSync(join(out, "lines.txt"), relabelledPuzzles(options.records, 5));
  writeFileSync(join(out, "plan.json"), JSON.stringify(options));

  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  const results: PageResult[] = [];
  try {
    for (const isolated of [false, true]) {
      const server = await serveFolder(out, isolated);
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(error instanceof Error ? error.message : String(error)));
        await page.goto(servedUrl(server, "index.html"));
        await page.waitForFunction(() => "result" in globalThis || document.title === "failed", { timeout: 0, polling: 500 });
        if (errors.length > 0) throw new Error(`the page threw: ${errors.join("; ")}`);
        results.push(await page.evaluate(() => (globalThis as unknown as { result: PageResult }).result));
        await page.close();
      } finally {
        server.close();
      }
    }
    console.log(machineLine("web-pool-bench"));
    console.log(`${await browser.version()} (headless), ${counted(results[0].cores, "core")} as the page sees them`);
  } finally {
    await browser.close();
  }
  console.log(
    `generated easy puzzles (the bundled easy tier, relabelled): ${figure(options.sample)} lines for K, ${figure(options.records)} for each pool call (${counted(options.threads, "worker")}); limit 2; ${counted(options.rounds, "round")}; rates per wall second`,
  );
  const rows: string[][] = [];
  console.log(`load average now ${loadAverage()}`);
  for (const result of results) {
    const page = result.isolated ? "isolated: memory shared" : "not isolated: memory sent";
    const perK = (rates: number[]) => ratioCell(rates.map((rate, i) => rate / result.k[i]));
    const ceilings = result.calls.flatMap((call) => call.ceilings);
    rows.push([page, "K (kernel batch, on the page's thread)", figure(median(result.k)), "1", "", ""]);
    const atOnce = `K in ${options.threads} Web Workers at once (a kernel each, no pool)`;
    rows.push([page, atOnce, figure(median(ceilings)), ratioCell(result.calls.flatMap((call) => call.ceilings.map((rate, i) => rate / result.k[i]))), "1", ""]);
    rows.push([page, "solver.solveMany, on the page's thread", figure(median(result.solveMany)), perK(result.solveMany), "", ""]);
    for (const call of result.calls) {
      const late = `${median(call.lateness).toFixed(1)} / ${Math.max(...call.lateness).toFixed(1)}`;
      const perCeiling = ratioCell(call.rates.map((rate, i) => rate / call.ceilings[i]));
      rows.push([page, `${call.name}, ${counted(options.threads, "worker")}`, figure(median(call.rates)), perK(call.rates), perCeiling, late]);
    }
  }
  const lateness = "10 ms timer's worst lateness, ms (median / worst round)";
  const columns = [column("page"), column("path"), column("puzzles/s", "right"), column("÷ K (range)"), column("÷ K at once"), column(lateness)];
  for (const line of alignRows(columns, rows)) console.log(line);
}

await runTool("web-pool-bench", main);
