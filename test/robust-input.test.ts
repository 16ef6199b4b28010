/**
 * The input side: what an adversarial run found in line reading, detection,
 * messages and CSV output. Each test names the behaviour it protects.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { RecordReader } from "../src/stream/input.js";
import type { InputFormatName } from "../src/formats/input/format.js";
import { splitLines } from "./judge-text.js";
import { type LineChunk, MAX_LINE_LENGTH, readLineChunks } from "../src/stream/lines.js";
import { parseRecord } from "../src/formats/record.js";
import { EXCERPT_LENGTH, escapeText, excerpt } from "../src/model/excerpt.js";
import { checkAlphabet, parsePuzzle, parseSymbols, PuzzleError } from "../src/model/puzzle.js";
import { loadFixture } from "./fixture.js";
import { written } from "./written.js";
import { outputFormats } from "../src/formats/output/format.js";

const fixture = loadFixture();
const UNIQUE = fixture.filter((c) => c.count === 1 && c.puzzle.includes(".")).map((c) => c.puzzle);
const rowsOf = (puzzle: string) => Array.from({ length: 9 }, (_, r) => puzzle.slice(r * 9, r * 9 + 9));

/** The records of a stream of `pieces`, as the CLI reads them: chunks through readLineChunks into a RecordReader. */
async function streamRecords(pieces: (string | Buffer)[], alphabet?: string, format: InputFormatName = "auto") {
  const records: { line: number; text: string; error: string | null }[] = [];
  const reader = new RecordReader((line, text, error) => records.push({ line, text, error }), format, alphabet);
  for await (const chunk of readLineChunks(Readable.from(pieces)))
    chunk.lines.forEach((text, i) => reader.line(text, chunk.longLines?.find((long) => long.at === i)?.length));
  reader.end();
  return records.map((record, index) => ({ ...record, parsed: parseRecord({ ...record, index, file: "in.txt" }, alphabet) }));
}

/** Every line of `pieces` through readLineChunks. */
async function allLines(pieces: (string | Buffer)[]): Promise<LineChunk[]> {
  const chunks: LineChunk[] = [];
  for await (const chunk of readLineChunks(Readable.from(pieces))) chunks.push(chunk);
  return chunks;
}

