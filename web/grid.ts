/**
 * A solved puzzle as a grid: an HTML table of N rows of N cells (4×4, 9×9, 16×16, 25×25), the
 * boxes ruled off by thicker lines, the clues in bold and the solved cells in a lighter colour.
 */
import { escapeXml } from "../bench/report/svg.js";

/** The table of `solution` (N² symbols) with the clues of `puzzle` (the same length; any other character is an empty cell) set apart. */
export function gridHtml(puzzle: string, solution: string): string {
  const size = Math.round(Math.sqrt(solution.length));
  const box = Math.round(Math.sqrt(size));
  const rows: string[] = [];
  for (let r = 0; r < size; r++) {
    const cells: string[] = [];
    for (let c = 0; c < size; c++) {
      const i = r * size + c;
      const classes = [puzzle[i] === solution[i] ? "clue" : "solved"];
      if (c % box === 0 && c > 0) classes.push("box-left");
      if (r % box === 0 && r > 0) classes.push("box-top");
      cells.push(`<td class="${classes.join(" ")}">${escapeXml(solution[i])}</td>`);
    }
    rows.push(`<tr>${cells.join("")}</tr>`);
  }
  return `<table class="grid" data-size="${size}"><tbody>${rows.join("")}</tbody></table>`;
}
