/**
 * Every way a kernel can arrive (src/kernel/kernel-source.ts): a compiled module, bytes, a fetch
 * Response (streamed when served as application/wasm, else read as bytes) or its promise, a URL
 * or URL string; and the errors when it cannot, which name the kernel and say how to pass one.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WasmKernel, canonicalize, compileSource, createSolver, kernelUrl } from "../src/index.js";
import { createPool } from "../src/pool/solver-pool.js";
import { adoptKernels, compileKernel, compiledKernels } from "../src/kernel/wasm.js";

const PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const url = kernelUrl("release");
const bytes = readFileSync(url);

/** Solves PUZZLE on a kernel made from `source`: 1 solution. */
async function solutions(source: Parameters<typeof compileSource>[0]): Promise<number> {
  const kernel = await WasmKernel.create(source);
  const input = kernel.input(1);
  for (let i = 0; i < 81; i++) input[i] = PUZZLE[i] === "." ? 0 : Number(PUZZLE[i]);
  return kernel.run(1, 2).counts[0];
}

describe("kernel sources", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    // /typed.wasm as application/wasm, /plain.wasm as octet-stream, /page.wasm a page in its place (a host that answers
    // every path with its index.html), /broken.wasm cut short as application/wasm, anything else 404.
    server = createServer((request, response) => {
      const type = request.url === "/typed.wasm" ? "application/wasm" : request.url === "/plain.wasm" ? "application/octet-stream" : undefined;
      if (type) response.writeHead(200, { "content-type": type }).end(bytes);
      else if (request.url === "/page.wasm") response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>app</title>");
      else if (request.url === "/broken.wasm") response.writeHead(200, { "content-type": "application/wasm" }).end(bytes.subarray(0, 100));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server?.close());

  it("takes a module, bytes (ArrayBuffer or a view), a file URL and its string", async () => {
    const module = await WebAssembly.compile(bytes);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    for (const source of [module, bytes, new Uint8Array(buffer), buffer, url, url.href]) expect(await solutions(source)).toBe(1);
    expect(await compileSource(module)).toBe(module);
  });

  it("takes a fetch Response, streamed or not, and a promise of one", async () => {
    for (const path of ["/typed.wasm", "/plain.wasm"]) {
      expect(await solutions(await fetch(base + path))).toBe(1);
      expect(await solutions(fetch(base + path))).toBe(1);
      expect(await solutions(new URL(base + path))).toBe(1);
    }
  });

  it("names the kernel and says how to pass one when it is not there", async () => {
    await expect(compileSource(`${base}/gone.wasm`)).rejects.toThrow(
      new RegExp(`fetching the kernel ${base}/gone.wasm gave HTTP 404; .*createSolver\\(\\{ kernels`),
    );
    await expect(compileSource("http://127.0.0.1:1/release.wasm")).rejects.toThrow(
      /cannot fetch the kernel http:\/\/127\.0\.0\.1:1\/release\.wasm .*createSolver\(\{ kernels/,
    );
    // In Node too (a bundle without the file), it says how to pass it, not only how to build this repository.
    await expect(compileSource(new URL("./no-such-kernel.wasm", url))).rejects.toThrow(
      /missing kernel file:.*no-such-kernel\.wasm; copy it there from the package \(sudoku-wasm\/kernels\/.*createSolver\(\{ kernels/,
    );
    await expect(compileSource(42 as never)).rejects.toThrow(/a kernel source is a WebAssembly.Module, bytes, a Response or a URL/);
  });

  it("names the kernel and what came instead when a URL answers with something that is not WebAssembly (a page in its place)", async () => {
    // A host that answers a missing file with its index.html (an app's fallback route) gives 200 and a page, not a 404.
    await expect(compileSource(`${base}/page.wasm`)).rejects.toThrow(
      new RegExp(`^sudoku-wasm: the kernel ${base}/page\\.wasm is not WebAssembly \\(it came as text/html\\): .*magic word.*; .*createSolver\\(\\{ kernels`),
    );
    await expect(compileSource(`${base}/broken.wasm`)).rejects.toThrow(
      new RegExp(`^sudoku-wasm: the kernel ${base}/broken\\.wasm is not WebAssembly \\(it came as application/wasm\\): `),
    );
    // a kernel given as a URL says the same (not wrapped again as "could not be loaded")
    await expect(createSolver({ kernels: { wasm: `${base}/page.wasm` } })).rejects.toThrow(
      new RegExp(`^sudoku-wasm: the kernel ${base}/page\\.wasm is not WebAssembly`),
    );
  });
});

describe("kernel modules passed between threads", () => {
  it("lists the builds compiled here, and a build adopted from another thread is used, not compiled again", async () => {
    await WasmKernel.create(undefined, "debug");
    const here = await compiledKernels();
    expect(here.debug).toBeInstanceOf(WebAssembly.Module);
    expect(here.debug).toBe(await compileKernel("debug")); // compiled once per process
    const posted = await WebAssembly.compile(bytes); // as a worker receives it in workerData
    adoptKernels({ release: posted });
    expect(await compileKernel("release")).toBe(posted);
    expect((await compiledKernels()).release).toBe(posted);
    const kernel = await WasmKernel.create(); // on the adopted module
    kernel.input(1).set(Array.from(PUZZLE, (c) => (c === "." ? 0 : Number(c))));
    expect(kernel.run(1, 2).counts[0]).toBe(1);
  });
});

describe("createSolver with a kernel missing", () => {
  const missing = new URL("./no-such-general.wasm", url);

  it("rejects when a kernel given cannot load, naming it (not at the first puzzle of its size)", async () => {
    await expect(createSolver({ kernels: { general: missing } })).rejects.toThrow(/missing kernel file:.*no-such-general\.wasm; .*createSolver\(\{ kernels/);
    await expect(createSolver({ kernels: { wasm: new Uint8Array([0, 97, 115, 109]) } })).rejects.toThrow(
      /^sudoku-wasm: the kernel given as kernels\.wasm could not be loaded: WebAssembly\.compile\(\)/,
    );
  });

  it("rejects a module that is not a kernel, naming what it lacks, where each call would have failed", async () => {
    const canon = readFileSync(new URL("../build/canon.wasm", import.meta.url)); // a module of this package, not a solver
    await expect(createSolver({ kernels: { wasm: canon } })).rejects.toThrow(
      "sudoku-wasm: the kernel given as kernels.wasm could not be loaded: the module is not a sudoku-wasm kernel: it does not export solveBatch",
    );
    await expect(WasmKernel.create(canon)).rejects.toThrow(new TypeError("the module is not a sudoku-wasm kernel: it does not export solveBatch"));
    const general = readFileSync(new URL("../build/general.wasm", import.meta.url)); // a kernel: the N×N one solves 9×9 too
    expect((await createSolver({ kernels: { wasm: general } })).solve(PUZZLE).status).toBe("solved");
  });

  it("refuses a kernels option of another name or no object (a misspelt kernel would load the file), and leaves canon to canonicalize", async () => {
    await expect(createSolver({ kernels: { release: url } as never })).rejects.toThrow(
      new TypeError("sudoku-wasm: createSolver's kernels has no option 'release'; its options are wasm, general, canon"),
    );
    await expect(createSolver({ kernels: 5 as never })).rejects.toThrow(
      /^sudoku-wasm: createSolver's kernels takes an options object \(wasm, general, canon\), got 5$/,
    );
    await expect(createPool({ threads: 1, kernels: { wasm: url, genral: url } as never })).rejects.toThrow(/createPool's kernels has no option 'genral'/);
    await expect(canonicalize([PUZZLE], { kernels: { minlex: url } as never })).rejects.toThrow(/canonicalize's kernels has no option 'minlex'/);
    const kernels = { wasm: url, general: new URL("../build/general.wasm", import.meta.url), canon: new URL("../build/canon.wasm", import.meta.url) };
    expect((await createSolver({ kernels })).solve(PUZZLE).status).toBe("solved"); // one object for all three calls
    expect((await canonicalize([PUZZLE], { kernels }))[0].form).toHaveLength(81);
  });

  it("takes a URL relative to the page in a browser; elsewhere a relative one is a TypeError naming it", async () => {
    await expect(createSolver({ kernels: { wasm: "./assets/release.wasm" } })).rejects.toThrow(
      "sudoku-wasm: the kernel source './assets/release.wasm' is not a URL (an absolute one, or one relative to a page)",
    );
    const page = globalThis as { document?: { baseURI: string } };
    page.document = { baseURI: new URL("../build/", import.meta.url).href }; // a page at build/
    try {
      expect((await createSolver({ kernels: { wasm: "./release.wasm" } })).solve(PUZZLE).status).toBe("solved");
    } finally {
      delete page.document;
    }
  });

  it("rejects when no size's engine loads", async () => {
    await expect(createSolver({ kernels: { wasm: missing, general: missing } })).rejects.toThrow(/missing kernel file:.*no-such-general\.wasm/);
  });
});
