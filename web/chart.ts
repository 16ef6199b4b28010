/**
 * The bench chart: one horizontal bar per row, grouped by dataset, with the 95% error bar of its
 * mean (as the CLI's chart draws it: bench/report/svg.ts), as an SVG string that scales to the
 * page's width.
 *
 *   log     puzzles/s on a log scale (the solvers span three orders of magnitude); the axis
 *           starts a decade below the slowest row's, so that the slowest bar still has length
 *   linear  from 0: the bars' lengths are the rates themselves
 */
import { escapeXml, rateInterval, seriesColours } from "../bench/report/svg.js";
import type { WebBenchRow } from "./bench.js";

export type ChartScale = "log" | "linear";

const BAR = 16;
const GAP = 4;
const LABEL = 130;
/** The widest the chart is drawn; a narrower page gets a chart laid out at its own width. */
export const CHART_WIDTH = 760;
/** The narrowest layout: below it the chart scales down instead. */
const MIN_WIDTH = 340;
/** Room right of the longest bar for its figure. */
const FIGURE_ROOM = 90;
const CAP = 6;

/** Maps puzzles/s to x from the bars' start, and the axis ticks, for `scale`. */
function axis(rows: readonly WebBenchRow[], scale: ChartScale, width: number): { x: (pps: number) => number; ticks: number[] } {
  const span = width - LABEL - FIGURE_ROOM;
  const highest = Math.max(...rows.map((r) => rateInterval(r).high));
  if (scale === "linear") {
    // Ticks 1, 2 or 5 × 10^k apart, about five of them.
    const magnitude = 10 ** Math.floor(Math.log10(highest / 5));
    const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate * 5 >= highest)!;
    const top = Math.ceil(highest / step) * step;
    const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
    return { x: (pps) => (Math.max(0, pps) / top) * span, ticks };
  }
  const top = Math.ceil(Math.log10(highest));
  const bottom = Math.min(top - 1, Math.floor(Math.log10(Math.min(...rows.map((r) => rateInterval(r).low)))) - 1);
  const x = (pps: number) => ((Math.log10(Math.max(pps, 10 ** bottom)) - bottom) / (top - bottom)) * span;
  return { x, ticks: Array.from({ length: top - bottom + 1 }, (_, i) => 10 ** (bottom + i)) };
}

/** "0", "500", "50k", "1.5M": a tick's figure, short enough for a phone-wide axis. */
function tickLabel(tick: number): string {
  if (tick >= 1e6) return `${+(tick / 1e6).toFixed(2)}M`;
  if (tick >= 1e3) return `${+(tick / 1e3).toFixed(2)}k`;
  return String(tick);
}

/** An SVG of `rows` (puzzles/s with 95% error bars) on `scale`, laid out `width` pixels wide; empty when there are none. */
export function barChart(rows: readonly WebBenchRow[], scale: ChartScale = "log", width = CHART_WIDTH): string {
  if (rows.length === 0) return "";
  const WIDTH = Math.min(CHART_WIDTH, Math.max(MIN_WIDTH, Math.round(width)));
  const solvers = [...new Set(rows.map((r) => r.solver))];
  const colours = seriesColours(solvers.length); // the bench chart's: one per solver, far apart
  const { x, ticks } = axis(rows, scale, WIDTH);
  const parts: string[] = [];
  let y = 24;
  for (const dataset of [...new Set(rows.map((r) => r.dataset))]) {
    parts.push(`<text x="0" y="${y + 12}" font-weight="bold">${escapeXml(dataset)}</text>`);
    y += BAR + GAP;
    for (const row of rows.filter((r) => r.dataset === dataset)) {
      const length = Math.max(1, x(row.puzzlesPerSecond));
      const { low, high } = rateInterval(row);
      const [left, right] = [LABEL + x(low), LABEL + x(high)];
      const middle = y + BAR / 2;
      const tip = `${row.dataset} · ${row.solver}: ${Math.round(row.puzzlesPerSecond).toLocaleString("en-US")} puzzles/s ± ${row.rmePercent.toFixed(1)}%`;
      parts.push(
        `<text x="${LABEL - 6}" y="${y + 12}" text-anchor="end">${escapeXml(row.solver)}</text>`,
        `<rect class="bar" data-solver="${escapeXml(row.solver)}" x="${LABEL}" y="${y}" width="${length.toFixed(1)}" height="${BAR}" fill="${colours[solvers.indexOf(row.solver)]}"><title>${escapeXml(tip)}</title></rect>`,
        `<path class="error-bar" d="M${left.toFixed(1)} ${middle - CAP / 2}v${CAP}M${left.toFixed(1)} ${middle}H${right.toFixed(1)}M${right.toFixed(1)} ${middle - CAP / 2}v${CAP}" stroke="#222" fill="none"/>`,
        `<text x="${Math.max(LABEL + length, right) + 4}" y="${y + 12}">${Math.round(row.puzzlesPerSecond).toLocaleString("en-US")}/s</text>`,
      );
      y += BAR + GAP;
    }
    y += GAP * 2;
  }
  const grid = ticks.map((tick) => {
    const at = LABEL + x(tick);
    return `<line x1="${at}" y1="16" x2="${at}" y2="${y}" stroke="#dde3ea"/><text x="${at}" y="12" text-anchor="middle">${tickLabel(tick)}</text>`;
  });
  const label = `puzzles per second, ${scale === "log" ? "log scale" : "linear scale from 0"}, 95% error bars`;
  return `<svg xmlns="http://www.w3.org/2000/svg" id="bench-svg" data-scale="${scale}" viewBox="0 0 ${WIDTH} ${y}" width="100%" style="max-width:${WIDTH}px" font-family="system-ui, sans-serif" font-size="12" role="img" aria-label="${label}"><title>${label}</title>${grid.join("")}${parts.join("")}</svg>`;
}
