// The wasm-abi around this project's kernel, in AssemblyScript: a WebAssembly module any
// wasm-abi host can call (`npm run bench -- --solvers wasm-abi:build/abi-solver.wasm`), built by
// `npm run asbuild:abi`. It shows the shape a C, Rust or Zig solver compiled to WASM exports:
//
//   memory                                       the module's linear memory
//   malloc(size) → ptr                           room for the host's arguments
//   solve(puzzle, limit, flags, solution, guesses) → count
//       puzzle    81 ASCII bytes, '1'–'9' a clue, '.' (or anything else) an empty cell
//       solution  81 bytes: the first solution as ASCII digits
//       guesses   u32: guesses taken
//
// The kernel solves batches laid out as in assembly/batch.ts: puzzles n×81 │ solutions n×81 │
// (align 4) counts │ guesses │ nodes; here n is 1.
import { reserve, solveBatch } from "../../assembly/index";

const CELLS: usize = 81;
const ZERO: u8 = 48;

/** `size` bytes that stay valid for the module's life (the stub runtime never frees). */
export function malloc(size: usize): usize {
  return heap.alloc(size);
}

/** Counts the solutions of the ASCII puzzle at `puzzle` up to `limit`; see the header. */
export function solve(puzzle: usize, limit: u32, flags: u32, solution: usize, guesses: usize): u32 {
  const base = reserve(1, 3); // one 9×9 puzzle (box size 3)
  for (let cell: usize = 0; cell < CELLS; cell++) {
    const digit = load<u8>(puzzle + cell) - ZERO;
    store<u8>(base + cell, digit >= 1 && digit <= 9 ? digit : 0);
  }
  solveBatch(base, 1, <i32>limit, 0);
  const counts = (base + 2 * CELLS + 3) & ~(<usize>3);
  const count = load<i32>(counts);
  if (count < 0) return 0; // a repeated clue: no solution
  for (let cell: usize = 0; cell < CELLS; cell++) store<u8>(solution + cell, load<u8>(base + CELLS + cell) + ZERO);
  store<u32>(guesses, load<u32>(counts + 4));
  return <u32>count;
}
