/** The input readers (detection, every format, errors with line and cell), line splitting and the output writers. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as turn } from "node:timers/promises";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { RecordReader } from "../src/stream/input.js";
import type { InputFormatName } from "../src/formats/input/format.js";
import { splitLines } from "./judge-text.js";
import { fileChunks, readLineChunks } from "../src/stream/lines.js";
import { type PuzzleRecord, parseRecord } from "../src/formats/record.js";
import { outputFormats } from "../src/formats/output/format.js";
import { formatPuzzle } from "../src/model/puzzle.js";
import { loadFixture } from "./fixture.js";
import { written } from "./written.js";

/** Every record of `text` read as one file, parsed. */
function readRecords(text: string, format: InputFormatName = "auto", file = "in.txt", alphabet?: string): PuzzleRecord[] {
  const records: PuzzleRecord[] = [];
  const reader = new RecordReader(
    (line, cells, error) => records.push(parseRecord({ index: records.length, line, file, text: cells, error }, alphabet)),
    format,
    alphabet,
  );
  for (const line of splitLines(text)) reader.line(line);
  reader.end();
  return records;
}

const fixture = loadFixture();
const UNIQUE = fixture.find((c) => c.count === 1 && c.puzzle.includes("."))!.puzzle;
const SECOND = fixture.filter((c) => c.count === 1)[1].puzzle;

/** The puzzle as 9 rows of 9 characters. */
function rowsOf(puzzle: string): string[] {
  return Array.from({ length: 9 }, (_, r) => puzzle.slice(r * 9, r * 9 + 9));
}

/** A row written `a b c | d e f | g h i`. */
function spacedRow(row: string): string {
  return [row.slice(0, 3), row.slice(3, 6), row.slice(6)].map((box) => box.split("").join(" ")).join(" | ");
}

function gridText(records: PuzzleRecord[]): string[] {
  return records.map((r) => (r.grid ? formatPuzzle(r.grid) : `invalid ${r.error}`));
}

describe("one-line format", () => {
  it.each([".", "0", "_", "?", "-", "*", "x"])("reads '%s' as an empty cell", (empty) => {
    const records = readRecords(UNIQUE.replaceAll(".", empty) + "\n");
    expect(gridText(records)).toEqual([UNIQUE]);
  });

  it("ignores what follows the 81 cells after white space, and trims the line", () => {
    expect(gridText(readRecords(`  ${UNIQUE}   rating 9.1\n`))).toEqual([UNIQUE]);
  });

  it("reads a line of the wrong length as one invalid record naming the line", () => {
    const records = readRecords(`${UNIQUE}\n${UNIQUE.slice(0, 80)}\n${SECOND}\n`);
    expect(records.map((r) => r.line)).toEqual([1, 2, 3]);
    expect(records[1].grid).toBeNull();
    expect(records[1].error).toBe("in.txt:2: expected 81 characters, got 80");
    expect(records[2].grid && formatPuzzle(records[2].grid)).toBe(SECOND);
  });

  it("names a character outside the BMP (two UTF-16 units) in a line of 81 characters, not the length", () => {
    const line = `${UNIQUE.slice(0, 40)}\u{1F600}${UNIQUE.slice(41)}`;
    expect(line.length).toBe(82);
    const [record] = readRecords(`${line}\n`);
    expect(record.error).toBe("in.txt:1: cell 41 (row 5, column 5) contains invalid character '\u{1F600}'");
    expect(readRecords(`${line.slice(0, 79)}\n`)[0].error).toBe("in.txt:1: expected 81 characters, got 78"); // 79 UTF-16 units
    // 80 characters in 81 units: the emoji is the cell found, named whole; a lone half of a pair is named as its escape
    const eightyOne = `${UNIQUE.slice(0, 40)}\u{1F600}${UNIQUE.slice(41, 80)}`;
    expect(eightyOne.length).toBe(81);
    expect(readRecords(`${eightyOne}\n`)[0].error).toBe("in.txt:1: cell 41 (row 5, column 5) contains invalid character '\u{1F600}'");
    const half = `${UNIQUE.slice(0, 40)}\ud83d${UNIQUE.slice(41)}`;
    expect(readRecords(`${half}\n`)[0].error).toBe("in.txt:1: cell 41 (row 5, column 5) contains invalid character '\\ud83d'");
  });

  it("names the file, the line, the cell and the reason of a bad character or a repeated clue", () => {
    const badCharacter = UNIQUE.slice(0, 9) + "z" + UNIQUE.slice(10);
    const repeated = "55" + UNIQUE.slice(2);
    const records = readRecords(`# header\n${badCharacter}\n\n${repeated}\n`, "auto", "data/p.txt");
    expect(records.map((r) => r.error)).toEqual([
      "data/p.txt:2: cell 10 (row 2, column 1) contains invalid character 'z'",
      "data/p.txt:4: cell 2 (row 1, column 2): digit 5 is repeated in row 1 (also at cell 1 (row 1, column 1))",
    ]);
  });
});

