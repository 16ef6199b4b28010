/**
 * Puzzle sizes: createSolver routes each puzzle to the engine of its size (by default the 9×9
 * kernel for 81 characters, the general kernel for 4×4, 16×16 and 25×25), in input order; the
 * main bench measures N×N datasets with the registry rows that take them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBench } from "../bench/runner.js";
import { readDataset } from "../src/datasets/read.js";
import { findSolver } from "../src/solvers/registry.js";
import { createSolver, type Solver } from "../src/index.js";
import { isValidSolution, parseSymbols, readPuzzle } from "../src/model/puzzle.js";
import type { SolveRecord } from "../src/solvers/solver.js";
import type { WasmKernel } from "../src/kernel/wasm.js";
import { loadFixture } from "./fixture.js";

/** sudoku16_kr100.txt line 1 (symbols 1–9, A–G) and its solution. */
const SIXTEEN =
  "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69..F.....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.42E1A.4C.5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E";
const SIXTEEN_SOLUTION =
  "1GDBC2349A586EF74E6A57F8123CBD9G52C769GBFDE4A18339F81AED76GB24C59426D31FAGBE587C8C7EB6954F12G3ADGF1DE47A5C839B26B3A5G8C269D7EF14263G418EB57FCAD97BE13CAG249D865FF8597DB6C3AG42E1AD4CF5298E617G3BE194AG63D8C5F7B2D78F9E51GB263C4ACAG32B47E1F9D56865B28FDC374A19GE";
/** sudoku25_misc.txt line 1 (symbols A–Y). */
const TWENTY_FIVE =
  "A.D.Y.S..JUH.N.FLI......EE.SWX.VL..PF.T.R.YNMJK.AO......UE.TKJ.A.DHXWOR.PVS.GUHR...K.E..X...QVAIFY...MO.VN.R.P...D...S...XTUQL.K.F....O....UYS.D.VN.T.H..U.P...B.C....QWRV...XFD.NRGI.VUS...B.E...FPO.KLV.X.W..K.G..D.N.BL.HES.YIT...E....QI.LR.A..GX...MDM..E.BWNDRV.Q..T.AIUL..HKNW.X........TY.CDM.KUIERVG..KQTX...CDAL..FN.EYM.....PI.QKGJY...MF..R..SD..TFO.SDM..E.RK..IHVPYJG.......B..JSC.A.VIDKO.T..HW.Y.XHMA..DT.QN..R.PVE.K.J..WJ......R.F.P..QA.M..CSL.YE.NK.Q.HXM.SWOI..L.T.V.G..QD.VO.WKLY....RH.G..N.MSFWVH..AYDNB.CGMJKP.......D.Q.C.X.HTWKJYV...LMBRF...GP..FQBU.R...S..H....D.RIYABK..MVD.U.E.WG..O.C.H.UJ..L.TP.S....ONDBRWYKG.";
const FOUR = "1...3..1.....14.";
const POJ = "ABCDEFGHIJKLMNOP";
const HEX_LIKE = "123456789ABCDEFG";
/** A line rewritten from one alphabet to another, keeping empty marks. */
const translate = (line: string, from: string, to: string): string => line.replace(/[^.-]/g, (ch) => to[from.indexOf(ch)]);

const fixture = loadFixture();
const NINE = fixture.find((c) => c.count === 1 && c.puzzle.includes("."))!;
const NINE_MULTIPLE = fixture.find((c) => c.count === 2)!;

/** True when the record's solution is a valid solution of `line` in the line's own alphabet. */
function solves(record: SolveRecord, line: string, alphabet?: string): boolean {
  const puzzle = parseSymbols(line, { alphabet });
  const solution = parseSymbols(record.solution!, { alphabet: puzzle.alphabet });
  return isValidSolution(puzzle.grid, solution.grid, puzzle.shape);
}

let solver: Solver;
beforeAll(async () => {
  solver = await createSolver();
});

describe("reading any size", () => {
  it("reads 16, 81, 256 and 625 characters as 4×4, 9×9, 16×16 and 25×25, a 9-symbol alphabet other than 1–9 on 81", () => {
    const sizes = [FOUR, NINE.puzzle, SIXTEEN, TWENTY_FIVE].map((line) => readPuzzle(line).shape.size);
    expect(sizes).toEqual([4, 9, 16, 25]);
    expect(() => readPuzzle("1".repeat(80))).toThrow("expected 81 characters, got 80");
    const letters = translate(NINE.puzzle, "123456789", "ABCDEFGHI");
    expect(readPuzzle(letters, "ABCDEFGHI")).toMatchObject({ alphabet: "ABCDEFGHI", grid: readPuzzle(NINE.puzzle).grid });
    expect(readPuzzle(NINE.puzzle, POJ).alphabet).toBe("123456789");
  });

  it("reads N² bytes of any size, naming a byte over N", () => {
    const grid = readPuzzle(SIXTEEN).grid;
    expect(readPuzzle(grid).shape.size).toBe(16);
    expect(solver.solve(grid).solution).toBe(SIXTEEN_SOLUTION);
    const bad = grid.slice();
    bad[3] = 17;
    expect(solver.solve(bad)).toMatchObject({ status: "invalid", error: "cell 4 (row 1, column 4) holds 17, not 0-16" });
  });
});

