/**
 * The bench chart: one horizontal bar per row, grouped by dataset, on a log scale of
 * puzzles/s (the solvers span three orders of magnitude), as an SVG string.
 */
import { escapeXml, seriesColours } from "../bench/report/svg.js";
import type { WebBenchRow } from "./bench.js";

const BAR = 16;
const GAP = 4;
const LABEL = 170;
const WIDTH = 760;

/** An SVG of `rows` (puzzles/s, log scale); empty when there are none. */
export function barChart(rows: readonly WebBenchRow[]): string {
  if (rows.length === 0) return "";
  const solvers = [...new Set(rows.map((r) => r.solver))];
  const colours = seriesColours(solvers.length); // the bench chart's: one per solver, far apart
  const top = Math.ceil(Math.log10(Math.max(...rows.map((r) => r.puzzlesPerSecond))));
  const bottom = Math.min(top - 1, Math.floor(Math.log10(Math.min(...rows.map((r) => r.puzzlesPerSecond)))));
  const scale = (pps: number) => ((Math.log10(pps) - bottom) / (top - bottom)) * (WIDTH - LABEL - 80);
  const parts: string[] = [];
  let y = 24;
  for (const dataset of [...new Set(rows.map((r) => r.dataset))]) {
    parts.push(`<text x="0" y="${y + 12}" font-weight="bold">${escapeXml(dataset)}</text>`);
    y += BAR + GAP;
    for (const row of rows.filter((r) => r.dataset === dataset)) {
      const width = Math.max(1, scale(row.puzzlesPerSecond));
      const color = colours[solvers.indexOf(row.solver)];
      parts.push(
        `<text x="${LABEL - 6}" y="${y + 12}" text-anchor="end">${escapeXml(row.solver)}</text>`,
        `<rect class="bar" data-solver="${escapeXml(row.solver)}" x="${LABEL}" y="${y}" width="${width.toFixed(1)}" height="${BAR}" fill="${color}"/>`,
        `<text x="${LABEL + width + 4}" y="${y + 12}">${Math.round(row.puzzlesPerSecond).toLocaleString("en-US")}/s</text>`,
      );
      y += BAR + GAP;
    }
    y += GAP * 2;
  }
  const ticks: string[] = [];
  for (let power = bottom; power <= top; power++) {
    const x = LABEL + scale(10 ** power);
    ticks.push(`<line x1="${x}" y1="16" x2="${x}" y2="${y}" stroke="#dde3ea"/><text x="${x}" y="12" text-anchor="middle">${(10 ** power).toLocaleString("en-US")}</text>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" id="bench-svg" width="${WIDTH}" height="${y}" font-family="system-ui, sans-serif" font-size="12" role="img" aria-label="puzzles per second, log scale">${ticks.join("")}${parts.join("")}</svg>`;
}
