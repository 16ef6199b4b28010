/** The classic judge formats: a sample input each → the exact expected output. */
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { JUDGE_FORMATS, type JudgeFormatName, judgeFormats } from "../src/formats/judge.js";
import { solveJudge, solveJudgeInputs } from "./judge-text.js";
import { batchJudgeSolver, streamJudge } from "../src/cli/judge.js";
import type { BatchTask } from "../src/pool/batch.js";
import type { BatchSolver } from "../src/pool/pool.js";
import { createSolver } from "../src/index.js";
import { PuzzleError } from "../src/model/puzzle.js";
import type { Solver } from "../src/solvers/solver.js";
import { loadFixture } from "./fixture.js";

let solver: Solver;
beforeAll(async () => {
  solver = await createSolver();
});

function run(name: JudgeFormatName, input: string): string {
  return solveJudge(judgeFormats[name], input, solver);
}

const fixture = loadFixture();
const [first, second] = fixture.filter((c) => c.count === 1 && c.puzzle.includes("."));

/** The 9 rows of an 81-character string. */
const rows = (grid: string) => Array.from({ length: 9 }, (_, r) => grid.slice(r * 9, r * 9 + 9));
/** Rows with the given empty character and cells joined by `separator`. */
const rowsWith = (grid: string, empty: string, separator = "") => rows(grid.replaceAll(".", empty)).map((row) => row.split("").join(separator));

/** The fixture solution with one cell emptied in each of two disjoint deadly rectangles, and in a third: 2 × 2 × 2 = 8 solutions. */
const EIGHT_SOLUTIONS = "8596124377.38541.91.43795.8.86147.52.75268.14241593786432981675.1742.893.9873.241";

