/**
 * `sudoku-wasm datasets fetch` for real: the CLI in a child process downloads from an HTTP server
 * this file starts on 127.0.0.1, with a catalog this file writes (`--catalog`), into a cache
 * folder of its own (SUDOKU_WASM_DATASETS). One success (a plain file and a zip member,
 * normalised and checked) and each way a download fails: a corrupt file, a truncated one, a 404,
 * a server that never answers. Every failure is one line naming the set and the URL, a non-zero
 * exit, and nothing in the cache.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, scratchFolder } from "./cli-run.js";

const sha256 = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest("hex");

// Two 9×9 puzzles (rows from the bundled fixtures' style: valid, no repeated given).
const A = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const B = "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....";
const C = "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....";

/** A plain source: a comment, a count line, zeros for empty cells, CRLF endings, a duplicate. */
const PLAIN_SOURCE = `# a list\r\n3\r\n${A.replaceAll(".", "0")}\r\n${B}\r\n${A}\r\n${C}\r\n`;
const PLAIN_NORMALISED = `${A}\n${B}\n${C}\n`;
/** A CSV inside a zip: a header, puzzles in the first column, a rating filter on the third, and line 3 set aside. */
const CSV_SOURCE = `puzzle,solution,rating\n${C},x,9.1\n${B},x,9.5\n${A},x,2.0\n${A.replaceAll(".", "_")},x,8.0\n`;
const ZIP_NORMALISED = `${C}\n${A}\n`;
const ZIP = zipSync({ "data/list.csv": new TextEncoder().encode(CSV_SOURCE), "data/other": new Uint8Array([1, 2, 3]) });

let server: Server;
let base = "";
const { dir } = scratchFolder("sudoku-datasets-fetch-");
let catalogPath = "";

