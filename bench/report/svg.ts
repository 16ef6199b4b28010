/** The bench's chart as a hand-written SVG string: puzzles/s per row as grouped bars on a log scale, one group per dataset. */
import type { BenchEnvironment, BenchRecord, BenchRun } from "../records.js";
import { cpuName, formatNumber, groupByDataset } from "./format.js";
import { counted } from "../../src/model/whole-number.js";

const BAR_WIDTH = 14;
const BAR_GAP = 2;
const GROUP_GAP = 28;
const PLOT_HEIGHT = 320;
const MARGIN = { top: 48, right: 230, bottom: 84, left: 64 };
/** Rough width of one character of a 12px sans-serif label. */
const CHAR_WIDTH = 7;
const CAP_WIDTH = 8;
/**
 * Series colours, far apart to the eye: Tableau 10 up to ten series; beyond, thirty-six picked by a greedy max–min
 * CIEDE2000 distance from an sRGB grid of lightness 25–80 (no bar fades into the white page or black).
 */
const TABLEAU = "4e79a7 f28e2b e15759 76b7b2 59a14f edc948 b07aa1 ff9da7 9c755f bab0ac";
const MANY =
  "4e79a7 cccc00 444400 ff5500 880044 ff99dd 00ddcc 009922 bb00ff 883300 ddbbaa 004444 88ccff ff0066 aa7700 443388 776666 889988 9977aa 77dd66 006633 ffaa33 008888 bbbbdd ff8888 777744 cc0022 ff00bb 444455 3344ff 556666 bbaa77 9988ff aacccc aa6644 553333";