describe("createSolver().solve", () => {
  it("solves a 16×16 line in its own alphabet", () => {
    expect(solver.solve(SIXTEEN)).toMatchObject({ status: "solved", count: 1, solution: SIXTEEN_SOLUTION });
    expect(solves(solver.solve(SIXTEEN), SIXTEEN)).toBe(true);
  });

  it("solves 25×25 and 4×4 lines", () => {
    const big = solver.solve(TWENTY_FIVE);
    expect(big.status).toBe("solved");
    expect(big.solution).toHaveLength(625);
    expect(solves(big, TWENTY_FIVE)).toBe(true);
    const small = solver.solve(FOUR);
    expect(small.status).toBe("solved");
    expect(solves(small, FOUR)).toBe(true);
  });

  it("keeps 9×9 lines on the 9×9 engine, with its records", () => {
    expect(solver.engines.get(9)!.id).toBe("wasm");
    expect(solver.solve(NINE.puzzle)).toMatchObject({ status: "solved", count: 1, solution: NINE.solution });
    expect(solver.solve(`  ${NINE.puzzle}  `).solution).toBe(NINE.solution);
  });

  it("reads a given alphabet and writes the solution in it", () => {
    const poj = translate(SIXTEEN, HEX_LIKE, POJ).replaceAll(".", "-");
    const record = solver.solve(poj, { alphabet: POJ });
    expect(record.solution).toBe(translate(SIXTEEN_SOLUTION, HEX_LIKE, POJ));
  });

  it("writes the solution of cell values (bytes) in a given alphabet of their size, in solve, solveMany and a pool", async () => {
    const bytes = readPuzzle(SIXTEEN).grid; // values 0..16
    const nine = readPuzzle(NINE.puzzle).grid;
    const inPoj = translate(SIXTEEN_SOLUTION, HEX_LIKE, POJ);
    expect(solver.solve(bytes, { alphabet: POJ }).solution).toBe(inPoj);
    expect(solver.solveMany([bytes, nine], { alphabet: POJ }).map((r) => r.solution)).toEqual([inPoj, NINE.solution]); // 9×9 keeps its digits
    expect(solver.solve(bytes).solution).toBe(SIXTEEN_SOLUTION);
    const { createPool } = await import("../src/pool/solver-pool.js");
    const pool = await createPool({ threads: 1 });
    try {
      expect((await pool.solveMany([bytes, nine], { alphabet: POJ })).map((r) => r.solution)).toEqual([inPoj, NINE.solution]);
    } finally {
      await pool.close();
    }
  });

  it("names the cell and the reason of a bad 16×16 line", () => {
    const bad = SIXTEEN.slice(0, 20) + "Z" + SIXTEEN.slice(21);
    const record = solver.solve(bad);
    expect(record.status).toBe("invalid");
    expect(record.error).toMatch(/^cell 21 \(row 2, column 5\) contains invalid character 'Z'/);
  });
});

