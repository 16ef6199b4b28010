/**
 * The pictures, as hand-written SVG strings. The bench's chart: puzzles/s per row and dataset as
 * grouped bars on a log scale, one group per dataset; every record is one `<rect class="bar">` with
 * a `<title>` tooltip and a `<path class="error-bar">` (the 95% margin of its mean); each row label
 * has its own colour; the footer names the machine, build, commit and date. A profile's, one
 * dataset per picture: a time CDF with one `<path class="cdf">` per variant, and guesses against
 * time with one `<g class="points">` per variant, a `<circle>` per puzzle, hollow where the budget
 * stopped it.
 */
import type { BenchEnvironment, BenchRecord, BenchRun, ProfileRecord } from "../records.js";
import { formatNumber, groupByDataset } from "./format.js";

const BAR_WIDTH = 14;
const BAR_GAP = 2;
const GROUP_GAP = 28;
const PLOT_HEIGHT = 320;
const MARGIN = { top: 48, right: 230, bottom: 84, left: 64 };
/** Rough width of one character of a 12px sans-serif label. */
const CHAR_WIDTH = 7;
const CAP_WIDTH = 8;
/**
 * Series colours, far apart to the eye: Tableau 10 up to ten series; beyond, thirty-six picked once
 * by a greedy max–min CIEDE2000 distance from an sRGB grid of lightness 25–80 (no bar fades into
 * the white page or black), repeating past thirty-six (a full profile has 33 kernel variants).
 */
const TABLEAU = "4e79a7 f28e2b e15759 76b7b2 59a14f edc948 b07aa1 ff9da7 9c755f bab0ac";
const MANY =
  "4e79a7 cccc00 444400 ff5500 880044 ff99dd 00ddcc 009922 bb00ff 883300 ddbbaa 004444 88ccff ff0066 aa7700 443388 776666 889988 9977aa 77dd66 006633 ffaa33 008888 bbbbdd ff8888 777744 cc0022 ff00bb 444455 3344ff 556666 bbaa77 9988ff aacccc aa6644 553333";

/** `count` colours, one per series (see {@link MANY}). */
export function seriesColours(count: number): string[] {
  const palette = (count <= 10 ? TABLEAU : MANY).split(" ");
  return Array.from({ length: count }, (_, i) => `#${palette[i % palette.length]}`);
}

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The opening of a chart: the root element, a white background and the title at (`left`, 24). */
export function openSvg(width: number, height: number, left: number, title: string): string[] {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="24" font-size="16" font-weight="bold">${escapeXml(title)}</text>`,
  ];
}

/** A horizontal grid line from `left` to `right` at `y`, labelled on its left. */
export function gridLine(left: number, right: number, y: number, label: string): string[] {
  const at = y.toFixed(1);
  return [
    `<line x1="${left}" x2="${right}" y1="${at}" y2="${at}" stroke="#dddddd"/>`,
    `<text x="${left - 6}" y="${at}" text-anchor="end" dominant-baseline="middle">${label}</text>`,
  ];
}

/** The left and bottom axis lines of a plot. */
export function axisLines(left: number, right: number, top: number, bottom: number): string[] {
  return [
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${bottom}" stroke="#333333"/>`,
    `<line x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}" stroke="#333333"/>`,
  ];
}

/** One legend entry: a colour swatch and its label; `swatch` adds attributes to the swatch. */
export function legendEntry(left: number, top: number, colour: string, label: string, swatch = ""): string[] {
  return [
    `<rect${swatch} x="${left}" y="${top}" width="12" height="12" fill="${colour}"/>`,
    `<text x="${left + 18}" y="${top + 10}">${escapeXml(label)}</text>`,
  ];
}

/** "1", "10", "100", "1k", … "1M" for a power of ten. */
export function decadeLabel(exponent: number): string {
  const units = ["", "k", "M", "G"];
  const unit = Math.min(Math.floor(exponent / 3), units.length - 1);
  return `${10 ** (exponent - unit * 3)}${units[unit]}`;
}

