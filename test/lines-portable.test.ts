/**
 * The line splitter (src/stream/lines.ts) where there is no Node Buffer, as in a browser: a copy
 * of the module loaded while `globalThis.Buffer` is hidden must give every sink call the copy
 * loaded in Node gives, for any bytes cut anywhere (line ends of every kind, a byte order mark,
 * characters of several bytes and bad bytes, lines over the length kept), with and without the
 * kernel's line scan; and `utf8Chunks` must refuse UTF-16 and pass UTF-8 the same.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { LineScan } from "../src/solvers/solver.js";
import { WasmKernel } from "../src/kernel/wasm.js";
import * as withBuffer from "../src/stream/lines.js";

type Lines = typeof withBuffer;
let withoutBuffer: Lines;
let scanner: LineScan;

beforeAll(async () => {
  const saved = globalThis.Buffer;
  Reflect.deleteProperty(globalThis, "Buffer");
  try {
    // @ts-expect-error a second copy of the module (its query string is no file TypeScript knows)
    withoutBuffer = (await import("../src/stream/lines.js?without-buffer")) as Lines;
  } finally {
    globalThis.Buffer = saved;
  }
  scanner = { kernel: (await WasmKernel.create()).lineScanner!()! };
});

/** Every call the splitter of `lines` makes to its sink for `chunks`: lines as text (with a long line's length), fast runs as their cells. */
function sinkCalls(lines: Lines, chunks: readonly Uint8Array[], scan: boolean): string[] {
  const calls: string[] = [];
  const splitter = new lines.LineSplitter(
    {
      line: (text, length) => void calls.push(length === undefined ? `line ${JSON.stringify(text)}` : `long ${length} ${JSON.stringify(text)}`),
      fastLines: (cells, start, count) => {
        for (let k = 0; k < count; k++) calls.push(`fast ${Array.from(cells.subarray(start + k * 81, start + (k + 1) * 81)).join(",")}`);
        return count;
      },
    },
    scan ? scanner : null,
  );
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  calls.push(`bytes ${splitter.bytesRead}`);
  return calls;
}

const NINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/** Pieces of text a line is made of: 9×9 lines, blanks, line ends of each kind, characters of several bytes. */
const piece = fc.constantFrom(NINE, `${NINE} `, "abc", "", "\n", "\r\n", "\r", "é", "😀", "\uFEFF", "x".repeat(70), "..3..4.22...4..1");
/** Bytes that are no UTF-8: a lone continuation byte, a cut character. */
const badBytes = fc.constantFrom(Uint8Array.of(0x80), Uint8Array.of(0xe2, 0x82), Uint8Array.of(0xff));

/** `bytes` cut at `cuts` (positions, any order, may repeat). */
function cutAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(from, point));
    from = point;
  }
  return chunks;
}

const encode = (text: string) => new TextEncoder().encode(text);
const join = (parts: readonly Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
};

describe("the line splitter without Node's Buffer", () => {
  it("makes every sink call the Node splitter makes, for text cut anywhere, with and without the kernel's scan", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.oneof({ weight: 6, arbitrary: piece.map(encode) }, { weight: 1, arbitrary: badBytes }), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        (bom, parts, cuts, scan) => {
          const bytes = join([...(bom ? [Uint8Array.of(0xef, 0xbb, 0xbf)] : []), ...parts]);
          const chunks = cutAt(bytes, cuts);
          expect(sinkCalls(withoutBuffer, chunks, scan)).toEqual(sinkCalls(withBuffer, chunks, scan));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("gives a line over the length kept its start and length, as in Node, when it comes in pieces with characters of several bytes", () => {
    const long = `${"é".repeat(withBuffer.MAX_LINE_LENGTH)}${"x".repeat(100)}😀\nnext\n`;
    const chunks = cutAt(encode(long), [1, 4097, 65_537, 1_048_577, 2_097_153, 2_097_154]);
    const calls = sinkCalls(withoutBuffer, chunks, false);
    expect(calls).toEqual(sinkCalls(withBuffer, chunks, false));
    expect(calls[0]).toMatch(/^long 1048678 "é{64}"$/);
  });

  it("utf8Chunks passes UTF-8 through and refuses UTF-16 before any of it is read, as in Node", async () => {
    const collect = async (lines: Lines, chunks: (Uint8Array | string)[]) => {
      const out: number[][] = [];
      async function* source() {
        yield* chunks;
      }
      for await (const chunk of lines.utf8Chunks(source())) {
        expect(Buffer.isBuffer(chunk)).toBe(lines === withBuffer); // the copy without Buffer made none
        out.push(Array.from(chunk));
      }
      return out;
    };
    const text: (Uint8Array | string)[] = [Uint8Array.of(0xef), Uint8Array.of(0xbb, 0xbf, 0x31), "é\n", Uint8Array.of(0x32)];
    expect(await collect(withoutBuffer, text)).toEqual(await collect(withBuffer, text));
    const utf16: Uint8Array[] = [Uint8Array.of(0xff), Uint8Array.of(0xfe, 0x31, 0x00)];
    await expect(collect(withoutBuffer, utf16)).rejects.toThrow("the input is UTF-16 LE text");
  });
});