describe("grid format", () => {
  const rows = rowsOf(UNIQUE);
  const layouts: Record<string, string[]> = {
    "plain rows": rows,
    "rows with spaces": rows.map((row) => row.split("").join(" ")),
    "bars and separator rows": [
      ...rows.slice(0, 3).map(spacedRow),
      "------+-------+------",
      ...rows.slice(3, 6).map(spacedRow),
      "------+-------+------",
      ...rows.slice(6).map(spacedRow),
    ],
    "a framed grid": [
      "+-------+-------+-------+",
      ...rows.slice(0, 3).map((r) => `| ${spacedRow(r)} |`),
      "+-------+-------+-------+",
      ...rows.slice(3, 6).map((r) => `| ${spacedRow(r)} |`),
      "+=======+=======+=======+",
      ...rows.slice(6).map((r) => `| ${spacedRow(r)} |`),
      "+-------+-------+-------+",
    ],
    "dashes for empties and a plain dashed separator": [
      ...rows.slice(0, 3).map((r) => r.replaceAll(".", "-").slice(0, 3) + "|" + r.replaceAll(".", "-").slice(3, 6) + "|" + r.replaceAll(".", "-").slice(6)),
      "-----------",
      ...rows.slice(3).map((r) => r.replaceAll(".", "-")),
    ],
  };

  it.each(Object.entries(layouts))("reads %s", (_name, lines) => {
    const records = readRecords(["# a grid", ...lines, ""].join("\n"));
    expect(gridText(records)).toEqual([UNIQUE]);
    expect(records[0].line).toBe(lines[0].startsWith("+") ? 3 : 2);
  });

  it("reads grids back to back, with or without blank lines between them", () => {
    const text = [...rows, ...rowsOf(SECOND), "", ...rows, ""].join("\n");
    const records = readRecords(text);
    expect(gridText(records)).toEqual([UNIQUE, SECOND, UNIQUE]);
    expect(records.map((r) => r.line)).toEqual([1, 10, 20]);
  });

  it("makes a grid cut short by a blank line one invalid record, and reads on", () => {
    const records = readRecords([...rows.slice(0, 4), "", UNIQUE, ""].join("\n"));
    expect(records).toHaveLength(2);
    expect(records[0].error).toBe("in.txt:1: the grid ends after 4 rows, expected 9");
    expect(gridText(records.slice(1))).toEqual([UNIQUE]);
  });

  it("says a square grid of a size no solver takes is one (6 rows of 6), and reads on", () => {
    const six = ["1 . . | . . .", ". . . | . 2 .", ". 3 . | . . .", ". . . | 4 . .", ". . 5 | . . .", ". . . | . . 6"];
    const records = readRecords([...six, "", UNIQUE, ""].join("\n"));
    expect(records.map((r) => r.error)).toEqual(["in.txt:1: a 6×6 grid, which no solver here takes (4×4, 9×9, 16×16, 25×25)", null]);
  });

  it("reads a 12×12 grid as one invalid record that says so, with or without a blank line after it (it was cut into 9 rows and 3)", () => {
    const twelve = Array.from({ length: 12 }, (_, r) => Array.from({ length: 12 }, (_, c) => ((r * 5 + c * 7) % 13 === 0 ? "A" : ".")).join(""));
    const untaken = "a 12×12 grid, which no solver here takes (4×4, 9×9, 16×16, 25×25)";
    for (const gap of [[], [""]]) {
      const records = readRecords([...twelve, ...gap, ...rows, UNIQUE, ""].join("\n"));
      expect(records.map((r) => [r.line, r.error])).toEqual([
        [1, `in.txt:1: ${untaken}`],
        [13 + gap.length, null],
        [22 + gap.length, null],
      ]);
    }
    // cut short, or a row of another width: named, and the grid still takes its 12 rows
    expect(readRecords([...twelve.slice(0, 7), "", UNIQUE].join("\n")).map((r) => r.error)).toEqual([
      `in.txt:1: the grid ends after 7 rows, expected 12: ${untaken}`,
      null,
    ]);
    const narrow = twelve.map((row, i) => (i === 4 ? row.slice(0, 11) : row));
    expect(readRecords([...narrow, UNIQUE].join("\n")).map((r) => r.error)).toEqual([
      `in.txt:1: row 5 of the grid (line 5) has 11 cells, expected 12: ${untaken}`,
      null,
    ]);
  });

  it("says that numbers between spaces are not cells when a line or a grid row has a two-digit one (a 16×16 written as 1–16)", () => {
    const note = "(the numbers between spaces, such as '16', are not cells: write each cell as one symbol, 1–9 then A–G in a 16×16, or give an alphabet)";
    const numbers = Array.from({ length: 16 }, (_, i) => String(i % 3 === 0 ? 16 - i : 0)).join(" ");
    expect(readRecords(`${numbers}\n`)[0].error).toBe(`in.txt:1: expected 81 characters, got ${numbers.length} ${note}`);
    const spaced = rows.map((row) => [...row].join(" "));
    spaced[2] = spaced[2].replace(/^\S/, "16");
    expect(readRecords(spaced.join("\n"))[0].error).toBe(`in.txt:1: row 3 of the grid (line 3) has 10 cells, expected 9 ${note}`);
    expect(readRecords(rows.map((row) => [...row].join(" ")).join("\n"))[0].error).toBeNull(); // one-digit numbers between spaces are cells
  });

  it("keeps a 9×9 grid whose first rows are cut (or too long) nine rows long, and the grids after it aligned", () => {
    for (const broken of [
      [rows[0].slice(0, 8), ...rows.slice(1)],
      [rows[0].slice(0, 8), rows[1].slice(0, 8), ...rows.slice(2)], // two first rows of one untaken width, then a row of 9
      [`${rows[0]}1`, `${rows[1]}1`, ...rows.slice(2)],
    ]) {
      const records = readRecords([...broken, ...rowsOf(SECOND), ...rows].join("\n"));
      expect(records.map((r) => r.error)).toEqual([`in.txt:1: row 1 of the grid (line 1) has ${broken[0].length} cells, expected 9`, null, null]);
    }
    // a line of 81 cells is a whole puzzle, never a grid's row: 18 of them are 18 (invalid) records, not 2 grids of 9
    const lines = readRecords(Array(18).fill(UNIQUE).join("\n"), "grid");
    expect(lines.map((r) => [r.line, r.text])).toEqual(Array.from({ length: 18 }, (_, i) => [i + 1, UNIQUE]));
    expect(lines.every((r) => r.error?.includes("a whole 9×9 puzzle"))).toBe(true);
  });

  it("counts a row of the wrong width, names its line, and keeps the next grid aligned", () => {
    const broken = [...rows];
    broken[2] = broken[2].slice(0, 8);
    const records = readRecords([...broken, ...rowsOf(SECOND)].join("\n"));
    expect(records.map((r) => r.error)).toEqual(["in.txt:1: row 3 of the grid (line 3) has 8 cells, expected 9", null]);
    expect(records[1].grid && formatPuzzle(records[1].grid)).toBe(SECOND);
  });

  it("names the cell of a bad character inside a grid, and the line of its row", () => {
    const broken = [...rows];
    broken[4] = "?" + broken[4].slice(1, 8) + "k";
    const [record] = readRecords(broken.join("\n"));
    expect(record.error).toBe("in.txt:1: cell 45 (row 5, column 9) contains invalid character 'k' (line 5)");
    const banded = [...broken.slice(0, 3), "------+-------+------", ...broken.slice(3)]; // a separator line before row 4
    expect(readRecords(`# a comment\n${banded.join("\n")}`)[0].error).toBe("in.txt:2: cell 45 (row 5, column 9) contains invalid character 'k' (line 7)");
  });

  it("names the line of the row where a grid's clue is repeated, as for a bad character", () => {
    const clash = [...rows];
    clash[7] = "55......."; // row 8: a 5 twice, rows are checked before columns and boxes
    const banded = [...clash.slice(0, 3), "------+-------+------", ...clash.slice(3)]; // a separator line before row 4
    const [record] = readRecords(`# a comment\n${banded.join("\n")}`);
    expect(record.error).toBe("in.txt:2: cell 65 (row 8, column 2): digit 5 is repeated in row 8 (also at cell 64 (row 8, column 1)) (line 10)");
  });

  it("reads a stray short line as one invalid record", () => {
    const records = readRecords(`hello\n${UNIQUE}\n`);
    expect(records).toHaveLength(2);
    expect(records[0].error).toBe("in.txt:1: expected 81 cells on one line or a grid of 9 rows, got one line of 5 cells");
    expect(records[1].grid).not.toBeNull();
  });
});

