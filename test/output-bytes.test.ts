/**
 * The bytes of every output format, pinned, for fast records (9×9 lines of cell bytes) and the
 * others (a 4×4 line, a 9×9 grid, unreadable lines) in one run: solved, unsolvable, multiple,
 * invalid (unreadable, or a repeated clue the kernel rejects), timeout, `--limit 1` against 2,
 * and a puzzle with `-` empties (a csv field defused). Two engines for the 9×9 records: the
 * 9×9 kernel, whose results its writer reads itself, and the N×N kernel, whose fast records the
 * writer is given as fields the host encodes. Guesses, and the first of several solutions,
 * depend on the engine's search: the empty grid's solution is checked apart, and both are masked
 * in the pinned bytes.
 */
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { openBatchSolver } from "../src/pool/pool.js";
import { solveStreams, type StreamSettings } from "../src/stream/pipeline.js";
import type { OutputFormatName } from "../src/formats/output/format.js";
import { ByteOutput } from "../src/pool/solve-task.js";
import { byteCollector } from "./sink.js";
import { written } from "./written.js";

const kernel = await openBatchSolver(0);
const twin = await openBatchSolver(0, ["general-wasm"]);
afterAll(() => Promise.all([kernel.close(), twin.close()]));

const EASY = "8...143.5..3.9.....42..39.72.438.....6.....4.....497.26.94..23.....3.1..7.892...4";
const EASY_SOLUTION = "896714325573298416142563987254387691967152843381649752619475238425836179738921564";
const HARD = ".....3....498...76....4..58...5.....7...3..9...5..6.......6...3.7....14...31.52..";
const HARD_SOLUTION = "857693412249851376631247958124589637768432591395716824512964783976328145483175269";
const UNSOLVABLE = "12345678.........9" + ".".repeat(63); // row 1 needs a 9 where column 9 has one
const EMPTY = ".".repeat(81);
const DASHED = EASY.replaceAll(".", "-");
const REPEATED = "55" + EASY.slice(2);
const rows = (grid: string) => Array.from({ length: 9 }, (_, r) => grid.slice(r * 9, r * 9 + 9)).join("\n");

/** Lines 1–7 one per line, lines 8–16 the easy puzzle as a grid, line 17 the hard one. */
const INPUT = [EASY, "1.3.......2.4..3", "12345", UNSOLVABLE, EMPTY, DASHED, REPEATED, rows(EASY), HARD].join("\n") + "\n";