describe("leetcode37", () => {
  it("solves LeetCode's example board into the same JSON shape", () => {
    const input =
      '[["5","3",".",".","7",".",".",".","."],["6",".",".","1","9","5",".",".","."],[".","9","8",".",".",".",".","6","."],' +
      '["8",".",".",".","6",".",".",".","3"],["4",".",".","8",".","3",".",".","1"],["7",".",".",".","2",".",".",".","6"],' +
      '[".","6",".",".",".",".","2","8","."],[".",".",".","4","1","9",".",".","5"],[".",".",".",".","8",".",".","7","9"]]\n';
    const expected =
      '[["5","3","4","6","7","8","9","1","2"],["6","7","2","1","9","5","3","4","8"],["1","9","8","3","4","2","5","6","7"],' +
      '["8","5","9","7","6","1","4","2","3"],["4","2","6","8","5","3","7","9","1"],["7","1","3","9","2","4","8","5","6"],' +
      '["9","6","1","5","3","7","2","8","4"],["2","8","7","4","1","9","6","3","5"],["3","4","5","2","8","6","1","7","9"]]\n';
    expect(run("leetcode37", input)).toBe(expected);
  });

  it("names the cell that is not one character", () => {
    const board = rows(first.puzzle).map((row) => row.split(""));
    board[2][4] = "10";
    expect(() => run("leetcode37", JSON.stringify(board))).toThrow('line 1: board[2][4] is "10", expected one character');
  });

  it("names the line of the fault in a board written over several lines", () => {
    const board = rows(first.puzzle).map((row) => row.split(""));
    const text = (cells: string[][]) => `[\n${cells.map((row) => JSON.stringify(row)).join(",\n")}\n]\n`; // row r on line r + 2
    board[4][2] = "10";
    expect(() => run("leetcode37", text(board))).toThrow('line 6: board[4][2] is "10", expected one character');
    board[4][2] = ".";
    board[6][3] = "x";
    expect(() => run("leetcode37", text(board))).toThrow("line 8: cell 58 (row 7, column 4) contains invalid character 'x'");
    board[6][3] = ".";
    const lines = text(board).split("\n");
    lines[5] = lines[5].replace(",", ",,"); // a fault V8 gives no position for
    expect(() => run("leetcode37", lines.join("\n"))).toThrow(/^line 6: not a JSON board \(Unexpected token ','/);
    const short = board.map((row, r) => (r === 5 ? row.slice(0, 8) : row)); // a row of 8: named at its line
    expect(() => run("leetcode37", text(short))).toThrow("line 7: expected a JSON array of 9 rows of 9 strings: row 6 has 8 values");
    expect(() => run("leetcode37", text(board.slice(0, 4)))).toThrow("line 6: expected a JSON array of 9 rows of 9 strings: it has 4 rows"); // at its end
    lines[5] = lines[5].replace(",,", ",").replace('",', '" '); // one it gives a position for
    expect(() => run("leetcode37", lines.join("\n"))).toThrow(/^line 6: not a JSON board \(Expected ',' or '\]' after array element in JSON at position/);
  });
});

describe("hdu1426", () => {
  it("reads ?-grids separated by blank lines and writes spaced solutions with a blank line between", () => {
    const input = [...rowsWith(first.puzzle, "?", " "), "", ...rowsWith(second.puzzle, "?", " "), ""].join("\n");
    const expected = [...rowsWith(first.solution!, "?", " "), "", ...rowsWith(second.solution!, "?", " "), ""].join("\n");
    expect(run("hdu1426", input)).toBe(expected);
  });
});

describe("poj2676", () => {
  it("solves POJ's sample", () => {
    const input = "1\n103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
    const expected = "143628579\n572139468\n986754231\n391542786\n468917352\n725863914\n237481695\n619275843\n854396127\n";
    expect(run("poj2676", input)).toBe(expected);
  });

  it("reads T cases and writes 9 lines each, nothing between", () => {
    const input = ["2", ...rowsWith(first.puzzle, "0"), ...rowsWith(second.puzzle, "0"), ""].join("\n");
    expect(run("poj2676", input)).toBe([...rows(first.solution!), ...rows(second.solution!), ""].join("\n"));
  });

  it("names the line of a short row and the count that does not match", () => {
    const short = ["1", ...rowsWith(first.puzzle, "0")];
    short[4] = short[4].slice(0, 7);
    expect(() => run("poj2676", short.join("\n"))).toThrow("line 5: expected a row of 9 cells, got 7");
    // the input ends after a whole grid: told at the line after its last, not inside the grid before
    expect(() => run("poj2676", ["2", ...rowsWith(first.puzzle, "0")].join("\n"))).toThrow(
      /^line 11: the input ends before puzzle 2 of the 2 its count line announces$/,
    );
  });

  it("says '1 puzzle', '1 row' and '1 value' for counts of one, not '1 puzzles'", () => {
    const extra = ["1", ...rowsWith(first.puzzle, "0"), ...rowsWith(second.puzzle, "0")].join("\n");
    expect(() => run("poj2676", extra)).toThrow(/^line 11: more input after the 1 puzzle$/);
    const board = rows(first.puzzle).map((row) => row.split(""));
    expect(() => run("leetcode37", JSON.stringify(board.slice(0, 1)))).toThrow(/: expected a JSON array of 9 rows of 9 strings: it has 1 row$/);
    const single = board.map((row, r) => (r === 2 ? row.slice(0, 1) : row));
    expect(() => run("leetcode37", JSON.stringify(single))).toThrow(/: expected a JSON array of 9 rows of 9 strings: row 3 has 1 value$/);
  });
});

describe("poj2918", () => {
  it("writes Scenario #i:, the solved rows and a blank line per scenario", () => {
    const input = ["2", ...rowsWith(first.puzzle, "0"), "", ...rowsWith(second.puzzle, "0"), ""].join("\n");
    const expected = ["Scenario #1:", ...rows(first.solution!), "", "Scenario #2:", ...rows(second.solution!), "", ""].join("\n");
    expect(run("poj2918", input)).toBe(expected);
  });
});

describe("poj3074", () => {
  it("solves 81-character lines until `end`, one line each", () => {
    const input = `${first.puzzle}\n${second.puzzle}\nend\n${first.puzzle}\n`;
    expect(run("poj3074", input)).toBe(`${first.solution}\n${second.solution}\n`);
  });

  it("names the line and the cell of a bad character", () => {
    const bad = first.puzzle.slice(0, 20) + "0" + first.puzzle.slice(21);
    expect(() => run("poj3074", `${first.puzzle}\n${bad}\nend\n`)).toThrow(PuzzleError);
    expect(() => run("poj3074", `${first.puzzle}\n${bad}\nend\n`)).toThrow("line 2: cell 21 (row 3, column 3) contains invalid character '0'");
  });
});

describe("sicily1317", () => {
  const unsolvable = fixture.find((c) => c.count === 0)!.puzzle;

  it("prints the unique solution, no solution, or the exact number of solutions, a blank line between puzzles", () => {
    const input = ["3", ...rowsWith(first.puzzle, "_"), ...rowsWith(unsolvable, "_"), ...rowsWith(EIGHT_SOLUTIONS, "_"), ""].join("\n");
    const expected = ["Puzzle 1 solution is", ...rows(first.solution!), "", "Puzzle 2 has no solution", "", "Puzzle 3 has 8 solutions", ""].join("\n");
    expect(run("sicily1317", input)).toBe(expected);
  });

  it("answers a puzzle whose givens repeat with 'has no solution' (the run once ended with status 2 there)", () => {
    const input = ["2", ...rowsWith("55" + first.puzzle.slice(2), "_"), ...rowsWith(second.puzzle, "_")].join("\n");
    expect(run("sicily1317", input)).toBe(["Puzzle 1 has no solution", "", "Puzzle 2 solution is", ...rows(second.solution!), ""].join("\n"));
  });

  it("says 'at least' when the count reaches the cap", () => {
    const input = ["1", ...Array(9).fill("_________"), ""].join("\n");
    expect(run("sicily1317", input)).toBe("Puzzle 1 has at least 1000000 solutions\n");
  });
});

/** sudoku16_kr100.txt line 1 (1–9, A–G) and its solution, rewritten in POJ 3076's A–P with `-` empties. */
const HEX_LIKE = "123456789ABCDEFG";
const POJ = "ABCDEFGHIJKLMNOP";
const toPoj = (line: string) => line.replace(/[^.]/g, (ch) => POJ[HEX_LIKE.indexOf(ch)]).replaceAll(".", "-");
const poj3076Puzzle = toPoj(
  "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69..F.....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.42E1A.4C.5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E",
);
const poj3076Solution = toPoj(
  "1GDBC2349A586EF74E6A57F8123CBD9G52C769GBFDE4A18339F81AED76GB24C59426D31FAGBE587C8C7EB6954F12G3ADGF1DE47A5C839B26B3A5G8C269D7EF14263G418EB57FCAD97BE13CAG249D865FF8597DB6C3AG42E1AD4CF5298E617G3BE194AG63D8C5F7B2D78F9E51GB263C4ACAG32B47E1F9D56865B28FDC374A19GE",
);
const rows16 = (grid: string) => Array.from({ length: 16 }, (_, r) => grid.slice(r * 16, r * 16 + 16));

describe("poj3076", () => {
  /** The grid mirrored on its main diagonal: still a Sudoku, solved by the mirrored solution. */
  const transpose = (grid: string) => Array.from({ length: 256 }, (_, i) => grid[(i % 16) * 16 + Math.floor(i / 16)]).join("");

  it("solves 16×16 cases separated by blank lines, 16 lines each and a blank line between", () => {
    const input = [...rows16(poj3076Puzzle), "", ...rows16(transpose(poj3076Puzzle)), ""].join("\n");
    const expected = [...rows16(poj3076Solution), "", ...rows16(transpose(poj3076Solution)), ""].join("\n");
    expect(run("poj3076", input)).toBe(expected);
  });

  it("reads a last case without a line end and ignores extra blank lines", () => {
    expect(run("poj3076", ["", ...rows16(poj3076Puzzle), "", ""].join("\n").trimEnd())).toBe([...rows16(poj3076Solution), ""].join("\n"));
  });

  it("names the line and the cell of a bad character, and of a short row", () => {
    const bad = rows16(poj3076Puzzle);
    bad[2] = bad[2].slice(0, 5) + "Q" + bad[2].slice(6);
    const input = [...rows16(poj3076Puzzle), "", ...bad].join("\n");
    expect(() => run("poj3076", input)).toThrow(PuzzleError);
    expect(() => run("poj3076", input)).toThrow("line 20: cell 38 (row 3, column 6) contains invalid character 'Q'");
    const short = rows16(poj3076Puzzle);
    short[15] = short[15].slice(0, 15);
    expect(() => run("poj3076", short.join("\n"))).toThrow("line 16: expected a row of 16 cells, got 15");
  });

  it("answers a case whose givens repeat with 'no solution', between the cases around it", () => {
    const repeated = "AA" + poj3076Puzzle.slice(2);
    const input = [...rows16(poj3076Puzzle), "", ...rows16(repeated), "", ...rows16(poj3076Puzzle)].join("\n");
    expect(run("poj3076", input)).toBe([...rows16(poj3076Solution), "", "no solution", "", ...rows16(poj3076Solution), ""].join("\n"));
  });
});

describe("a judge's puzzles are solved without a node budget: one given up on would be written as 'no solution'", () => {
  it("the CLI's batch solver gets tasks with no cap (Infinity), 16×16 ones too", async () => {
    const tasks: BatchTask[] = [];
    const solver = {
      threads: 2,
      solve: async (task: BatchTask) => {
        tasks.push(task);
        return {
          bytes: new TextEncoder().encode(task.texts.map(() => '{"status":"solved","count":1,"solution":null,"guesses":0,"error":null}\n').join("")),
          tally: [],
          errors: [],
        };
      },
    } as unknown as BatchSolver;
    const records = await batchJudgeSolver(solver)([poj3076Puzzle, poj3076Puzzle, poj3076Puzzle], judgeFormats.poj3076);
    expect(records).toHaveLength(3);
    expect(tasks.map((task) => task.budget)).toEqual([Infinity, Infinity]);
  });
});

describe("judge input: byte order marks", () => {
  it("drops a byte order mark before the input, for line formats and JSON alike", () => {
    expect(run("poj3074", `\uFEFF${first.puzzle}\nend\n`)).toBe(`${first.solution}\n`);
    const board = JSON.stringify(rows(first.puzzle).map((row) => row.split("")));
    expect(run("leetcode37", `\uFEFF${board}`)).toBe(JSON.stringify(rows(first.solution!).map((row) => row.split(""))) + "\n");
  });
});

describe("judge input: several inputs read as one", () => {
  it("reads several inputs as one, each ending with a line end, byte order marks dropped", () => {
    const inputs = [
      { name: "a.txt", text: first.puzzle },
      { name: "b.txt", text: `\uFEFF${second.puzzle}\n` },
    ];
    expect(solveJudgeInputs(judgeFormats.poj3074, inputs, solver)).toBe(`${first.solution}\n${second.solution}\n`);
  });

  it("names the input and its own line in an error, or says `line N` for an input without a name", () => {
    const bad = first.puzzle.slice(0, 20) + "0" + first.puzzle.slice(21);
    const named = [
      { name: "a.txt", text: `${first.puzzle}\n\n${second.puzzle}` },
      { name: "b.txt", text: `${second.puzzle}\n${bad}\n` },
    ];
    expect(() => solveJudgeInputs(judgeFormats.poj3074, named, solver)).toThrow(PuzzleError);
    expect(() => solveJudgeInputs(judgeFormats.poj3074, named, solver)).toThrow(/^b\.txt:2: cell 21 \(row 3, column 3\) contains invalid character '0'$/);
    expect(() => solveJudgeInputs(judgeFormats.poj3074, [{ text: `${bad}\n` }], solver)).toThrow(/^line 1: cell 21 /);
    const counted = [
      { name: "one.txt", text: "1\n" },
      { name: "two.txt", text: rowsWith(first.puzzle, "0").slice(0, 4).join("\n") },
    ];
    expect(() => solveJudgeInputs(judgeFormats.poj2676, counted, solver)).toThrow("two.txt:4: the input ends inside a grid (4 of 9 rows)");
  });
});

describe("judge input streams: puzzles are solved and written batch by batch as their lines arrive", () => {
  /** Each judge's input of `count` puzzles (the two unique fixture puzzles in turn) as lines. */
  const inputLines = (name: JudgeFormatName, count: number): string[] => {
    const puzzles = Array.from({ length: count }, (_, i) => (i % 2 === 0 ? first : second).puzzle);
    switch (name) {
      case "poj3074":
        return [...puzzles, "end"];
      case "hdu1426":
        return puzzles.flatMap((p) => [...rowsWith(p, "?", " "), ""]);
      case "poj3076":
        return Array.from({ length: count }, () => [...rows16(poj3076Puzzle), ""]).flat();
      case "leetcode37":
        return [];
      default: {
        const empty = name === "sicily1317" ? "_" : "0";
        return [String(count), ...puzzles.flatMap((p) => [...rowsWith(p, empty), ""])];
      }
    }
  };
  const streamed = JUDGE_FORMATS.filter((name) => inputLines(name, 1).length > 0);

  it.each(streamed)("%s: the first batch's output is written before the last line is read, and the whole equals the one-batch output", async (name) => {
    const lines = inputLines(name, 12);
    let linesRead = 0;
    const writes: { text: string; linesRead: number }[] = [];
    /** One line per chunk, counted as it is taken. */
    async function* source() {
      for (const line of lines) {
        linesRead++;
        yield Buffer.from(`${line}\n`);
      }
    }
    await streamJudge(judgeFormats[name], [{ name: "in.txt", open: () => Readable.from(source()) }], solver.solveMany.bind(solver), 4, async (text) => {
      writes.push({ text, linesRead });
    });
    expect(writes).toHaveLength(3); // 12 puzzles in batches of 4
    expect(writes[0].linesRead).toBeLessThan(lines.length / 2);
    expect(writes.map((w) => w.text).join("")).toBe(run(name, lines.join("\n") + "\n"));
  });

  it("stops reading at poj3074's `end` line: the rest of the input is never read", async () => {
    let pulled = 0;
    async function* source() {
      yield Buffer.from(`${first.puzzle}\nend\n`);
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield Buffer.from(`${second.puzzle}\n`);
      }
    }
    let output = "";
    await streamJudge(judgeFormats.poj3074, [{ open: () => Readable.from(source()) }], solver.solveMany.bind(solver), 4, async (text) => void (output += text));
    expect(output).toBe(`${first.solution}\n`);
    expect(pulled).toBeLessThan(1000);
  });

  it("names the file and line of a bad puzzle; the whole batches before it are written, none of the one it is in", async () => {
    const lines = Array.from({ length: 10 }, (_, i) => (i === 8 ? "x" : (i % 2 === 0 ? first : second).puzzle));
    const writes: string[] = [];
    const oneLineChunks = () => Readable.from(lines.map((line) => Buffer.from(`${line}\n`)));
    const failing = streamJudge(
      judgeFormats.poj3074,
      [{ name: "big.txt", open: oneLineChunks }],
      solver.solveMany.bind(solver),
      4,
      async (text) => void writes.push(text),
    );
    await expect(failing).rejects.toThrow("big.txt:9: expected 81 characters, got 1");
    expect(writes.join("")).toBe(`${first.solution}\n${second.solution}\n`.repeat(4));
  });
});

describe("a puzzle whose givens repeat is answered as one without a solution, in every 9×9 judge", () => {
  const unsolvable = fixture.find((c) => c.count === 0 && !c.puzzle.includes("y"))!.puzzle;
  /** The first puzzle with its first two cells set to 5 and 5: a repeated given in row 1. */
  const repeated = "55" + first.puzzle.slice(2);
  /** Each 9×9 judge's input of `puzzles`, as text. */
  const judgeInput = (name: JudgeFormatName, puzzles: string[]): string => {
    switch (name) {
      case "poj3074":
        return [...puzzles, "end", ""].join("\n");
      case "hdu1426":
        return puzzles.map((p) => rowsWith(p, "?", " ").join("\n")).join("\n\n") + "\n";
      case "leetcode37":
        return JSON.stringify(rows(puzzles[0]).map((row) => row.split(""))) + "\n";
      default:
        return [String(puzzles.length), ...puzzles.flatMap((p) => rowsWith(p, name === "sicily1317" ? "_" : "0")), ""].join("\n");
    }
  };
  const nineByNine = JUDGE_FORMATS.filter((name) => name !== "poj3076");

  it.each(nineByNine)("%s: the output is that of an unsolvable puzzle in its place, the puzzles around it solved", (name) => {
    const puzzles =
      name === "leetcode37"
        ? [[repeated], [unsolvable]]
        : [
            [first.puzzle, repeated, second.puzzle],
            [first.puzzle, unsolvable, second.puzzle],
          ];
    const output = run(name, judgeInput(name, puzzles[0]));
    expect(output).toBe(run(name, judgeInput(name, puzzles[1])));
    if (name !== "leetcode37") expect(output).toContain(name === "hdu1426" ? second.solution!.slice(-9).split("").join(" ") : second.solution!.slice(-9));
  });
});
