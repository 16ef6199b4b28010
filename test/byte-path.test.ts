/**
 * The byte path of `solve` (9×9 lines of cell bytes read by the kernel's scan straight into a
 * batch, solved, and written back as bytes) gives exactly the records the text path gives: the
 * same input, in chunks cut anywhere, through `solveStreams` with the fast path and without it
 * (`fastPath: false`: every record read as text), must write the same bytes, for every output
 * format, a shard and a resumed run. The inputs mix fast lines with every line that must not be
 * taken as one: near misses (80 or 82 cells, a bad byte at any position, a byte over 127), lines
 * with text after the cells, grids with headers, CSV and colon lines, 16×16 lines, comments,
 * blank lines, CR, LF and CRLF line ends, a byte order mark, no line end at the end.
 */
import { Readable } from "node:stream";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { openBatchSolver } from "../src/pool/pool.js";
import { solveStreams, type StreamSettings } from "../src/stream/pipeline.js";
import { loadFixture } from "./fixture.js";
import { byteCollector } from "./sink.js";

const solver = await openBatchSolver(0);
/** The N×N kernel on 9×9 grids: an engine that writes no records itself, so its fast records reach the 9×9 kernel's writer as fields the host encodes. */
const twin = await openBatchSolver(0, ["general-wasm"]);
afterAll(() => Promise.all([solver.close(), twin.close()]));

const fixture = loadFixture();
const PUZZLES = fixture.map((c) => c.puzzle).filter((p) => p.length === 81);
const SIXTEEN =
  "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69..F.....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.42E1A.4C.5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E";

/** The output of `bytes`, given in `cuts` pieces, with and without the fast path. */
async function bothPaths(bytes: Buffer, cuts: number[], settings: Partial<StreamSettings>, on = solver): Promise<[Buffer, Buffer]> {
  const pieces: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    const end = Math.min(bytes.length, cut);
    if (end > at) pieces.push(bytes.subarray(at, end));
    at = Math.max(at, end);
  }
  if (at < bytes.length) pieces.push(bytes.subarray(at));
  const run = async (fastPath: boolean) => {
    const out = byteCollector();
    const all: StreamSettings = { input: "auto", output: "line", limit: 2, batchSize: 7, maxInFlight: 3, workers: 0, ...settings, fastPath };
    await solveStreams([{ name: "in.txt", open: () => Readable.from(pieces.map((piece) => Buffer.from(piece))) }], out, on, all);
    return out.bytes();
  };
  return [await run(true), await run(false)];
}

/** Lines that the fast path must take, and lines next to them that it must not. */
const line = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PUZZLES) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...PUZZLES), fc.constantFrom(...".0_?-*xX")).map(([p, mark]) => p.replaceAll(".", mark)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...PUZZLES), fc.constantFrom(" ", "\t", "  \t")).map(([p, space]) => p + space) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...PUZZLES), fc.constantFrom(" rated 4.5", "\tmy words", " 17")).map(([p, text]) => p + text) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...PUZZLES), fc.nat(80), fc.constantFrom("z", "/", ":", "é", "\u0000", "#", " ", "ab", "A"))
      .map(([p, at, ch]) => p.slice(0, at) + ch + p.slice(at + 1)),
  },
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => "55" + p.slice(2)) }, // a repeated clue
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => p.slice(0, 80)) },
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => p + "1") },
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => "  " + p) },
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => `Grid 01\n${Array.from({ length: 9 }, (_, r) => p.slice(r * 9, r * 9 + 9)).join("\n")}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...PUZZLES).map(
      (p) =>
        `${Array.from({ length: 9 }, (_, r) =>
          p
            .slice(r * 9, r * 9 + 9)
            .split("")
            .join(" "),
        ).join("\n")}`,
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => `${p}:1`) },
  { weight: 1, arbitrary: fc.constantFrom(...PUZZLES).map((p) => `7,${p},x`) },
  { weight: 1, arbitrary: fc.constantFrom("", "# a comment", "#" + PUZZLES[0], SIXTEEN, "x".repeat(81), ".".repeat(81)) },
);

const input = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 40 }), fc.constantFrom("\n", "\r\n", "\r"), fc.boolean(), fc.boolean())
  .map(([lines, end, bom, lastEnd]) => Buffer.from((bom ? "\ufeff" : "") + lines.join(end).replaceAll("\n", end) + (lastEnd ? end : ""), "utf8"));

const cuts = fc.array(fc.nat(5000), { maxLength: 12 });

describe("the byte path gives the text path's bytes", () => {
  for (const output of ["line", "jsonl", "csv", "grid"] as const) {
    it(`--out ${output}, the input cut anywhere`, async () => {
      await fc.assert(
        fc.asyncProperty(input, cuts, async (bytes, at) => {
          const [fast, text] = await bothPaths(bytes, at, { output });
          expect(fast.toString("utf8")).toBe(text.toString("utf8"));
        }),
        { numRuns: 60 },
      );
    });
  }

  it("--out jsonl and csv on an engine that writes no records itself (the N×N kernel): its fast records given to the writer, the text path's bytes", async () => {
    await fc.assert(
      fc.asyncProperty(input, cuts, fc.constantFrom("jsonl" as const, "csv" as const), async (bytes, at, output) => {
        const [fast, text] = await bothPaths(bytes, at, { output, shard: { index: 1, count: 2 } }, twin);
        expect(fast.toString("utf8")).toBe(text.toString("utf8"));
      }),
      { numRuns: 30 },
    );
  });

  it("--shard 2/3 and a resumed run (skip), in jsonl", async () => {
    await fc.assert(
      fc.asyncProperty(input, cuts, fc.nat(6), async (bytes, at, skip) => {
        const shard = await bothPaths(bytes, at, { output: "jsonl", shard: { index: 2, count: 3 } });
        expect(shard[0].toString("utf8")).toBe(shard[1].toString("utf8"));
        const resumed = await bothPaths(bytes, at, { output: "jsonl", skip });
        expect(resumed[0].toString("utf8")).toBe(resumed[1].toString("utf8"));
      }),
      { numRuns: 40 },
    );
  });

  it("takes a line of 81 cell bytes as a fast record, and a near miss at any of its 81 positions as the invalid record the text path gives", async () => {
    const good = PUZZLES.find((p) => p.includes("."))!;
    // The neighbours of every cell byte (digits, `.0_?-*xX`) that are no cell byte, and two far ones.
    const misses = [..."/:^`>@)+,wyWY", "\u00ff", "\u0000"];
    const lines = [good];
    for (const miss of misses) for (let at = 0; at < 81; at++) lines.push(good.slice(0, at) + miss + good.slice(at + 1));
    lines.push(good);
    const [fast, text] = await bothPaths(Buffer.from(lines.join("\n") + "\n", "latin1"), [], { output: "jsonl" });
    expect(fast.toString("latin1")).toBe(text.toString("latin1"));
    const records = fast
      .toString("latin1")
      .trimEnd()
      .split("\n")
      .map((row) => JSON.parse(row));
    expect(records.map((r) => r.status)).toEqual(["solved", ...Array(81 * misses.length).fill("invalid"), "solved"]);
  });
});