/** The output of INPUT as in.txt, on `solver`, with guesses and the empty grid's solution masked (that checked first). */
async function output(settings: Partial<StreamSettings> & { output: OutputFormatName }, solver = kernel): Promise<string> {
  const out = byteCollector();
  const all: StreamSettings = { input: "auto", limit: 2, batchSize: 4, maxInFlight: 2, workers: 0, ...settings };
  await solveStreams([{ name: "in.txt", open: () => Readable.from([Buffer.from(INPUT)]) }], out, solver, all);
  const text = out.bytes().toString("utf8");
  const solutions = /("puzzle":"\.{81}","status":"\w+","solution":"|,\.{81},\w+,)(\d{81})/g; // the empty grid's
  for (const [, , solution] of text.matchAll(solutions)) expect(isSolvedGrid(solution)).toBe(true);
  return text
    .replace(/"guesses":\d+/g, '"guesses":G')
    .replace(solutions, "$1S")
    .replace(/,(\d+),\d+,$/gm, ",$1,G,");
}

/** True when `grid` is 81 digits with each of 1–9 once in every row, column and box. */
function isSolvedGrid(grid: string): boolean {
  if (!/^[1-9]{81}$/.test(grid)) return false;
  for (let unit = 0; unit < 9; unit++) {
    const row = new Set<string>();
    const column = new Set<string>();
    const box = new Set<string>();
    for (let i = 0; i < 9; i++) {
      row.add(grid[unit * 9 + i]);
      column.add(grid[i * 9 + unit]);
      box.add(grid[(Math.floor(unit / 3) * 3 + Math.floor(i / 3)) * 9 + (unit % 3) * 3 + (i % 3)]);
    }
    if (row.size < 9 || column.size < 9 || box.size < 9) return false;
  }
  return true;
}

const LINE = `${EASY_SOLUTION}
1432234131244213
invalid
unsolvable
multiple
${EASY_SOLUTION}
invalid
${EASY_SOLUTION}
${HARD_SOLUTION}
`;

const GRID = `${rows(EASY_SOLUTION)}

1432
2341
3124
4213

invalid: in.txt:3: expected 81 characters, got 5

unsolvable

multiple

${rows(EASY_SOLUTION)}

invalid: in.txt:7: cell 2 (row 1, column 2): digit 5 is repeated in row 1 (also at cell 1 (row 1, column 1))

${rows(EASY_SOLUTION)}

${rows(HARD_SOLUTION)}

`;

const JSONL = `{"index":0,"file":"in.txt","line":1,"puzzle":"${EASY}","status":"solved","solution":"${EASY_SOLUTION}","count":1,"guesses":G,"error":null}
{"index":1,"file":"in.txt","line":2,"puzzle":"1.3.......2.4..3","status":"solved","solution":"1432234131244213","count":1,"guesses":G,"error":null}
{"index":2,"file":"in.txt","line":3,"puzzle":"12345","status":"invalid","solution":null,"count":0,"guesses":null,"error":"in.txt:3: expected 81 characters, got 5"}
{"index":3,"file":"in.txt","line":4,"puzzle":"${UNSOLVABLE}","status":"unsolvable","solution":null,"count":0,"guesses":G,"error":null}
{"index":4,"file":"in.txt","line":5,"puzzle":"${EMPTY}","status":"multiple","solution":"S","count":2,"guesses":G,"error":null}
{"index":5,"file":"in.txt","line":6,"puzzle":"${DASHED}","status":"solved","solution":"${EASY_SOLUTION}","count":1,"guesses":G,"error":null}
{"index":6,"file":"in.txt","line":7,"puzzle":"${REPEATED}","status":"invalid","solution":null,"count":0,"guesses":null,"error":"in.txt:7: cell 2 (row 1, column 2): digit 5 is repeated in row 1 (also at cell 1 (row 1, column 1))"}
{"index":7,"file":"in.txt","line":8,"puzzle":"${EASY}","status":"solved","solution":"${EASY_SOLUTION}","count":1,"guesses":G,"error":null}
{"index":8,"file":"in.txt","line":17,"puzzle":"${HARD}","status":"solved","solution":"${HARD_SOLUTION}","count":1,"guesses":G,"error":null}
`;

const CSV = `index,file,line,puzzle,status,solution,count,guesses,error
0,in.txt,1,${EASY},solved,${EASY_SOLUTION},1,G,
1,in.txt,2,1.3.......2.4..3,solved,1432234131244213,1,G,
2,in.txt,3,12345,invalid,,0,,"in.txt:3: expected 81 characters, got 5"
3,in.txt,4,${UNSOLVABLE},unsolvable,,0,G,
4,in.txt,5,${EMPTY},multiple,S,2,G,
5,in.txt,6,${DASHED},solved,${EASY_SOLUTION},1,G,
6,in.txt,7,${REPEATED},invalid,,0,,"in.txt:7: cell 2 (row 1, column 2): digit 5 is repeated in row 1 (also at cell 1 (row 1, column 1))"
7,in.txt,8,${EASY},solved,${EASY_SOLUTION},1,G,
8,in.txt,17,${HARD},solved,${HARD_SOLUTION},1,G,
`;

const JSONL_LIMIT_1 = `{"index":0,"file":"in.txt","line":1,"puzzle":"${EASY}","status":"solved","solution":"${EASY_SOLUTION}","count":1,"guesses":G,"error":null}
{"index":1,"file":"in.txt","line":2,"puzzle":"1.3.......2.4..3","status":"solved","solution":"1432234131244213","count":1,"guesses":G,"error":null}
{"index":2,"file":"in.txt","line":3,"puzzle":"12345","status":"invalid","solution":null,"count":0,"guesses":null,"error":"in.txt:3: expected 81 characters, got 5"}
{"index":3,"file":"in.txt","line":4,"puzzle":"${UNSOLVABLE}","status":"unsolvable","solution":null,"count":0,"guesses":G,"error":null}
{"index":4,"file":"in.txt","line":5,"puzzle":"${EMPTY}","status":"solved","solution":"S","count":1,"guesses":G,"error":null}
{"index":5,"file":"in.txt","line":6,"puzzle":"${DASHED}","status":"solved","solution":"${EASY_SOLUTION}","count":1,"guesses":G,"error":null}
{"index":6,"file":"in.txt","line":7,"puzzle":"${REPEATED}","status":"invalid","solution":null,"count":0,"guesses":null,"error":"in.txt:7: cell 2 (row 1, column 2): digit 5 is repeated in row 1 (also at cell 1 (row 1, column 1))"}
{"index":7,"file":"in.txt","line":8,"puzzle":"${EASY}","status":"solved","solution":"${EASY_SOLUTION}","count":1,"guesses":G,"error":null}
{"index":8,"file":"in.txt","line":17,"puzzle":"${HARD}","status":"solved","solution":"${HARD_SOLUTION}","count":1,"guesses":G,"error":null}
`;

const CSV_BUDGET_3 = `index,file,line,puzzle,status,solution,count,guesses,error
0,in.txt,1,${EASY},solved,${EASY_SOLUTION},1,G,
1,in.txt,2,1.3.......2.4..3,solved,1432234131244213,1,G,
2,in.txt,3,12345,invalid,,0,,"in.txt:3: expected 81 characters, got 5"
3,in.txt,4,${UNSOLVABLE},unsolvable,,0,G,
4,in.txt,5,${EMPTY},timeout,,0,G,
5,in.txt,6,${DASHED},solved,${EASY_SOLUTION},1,G,
6,in.txt,7,${REPEATED},invalid,,0,,"in.txt:7: cell 2 (row 1, column 2): digit 5 is repeated in row 1 (also at cell 1 (row 1, column 1))"
7,in.txt,8,${EASY},solved,${EASY_SOLUTION},1,G,
8,in.txt,17,${HARD},timeout,,0,G,
`;

describe("each output format's bytes, for fast records and the others alike", () => {
  for (const [name, solver] of [
    ["the 9×9 kernel", kernel],
    ["the N×N kernel", twin],
  ] as const) {
    it(`line, grid, jsonl and csv on ${name}`, async () => {
      expect(await output({ output: "line" }, solver)).toBe(LINE);
      expect(await output({ output: "grid" }, solver)).toBe(GRID);
      expect(await output({ output: "jsonl" }, solver)).toBe(JSONL);
      expect(await output({ output: "csv" }, solver)).toBe(CSV);
    });

    it(`--limit 1 (one solution found is solved) and --budget 3 (timeout) on ${name}`, async () => {
      expect(await output({ output: "jsonl", limit: 1 }, solver)).toBe(JSONL_LIMIT_1);
      expect(await output({ output: "csv", budget: 3 }, solver)).toBe(CSV_BUDGET_3);
    });
  }
});

describe("numbers in records", () => {
  it("writes an index, a line and guesses as String does, past 32 bits too", () => {
    const powersOfTen = Array.from({ length: 11 }, (_, k) => [10 ** (k + 1) - 1, 10 ** (k + 1), 10 ** (k + 1) + 1]).flat(); // each digit count's ends
    const indexes = [0, 7, 4096, 123_456_789, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 5e15, ...powersOfTen];
    for (const firstIndex of indexes) {
      const lines = Int32Array.of(1, 2 ** 31 - 1, -(2 ** 31), -5);
      const text = written("jsonl", [EASY, EASY, EASY, EASY], { count: 1, solution: EASY_SOLUTION, guesses: 2 ** 31 - 1 }, { firstIndex, indexStep: 3, lines });
      const records = text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(records.map((r) => [r.index, r.line, r.guesses])).toEqual([...lines].map((line, i) => [firstIndex + 3 * i, line, 2 ** 31 - 1]));
      expect(text).toContain(`{"index":${String(firstIndex)},`);
    }
  });
});

describe("ByteOutput", () => {
  it("grows for text of any length, each piece after the last", () => {
    const out = new ByteOutput(new Uint8Array(1));
    const pieces = ["é✓\u{1F600}", "", "x", "y".repeat(81), "z".repeat(600), "✓".repeat(300)];
    for (const piece of pieces) out.text(piece);
    expect(new TextDecoder().decode(out.written())).toBe(pieces.join(""));
  });
});