beforeAll(async () => {
  server = createServer((request, response: ServerResponse) => {
    const send = (body: string | Uint8Array) => response.writeHead(200, { "content-length": Buffer.byteLength(body) }).end(body);
    switch (request.url) {
      case "/plain.txt":
        return send(PLAIN_SOURCE);
      case "/bank.zip":
        return send(ZIP);
      case "/corrupt.txt":
        return send(PLAIN_SOURCE.replace("# a list", "# a lisp"));
      case "/truncated.txt":
        response.writeHead(200, { "content-length": Buffer.byteLength(PLAIN_SOURCE) });
        response.write(PLAIN_SOURCE.slice(0, 100));
        return setTimeout(() => response.socket?.destroy(), 50);
      case "/hang.txt":
        return; // accepted, never answered
      default:
        return response.writeHead(404, { "content-type": "text/plain" }).end("not here");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const plain = (name: string, path: string) => ({
    name,
    size: 9,
    count: 3,
    sha256: sha256(PLAIN_NORMALISED),
    solutions: "unique",
    description: "a test set",
    credit: "this test",
    licence: "none stated",
    sources: [{ url: `${base}${path}`, sha256: sha256(PLAIN_SOURCE), format: { kind: "lines" } }],
  });
  const sets = [
    plain("plain", "/plain.txt"),
    {
      ...plain("zipped", "/bank.zip"),
      count: 2,
      sha256: sha256(ZIP_NORMALISED),
      sources: [
        {
          url: `${base}/bank.zip`,
          sha256: sha256(ZIP),
          member: "data/list.csv",
          setAside: "3",
          format: { kind: "lines", separator: ",", header: true, minRating: { column: 2, min: 8 } },
        },
      ],
    },
    plain("corrupt", "/corrupt.txt"),
    plain("truncated", "/truncated.txt"),
    plain("missing", "/missing.txt"),
    plain("hanging", "/hang.txt"),
    { ...plain("gone", "/plain.txt"), sources: [], unavailable: "no public copy is known" },
  ];
  catalogPath = join(dir, "catalog.json");
  writeFileSync(catalogPath, JSON.stringify({ sets }));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Runs the CLI without blocking this process (the server answers from it); returns status and output. */
function datasets(args: string[], cache: string, as: { uid?: number; gid?: number } = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, SUDOKU_WASM_DATASETS: cache, SUDOKU_WASM_DATASETS_CATALOG: "" };
    const child = spawn(process.execPath, [BIN, "datasets", ...args], { env, stdio: ["ignore", "pipe", "pipe"], ...as });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

let caches = 0;
/** A cache folder of its own for one test (not created: fetch creates it). */
const freshCache = () => join(dir, `cache-${++caches}`);
/** The files a cache folder holds (none when it does not exist). */
const filesIn = (folder: string) => (existsSync(folder) ? readdirSync(folder) : []);

describe("datasets fetch against a local server", () => {
  it("fetches a plain file and a zip member, normalised and verified, and nothing else lands in the cache", async () => {
    const cache = freshCache();
    const run = await datasets(["fetch", "plain", "zipped", "--catalog", catalogPath], cache);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(readFileSync(join(cache, "plain.txt"), "latin1")).toBe(PLAIN_NORMALISED);
    expect(readFileSync(join(cache, "zipped.txt"), "latin1")).toBe(ZIP_NORMALISED);
    expect(filesIn(cache).sort()).toEqual(["plain.txt", "zipped.txt"]);
    expect(run.stdout).toMatch(/^plain: 3 puzzles, sha256 \w+… verified, written to .*plain\.txt$/m);
    expect(run.stdout).toContain(`plain: downloading ${base}/plain.txt`); // not a terminal: plain lines
    const again = await datasets(["fetch", "plain", "--catalog", catalogPath], cache);
    expect(again.stdout).toMatch(/^plain: already fetched and verified/m);
    const verify = await datasets(["verify", "--catalog", catalogPath], cache);
    expect(verify.status).toBe(0);
    expect(verify.stdout).toContain("2 checked, 0 failed");
    const list = await datasets(["list", "--catalog", catalogPath], cache);
    expect(list.stdout).toMatch(/^plain\s+3\s+9x9\s+127\.0\.0\.1:\d+\s+none stated\s+yes$/m);
    expect(list.stdout).toMatch(/^corrupt\s.*\bno$/m);
    expect(list.stdout).toMatch(/^gone cannot be fetched: no public copy is known$/m);
    expect(list.stdout).toMatch(/^ {2}zipped: this test$/m);
    const json = JSON.parse((await datasets(["list", "--json", "--catalog", catalogPath], cache)).stdout);
    expect(json.sets.map((set: { name: string; fetched: boolean }) => [set.name, set.fetched]).slice(0, 3)).toEqual([
      ["plain", true],
      ["zipped", true],
      ["corrupt", false],
    ]);
    expect((await datasets(["where", "zipped", "--catalog", catalogPath], cache)).stdout).toBe(`${join(cache, "zipped.txt")}\n`);
  });

  it("a cached file that was altered fails verify, and fetch replaces it", async () => {
    const cache = freshCache();
    expect((await datasets(["fetch", "plain", "--catalog", catalogPath], cache)).status).toBe(0);
    writeFileSync(join(cache, "plain.txt"), PLAIN_NORMALISED + A + "\n");
    const verify = await datasets(["verify", "plain", "--catalog", catalogPath], cache);
    expect(verify.status).toBe(1);
    expect(verify.stderr).toMatch(
      /^sudoku-wasm: datasets verify: plain: .*plain\.txt: 4 puzzles with sha256 \w+; the catalog expects 3 with \w+ \(fetch it again: npx sudoku-wasm datasets fetch plain --catalog .*\)\n$/, // the catalog it was verified against
    );
    // a copy with Windows line ends: the same puzzles, and the message says what differs
    writeFileSync(join(cache, "plain.txt"), PLAIN_NORMALISED.replaceAll("\n", "\r\n"));
    const crlf = await datasets(["verify", "plain", "--catalog", catalogPath], cache);
    expect(crlf.stderr).toMatch(
      /: 3 puzzles with sha256 \w+; the catalog expects 3 with \w+: its lines end in \\r\\n \(a copy converted to Windows line ends\?\) \(fetch it again/,
    );
    const fetch = await datasets(["fetch", "plain", "--catalog", catalogPath], cache);
    expect(fetch.status).toBe(0);
    expect(readFileSync(join(cache, "plain.txt"), "latin1")).toBe(PLAIN_NORMALISED);
  });

  const failures: [string, string, RegExp][] = [
    ["corrupt", "/corrupt.txt", /checksum mismatch: the download has sha256 \w{64}, the catalog expects \w{64}/],
    ["truncated", "/truncated.txt", /connection closed after 100 of \d+ bytes/],
    ["missing", "/missing.txt", /HTTP 404 Not Found/],
    ["hanging", "/hang.txt", /no answer within 0\.5 s \(timed out\)/],
  ];
  for (const [name, path, reason] of failures) {
    it(`${name}: one line naming the set and the URL, exit 1, nothing in the cache`, async () => {
      const cache = freshCache();
      // Only the hanging server needs a short time limit; the others get one no loaded machine reaches.
      const run = await datasets(["fetch", name, "--catalog", catalogPath, "--timeout", name === "hanging" ? "0.5" : "60"], cache);
      expect(run.status).toBe(1);
      const lines = run.stderr.trimEnd().split("\n");
      expect(lines[0]).toMatch(new RegExp(`^sudoku-wasm: datasets fetch: ${name}: ${base}${path}: `));
      expect(lines[0]).toMatch(reason);
      expect(lines[1]).toBe("sudoku-wasm: datasets fetch: 1 of 1 sets failed; nothing of them was written");
      expect(lines.slice(2)).toEqual([]); // each host was reached (the hanging one took the connection): no word of a network
      expect(filesIn(cache)).toEqual([]);
    });
  }

  it("no connection: the failure says how to get the sets without one", async () => {
    const refusing = createServer();
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const port = (refusing.address() as AddressInfo).port;
    await new Promise((resolve) => refusing.close(resolve)); // a port nothing listens on: ECONNREFUSED, as with no network
    const catalog = join(dir, "offline-catalog.json");
    const set = JSON.parse(readFileSync(catalogPath, "utf8")).sets[0];
    writeFileSync(catalog, JSON.stringify({ sets: [{ ...set, sources: [{ ...set.sources[0], url: `http://127.0.0.1:${port}/plain.txt` }] }] }));
    const cache = freshCache();
    const run = await datasets(["fetch", "plain", "--catalog", catalog], cache);
    expect(run.status).toBe(1);
    expect(run.stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(/^sudoku-wasm: datasets fetch: plain: http:.*: cannot connect: ECONNREFUSED/),
      "sudoku-wasm: datasets fetch: 1 of 1 sets failed; nothing of them was written",
      `sudoku-wasm: datasets fetch: a source could not be connected to (no network?). Without it: copy the sets' files (NAME.txt) from a machine that has them into ${cache}, ` +
        "or point SUDOKU_WASM_DATASETS at such a copy, then run npx sudoku-wasm datasets verify", // (a mirror's --catalog is given already)
    ]);
  });

  it("a datasets folder that cannot be written: exit 2 naming it, before any download", async () => {
    // (as root, run as nobody: root writes into a read-only folder)
    const as = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const readOnly = join(dir, "read-only");
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o555);
    chmodSync(dir, 0o755);
    chmodSync(catalogPath, 0o644);
    for (const cache of [readOnly, join(readOnly, "sub", "folder")]) {
      const run = await datasets(["fetch", "plain", "--catalog", catalogPath], cache, as);
      expect([run.status, run.stdout]).toEqual([2, ""]); // no "downloading" line
      expect(run.stderr).toBe(
        `sudoku-wasm: cannot write to the datasets folder '${cache}' ($SUDOKU_WASM_DATASETS names it): EACCES (permission denied): point SUDOKU_WASM_DATASETS at a folder you can write\n`,
      );
    }
    expect(filesIn(readOnly)).toEqual([]);
    // A folder that cannot be written still answers for the sets it holds: nothing to download, nothing refused.
    const held = join(dir, "read-only-held");
    expect((await datasets(["fetch", "plain", "--catalog", catalogPath], held)).status).toBe(0);
    chmodSync(held, 0o555);
    const again = await datasets(["fetch", "plain", "--catalog", catalogPath], held, as);
    expect([again.status, again.stdout]).toEqual([0, `plain: already fetched and verified (${join(held, "plain.txt")})\n`]);
  });

  it("a failure leaves the other sets of the run and the files already cached alone", async () => {
    const cache = freshCache();
    mkdirSync(cache);
    writeFileSync(join(cache, "notes.md"), "mine");
    const run = await datasets(["fetch", "missing", "plain", "--catalog", catalogPath], cache);
    expect(run.status).toBe(1);
    expect(filesIn(cache).sort()).toEqual(["notes.md", "plain.txt"]);
  });

  it("a datasets folder that is a file: fetch (before any download), verify and list exit 2 naming it, and the file is left alone", async () => {
    const file = join(dir, "a-file-not-a-folder");
    writeFileSync(file, "mine");
    const said = `sudoku-wasm: the datasets folder '${file}' is not a folder ($SUDOKU_WASM_DATASETS names it): point SUDOKU_WASM_DATASETS at a folder, or remove the file\n`;
    for (const args of [
      ["fetch", "plain", "--catalog", catalogPath],
      ["verify", "--catalog", catalogPath],
      ["list", "--catalog", catalogPath],
    ]) {
      const run = await datasets(args, file);
      expect([run.status, run.stdout, run.stderr], args[0]).toEqual([2, "", said]);
    }
    expect(readFileSync(file, "utf8")).toBe("mine");
  });

  it("usage errors exit 2: an unknown name, no names, a set that cannot be fetched is named by list", async () => {
    const cache = freshCache();
    const unknown = await datasets(["fetch", "nope", "--catalog", catalogPath], cache);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^sudoku-wasm: unknown dataset 'nope' \(one of: plain, zipped, .*\)\n$/);
    expect((await datasets(["fetch", "--catalog", catalogPath], cache)).status).toBe(2);
    // a time limit past what a timer holds (2^31-1 ms) would fire at once
    const endless = await datasets(["fetch", "plain", "--timeout", "2147484", "--catalog", catalogPath], cache);
    expect([endless.status, endless.stderr]).toEqual([
      2,
      "sudoku-wasm: option '--timeout <seconds>' argument '2147484' is invalid. expected a positive number of seconds up to 2147483 (24 days), got '2147484'\n",
    ]);
    const gone = await datasets(["fetch", "gone", "--catalog", catalogPath], cache);
    expect(gone.stderr).toBe(
      "sudoku-wasm: datasets fetch: gone: cannot be fetched: no public copy is known\nsudoku-wasm: datasets fetch: 1 of 1 sets failed; nothing of them was written\n",
    );
    const badCatalog = await datasets(["list", "--catalog", join(dir, "nothing.json")], cache);
    expect(badCatalog.status).toBe(2);
    expect(badCatalog.stderr).toMatch(/^sudoku-wasm: catalog '.*nothing\.json': ENOENT/);
    expect(filesIn(cache)).toEqual([]);
  });
});