/**
 * The range of puzzles/s a record's mean is known to: its margin of error is on the mean batch
 * time, so the rate lies between rate / (1 + rme) and rate / (1 − rme).
 */
export function rateInterval(record: Pick<BenchRecord, "rmePercent" | "puzzlesPerSecond">): { low: number; high: number } {
  const margin = Number.isFinite(record.rmePercent) ? Math.min(record.rmePercent / 100, 0.99) : 0;
  return { low: record.puzzlesPerSecond / (1 + margin), high: record.puzzlesPerSecond / (1 - margin) };
}

/** A log10 axis over whole decades (at least one) that holds every positive `values` (each at least `floor`): maps a value to a pixel between `from` and `to`. */
export interface LogAxis {
  low: number;
  high: number;
  at(value: number): number;
}

export function logAxis(values: readonly number[], floor: number, from: number, to: number): LogAxis {
  const logs = values.filter((v) => v > 0 && Number.isFinite(v)).map((v) => Math.log10(Math.max(v, floor)));
  const low = logs.length ? Math.floor(Math.min(...logs)) : 0;
  const high = Math.max(low + 1, logs.length ? Math.ceil(Math.max(...logs)) : 1);
  const at = (value: number) => from + ((to - from) * (Math.log10(Math.max(value, 10 ** low)) - low)) / (high - low);
  return { low, high, at };
}

