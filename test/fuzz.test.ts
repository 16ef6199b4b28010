/**
 * Fuzzing (fast-check) of what faces hostile input: the CLI's reader (line splitting and
 * format detection) and the library's `solve`/`solveMany`. Arbitrary strings, byte arrays
 * and numbers; the properties: one record per input record, in order, never a throw or a
 * trap. A few thousand cases in all, seeded, so CI stays fast and a failure replays.
 */
import { Readable } from "node:stream";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Solver, STATUSES, createSolver } from "../src/index.js";
import { RecordReader } from "../src/stream/input.js";
import { readLineChunks } from "../src/stream/lines.js";
import { parseRecord } from "../src/formats/record.js";
import { loadFixture } from "./fixture.js";

const SEED = 16;
const fixture = loadFixture();
const UNIQUE = fixture.filter((c) => c.count === 1).map((c) => c.puzzle);

/** Text that looks like puzzle input more often than random text does: cells, separators, line ends, header words. */
const puzzleish = fc
  .array(
    fc.oneof(
      fc.constantFrom(...UNIQUE),
      fc.constantFrom(".", "0", "1", "9", "A", "#", ",", ":", " ", "|", "-", "+", "\n", "\r", "\r\n", "\t", "\u0000", "\ufeff", "Grid 01", "puzzle", '"'),
      fc.string({ maxLength: 20 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(""));

/** Every record of `pieces` read as the CLI reads a file: the lines of each chunk, then the end. */
async function readAll(pieces: (string | Uint8Array)[], alphabet?: string) {
  const records: { line: number; text: string; error: string | null }[] = [];
  const reader = new RecordReader((line, text, error) => records.push({ line, text, error }), "auto", alphabet);
  let lines = 0;
  for await (const chunk of readLineChunks(Readable.from(pieces.map((p) => (typeof p === "string" ? p : Buffer.from(p)))))) {
    chunk.lines.forEach((text, i) => reader.line(text, chunk.longLines?.find((long) => long.at === i)?.length));
    lines += chunk.lines.length;
  }
  reader.end();
  return { records, lines };
}

describe("fuzz: the CLI's reader", () => {
  it("never throws on arbitrary text or bytes, in any chunking; records come in line order, each parseable into a record", async () => {
    const input = fc.oneof(
      fc.array(fc.oneof(puzzleish, fc.string({ unit: "binary", maxLength: 200 })), { maxLength: 6 }),
      fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 6 }),
    );
    await fc.assert(
      fc.asyncProperty(input, fc.option(fc.constantFrom("ABCDEFGHIJKLMNOP", "1234", "abcdefghi")), async (pieces, alphabet) => {
        const { records, lines } = await readAll(pieces, alphabet ?? undefined);
        let previous = 0;
        for (const [index, record] of records.entries()) {
          expect(record.line).toBeGreaterThan(previous);
          expect(record.line).toBeLessThanOrEqual(lines);
          previous = record.line;
          const parsed = parseRecord({ ...record, index, file: "f" }, alphabet ?? undefined);
          expect((parsed.grid === null) !== (parsed.error === null)).toBe(true);
        }
      }),
      { numRuns: 1500, seed: SEED },
    );
  });

  it("gives exactly one record per non-blank, non-comment line of one-line puzzles, whatever the line ends", async () => {
    const line = fc.oneof(
      fc.constantFrom(...UNIQUE),
      fc.string({ minLength: 81, maxLength: 81 }).filter((s) => !/[\s#]/.test(s[0]) && !/\s/.test(s[80])),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 20 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.integer({ min: 1, max: 97 }),
        async (lines, end, size) => {
          const text = lines.join(end) + end;
          const pieces = text.match(new RegExp(`[\\s\\S]{1,${size}}`, "g"))!;
          const { records } = await readAll(pieces);
          // Every 81-character line is one record (the line reader claims it), at its own line.
          expect(records.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
        },
      ),
      { numRuns: 500, seed: SEED },
    );
  });
});

describe("fuzz: the library's solve and solveMany", () => {
  let solver: Solver;
  beforeAll(async () => {
    solver = await createSolver();
  });

  /** Cell values of every kind, in arrays of the lengths that matter (16, 81, 256) and others. */
  const cellValue = fc.oneof(
    fc.integer({ min: 0, max: 9 }),
    fc.integer(),
    fc.double(),
    fc.string({ maxLength: 2 }),
    fc.constantFrom(null, undefined, true, -1, 1.5, -1e10, 255, 256),
  );
  const cells = fc.oneof(
    fc.constantFrom(16, 81, 256).chain((n) => fc.array(cellValue, { minLength: n, maxLength: n })),
    fc.array(cellValue, { maxLength: 100 }),
  );
  const bytes = fc.oneof(
    fc.constantFrom(16, 81, 256, 625).chain((n) => fc.uint8Array({ minLength: n, maxLength: n, max: 30 })),
    fc.int8Array({ maxLength: 90 }),
    fc.uint8Array({ maxLength: 700 }),
  );
  const text = fc.oneof(
    puzzleish,
    fc.string({ unit: "binary", maxLength: 700 }),
    fc
      .constantFrom(16, 81, 256, 625)
      .chain((n) => fc.string({ unit: fc.constantFrom(".", "0", "1", "2", "3", "4", "5", "9", "A", "G", "P", "Y", "x", " "), minLength: n, maxLength: n })),
  );
  const anyPuzzle = fc.oneof(text, bytes, cells, fc.anything(), fc.double(), fc.integer());

  /** A record as the README promises it: a known status, and the fields that status implies. */
  function expectWellFormed(record: unknown): void {
    const { status, count, solution, error } = record as Record<string, unknown>;
    expect(STATUSES).toContain(status);
    expect(typeof count).toBe("number");
    if (status === "invalid") expect(typeof error).toBe("string");
    if (status === "solved") expect(typeof solution).toBe("string");
  }

  it("gives one well-formed record for any value, never a throw or a trap", () => {
    fc.assert(
      fc.property(anyPuzzle, fc.option(fc.constantFrom("ABCDEFGHIJKLMNOP", "1234", "123456789")), (puzzle, alphabet) => {
        expectWellFormed(solver.solve(puzzle as never, { budget: 20_000, alphabet: alphabet ?? undefined }));
      }),
      { numRuns: 2000, seed: SEED },
    );
  });

  it("gives solveMany one record per input, in order, each the record solve gives", () => {
    fc.assert(
      fc.property(fc.array(anyPuzzle, { maxLength: 12 }), (puzzles) => {
        const records = solver.solveMany(puzzles as never[], { budget: 20_000 });
        expect(records).toHaveLength(puzzles.length);
        records.forEach((record, i) => {
          expectWellFormed(record);
          expect(record.status).toBe(solver.solve(puzzles[i] as never, { budget: 20_000 }).status);
        });
      }),
      { numRuns: 300, seed: SEED },
    );
  });
});