describe("csv format", () => {
  it("takes the Kaggle quizzes column", () => {
    const records = readRecords(`quizzes,solutions\n${UNIQUE},${fixture[0].solution}\n${SECOND},x\n`);
    expect(gridText(records)).toEqual([UNIQUE, SECOND]);
    expect(records.map((r) => r.line)).toEqual([2, 3]);
  });

  it("skips a one-column header, in any case, and reads the rows below it", () => {
    const records = readRecords(`quizzes\n${UNIQUE}\n${SECOND}\nPuzzle\n${UNIQUE}\n`);
    expect(gridText(records)).toEqual([UNIQUE, SECOND, UNIQUE]);
    expect(records.map((r) => r.line)).toEqual([2, 3, 5]);
    expect(records.every((r) => r.error === null)).toBe(true);
  });

  it("reads a lone word that names no puzzle column as one invalid record", () => {
    expect(readRecords(`solutions\n${UNIQUE}\n`).map((r) => r.error !== null)).toEqual([true, false]);
  });

  it("takes the puzzle column wherever it is, unquoting fields", () => {
    const records = readRecords(`id,Puzzle,solution,clues,difficulty\n1,"${UNIQUE}",sol,24,2.5\n2,${SECOND},sol,23,0\n`);
    expect(gridText(records)).toEqual([UNIQUE, SECOND]);
  });

  it("takes the first column without a header", () => {
    expect(gridText(readRecords(`${UNIQUE},anything\n`))).toEqual([UNIQUE]);
  });

  it("keeps commas and doubled quotes inside quoted fields", () => {
    const records = readRecords(`source,puzzle\n"Le Monde, 3 mai ""difficile""",${UNIQUE}\n`);
    expect(gridText(records)).toEqual([UNIQUE]);
  });

  it("names the line of a row with an unclosed quote", () => {
    const records = readRecords(`source,puzzle\n"unclosed,${UNIQUE}\n`);
    expect(records[0].error).toMatch(/^in\.txt:2: not a CSV row: Quote Not Closed/);
  });

  it("reports a row without the puzzle column", () => {
    const records = readRecords(`id,clues,puzzle\n7,24\n`);
    expect(records.map((r) => r.error)).toEqual(["in.txt:2: expected a puzzle in CSV column 3, the row has 2 columns"]);
  });
});

