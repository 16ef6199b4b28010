/**
 * Memory of `sudoku-wasm solve` on large inputs: a child process runs one to three million
 * records under a small old-space cap (`--max-old-space-size`), so a run that keeps anything per
 * record read dies of heap before its end; judge mode (`--format poj3074`, last) holds a batch,
 * not its input. The input is a block of distinct puzzles repeated, streamed from this process
 * (nothing large on disk for standard input); the output must be the block's own output
 * repeated, byte for byte, which a lost, doubled or reordered record would change.
 *
 * The old-space cap does not hold the memory outside V8's heap: the batches' ArrayBuffers. Made
 * anew per batch, those float at tens of MB per thread until a full collection (see
 * src/pool/batch.ts), so the 2-thread run's peak RSS is also held to {@link PEAK_RSS_MB}; the
 * other runs' is reported.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, createReadStream, createWriteStream, openSync, readFileSync, rmSync } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { BIN, runCli, scratchFolder } from "./cli-run.js";
import { relabelledPuzzleBytes, relabelledPuzzles, writePuzzles } from "../bench/corpus.js";
import { judgeFormats } from "../src/formats/judge.js";
import { solveJudge } from "./judge-text.js";
import { createSolver } from "../src/index.js";

const { dir, file } = scratchFolder("sudoku-memory-");

/** The heap cap of every run here, in MB: well under what the input would take if it were kept (~130 bytes a record). */
const HEAP_MB = 64;
/**
 * Peak RSS of the 3,000,000-record 2-thread run, at most (the bulk-path issue's goal): 205–225 MB
 * with a buffer per batch, 110–130 MB with the buffers reused (Intel Xeon, Node 20; the process
 * and its two workers start at ~55 MB).
 */
const PEAK_RSS_MB = 150;
/** Distinct puzzles in the repeated block. */
const BLOCK_RECORDS = 10_000;
const block = relabelledPuzzleBytes(BLOCK_RECORDS, 11);

/** Writes the peak RSS of the process it is imported into to standard error at exit (Linux's VmHWM: getrusage's maxRSS also counts the test runner's pages between fork and exec). */
const rssReporter = file(
  "report-rss.mjs",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the reporter's own source, whose template string runs in the child
  'import { readFileSync } from "node:fs";\nprocess.on("exit", () => { let kb = process.resourceUsage().maxRSS; try { kb = Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]); } catch {} process.stderr.write(`max-rss-kb ${kb}\\n`); });\n',
);

/** `repeats` copies of `bytes`, streamed in 1 MiB pieces. */
function repeated(bytes: Buffer, repeats: number): Readable {
  const copies = Math.max(1, Math.floor((1 << 20) / bytes.length));
  const piece = Buffer.concat(Array.from({ length: copies }, () => bytes));
  let left = repeats;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(copies, left);
      left -= n;
      this.push(n === copies ? piece : piece.subarray(0, n * bytes.length));
    },
  });
}

/** The SHA-256 of `bytes` repeated `repeats` times. */
function repeatedHash(bytes: Buffer, repeats: number): string {
  const hash = createHash("sha256");
  for (let i = 0; i < repeats; i++) hash.update(bytes);
  return hash.digest("hex");
}

interface CappedRun {
  status: number | null;
  stderr: string;
  /** SHA-256 of standard output. */
  sha256: string;
  /** Lines of standard output, and the last of them. */
  lines: number;
  lastLine: string;
  maxRssMb: number;
}

/**
 * Runs the CLI with `args` under the heap cap, with `input` on standard input (or none), and its
 * standard output a pipe, or the file `outputFile` (which Node writes synchronously, calling back
 * on the next tick).
 */
async function cappedRun(args: string[], input: Readable | null, outputFile?: string): Promise<CappedRun> {
  const outFd = outputFile === undefined ? null : openSync(outputFile, "w");
  const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, "--import", rssReporter, BIN, ...args], {
    stdio: ["pipe", outFd ?? "pipe", "pipe"],
  });
  if (outFd !== null) closeSync(outFd);
  const hash = createHash("sha256");
  let stderr = "";
  let lines = 0;
  let tail = Buffer.alloc(0);
  const take = (chunk: Buffer) => {
    hash.update(chunk);
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines++;
    tail = Buffer.concat([tail, chunk]).subarray(-4096);
  };
  child.stdout?.on("data", take);
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin!.on("error", () => {}); // a child that dies early closes its end
  if (input) input.pipe(child.stdin!);
  else child.stdin!.end();
  const [status] = (await once(child, "close")) as [number | null];
  if (outputFile !== undefined) for await (const chunk of createReadStream(outputFile)) take(chunk as Buffer);
  const rss = /max-rss-kb (\d+)/.exec(stderr);
  const lastLine = tail.toString("utf8").replace(/\n$/, "").split("\n").pop()!;
  return { status, stderr, sha256: hash.digest("hex"), lines, lastLine, maxRssMb: rss ? Number(rss[1]) / 1024 : NaN };
}