/** The footer lines: machine, build, commit, date and the run's settings. */
function footerLines(env: BenchEnvironment, incomplete: boolean): string[] {
  return [
    `${env.cpu} (${env.cores} cores) · Node ${env.node} · WASM ${env.buildFlags}`,
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
  const rates = records.flatMap((r) => [rateInterval(r).low, rateInterval(r).high]);
  const axis = logAxis(rates, 0, plotBottom, MARGIN.top);

  const parts = openSvg(width, height, MARGIN.left, title + (run.incomplete ? " — incomplete run" : ""));
  for (let exponent = axis.low; exponent <= axis.high; exponent++)
    parts.push(...gridLine(MARGIN.left, MARGIN.left + plotWidth, axis.at(10 ** exponent), decadeLabel(exponent)));
  let groupLeft = MARGIN.left + GROUP_GAP;
  groups.forEach(([dataset, rows], g) => {
    let x = groupLeft + (groupWidths[g] - barsWidth(rows)) / 2;
    for (const record of rows) {
      const top = axis.at(record.puzzlesPerSecond);
      const tip = `${record.dataset} · ${record.row}: ${formatNumber(record.puzzlesPerSecond)} puzzles/s ± ${formatNumber(record.rmePercent, 2)}%`;
      parts.push(
        `<rect class="bar" x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${BAR_WIDTH}" height="${(plotBottom - top).toFixed(1)}" fill="${colour(record.row)}"><title>${escapeXml(tip)}</title></rect>`,
        errorBar(x + BAR_WIDTH / 2, axis.at(rateInterval(record).high), axis.at(rateInterval(record).low)),
      );
      x += BAR_WIDTH + BAR_GAP;
    }
    const centre = groupLeft + groupWidths[g] / 2;
    parts.push(`<text x="${centre.toFixed(1)}" y="${plotBottom + 18}" text-anchor="middle">${escapeXml(dataset)}</text>`);
    groupLeft += groupWidths[g] + GROUP_GAP;
  });
  parts.push(...axisLines(MARGIN.left, MARGIN.left + plotWidth, MARGIN.top, plotBottom));
  labels.forEach((label, i) => parts.push(...legendEntry(MARGIN.left + plotWidth + 16, MARGIN.top + i * 20, colour(label), label, ' class="legend"')));
  const footerTop = height - MARGIN.bottom + 48;
  footer.forEach((line, i) => parts.push(`<text class="footer" x="12" y="${footerTop + i * 16}" fill="#555555" font-size="11">${escapeXml(line)}</text>`));
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}

/** A vertical error bar with caps from `top` to `bottom` at `x`. */
function errorBar(x: number, top: number, bottom: number): string {
  const half = CAP_WIDTH / 2;
  const d = `M${(x - half).toFixed(1)} ${top.toFixed(1)}h${CAP_WIDTH}M${x.toFixed(1)} ${top.toFixed(1)}V${bottom.toFixed(1)}M${(x - half).toFixed(1)} ${bottom.toFixed(1)}h${CAP_WIDTH}`;
  return `<path class="error-bar" d="${d}" stroke="#222222" stroke-width="1" fill="none"/>`;
}

const PLOT = { left: 72, top: 48, width: 560, height: 320 };
const LEGEND_WIDTH = 250;
const BOTTOM = 56;
const WIDTH = PLOT.left + PLOT.width + LEGEND_WIDTH;
const HEIGHT = PLOT.top + PLOT.height + BOTTOM;
/** Height of the scatter's bottom row for puzzles solved without a guess. */
const ZERO_ROW = 36;
/** Shortest time the time axis shows, in µs (hrtime resolution is 1 ns). */
const MIN_MICROS = 0.01;

/** "100 µs", "1 ms", "10 s" for the power of ten `exponent` of microseconds. */
function timeLabel(exponent: number): string {
  const units = [
    { scale: 6, unit: "s" },
    { scale: 3, unit: "ms" },
    { scale: 0, unit: "µs" },
  ];
  const { scale, unit } = units.find((u) => exponent >= u.scale) ?? units[2];
  return `${Number((10 ** (exponent - scale)).toPrecision(1))} ${unit}`;
}

const px = (value: number) => value.toFixed(1);

/** A horizontal grid line across the plot with its label on the left. */
const horizontalRule = (y: number, label: string) => gridLine(PLOT.left, PLOT.left + PLOT.width, y, label);

/**
 * A profile picture of one dataset: the title ("magictour_top1465: 1,465 puzzles, limit 2: …"),
 * the log time axis fitted to every record's per-puzzle times, what `plot` draws on it, the left
 * and bottom axis lines with `yTitle` on its side, and a legend entry per record (colour, variant,
 * timeouts) with any `notes` below.
 */
function profileSvg(
  records: readonly ProfileRecord[],
  what: string,
  yTitle: string,
  plot: (x: LogAxis, colours: readonly string[]) => string[],
  notes: readonly string[] = [],
): string {
  const bottom = PLOT.top + PLOT.height;
  const x = logAxis(
    records.flatMap((r) => r.perPuzzle.micros),
    MIN_MICROS,
    PLOT.left,
    PLOT.left + PLOT.width,
  );
  const colours = seriesColours(records.length);
  const first = records[0];
  const parts = openSvg(WIDTH, HEIGHT, PLOT.left, `${first.dataset}: ${first.puzzles.toLocaleString("en-US")} puzzles, limit ${first.limit}: ${what}`);
  for (let exponent = x.low; exponent <= x.high; exponent++) {
    const at = px(x.at(10 ** exponent));
    parts.push(
      `<line x1="${at}" x2="${at}" y1="${PLOT.top}" y2="${bottom}" stroke="#dddddd"/>`,
      `<text x="${at}" y="${bottom + 16}" text-anchor="middle">${timeLabel(exponent)}</text>`,
    );
  }
  const centre = PLOT.left + PLOT.width / 2;
  const middle = PLOT.top + PLOT.height / 2;
  const left = PLOT.left + PLOT.width + 16;
  parts.push(
    `<text x="${centre}" y="${bottom + 36}" text-anchor="middle">time per puzzle, solved alone (log scale)</text>`,
    ...plot(x, colours),
    ...axisLines(PLOT.left, PLOT.left + PLOT.width, PLOT.top, bottom),
    `<text x="16" y="${middle}" text-anchor="middle" transform="rotate(-90 16 ${middle})">${escapeXml(yTitle)}</text>`,
    ...records.flatMap((r, i) => legendEntry(left, PLOT.top + i * 20, colours[i], r.variant + (r.timeouts > 0 ? ` (${r.timeouts} timeouts)` : ""))),
    ...notes.map((note, i) => `<text x="${left}" y="${PLOT.top + (records.length + 1) * 20 + i * 16}" fill="#555555">${escapeXml(note)}</text>`),
    "</svg>",
  );
  return parts.join("\n") + "\n";
}

/** The step line of one record's sorted per-puzzle times: share of puzzles solved within each time. */
function cdfPath(record: ProfileRecord, axis: LogAxis, colour: string): string {
  const sorted = [...record.perPuzzle.micros].sort((a, b) => a - b);
  const y = (share: number) => px(PLOT.top + PLOT.height * (1 - share));
  const steps = sorted.map((micros, i) => `H${px(axis.at(micros))}V${y((i + 1) / sorted.length)}`);
  const d = `M${px(axis.at(sorted[0]))},${y(0)}V${y(1 / sorted.length)}${steps.slice(1).join("")}`;
  return `<path class="cdf" data-variant="${escapeXml(record.variant)}" d="${d}" fill="none" stroke="${colour}" stroke-width="1.5"/>`;
}

/**
 * The per-puzzle time distribution of each variant on one dataset, as CDFs on a log time
 * axis: a curve further left is faster, a long flat tail on the right is a few hard puzzles.
 */
export function formatTimeCdfSvg(records: readonly ProfileRecord[]): string {
  return profileSvg(records, "share of puzzles solved within a time", "puzzles solved (cumulative)", (x, colours) => [
    ...[0, 0.25, 0.5, 0.75, 1].flatMap((share) => horizontalRule(PLOT.top + PLOT.height * (1 - share), `${share * 100}%`)),
    ...records.map((record, i) => cdfPath(record, x, colours[i])),
  ]);
}

/** One record's points: a circle per puzzle, hollow when the budget stopped it. */
function pointGroup(record: ProfileRecord, x: LogAxis, y: (guesses: number) => number, colour: string): string {
  const { lines, micros, guesses, nodes } = record.perPuzzle;
  const circles = lines.map((line, i) => {
    const stopped = nodes[i] < 0;
    const paint = stopped ? `fill="none" stroke="${colour}"` : `fill="${colour}"`;
    const tip = `line ${line}: ${micros[i].toPrecision(3)} µs, ${guesses[i]}${stopped ? "+ (budget)" : ""} guesses`;
    return `<circle cx="${px(x.at(micros[i]))}" cy="${px(y(guesses[i]))}" r="2" ${paint}><title>${escapeXml(tip)}</title></circle>`;
  });
  return [`<g class="points" data-variant="${escapeXml(record.variant)}" fill-opacity="0.55">`, ...circles, "</g>"].join("\n");
}

/**
 * Guesses against time per puzzle, log–log, one colour per variant: puzzles solved without a
 * guess sit on their own bottom row; points up and right are the hard puzzles.
 */
export function formatGuessScatterSvg(records: readonly ProfileRecord[]): string {
  const bottom = PLOT.top + PLOT.height;
  const zeroY = bottom - ZERO_ROW / 2;
  const guessAxis = logAxis([1, ...records.flatMap((r) => r.perPuzzle.guesses)], 1, bottom - ZERO_ROW, PLOT.top);
  const y = (guesses: number) => (guesses === 0 ? zeroY : guessAxis.at(guesses));
  const notes = ["hollow: stopped by the node budget", "bottom row: no guess", "hover a point for its file line"];
  return profileSvg(
    records,
    "guesses against time per puzzle",
    "guesses (log scale)",
    (x, colours) => {
      const parts: string[] = [];
      for (let exponent = guessAxis.low; exponent <= guessAxis.high; exponent++)
        parts.push(...horizontalRule(guessAxis.at(10 ** exponent), decadeLabel(exponent)));
      parts.push(...horizontalRule(zeroY, "0"));
      // Last variant first, so that the first (the default kernel) is drawn on top where they overlap.
      for (let i = records.length - 1; i >= 0; i--) parts.push(pointGroup(records[i], x, y, colours[i]));
      return parts;
    },
    notes,
  );
}