describe("puzzle:count[:solution] format", () => {
  it("takes the part before the first colon", () => {
    const text = fixture.map((c) => `${c.puzzle}:${c.count}${c.solution ? ":" + c.solution : ""}`).join("\n");
    const records = readRecords(text);
    expect(records).toHaveLength(fixture.length);
    expect(records.map((r) => r.text)).toEqual(fixture.map((c) => c.puzzle));
    // Valid fixture lines read as grids.
    for (const [i, c] of fixture.entries()) {
      if (c.count !== "invalid") expect(records[i].grid && formatPuzzle(records[i].grid!)).toBe(c.puzzle);
    }
  });
});

describe("detection", () => {
  it("reads a file mixing every format, in order, skipping comments and blank lines", () => {
    const text = [
      "# corpus", //           1
      UNIQUE, //               2 line
      "", //                   3
      `${SECOND}:1`, //        4 colon
      "quizzes,solutions", //  5 header
      `${UNIQUE},sol`, //      6 csv
      ...rowsOf(SECOND), //    7-15 grid
      "   # indented comment", // 16
      `${SECOND}\t; note`, //  17 line with a note
    ].join("\r\n");
    const records = readRecords(text);
    expect(gridText(records)).toEqual([UNIQUE, SECOND, UNIQUE, SECOND, SECOND]);
    expect(records.map((r) => r.line)).toEqual([2, 4, 6, 7, 17]);
  });

  it("ends a grid in progress at a line of another format", () => {
    const records = readRecords([...rowsOf(UNIQUE).slice(0, 3), SECOND].join("\n"));
    expect(records.map((r) => r.error)).toEqual(["in.txt:1: the grid ends after 3 rows, expected 9", null]);
  });

  it("--in line reads every line as one record, even grid rows", () => {
    const records = readRecords(rowsOf(UNIQUE).join("\n"), "line");
    expect(records).toHaveLength(9);
    expect(records[0].error).toBe("in.txt:1: expected 81 characters, got 9");
  });

  it("--in grid reads an 81-character line as one invalid record that says the input looks like one puzzle per line", () => {
    const whole = (line: number, cells = 81, side = 9) =>
      `in.txt:${line}: the line has ${cells} cells, a whole ${side}×${side} puzzle, not a row of ${side}: the input looks like one puzzle per line (read it with --in line, or leave out --in to detect the format)`;
    const records = readRecords(`${UNIQUE}\n\n${rowsOf(UNIQUE).join("\n")}`, "grid");
    expect(records.map((r) => r.error)).toEqual([whole(1), null]);
    // one record per line, in order: a grid in progress ends before it (short), the lines after it are read on
    const spaced = SECOND.split("").join(" ");
    const mixed = readRecords([...rowsOf(UNIQUE).slice(0, 2), UNIQUE, spaced, SECOND, ...rowsOf(SECOND)].join("\n"), "grid");
    expect(mixed.map((r) => [r.line, r.error])).toEqual([
      [1, "in.txt:1: the grid ends after 2 rows, expected 9"],
      [3, whole(3)],
      [4, whole(4)],
      [5, whole(5)],
      [6, null],
    ]);
    expect(readRecords(`${"1".repeat(256)}\n`, "grid")[0].error).toBe(whole(1, 256, 16));
  });

  it("--in csv and --in colon read headerless lines", () => {
    expect(gridText(readRecords(`${UNIQUE}`, "csv"))).toEqual([UNIQUE]);
    expect(gridText(readRecords(`${UNIQUE}`, "colon"))).toEqual([UNIQUE]);
  });
});

