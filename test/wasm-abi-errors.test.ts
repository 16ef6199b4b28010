/**
 * wasm-abi modules that fail in each way a module can: a trap in solve, a solve that returns i64,
 * an allocator whose pointer lies past memory, a memory that cannot grow by the page the arguments
 * need. Each is one message that names the module and what it did. The modules are built here
 * with asc from a few lines of AssemblyScript each.
 */
import asc from "assemblyscript/asc";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parsePuzzle } from "../src/model/puzzle.js";
import { CELLS } from "../src/model/shape.js";
import { instantiateAbiSolver } from "../bench/wasm-abi.js";

const folder = mkdtempSync(join(tmpdir(), "sudoku-abi-errors-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Builds `source` (AssemblyScript) with asc's release target and `flags`; returns the module's bytes. */
async function build(name: string, source: string, ...flags: string[]): Promise<Uint8Array<ArrayBuffer>> {
  const file = join(folder, `${name}.ts`);
  writeFileSync(file, source);
  const wasm = join(folder, `${name}.wasm`);
  const { error, stderr } = await asc.main([file, "--target", "release", "-o", wasm, ...flags]);
  if (error) throw new Error(`asc failed: ${error.message}\n${stderr.toString()}`);
  return new Uint8Array(readFileSync(wasm));
}

const PUZZLE = parsePuzzle("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......");
const SOLVE = "export function solve(puzzle: usize, limit: u32, flags: u32, solution: usize, guesses: usize)";
const MALLOC = "export function malloc(size: usize): usize { return heap.alloc(size); }";

/** Solves one puzzle with the module; resolves with the error it gives (or null). */
async function failure(bytes: Uint8Array<ArrayBuffer>, source: string): Promise<string | null> {
  try {
    const engine = await instantiateAbiSolver(bytes, source);
    engine.countSolutions(PUZZLE, 2, new Uint8Array(CELLS), { guesses: 0, timedOut: false }, Infinity);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("wasm-abi: a module that fails says which module and what it did", () => {
  it("a trap in solve", async () => {
    const bytes = await build("trap", `${MALLOC}\n${SOLVE}: u32 { unreachable(); return 0; }\n`);
    expect(await failure(bytes, "trap.wasm")).toBe("trap.wasm: solve trapped (unreachable)");
  }, 60_000);

  it("a solve that returns i64", async () => {
    const bytes = await build("i64", `${MALLOC}\n${SOLVE}: u64 { return 1; }\n`);
    expect(await failure(bytes, "i64.wasm")).toBe("i64.wasm: solve returned a 64-bit integer; the wasm-abi's solve returns a 32-bit size_t (wasm32)");
  }, 60_000);

  it("an allocator that returns a pointer past the end of memory", async () => {
    const bytes = await build("far", `export function malloc(size: usize): usize { return 0x7ff00000; }\n${SOLVE}: u32 { return 0; }\n`);
    expect(await failure(bytes, "far.wasm")).toMatch(
      /^far\.wasm: its malloc\(170\) returned 2146435072, which leaves no room for the arguments in its \d+-byte memory$/,
    );
  }, 60_000);

  it("no allocator and a memory at its maximum", async () => {
    const bytes = await build("full", `${SOLVE}: u32 { return 0; }\n`, "--initialMemory", "1", "--maximumMemory", "1");
    expect(await failure(bytes, "full.wasm")).toBe(
      "full.wasm: exports no malloc, and its memory cannot grow by the 64 KiB page the arguments need (its maximum is reached); export malloc",
    );
  }, 60_000);
});
