// Your solver beside ours: `npm run bench -- --solvers wasm,./examples/my-solver.mjs`. The engine contract
// (src/solvers/solver.ts): count the solutions of `puzzle` (81 bytes, 0 empty) up to `limit`, write the first into
// `solution`, set stats.guesses and stats.timedOut, give up after `budget` search nodes.
export const description = "backtracking on the cell with the fewest candidates (examples/my-solver.mjs)";
export const capabilities = { guesses: true, budget: true };
const UNITS = Array.from({ length: 81 }, (_, c) => [(c / 9) | 0, 9 + (c % 9), 18 + 3 * ((c / 27) | 0) + (((c % 9) / 3) | 0)]);
const BITS = Array.from({ length: 1024 }, (_, mask) => mask.toString(2).replaceAll("0", "").length);

export default {
  countSolutions(puzzle, limit, solution, stats, budget) {   // puzzle: 81 bytes, 0 empty
    const grid = Uint8Array.from(puzzle), used = new Uint16Array(27);
    puzzle.forEach((digit, c) => digit && UNITS[c].forEach((u) => (used[u] |= 1 << digit)));
    let count = 0, nodes = 0;
    Object.assign(stats, { guesses: 0, timedOut: false });
    const search = () => {
      let cell = -1, free = 0;                                 // the empty cell with the fewest candidates
      for (let c = 0; c < 81; c++) {
        if (grid[c]) continue;
        const f = 0x3fe & ~(used[UNITS[c][0]] | used[UNITS[c][1]] | used[UNITS[c][2]]);
        if (cell < 0 || BITS[f] < BITS[free]) [cell, free] = [c, f];
      }
      if (cell < 0) return void (count++ === 0 && solution.set(grid));
      if (BITS[free] > 1) stats.guesses++;
      for (let digit = 1; digit <= 9 && count < limit && !stats.timedOut; digit++) {
        if (!(free & (1 << digit))) continue;
        if (++nodes > budget) return void (stats.timedOut = true);
        grid[cell] = digit; UNITS[cell].forEach((u) => (used[u] |= 1 << digit));
        search();
        grid[cell] = 0; UNITS[cell].forEach((u) => (used[u] &= ~(1 << digit)));
      }
    };
    search();
    return count;                                              // solutions found, at most limit
  },
};