/** The block's own output in `out` (a small run, uncapped), as bytes. */
function blockOutput(args: string[]): Buffer {
  const run = runCli(["solve", ...args, file("block.txt", block.toString("latin1"))]);
  expect(run.status, run.stderr).toBe(0);
  return Buffer.from(run.stdout, "utf8");
}

describe(`solve in ${HEAP_MB} MB of heap`, () => {
  // Two workers; and one, with the main thread solving slices of the batches it has no room for
  // (a core left over): copied into buffers of their own, not the pool's, those slices floated
  // until a full collection (157–164 MB peak RSS).
  for (const [records, threads, who] of [
    [3_000_000, 2, "two threads"],
    [1_000_000, 1, "one worker and the main thread beside it"],
  ] as const) {
    const many = records.toLocaleString("en-US");
    it(`${many} records from standard input, line output, ${who}: the block's output repeated, byte for byte`, async () => {
      const repeats = records / BLOCK_RECORDS;
      const expected = repeatedHash(blockOutput([]), repeats);
      const run = await cappedRun(["solve", "--threads", String(threads), "-"], repeated(block, repeats));
      console.log(`solve - (${many} records, --threads ${threads}): max RSS ${run.maxRssMb.toFixed(0)} MB under --max-old-space-size=${HEAP_MB}`);
      expect(run.status, run.stderr.slice(-2000)).toBe(0);
      expect(run.stderr).toContain(`${many} puzzles: ${many} solved`);
      expect(run.sha256).toBe(expected);
      expect(run.maxRssMb).toBeLessThanOrEqual(PEAK_RSS_MB);
    }, 300_000);
  }

  it("1,000,000 records from a file, line output, --threads 2 and 0, standard output a file: the block's output repeated", async () => {
    const repeats = 1_000_000 / BLOCK_RECORDS;
    const path = `${dir}/million-lines.txt`;
    const sink = createWriteStream(path);
    repeated(block, repeats).pipe(sink);
    await once(sink, "finish");
    const expected = repeatedHash(blockOutput([]), repeats);
    const output = `${dir}/million-lines.out`;
    // Standard output a file: Node writes it synchronously and hands each buffer back on the next
    // tick, so the batches' buffers must come back as the run goes.
    for (const threads of [2, 0]) {
      const run = await cappedRun(["solve", "--threads", String(threads), path], null, output);
      console.log(`solve FILE > FILE (1,000,000 records, --threads ${threads}): max RSS ${run.maxRssMb.toFixed(0)} MB under --max-old-space-size=${HEAP_MB}`);
      expect(run.status, run.stderr.slice(-2000)).toBe(0);
      expect(run.sha256).toBe(expected);
      expect(run.maxRssMb).toBeLessThanOrEqual(PEAK_RSS_MB);
    }
    rmSync(path);
    rmSync(output);
  }, 300_000);

  for (const out of ["jsonl", "csv"] as const) {
    it(`1,000,000 records from a file, --out ${out}, --threads 0`, async () => {
      const repeats = 1_000_000 / BLOCK_RECORDS;
      const path = `${dir}/million-${out}.txt`;
      const sink = createWriteStream(path);
      repeated(block, repeats).pipe(sink);
      await once(sink, "finish");
      // Each copy of the block has its own indexes and lines: checked by the count and the last record.
      const last = blockOutput(["--out", out]).toString("utf8").replace(/\n$/, "").split("\n").pop()!;
      const run = await cappedRun(["solve", "--threads", "0", "--out", out, path], null);
      console.log(`solve --out ${out} (1,000,000 records, --threads 0): max RSS ${run.maxRssMb.toFixed(0)} MB`);
      expect(run.status, run.stderr.slice(-2000)).toBe(0);
      expect(run.stderr).toContain("1,000,000 puzzles: 1,000,000 solved");
      expect(run.lines).toBe(1_000_000 + (out === "csv" ? 1 : 0)); // csv: a header
      // The last record is the block's last, with the run's index, file and line.
      const fields = (row: string): string[] => (out === "jsonl" ? Object.values(JSON.parse(row)).map(String) : row.split(","));
      const expected = fields(last);
      expected.splice(0, 3, String(1_000_000 - 1), path, String(1_000_000));
      expect(fields(run.lastLine)).toEqual(expected);
    }, 300_000);
  }

  it("1,000,000 records with --shard 1/4, then --resume of a cut output: the records of the shard, in order", async () => {
    const repeats = 1_000_000 / BLOCK_RECORDS;
    const line = blockOutput([]).toString("utf8").split("\n").slice(0, -1);
    // Shard 1 of 4 takes records 1, 5, 9, … of each block (10,000 is a multiple of 4).
    const shardBlock = Buffer.from(line.filter((_, i) => i % 4 === 1).join("\n") + "\n");
    const shard = await cappedRun(["solve", "--threads", "2", "--shard", "1/4", "-"], repeated(block, repeats));
    expect(shard.status, shard.stderr.slice(-2000)).toBe(0);
    expect(shard.sha256).toBe(repeatedHash(shardBlock, repeats));

    const path = `${dir}/million.txt`;
    const sink = createWriteStream(path);
    repeated(block, repeats).pipe(sink);
    await once(sink, "finish");
    const cut = `${dir}/resumed.out`;
    const head = Buffer.from(line.slice(0, 1234).join("\n") + "\n");
    const headSink = createWriteStream(cut);
    headSink.end(head);
    await once(headSink, "finish");
    const resumed = await cappedRun(["solve", "--threads", "2", "--resume", "-o", cut, path], null);
    console.log(`solve --resume (1,000,000 records): max RSS ${resumed.maxRssMb.toFixed(0)} MB`);
    expect(resumed.status, resumed.stderr.slice(-2000)).toBe(0);
    const hash = createHash("sha256").update(readFileSync(cut)).digest("hex");
    expect(hash).toBe(repeatedHash(Buffer.from(line.join("\n") + "\n"), repeats));
  }, 300_000);
});