describe("line splitting", () => {
  it("keeps lines whole across chunk edges, with CRLF, multi-byte characters and no final line end", async () => {
    const text = `${UNIQUE}\r\nçé\r\n${SECOND}`;
    const bytes = Buffer.from(text, "utf8");
    const pieces = [bytes.subarray(0, 40), bytes.subarray(40, 83), bytes.subarray(83, 84), bytes.subarray(84)];
    const lines: string[] = [];
    let bytesRead = 0;
    for await (const chunk of readLineChunks(Readable.from(pieces))) {
      lines.push(...chunk.lines);
      bytesRead = chunk.bytesRead;
    }
    expect(lines).toEqual([UNIQUE, "çé", SECOND]);
    expect(bytesRead).toBe(bytes.length);
  });

  it("reads a file ahead into a second buffer: a chunk keeps its bytes until the next chunk is asked for", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sudoku-chunks-"));
    try {
      const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7) % 251));
      const path = join(dir, "bytes.bin");
      writeFileSync(path, bytes);
      let at = 0;
      let chunks = 0;
      for await (const chunk of fileChunks(path, 64)) {
        await turn(); // the read ahead lands meanwhile, and must not land in this chunk's buffer
        await turn();
        expect(Buffer.from(chunk).equals(bytes.subarray(at, at + chunk.length)), `chunk ${chunks} at byte ${at}`).toBe(true);
        at += chunk.length;
        chunks++;
      }
      expect(at).toBe(bytes.length);
      expect(chunks).toBe(Math.ceil(bytes.length / 64));
      // Left after one chunk, with the next read under way: the file closes without an error.
      const early = fileChunks(path, 64);
      await early.next();
      await expect(early.return(undefined)).resolves.toEqual({ done: true, value: undefined });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("output formats", () => {
  const solution = fixture[0].solution!;
  const solved = { count: 1, solution, guesses: 3 };
  const multiple = { count: 2, solution, guesses: 5 };
  const BAD = "," + UNIQUE.slice(1);
  const invalidError = "in.txt:1: cell 1 (row 1, column 1) contains invalid character ','";

  it("line: the solution, or the status word alone", () => {
    expect(written("line", [UNIQUE], solved)).toBe(solution + "\n");
    expect(written("line", [UNIQUE], multiple)).toBe("multiple\n");
    expect(written("line", [BAD], solved)).toBe("invalid\n");
  });

  it("grid: 9 rows and a blank line, or the status line and a blank line", () => {
    expect(written("grid", [UNIQUE], solved)).toBe(rowsOf(solution).join("\n") + "\n\n");
    expect(written("grid", [BAD], solved)).toBe(`invalid: ${invalidError}\n\n`);
  });

  it("jsonl: every field, JSON.stringify's bytes", () => {
    const record = { index: 0, file: "in.txt", line: 1, puzzle: UNIQUE, status: "solved", solution, count: 1, guesses: 3, error: null };
    expect(written("jsonl", [UNIQUE], solved)).toBe(JSON.stringify(record) + "\n");
    const invalid = {
      ...record,
      index: 1,
      line: 2,
      puzzle: BAD,
      status: "invalid",
      solution: null,
      count: 0,
      guesses: null,
      error: invalidError.replace(":1:", ":2:"),
    };
    expect(written("jsonl", [UNIQUE, BAD], multiple).split("\n")[1]).toBe(JSON.stringify(invalid));
  });

  it("csv: a header, then rows with quoted fields where needed", () => {
    expect(outputFormats.csv.header).toBe("index,file,line,puzzle,status,solution,count,guesses,error\n");
    expect(written("csv", [BAD], solved)).toBe(`0,in.txt,1,"${BAD}",invalid,,0,,"${invalidError.replaceAll('"', '""')}"\n`);
    expect(written("csv", [UNIQUE], multiple)).toBe(`0,in.txt,1,${UNIQUE},multiple,${solution},2,5,\n`);
  });
});

describe("larger grids", () => {
  /** sudoku16_kr100.txt line 1 (symbols 1–9, A–G); a 25×25 puzzle made of empties and one clue per row. */
  const SIXTEEN =
    "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69..F.....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.42E1A.4C.5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E";
  const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY";
  const TWENTY_FIVE = Array.from({ length: 25 }, (_, r) => ".".repeat(r) + LETTERS[r] + ".".repeat(24 - r)).join("");
  const FOUR = ["1...3..1.....14.", "..2.1...3..4.2..", "4..3............"];
  const rowsN = (grid: string, size: number) => Array.from({ length: size }, (_, r) => grid.slice(r * size, r * size + size));
  const summary = (records: PuzzleRecord[]) => records.map((r) => [r.line, r.box, r.text.length, r.error]);

  it("reads 16×16 and 25×25 one-line puzzles with their alphabets", () => {
    const records = readRecords(`${SIXTEEN}\n${TWENTY_FIVE}   # a comment\n${UNIQUE}\n`);
    expect(summary(records)).toEqual([
      [1, 4, 256, null],
      [2, 5, 625, null],
      [3, 3, 81, null],
    ]);
    expect(records.map((r) => r.alphabet)).toEqual(["123456789ABCDEFG", LETTERS, "123456789"]);
    expect(records[0].grid![0]).toBe(1);
    expect(records[0].grid![2]).toBe(13); // D
  });

  it("reads 16×16 and 25×25 grids, with spaces, bars and separators, the first row setting the size", () => {
    const spaced = rowsN(SIXTEEN, 16).map((row) =>
      [0, 4, 8, 12]
        .map((c) =>
          row
            .slice(c, c + 4)
            .split("")
            .join(" "),
        )
        .join(" | "),
    );
    const text = [...spaced.slice(0, 8), "--------+---------+---------+--------", ...spaced.slice(8), "", ...rowsN(TWENTY_FIVE, 25), ""].join("\n");
    const records = readRecords(text);
    expect(summary(records)).toEqual([
      [1, 4, 256, null],
      [19, 5, 625, null],
    ]);
    expect(records[0].text).toBe(SIXTEEN);
  });

  it("reads a run of 16-character lines using only 1–4 as 4×4 puzzles, each with its own line", () => {
    const records = readRecords(["# 4×4", ...FOUR, "", FOUR[0]].join("\n"));
    expect(summary(records)).toEqual([
      [2, 2, 16, null],
      [3, 2, 16, null],
      [4, 2, 16, null],
      [6, 2, 16, null],
    ]);
  });

  it("reads a 16×16 grid whose first row uses only 1–4 as one grid", () => {
    const rows = rowsN(SIXTEEN, 16);
    rows[0] = "................";
    const records = readRecords(rows.join("\n"));
    expect(summary(records)).toEqual([[1, 4, 256, null]]);
  });

  it("--alphabet settles a 16-character line: a 4×4 puzzle for 4 symbols, a 16×16 row for 16", () => {
    expect(summary(readRecords(FOUR.join("\n"), "auto", "in.txt", "1234"))).toEqual([
      [1, 2, 16, null],
      [2, 2, 16, null],
      [3, 2, 16, null],
    ]);
    const empty16 = Array(16).fill("................").join("\n");
    expect(summary(readRecords(empty16, "auto", "in.txt", "123456789ABCDEFG"))).toEqual([[1, 4, 256, null]]);
    const poj = readRecords(
      SIXTEEN.replace(/[^.]/g, (ch) => "ABCDEFGHIJKLMNOP"["123456789ABCDEFG".indexOf(ch)]),
      "auto",
      "in.txt",
      "ABCDEFGHIJKLMNOP",
    );
    expect(poj[0].alphabet).toBe("ABCDEFGHIJKLMNOP");
    expect(poj[0].grid![0]).toBe(1);
  });

  it("names the file, line, cell and reason of a bad 16×16 record, and a grid cut short", () => {
    const badLine = SIXTEEN.slice(0, 17) + "Z" + SIXTEEN.slice(18);
    const rows = rowsN(SIXTEEN, 16);
    const records = readRecords([badLine, ...rows.slice(0, 3), "", "1D" + SIXTEEN.slice(2)].join("\n"), "auto", "big.txt");
    expect(records.map((r) => r.error)).toEqual([
      "big.txt:1: cell 18 (row 2, column 2) contains invalid character 'Z' (symbols 1-9A-G or A-P, empty . - 0)",
      "big.txt:2: the grid ends after 3 rows, expected 16",
      "big.txt:6: cell 3 (row 1, column 3): symbol 'D' is repeated in row 1 (also at cell 2 (row 1, column 2))",
    ]);
  });

  it("grid output writes N rows of N symbols", () => {
    const solution = "G".repeat(256);
    expect(written("grid", [SIXTEEN], { count: 1, solution, guesses: 0 })).toBe(rowsN(solution, 16).join("\n") + "\n\n");
  });
});

describe("detection: one record per 4×4 line, one 16×16 grid per 16 rows, even with a bad symbol", () => {
  const FOUR_BY_FOUR = "1.....3..4.....2";

  it("reads a run of 20 4×4 lines with one bad symbol as 20 records, the bad one naming its line and cell", () => {
    const lines = Array.from({ length: 20 }, (_, i) => (i === 5 ? FOUR_BY_FOUR.replace("4", "5") : FOUR_BY_FOUR));
    const records = readRecords(lines.join("\n") + "\n");
    expect(records).toHaveLength(20);
    expect(records.map((r) => r.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(records.filter((r) => r.error !== null).map((r) => r.error)).toEqual([
      "in.txt:6: cell 10 (row 3, column 2) contains invalid character '5' (symbols 1-4, empty . - 0)",
    ]);
    expect(records.every((r) => r.error !== null || r.box === 2)).toBe(true);
  });

  it("keeps a short run of 4×4 lines with a bad one as one record per line", () => {
    const records = readRecords([FOUR_BY_FOUR, FOUR_BY_FOUR.replace("3", "A"), FOUR_BY_FOUR].join("\n"));
    expect(records.map((r) => [r.line, r.error === null])).toEqual([
      [1, true],
      [2, false],
      [3, true],
    ]);
  });

  it("still reads 16 rows that mostly use symbols outside 1–4 as one 16×16 grid, even with a mistake in a row", () => {
    const sixteen =
      "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69..F.....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.42E1A.4C.5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E";
    const rows = Array.from({ length: 16 }, (_, r) => sixteen.slice(r * 16, r * 16 + 16));
    rows[3] = "Z" + rows[3].slice(1);
    const records = readRecords(rows.join("\n"));
    expect(records).toHaveLength(1);
    expect(records[0].error).toMatch(/^in\.txt:1: cell 49 \(row 4, column 1\) contains invalid character 'Z'/);
  });
});

describe("detection: CSV beside the colon format", () => {
  it("reads a CSV row whose other field holds a colon as CSV", () => {
    const records = readRecords(`puzzle,source\n${UNIQUE},http://example.com/a\n${SECOND},"seen at 12:30, Le Monde"\n`);
    expect(gridText(records)).toEqual([UNIQUE, SECOND]);
    expect(records.map((r) => r.line)).toEqual([2, 3]);
  });

  it("still reads puzzle:count lines, with or without a comma after the puzzle, as the colon format", () => {
    const records = readRecords(`${UNIQUE}:1\n${SECOND}:1:note, with a comma\n${UNIQUE.slice(0, 80)}:invalid\n`);
    expect(records.map((r) => r.text)).toEqual([UNIQUE, SECOND, UNIQUE.slice(0, 80)]);
    expect(records[2].error).toBe("in.txt:3: expected 81 characters, got 80");
  });
});

describe("streamed input: byte order marks", () => {
  const BOM = "\uFEFF";

  /** Every record of a byte stream made of `pieces`, read as `readLineChunks` feeds the CLI. */
  async function readStreamRecords(pieces: Buffer[]): Promise<PuzzleRecord[]> {
    const records: PuzzleRecord[] = [];
    const reader = new RecordReader((line, cells, error) => records.push(parseRecord({ index: records.length, line, file: "in.txt", text: cells, error })));
    for await (const chunk of readLineChunks(Readable.from(pieces))) for (const line of chunk.lines) reader.line(line);
    reader.end();
    return records;
  }

  it("drops a UTF-8 byte order mark before a comment or a puzzle, even when a chunk edge cuts it", async () => {
    const commented = Buffer.from(`${BOM}# corpus\n${UNIQUE}\n`, "utf8");
    expect(gridText(await readStreamRecords([commented]))).toEqual([UNIQUE]);
    const bare = Buffer.from(`${BOM}${UNIQUE}\n${SECOND}\n`, "utf8");
    const records = await readStreamRecords([bare.subarray(0, 1), bare.subarray(1, 2), bare.subarray(2)]);
    expect(records.map((r) => [r.line, r.text])).toEqual([
      [1, UNIQUE],
      [2, SECOND],
    ]);
    expect(gridText(records)).toEqual([UNIQUE, SECOND]);
    expect(splitLines(`${BOM}${UNIQUE}\n`)).toEqual([UNIQUE]);
  });

  it("drops a byte order mark at the start of any line (files joined by cat), wherever chunk edges cut it", async () => {
    const joined = Buffer.from(`${UNIQUE}\n${BOM}${SECOND}\n${BOM}# corpus\n${BOM}\n${BOM}Grid 01\n${rowsOf(UNIQUE).join("\n")}\n${BOM}${SECOND}`, "utf8");
    const plain = Buffer.from(joined.toString("utf8").replaceAll(BOM, ""), "utf8");
    const expected = (await readStreamRecords([plain])).map((r) => [r.line, r.text, r.error]);
    expect(expected.map(([line]) => line)).toEqual([1, 2, 6, 15]);
    for (const cut of [0, 83, 84, 85, 86, 100, 500]) {
      const pieces = cut === 0 ? [joined] : [joined.subarray(0, cut), joined.subarray(cut, cut + 1), joined.subarray(cut + 1)];
      const records = await readStreamRecords(pieces);
      expect(
        records.map((r) => [r.line, r.text, r.error]),
        `cut at ${cut}`,
      ).toEqual(expected);
    }
  });
});
