/**
 * The chart writer: puzzles/s per row and dataset as grouped bars on a log scale, as a
 * hand-written SVG string.
 *
 *   ┌ title ─────────────────────────────────────────────┐
 *   │ 1M ┤ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─  ■ wasm │
 *   │10k ┤  ▇ ▅ ▂        ▇ ▃ ▁      (one group per       ■ ... │
 *   │100 ┤  ▇ ▅ ▂ ▁      ▇ ▃ ▁ ▁     dataset, one bar     │
 *   │    └──easy────────hardest──    per record)          │
 *   └────────────────────────────────────────────────────┘
 *
 * Every record is one `<rect class="bar">` with a `<title>` tooltip; colours follow the row label.
 */
import type { BenchRecord } from "../records.js";
import { formatNumber, groupByDataset } from "./format.js";

const BAR_WIDTH = 14;
const BAR_GAP = 2;
const GROUP_GAP = 28;
const PLOT_HEIGHT = 320;
const MARGIN = { top: 48, right: 230, bottom: 36, left: 64 };
/** Rough width of one character of a 12px sans-serif label. */
const CHAR_WIDTH = 7;
/** Series colours, in order. */
export const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#2ca02c"];

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** "1", "10", "100", "1k", … "1M" for a power of ten. */
export function decadeLabel(exponent: number): string {
  const units = ["", "k", "M", "G"];
  const unit = Math.min(Math.floor(exponent / 3), units.length - 1);
  return `${10 ** (exponent - unit * 3)}${units[unit]}`;
}

/** The log10 decades the axis spans, at least one. */
function decades(records: readonly BenchRecord[]): { low: number; high: number } {
  const rates = records.map((r) => r.puzzlesPerSecond).filter((v) => v > 0 && Number.isFinite(v));
  if (rates.length === 0) return { low: 0, high: 1 };
  const low = Math.floor(Math.log10(Math.min(...rates)));
  return { low, high: Math.max(low + 1, Math.ceil(Math.log10(Math.max(...rates)))) };
}

/** The chart of `records` as an SVG document. */
export function formatSvg(records: readonly BenchRecord[], title = "Puzzles per second (log scale)"): string {
  const groups = [...groupByDataset(records)];
  const labels = [...new Set(records.map((r) => r.row))];
  const colour = (row: string) => PALETTE[labels.indexOf(row) % PALETTE.length];
  const barsWidth = (rows: readonly BenchRecord[]) => rows.length * (BAR_WIDTH + BAR_GAP) - BAR_GAP;
  const groupWidths = groups.map(([dataset, rows]) => Math.max(barsWidth(rows), dataset.length * CHAR_WIDTH));
  const plotWidth = groupWidths.reduce((sum, w) => sum + w + GROUP_GAP, GROUP_GAP);
  const width = MARGIN.left + plotWidth + MARGIN.right;
  const height = MARGIN.top + PLOT_HEIGHT + MARGIN.bottom;
  const { low, high } = decades(records);
  const y = (rate: number) => {
    const clamped = Math.max(Math.log10(Math.max(rate, 10 ** low)), low);
    return MARGIN.top + PLOT_HEIGHT * (1 - (clamped - low) / (high - low));
  };

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="24" font-size="16" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (let exponent = low; exponent <= high; exponent++) {
    const at = y(10 ** exponent).toFixed(1);
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${at}" y2="${at}" stroke="#dddddd"/>`,
      `<text x="${MARGIN.left - 6}" y="${at}" text-anchor="end" dominant-baseline="middle">${decadeLabel(exponent)}</text>`,
    );
  }
  let groupLeft = MARGIN.left + GROUP_GAP;
  groups.forEach(([dataset, rows], g) => {
    let x = groupLeft + (groupWidths[g] - barsWidth(rows)) / 2;
    for (const record of rows) {
      const top = y(record.puzzlesPerSecond);
      const tip = `${record.dataset} · ${record.row}: ${formatNumber(record.puzzlesPerSecond)} puzzles/s`;
      parts.push(
        `<rect class="bar" x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${BAR_WIDTH}" height="${(MARGIN.top + PLOT_HEIGHT - top).toFixed(1)}" fill="${colour(record.row)}"><title>${escapeXml(tip)}</title></rect>`,
      );
      x += BAR_WIDTH + BAR_GAP;
    }
    const centre = groupLeft + groupWidths[g] / 2;
    parts.push(`<text x="${centre.toFixed(1)}" y="${MARGIN.top + PLOT_HEIGHT + 18}" text-anchor="middle">${escapeXml(dataset)}</text>`);
    groupLeft += groupWidths[g] + GROUP_GAP;
  });
  parts.push(
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + PLOT_HEIGHT}" stroke="#333333"/>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${MARGIN.top + PLOT_HEIGHT}" y2="${MARGIN.top + PLOT_HEIGHT}" stroke="#333333"/>`,
  );
  labels.forEach((label, i) => {
    const top = MARGIN.top + i * 20;
    const left = MARGIN.left + plotWidth + 16;
    parts.push(
      `<rect x="${left}" y="${top}" width="12" height="12" fill="${colour(label)}"/>`,
      `<text x="${left + 18}" y="${top + 10}">${escapeXml(label)}</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}