/** `count` colours, one per series (see {@link MANY}). */
export function seriesColours(count: number): string[] {
  const palette = (count <= 10 ? TABLEAU : MANY).split(" ");
  return Array.from({ length: count }, (_, i) => `#${palette[i % palette.length]}`);
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The range of puzzles/s a record's mean is known to: the margin is on the mean batch time, so rate / (1 ± rme). */
export function rateInterval(record: Pick<BenchRecord, "rmePercent" | "puzzlesPerSecond">): { low: number; high: number } {
  const margin = Number.isFinite(record.rmePercent) ? Math.min(record.rmePercent / 100, 0.99) : 0;
  return { low: record.puzzlesPerSecond / (1 + margin), high: record.puzzlesPerSecond / (1 - margin) };
}

function footerLines(env: BenchEnvironment, incomplete: boolean): string[] {
  return [
    `${cpuName(env)} (${counted(env.cores, "core")}) · Node ${env.node} · WASM ${env.buildFlags}`,
    `commit ${env.commit} · ${env.date} · seed ${env.seed} · limit ${env.limit} · ${env.timeMs} ms per row · error bars: 95% margin of the mean` +
      (incomplete ? " · INCOMPLETE (interrupted)" : ""),
  ];
}

/** The run's chart as an SVG document: one bar per record with its error bar, one colour per row label. */
export function formatSvg(run: BenchRun, title = "Puzzles per second (log scale)"): string {
  const records = run.records;
  const groups = [...groupByDataset(records)];
  const labels = [...new Set(records.map((r) => r.row))];
  const colours = seriesColours(labels.length);
  const colour = (row: string) => colours[labels.indexOf(row)];
  const barsWidth = (rows: readonly BenchRecord[]) => rows.length * (BAR_WIDTH + BAR_GAP) - BAR_GAP;
  const groupWidths = groups.map(([dataset, rows]) => Math.max(barsWidth(rows), dataset.length * CHAR_WIDTH));
  const plotWidth = groupWidths.reduce((sum, w) => sum + w + GROUP_GAP, GROUP_GAP);
  const footer = footerLines(run.environment, run.incomplete !== undefined);
  const legendHeight = labels.length * 20;
  const width = Math.max(MARGIN.left + plotWidth + MARGIN.right, 24 + Math.max(...footer.map((line) => line.length)) * 6);
  const height = MARGIN.top + Math.max(PLOT_HEIGHT, legendHeight) + MARGIN.bottom;
  const plotBottom = MARGIN.top + PLOT_HEIGHT;
  // A log10 axis over whole decades (at least one) that holds every rate's interval.
  const logs = records
    .flatMap((r) => [rateInterval(r).low, rateInterval(r).high])
    .filter((v) => v > 0 && Number.isFinite(v))
    .map(Math.log10);
  const low = logs.length ? Math.floor(Math.min(...logs)) : 0;
  const high = Math.max(low + 1, logs.length ? Math.ceil(Math.max(...logs)) : 1);
  const at = (value: number) => plotBottom + ((MARGIN.top - plotBottom) * (Math.log10(Math.max(value, 10 ** low)) - low)) / (high - low);
  const right = MARGIN.left + plotWidth;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="24" font-size="16" font-weight="bold">${escapeXml(title + (run.incomplete ? " — incomplete run" : ""))}</text>`,
  ];
  for (let exponent = low; exponent <= high; exponent++) {
    const y = at(10 ** exponent).toFixed(1);
    const unit = Math.min(Math.floor(exponent / 3), 3);
    parts.push(
      `<line x1="${MARGIN.left}" x2="${right}" y1="${y}" y2="${y}" stroke="#dddddd"/>`,
      `<text x="${MARGIN.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${10 ** (exponent - unit * 3)}${["", "k", "M", "G"][unit]}</text>`,
    );
  }
  let groupLeft = MARGIN.left + GROUP_GAP;
  groups.forEach(([dataset, rows], g) => {
    let x = groupLeft + (groupWidths[g] - barsWidth(rows)) / 2;
    for (const record of rows) {
      const top = at(record.puzzlesPerSecond);
      const tip = `${record.dataset} · ${record.row}: ${formatNumber(record.puzzlesPerSecond)} puzzles/s ± ${formatNumber(record.rmePercent, 2)}%`;
      parts.push(
        `<rect class="bar" x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${BAR_WIDTH}" height="${(plotBottom - top).toFixed(1)}" fill="${colour(record.row)}"><title>${escapeXml(tip)}</title></rect>`,
        errorBar(x + BAR_WIDTH / 2, at(rateInterval(record).high), at(rateInterval(record).low)),
      );
      x += BAR_WIDTH + BAR_GAP;
    }
    const centre = groupLeft + groupWidths[g] / 2;
    parts.push(`<text x="${centre.toFixed(1)}" y="${plotBottom + 18}" text-anchor="middle">${escapeXml(dataset)}</text>`);
    groupLeft += groupWidths[g] + GROUP_GAP;
  });
  parts.push(
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${plotBottom}" stroke="#333333"/>`,
    `<line x1="${MARGIN.left}" x2="${right}" y1="${plotBottom}" y2="${plotBottom}" stroke="#333333"/>`,
  );
  labels.forEach((label, i) => {
    const top = MARGIN.top + i * 20;
    parts.push(
      `<rect class="legend" x="${right + 16}" y="${top}" width="12" height="12" fill="${colour(label)}"/>`,
      `<text x="${right + 34}" y="${top + 10}">${escapeXml(label)}</text>`,
    );
  });
  const footerTop = height - MARGIN.bottom + 48;
  footer.forEach((line, i) => parts.push(`<text class="footer" x="12" y="${footerTop + i * 16}" fill="#555555" font-size="11">${escapeXml(line)}</text>`));
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}

function errorBar(x: number, top: number, bottom: number): string {
  const half = CAP_WIDTH / 2;
  const d = `M${(x - half).toFixed(1)} ${top.toFixed(1)}h${CAP_WIDTH}M${x.toFixed(1)} ${top.toFixed(1)}V${bottom.toFixed(1)}M${(x - half).toFixed(1)} ${bottom.toFixed(1)}h${CAP_WIDTH}`;
  return `<path class="error-bar" d="${d}" stroke="#222222" stroke-width="1" fill="none"/>`;
}