describe("a malformed CSV row", () => {
  it("is one invalid record named by its own line, without the CSV parser's line of one", async () => {
    const records = await streamRecords([`${UNIQUE[0]}\n${UNIQUE[1]}\nx,"a\n`]);
    expect(records.map((r) => [r.line, r.parsed.error === null])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
    expect(records[2].error).toBe("not a CSV row: Quote Not Closed: the parsing is finished with an opening quote");
  });
});

describe("a line before a grid that is no row of it (a title in capitals, a count, a number)", () => {
  const lines = (puzzles: string[], heading: (i: number) => string[]) => puzzles.flatMap((p, i) => [...heading(i), ...rowsOf(p)]).join("\n") + "\n";

  it("is a record of its own, and every grid after it takes its own rows, back to back or with blank lines", async () => {
    const puzzles = [UNIQUE[0], UNIQUE[1], UNIQUE[2]];
    for (const [lead, blank] of [
      [(i: number) => (i === 0 ? ["3"] : []), false], // a judge's count line, read without --format
      [(i: number) => [`GRID 0${i + 1}`], false],
      [(i: number) => [`PUZZLE ${i + 1}`], true],
      [(i: number) => [`(${i + 1})`], false],
      [(i: number) => [`${i + 1}.`], true],
    ] as const) {
      const text = lines(puzzles, (i) => [...(blank && i > 0 ? [""] : []), ...lead(i)]);
      for (const format of ["auto", "grid"] as const) {
        const records = await streamRecords([text], undefined, format);
        const grids = records.filter((r) => r.text.length === 81);
        expect(grids.map((r) => r.parsed.error)).toEqual([null, null, null]);
        expect(grids.map((r) => r.text)).toEqual(puzzles);
        const strays = records.filter((r) => r.text.length !== 81);
        expect(strays.length).toBe(lead(1).length === 0 ? 1 : 3);
        for (const stray of strays) expect(stray.error).toMatch(/^expected 81 cells on one line or a grid of 9 rows, got one line of \d cells?$/);
        expect(records.map((r) => r.line)).toEqual([...records.map((r) => r.line)].sort((a, b) => a - b));
      }
    }
  });

  it("stays the first row of its grid when it may be one cut short (digits and empty marks): one invalid record, the next grid in place", async () => {
    const cut = rowsOf(UNIQUE[0]);
    cut[0] = cut[0].slice(0, 7);
    const records = await streamRecords([[...cut, ...rowsOf(UNIQUE[1])].join("\n")]);
    expect(records).toHaveLength(2);
    expect(records[0].error).toMatch(/^row 1 of the grid \(line 1\) has 7 cells, expected 9/);
    expect([records[1].line, records[1].text, records[1].parsed.error]).toEqual([10, UNIQUE[1], null]);
  });
});

describe("a header line before each grid is a title, not a record", () => {
  it("reads the Project Euler 96 layout (`Grid 01` then 9 rows, 50 times) as 50 puzzles, all readable", async () => {
    const puzzles = Array.from({ length: 50 }, (_, i) => UNIQUE[i % UNIQUE.length]);
    const text = puzzles.flatMap((p, i) => [`Grid ${String(i + 1).padStart(2, "0")}`, ...rowsOf(p.replaceAll(".", "0"))]).join("\n") + "\n";
    const records = await streamRecords([text]);
    expect(records).toHaveLength(50);
    expect(records.every((r) => r.parsed.error === null)).toBe(true);
    expect(records.map((r) => r.line)).toEqual(puzzles.map((_, i) => i * 10 + 2));
  });

  it("skips a title before a grid with a top border, detected or with --in grid (the title was a record, or with --in grid the grid's first row)", async () => {
    const border = "+-------+-------+-------+";
    const bordered = (puzzle: string) =>
      rowsOf(puzzle).flatMap((row, r) => [
        ...(r % 3 === 0 ? [border] : []),
        `| ${row.slice(0, 3).split("").join(" ")} | ${row.slice(3, 6).split("").join(" ")} | ${row.slice(6).split("").join(" ")} |`,
      ]);
    const text = [0, 1, 2].flatMap((i) => [`Grid ${i + 1}`, ...bordered(UNIQUE[i]), border, ""]).join("\n");
    for (const format of ["auto", "grid"] as const) {
      const records = await streamRecords([text], undefined, format);
      expect(
        records.map((r) => [r.line, r.text, r.error]),
        format,
      ).toEqual([0, 1, 2].map((i) => [i * 15 + 3, UNIQUE[i], null]));
    }
  });

  it("skips one note line before a grid, and keeps a note line that no grid follows as an invalid record", async () => {
    const records = await streamRecords([["a note on this one", ...rowsOf(UNIQUE[0]), "a stray note", "", UNIQUE[1]].join("\n")]);
    expect(records.map((r) => [r.line, r.parsed.error === null])).toEqual([
      [2, true],
      [11, false],
      [13, true],
    ]);
  });

  it("never takes a puzzle line with a note after it for a header: a grid after it is a record of its own", async () => {
    const grid = rowsOf(UNIQUE[1]);
    // a 9×9 line then a note; a colon line whose note has a word; each followed at once by a grid (9×9, or a 4×4 line)
    for (const first of [`${UNIQUE[0]}  from a note`, `${UNIQUE[0]}\tsolved ok`, `${UNIQUE[0]}:unique`]) {
      // (a title with a colon is still one: below)
      for (const next of [grid, ["12..34.........."]]) {
        const records = await streamRecords([[first, ...next].join("\n") + "\n"]);
        expect(
          records.map((r) => [r.line, r.text]),
          first,
        ).toEqual([
          [1, UNIQUE[0]],
          [2, next.join("")],
        ]);
        expect(records[0].parsed.error).toBeNull();
      }
    }
  });

  it("skips a title with a colon before a grid, its word before or after the colon", async () => {
    for (const title of ["2024-01-05: daily puzzle", "Puzzle 3: hard", "1: easy"]) {
      const records = await streamRecords([[title, ...rowsOf(UNIQUE[0])].join("\n") + "\n"]);
      expect(
        records.map((r) => [r.line, r.parsed.error === null]),
        title,
      ).toEqual([[2, true]]);
    }
  });

  it("reads each of two note lines that no grid follows as a record of its own, never as rows of one grid", async () => {
    const records = await streamRecords(["garbage\nnonsense\n"]);
    expect(records.map((r) => [r.line, r.text, r.parsed.error === null])).toEqual([
      [1, "garbage", false],
      [2, "nonsense", false],
    ]);
    // a title that a blank line parts from its grid is still one invalid record, and the grid is read
    const parted = await streamRecords([["Grid 01", "", ...rowsOf(UNIQUE[0])].join("\n")]);
    expect(parted.map((r) => [r.line, r.parsed.error === null])).toEqual([
      [1, false],
      [3, true],
    ]);
  });

  it("reads each line of a run of word lines of a grid's width as a record of its own; the last before a grid is its title; detected or with --in grid (which lost each but the last)", async () => {
    // 4, 9 and 16 characters: each could be a grid's row by its width, but holds a word, which no row does
    for (const format of ["auto", "grid"] as const) {
      for (const words of [
        ["Easy", "Hard"],
        ["abcd", "efgh", "ijkl", "mnop", "qrst"],
        ["Difficult", "Impossibl"],
        ["A note on it", "My hard one"],
        ["sixteen-letters!", "another-sixteen."],
      ]) {
        const alone = await streamRecords([words.join("\n") + "\n"], undefined, format);
        expect(
          alone.map((r) => [r.line, r.text, r.parsed.error === null]),
          `${format} ${words[0]}`,
        ).toEqual(words.map((word, i) => [i + 1, word, false]));
        const titled = await streamRecords([[...words, ...rowsOf(UNIQUE[0])].join("\n") + "\n"], undefined, format);
        expect(
          titled.map((r) => [r.line, r.text, r.parsed.error === null]),
          `${format} ${words[0]}`,
        ).toEqual([...words.slice(0, -1).map((word, i) => [i + 1, word, false]), [words.length + 1, UNIQUE[0], true]]);
      }
    }
  });

  it("ends a run of 4×4 lines at a row of another grid's width: each 4×4 line and the grid after them is a record", async () => {
    const four = ["12..34..........", "....1..2........"];
    // a run as the grid reader reads it: a 4×4 line with a symbol over 4 among them (or alone) is still one
    for (const lines of [[four[0]], four, ["12..34.....5...."], [four[0], "12..34.....5....", four[1]]]) {
      const records = await streamRecords([[...lines, ...rowsOf(UNIQUE[0])].join("\n") + "\n"]);
      expect(records.map((r) => [r.line, r.text, r.parsed.error === null])).toEqual([
        ...lines.map((line, i) => [i + 1, line, !line.includes("5")]), // (5 is no 4×4 symbol: that line is invalid, alone)
        [lines.length + 1, UNIQUE[0], true],
      ]);
    }
  });

  it("skips a title after a puzzle line of every size, a 4×4 line's run of one or more included: one record per puzzle", async () => {
    const four = ["12..34..........", "....1..2........"];
    for (const lines of [[four[0]], four, [UNIQUE[1]], [".".repeat(256)], [".".repeat(625)]]) {
      for (const title of ["Grid 19", "sixteen-letters!"]) {
        const records = await streamRecords([[...lines, title, ...rowsOf(UNIQUE[0])].join("\n") + "\n"]);
        expect(
          records.map((r) => [r.line, r.text, r.parsed.error === null]),
          `${lines[0].length} ${title}`,
        ).toEqual([...lines.map((line, i) => [i + 1, line, true]), [lines.length + 2, UNIQUE[0], true]]);
      }
    }
    // a title before a 4×4 line is skipped too; one that nothing follows is a record of its own
    const last = await streamRecords([["Grid 20", four[0], "Grid 21"].join("\n") + "\n"]);
    expect(last.map((r) => [r.line, r.text, r.parsed.error === null])).toEqual([
      [2, four[0], true],
      [3, "Grid 21", false],
    ]);
  });

  it("keeps a title that no grid follows as written, spaces and all, in its record, detected or with --in grid, also directly before a puzzle's line", async () => {
    const title = "My   first  puzzle";
    for (const format of ["auto", "grid"] as const) {
      // (directly before a puzzle's line, --in grid dropped its spaces)
      for (const after of ["", "\n", `\n${UNIQUE[1]}\n`, `${UNIQUE[1]}\n`]) {
        const records = await streamRecords([`${UNIQUE[0]}\n  ${title} \n${after}`], undefined, format);
        expect(records[1], `${format} ${JSON.stringify(after)}`).toMatchObject({
          line: 2,
          text: title,
          error: "expected 81 cells on one line or a grid of 9 rows, got one line of 13 cells",
        });
      }
    }
  });

  it("keeps a title of 4, 16 or 25 characters without its spaces as written in a record of its own, not a 4×4 line nor a grid's row", async () => {
    // (detected, `Title before a line` was read as the 4×4 line `Titlebeforealine`; with --in grid, and at 4 or 25 cells detected
    // too, as a 4×4, 16×16 or 25×25 grid cut short)
    for (const title of ["Easy", "Title before a line", "sixteen-letters!", "Puzzles from the Sunday paper"]) {
      const cells = title.replaceAll(" ", "").length;
      for (const format of ["auto", "grid"] as const) {
        for (const after of ["", `${UNIQUE[1]}\n`, `\n${UNIQUE[1]}\n`]) {
          const records = await streamRecords([`${UNIQUE[0]}\n${title}\n${after}`], undefined, format);
          expect(records[1], `${format} ${title} ${JSON.stringify(after)}`).toMatchObject({
            line: 2,
            text: title,
            error: `expected 81 cells on one line or a grid of 9 rows, got one line of ${cells} cells`,
          });
          if (after !== "") expect(records[2].text).toBe(UNIQUE[1]);
        }
      }
    }
    // a 4×4 puzzle's line, and a 16-cell line in an --alphabet of letters, are still read as such; a title before either is skipped
    for (const [line, alphabet] of [
      ["12 34 34 .. 0. 1. .. ..", undefined],
      ["abcdponmbadcmnop", "abcdefghijklmnop"],
    ] as const) {
      for (const title of [[], ["Title before a line"]]) {
        const records = await streamRecords([[UNIQUE[0], ...title, line].join("\n") + "\n"], alphabet);
        expect(
          records.map((r) => [r.line, r.text]),
          `${line} ${title}`,
        ).toEqual([
          [1, UNIQUE[0]],
          [title.length + 2, alphabet === undefined ? line.replaceAll(" ", "") : line],
        ]);
        if (alphabet === undefined) expect(records[1].parsed.error).toBeNull();
      }
    }
  });

  it("reads a 16×16 or 25×25 grid written in lowercase letters as one grid, its rows never titles; a title before it is still one", async () => {
    // sudoku16_kr100.txt line 1 in `a`–`p`, and in `1`–`9` then `a`–`g`; a 25×25 of one clue per row in `a`–`y`
    const sixteen =
      "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69..F.....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.42E1A.4C.5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E";
    const letters = [...sixteen].map((ch) => (ch === "." ? ch : "abcdefghijklmnop"["123456789ABCDEFG".indexOf(ch)])).join("");
    const twentyFive = Array.from({ length: 25 }, (_, r) => ".".repeat(r) + "abcdefghijklmnopqrstuvwxy"[r] + ".".repeat(24 - r)).join("");
    for (const grid of [letters, sixteen.toLowerCase(), twentyFive]) {
      const size = Math.sqrt(grid.length);
      const rows = Array.from({ length: size }, (_, r) => grid.slice(r * size, r * size + size));
      for (const format of ["auto", "grid"] as const) {
        for (const title of [[], ["Puzzle 01"]]) {
          const records = await streamRecords([[...title, ...rows].join("\n") + "\n"], undefined, format);
          // one record from the first row on: the character no alphabet given holds is named, not a grid cut short
          expect(
            records.map((r) => [r.line, r.text, r.error]),
            `${format} ${grid.slice(0, size)} ${title}`,
          ).toEqual([[title.length + 1, grid, expect.stringMatching(/^cell \d+ \(row 1, column \d+\) contains invalid character '[a-y]'/)]]);
          // given its alphabet, it is read
          const alphabet = grid === letters ? "abcdefghijklmnop" : grid === twentyFive ? "abcdefghijklmnopqrstuvwxy" : "123456789abcdefg";
          const read = await streamRecords([[...title, ...rows].join("\n") + "\n"], alphabet, format);
          expect(read.map((r) => [r.line, r.text, r.parsed.error])).toEqual([[title.length + 1, grid, null]]);
        }
      }
    }
  });

  it("never takes a row with a typo for a header: later grids keep their places", async () => {
    const [a, b] = [rowsOf(UNIQUE[0]), rowsOf(UNIQUE[1])];
    const records = await streamRecords([[a[0].slice(1), ...a.slice(1), ...b].join("\n")]);
    expect(records.map((r) => [r.line, r.parsed.error === null])).toEqual([
      [1, false],
      [10, true],
    ]);
  });
});

describe("comment syntax never collides with an alphabet symbol", () => {
  it("refuses `#` in an alphabet given to the CLI and white space in any alphabet", () => {
    expect(() => checkAlphabet(" 12345678")).toThrow(/white space/);
    expect(() => checkAlphabet("1234\t6789")).toThrow(/white space/);
    // `#` is refused by the CLI's --alphabet parser (robust-cli.test.ts); the library has no comments.
    expect(checkAlphabet("#12345678").size).toBe(9);
  });

  it("names a NUL, control or invisible character in a short line read as a one-row grid", async () => {
    const records = await streamRecords(["\u0000\n\n\u0007x\n\n\u200b\u200b\u200b\n"]);
    expect(records.map((r) => r.parsed.error)).toEqual([
      "in.txt:1: expected 81 cells on one line or a grid of 9 rows, got one line of 1 cell (character 1 is '\\x00', a NUL)",
      "in.txt:3: expected 81 cells on one line or a grid of 9 rows, got one line of 2 cells (character 1 is '\\x07', a control character)",
      "in.txt:5: expected 81 cells on one line or a grid of 9 rows, got one line of 3 cells (character 1 is '\\u200b', an invisible character)",
    ]);
  });

  it("names a symbol of two UTF-16 units in an alphabet, which would be counted as two symbols", () => {
    const emoji = Array.from({ length: 9 }, (_, i) => String.fromCodePoint(0x1f600 + i)).join("");
    expect(() => checkAlphabet(emoji)).toThrow(/holds '😀', a character of two UTF-16 units: each symbol must be one/);
  });
});

describe("CR, LF and CRLF all end lines", () => {
  it("reads CR-only files (old Mac) line by line, whatever the chunk edges", async () => {
    const text = UNIQUE.slice(0, 5).join("\r") + "\r";
    for (const pieces of [[text], text.match(/[\s\S]{1,7}/g)!]) {
      const records = await streamRecords(pieces);
      expect(records.map((r) => [r.line, r.text])).toEqual(UNIQUE.slice(0, 5).map((p, i) => [i + 1, p]));
    }
  });

  it("reads a CRLF split between two chunks as one line end, and mixed line ends in one file", async () => {
    const lines = (await allLines(["a\r", "\nb\rc\r\n\rd\n", "e"])).flatMap((c) => c.lines);
    expect(lines).toEqual(["a", "b", "c", "", "d", "e"]);
    expect(splitLines("a\rb\r\nc\nd")).toEqual(["a", "b", "c", "d"]);
  });
});

describe("line reading is linear, with a maximum record length", () => {
  it("reads a line spread over many chunks whole, building it once", async () => {
    const pieces = Array.from({ length: 2000 }, () => "x".repeat(100));
    // Counts the characters split into lines: each chunk once is linear; splitting the line so far again with every chunk is quadratic (200 million here).
    const split = String.prototype.split;
    let charactersSplit = 0;
    String.prototype.split = function (this: string, ...args: Parameters<typeof split>) {
      charactersSplit += this.length;
      return split.apply(this, args);
    } as typeof split;
    let chunks: LineChunk[];
    try {
      chunks = await allLines([...pieces, "\nnext"]);
    } finally {
      String.prototype.split = split;
    }
    expect(chunks.flatMap((c) => c.lines).map((l) => l.length)).toEqual([200_000, 4]);
    expect(chunks.every((c) => c.longLines === undefined)).toBe(true);
    expect(charactersSplit).toBeLessThan(2 * 200_005);
  });

  it("makes a line over the maximum one invalid record saying so, keeping only its start, and reads on", async () => {
    const long = MAX_LINE_LENGTH + 5;
    const pieces = [
      UNIQUE[0] + "\n",
      ...Array.from({ length: Math.ceil(long / 65536) }, (_, i) => "7".repeat(Math.min(65536, long - i * 65536))),
      "\n" + UNIQUE[1],
    ];
    const records = await streamRecords(pieces);
    expect(records.map((r) => r.line)).toEqual([1, 2, 3]);
    expect(records[1].text.length).toBeLessThan(100);
    expect(records[1].parsed.error).toMatch(/in\.txt:2: the line is 1,048,581 characters long, over the limit of 1,048,576/);
    expect(records[2].parsed.error).toBeNull();
  });

  it("makes a line of one character over the maximum such a record too, however its end arrives", async () => {
    const line = "7".repeat(MAX_LINE_LENGTH + 1);
    const layouts = [
      [UNIQUE[0] + "\n" + line + "\n" + UNIQUE[1]], // one chunk holds the whole line
      [UNIQUE[0] + "\n", line.slice(0, -1), "7\n" + UNIQUE[1]], // the line's end comes with its last character
      [UNIQUE[0] + "\n", ...(line.match(/[\s\S]{1,65536}/g) ?? []), "\n", UNIQUE[1]],
    ];
    for (const pieces of layouts) {
      const records = await streamRecords(pieces);
      expect(records.map((r) => r.line)).toEqual([1, 2, 3]);
      expect(records[1].text.length).toBeLessThan(100);
      expect(records[1].parsed.error).toMatch(/in\.txt:2: the line is 1,048,577 characters long, over the limit of 1,048,576/);
      expect(records[2].parsed.error).toBeNull();
    }
  });
});

describe("text from the input is data in every message", () => {
  it("escapes control, zero-width and bidirectional characters and cuts long excerpts", () => {
    expect(escapeText("\x1b]0;PWNED\x07\x1b[31mRED")).toBe("\\x1b]0;PWNED\\x07\\x1b[31mRED");
    expect(escapeText("a\u0000b\u200bc\u202ed\u009b")).toBe("a\\x00b\\u200bc\\u202ed\\x9b");
    const cut = excerpt("y".repeat(50_000_000 / 1000));
    expect(cut.length).toBeLessThan(EXCERPT_LENGTH + 40);
    expect(cut).toMatch(/… \(49,960 more characters\)$/);
  });

  it("names a NUL or zero-width cell character by its escape in 9×9 and N×N messages", () => {
    const withNul = "\u0000" + UNIQUE[0].slice(1);
    expect(() => parsePuzzle(withNul)).toThrow("contains invalid character '\\x00'");
    const general = "\u200b" + ".".repeat(255);
    try {
      parseSymbols(general);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PuzzleError);
      expect((error as Error).message).toContain("'\\u200b'");
      expect((error as Error).message).not.toContain("\u200b");
    }
  });
});

