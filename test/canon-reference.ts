/**
 * The slow, independent reference for the minlex kernel's tests: every one of the 3,359,232
 * geometric maps of a 9×9 grid (transposition or not, then every row order that keeps bands
 * together, then every such column order), each read with the relabelling that minimises it
 * (digits numbered in order of first appearance), the smallest string kept and the maps that
 * give it counted. No pruning beyond stopping a string at its first cell greater than the best;
 * about a second per puzzle.
 */
import type { CanonKernel } from "../src/canon/canon.js";
import { parsePuzzle } from "../src/model/puzzle.js";

/** The forms and automorphism counts of `puzzles` (81 characters each) on `kernel`. */
export function kernelForms(kernel: CanonKernel, puzzles: readonly string[]): { form: string; automorphisms: number }[] {
  const input = kernel.input(puzzles.length);
  puzzles.forEach((text, k) => input.set(parsePuzzle(text), k * 81));
  const { forms, automorphisms } = kernel.run(puzzles.length);
  return puzzles.map((_, k) => ({ form: new TextDecoder().decode(forms.subarray(k * 81, (k + 1) * 81)), automorphisms: automorphisms[k] }));
}

/** The 6 orders of three things. */
const ORDERS_3 = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

/** Every order of the 9 lines of a grid that keeps its three groups of three together (6^4 = 1296): new line i is old line order[i]. */
export function lineOrders(): number[][] {
  const orders: number[][] = [];
  for (const groups of ORDERS_3) {
    for (const a of ORDERS_3) {
      for (const b of ORDERS_3) {
        for (const c of ORDERS_3) {
          const within = [a, b, c];
          orders.push(groups.flatMap((group, position) => within[position].map((line) => 3 * group + line)));
        }
      }
    }
  }
  return orders;
}

/** The puzzle's minlex form (`0` for empty) and the number of geometric maps that give it, by trying them all. */
export function referenceMinlex(cells: ArrayLike<number>): { form: string; automorphisms: number } {
  const orders = lineOrders();
  const grids = [Array.from(cells), Array.from({ length: 81 }, (_, i) => cells[(i % 9) * 9 + Math.floor(i / 9)])];
  let best: number[] | null = null;
  let count = 0;
  const candidate = new Array<number>(81);
  const label = new Array<number>(10);
  for (const grid of grids) {
    for (const rows of orders) {
      for (const columns of orders) {
        label.fill(0);
        let next = 1;
        let order = best === null ? -1 : 0; // -1 less than the best, 0 equal so far, 1 greater
        for (let i = 0; i < 81 && order <= 0; i++) {
          const digit = grid[rows[Math.floor(i / 9)] * 9 + columns[i % 9]];
          let value = 0;
          if (digit !== 0) {
            if (label[digit] === 0) label[digit] = next++;
            value = label[digit];
          }
          candidate[i] = value;
          if (order === 0 && value !== best![i]) order = value < best![i] ? -1 : 1;
        }
        if (order < 0) {
          best = candidate.slice();
          count = 1;
        } else if (order === 0) count++;
      }
    }
  }
  return { form: best!.join(""), automorphisms: count };
}