describe("long lines: a batch holds at most a mebibyte of text", () => {
  /**
   * Peak RSS of 100 lines of 1,000,000 control characters each (jsonl escapes each as six bytes),
   * at most: 2,060 MB with batches of 64 records whatever their length and a line's pieces
   * joined again with every chunk; 410–520 MB now, and as much with 300 lines (AMD EPYC, Node 20).
   */
  const LONG_LINES_RSS_MB = 800;

  it("100 lines of a million characters, --out jsonl, 2 threads: one invalid record each, in bounded memory", async () => {
    const path = `${dir}/long-lines.txt`;
    const line = Buffer.from(`${"\x01".repeat(1_000_000)}\n`, "latin1");
    const sink = createWriteStream(path);
    for (let i = 0; i < 100; i++) sink.write(line);
    sink.end();
    await once(sink, "finish");
    const run = await cappedRun(["solve", "--threads", "2", "--out", "jsonl", path], null);
    console.log(
      `solve --out jsonl (100 lines of 1,000,000 characters, --threads 2): max RSS ${run.maxRssMb.toFixed(0)} MB under --max-old-space-size=${HEAP_MB}`,
    );
    expect(run.status, run.stderr.slice(-2000)).toBe(1); // every record invalid
    expect(run.stderr).toContain("100 puzzles: 0 solved, 0 unsolvable, 0 multiple, 100 invalid");
    expect(run.lines).toBe(100);
    expect(run.lastLine).toMatch(/"status":"invalid",.*:100: expected 81 characters, got 1000000/); // (the tail of a six-megabyte record)
    expect(run.maxRssMb).toBeLessThanOrEqual(LONG_LINES_RSS_MB);
    rmSync(path);
  }, 300_000);
});

describe("judge mode holds a batch, not its whole input", () => {
  /** The heap the judge runs get: the 100,000-line input's text alone takes 8.2 MB of it (holding every record took 545 MB at 300,000 lines). */
  const HEAP_MB = 32;

  /** `solve --format poj3074` over `count` puzzle lines in a child with a small heap; its exit status and peak RSS (KB, reported on fd 3 as it exits). */
  function judgeRun(count: number) {
    const hook = file(
      "report-max-rss.mjs",
      'import { writeSync } from "node:fs";\nprocess.on("exit", () => writeSync(3, String(process.resourceUsage().maxRSS)));\n',
    );
    const input = writePuzzles(join(dir, `judge-${count}.txt`), count);
    const output = join(dir, `judge-${count}.out`);
    const args = [`--max-old-space-size=${HEAP_MB}`, "--import", pathToFileURL(hook).href, BIN, "solve", "--format", "poj3074", input, "-o", output];
    const run = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "pipe", "pipe"], encoding: "utf8" });
    return { status: run.status, stderr: run.stderr, maxRssKb: Number(run.output[3]), output };
  }

  it("solves 100,000 poj3074 lines in a 32 MB heap, at about the peak RSS of 3,000, with the output of solving the input whole", async () => {
    const count = 100_000;
    const small = judgeRun(3_000);
    const large = judgeRun(count);
    expect(large.stderr).toBe("");
    expect(large.status).toBe(0);
    expect(small.status).toBe(0);
    // Holding every record took 545 MB at 300,000 lines (and 2.7 GB at 2 million).
    expect(large.maxRssKb - small.maxRssKb).toBeLessThan(150 * 1024);
    const solver = await createSolver();
    const text = relabelledPuzzles(count);
    const piece = 10_000 * 82; // whole lines of 82 bytes
    let expected = "";
    for (let at = 0; at < text.length; at += piece) expected += solveJudge(judgeFormats.poj3074, text.slice(at, at + piece), solver);
    expect(readFileSync(large.output, "utf8") === expected).toBe(true); // not toBe: an 8 MB diff helps nobody
  });
});