describe("CSV fields a spreadsheet would evaluate are defused (OWASP)", () => {
  it("quotes a puzzle or file name starting with = + - @ tab or CR behind a leading apostrophe", () => {
    // Each text is a record that does not read (its read error given as `bad`): its puzzle field as read.
    const row = (text: string, file = "in.txt") => written("csv", [text], { count: 0, solution: "", guesses: 0 }, { file, errors: [[0, "bad"]] });
    expect(row('=HYPERLINK("http://x","y")')).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    for (const start of ["+", "-", "@", "\t", "\r"]) expect(row(`${start}1+2`)).toContain(`"'${start}1+2"`);
    expect(row("..3", "=cmd|' /C calc'!A0")).toMatch(/^0,"'=cmd\|' \/C calc'!A0",1,\.\.3,/);
    expect(row("123")).toBe("0,in.txt,1,123,invalid,,0,,in.txt:1: bad\n");
  });

  it("reads its own CSV back: a puzzle field's guard `'` is taken off, and only a guard's", async () => {
    const texts = ["=", "+", "-", "@", "\t"].map((start) => start + UNIQUE[0].slice(1));
    const csv = outputFormats.csv.header + written("csv", texts, { count: 0, solution: "", guesses: 0 }, { errors: texts.map((_, i) => [i, "bad"]) });
    const records = await streamRecords([csv]);
    expect(records.map((r) => r.text)).toEqual(texts);
    // a `-` empty cell first reads as a puzzle again
    expect(records[2].parsed.error).toBeNull();
    // an apostrophe before anything else, or a second one, is the field's own
    const kept = await streamRecords([["puzzle,n", `'5${UNIQUE[0].slice(1)},1`, `"''-${UNIQUE[0].slice(1)}",2`].join("\n") + "\n"]);
    expect(kept.map((r) => r.text)).toEqual([`'5${UNIQUE[0].slice(1)}`, `''-${UNIQUE[0].slice(1)}`]);
  });
});