describe("createSolver().solveMany", () => {
  it("keeps input order over a mix of sizes, including invalid records", () => {
    const lines = [SIXTEEN, NINE.puzzle, FOUR, "123", NINE_MULTIPLE.puzzle, TWENTY_FIVE, SIXTEEN];
    const records = solver.solveMany(lines);
    expect(records.map((r) => r.status)).toEqual(["solved", "solved", "solved", "invalid", "multiple", "solved", "solved"]);
    expect(records[0].solution).toBe(SIXTEEN_SOLUTION);
    expect(records[1].solution).toBe(NINE.solution);
    expect(records[3].error).toBe("expected 81 characters, got 3");
    expect(records[6].solution).toBe(SIXTEEN_SOLUTION);
    expect(solves(records[2], FOUR)).toBe(true);
    expect(solves(records[5], TWENTY_FIVE)).toBe(true);
  });

  it("solves 4×4, 16×16 and 25×25 on one instance of the N×N kernel (the mix above reads each size's records whole)", async () => {
    const general = solver.engines.get(4)!.engine as WasmKernel;
    expect([16, 25].map((size) => general.sharesInstanceWith(solver.engines.get(size)!.engine))).toEqual([true, true]);
    expect(general.sharesInstanceWith(solver.engines.get(9)!.engine)).toBe(false);
    const nxn = await createSolver({ solver: "general-wasm" }); // every size, 9×9 too, on one instance
    const nine = nxn.engines.get(9)!.engine as WasmKernel;
    expect([4, 16, 25].map((size) => nine.sharesInstanceWith(nxn.engines.get(size)!.engine))).toEqual([true, true, true]);
    expect(nxn.solveMany([SIXTEEN, NINE.puzzle, SIXTEEN]).map((r) => r.solution)).toEqual([SIXTEEN_SOLUTION, NINE.solution, SIXTEEN_SOLUTION]);
  });

  it("applies the alphabet only to the puzzles of its size", () => {
    const poj = translate(SIXTEEN, HEX_LIKE, POJ);
    const records = solver.solveMany([NINE.puzzle, poj, FOUR], { alphabet: POJ });
    expect(records.map((r) => r.status)).toEqual(["solved", "solved", "solved"]);
    expect(records[0].solution).toBe(NINE.solution);
    expect(records[1].solution).toBe(translate(SIXTEEN_SOLUTION, HEX_LIKE, POJ));
  });

  it("gives the same records as solve, one by one", () => {
    const lines = [FOUR, NINE.puzzle, SIXTEEN];
    expect(solver.solveMany(lines)).toEqual(lines.map((line) => solver.solve(line)));
  });

  it("solves 16×16 lines with the TS twin when asked (by id, or by the deprecated general option)", async () => {
    for (const twin of [await createSolver({ solver: ["bitmask", "general-ts"] }), await createSolver({ solver: "bitmask", general: "ts" })]) {
      expect(twin.engines.get(16)!.id).toBe("general-ts");
      expect(twin.engines.get(9)!.id).toBe("bitmask");
      expect(twin.solveMany([SIXTEEN, NINE.puzzle]).map((r) => r.solution)).toEqual([SIXTEEN_SOLUTION, NINE.solution]);
    }
    // general alone moves only the other sizes: 9×9 keeps its default
    const general = await createSolver({ general: "ts" });
    expect([4, 9, 16, 25].map((size) => general.engines.get(size)!.id)).toEqual(["general-ts", "wasm", "general-ts", "general-ts"]);
  });

  it("puts every size on one N×N solver when it is the only one named", async () => {
    const ts = await createSolver({ solver: "general-ts" });
    expect([...ts.engines.values()].map((entry) => entry.id)).toEqual(["general-ts", "general-ts", "general-ts", "general-ts"]);
    expect(ts.solveMany([NINE.puzzle, SIXTEEN]).map((r) => r.solution)).toEqual([NINE.solution, SIXTEEN_SOLUTION]);
    await expect(createSolver({ solver: "nope" })).rejects.toThrow(/unknown solver 'nope'; known: wasm/);
  });
});

describe("the main bench on an N×N dataset", () => {
  const dir = mkdtempSync(join(tmpdir(), "sudoku-sizes-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives one verified row per selected solver that takes 16×16, beside the 9×9 rows, in the same record shape", async () => {
    const transpose = (grid: string) => Array.from({ length: 256 }, (_, i) => grid[(i % 16) * 16 + Math.floor(i / 16)]).join("");
    const sixteen = join(dir, "sixteen.txt");
    writeFileSync(sixteen, `${SIXTEEN}\n${transpose(SIXTEEN)}\n`);
    const nine = join(dir, "nine.txt");
    writeFileSync(nine, `${NINE.puzzle}\n`);
    const records = await runBench({
      solvers: ["wasm", "bitmask", "general-wasm", "general-ts", "npm:algorithm.ts"].map(findSolver),
      datasets: [readDataset(nine), readDataset(sixteen)],
      limit: 2,
      timeMs: 2,
      budget: Infinity,
      seed: 1,
      maxPuzzles: 10,
    });
    const rows = records.filter((r) => r.dataset === "sixteen");
    expect(rows.map((r) => r.row)).toEqual(["general-wasm", "general-ts", "npm:algorithm.ts"]);
    expect(records.filter((r) => r.dataset === "nine").map((r) => r.solver)).toContain("wasm");
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(Object.keys(records[0]).sort());
      expect(row).toMatchObject({ datasetSize: 2, puzzles: 2, reference: "general-ts", mode: "engine" });
      expect(row.puzzlesPerSecond).toBeGreaterThan(0);
    }
    expect(rows.map((r) => r.effectiveLimit)).toEqual([2, 2, 1]);
    expect(rows[1].speedup).toBe(1);
    expect(rows[0].guessesPerPuzzle).toBe(rows[1].guessesPerPuzzle);
    expect(rows[2].guessesPerPuzzle).toBeNull();
  });

  it("says which sizes the selected solvers take when none takes the dataset's", async () => {
    const sixteen = join(dir, "sixteen-only.txt");
    writeFileSync(sixteen, `${SIXTEEN}\n`);
    const plan = { datasets: [readDataset(sixteen)], limit: 2, timeMs: 10, budget: Infinity, seed: 1, maxPuzzles: 1 };
    await expect(runBench({ ...plan, solvers: [findSolver("dlx")] })).rejects.toThrow(
      "sixteen-only holds 16×16 puzzles, which no selected solver takes (dlx takes 9×9)",
    );
  });
});
