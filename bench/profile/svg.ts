/**
 * The picture writers of a profile, one dataset per picture, as hand-written SVG strings: a time
 * CDF with one `<path class="cdf">` per variant, and guesses against time with one
 * `<g class="points">` per variant, a `<circle>` per puzzle, hollow where the budget stopped it.
 */
import { type LogAxis, axisLines, decadeLabel, escapeXml, gridLine, legendEntry, logAxis, openSvg, seriesColours } from "../report/svg.js";
import type { ProfileRecord } from "./records.js";

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

/** Per-puzzle times of every record, to fit one time axis to all of them. */
function allMicros(records: readonly ProfileRecord[]): number[] {
  return records.flatMap((r) => r.perPuzzle.micros);
}

const px = (value: number) => value.toFixed(1);

/** Vertical grid lines and labels of the time axis, and its title. */
function timeAxis(axis: LogAxis, bottom: number): string[] {
  const parts: string[] = [];
  for (let exponent = axis.low; exponent <= axis.high; exponent++) {
    const x = px(axis.at(10 ** exponent));
    parts.push(
      `<line x1="${x}" x2="${x}" y1="${PLOT.top}" y2="${bottom}" stroke="#dddddd"/>`,
      `<text x="${x}" y="${bottom + 16}" text-anchor="middle">${timeLabel(exponent)}</text>`,
    );
  }
  const centre = PLOT.left + PLOT.width / 2;
  parts.push(`<text x="${centre}" y="${bottom + 36}" text-anchor="middle">time per puzzle, solved alone (log scale)</text>`);
  return parts;
}

/** A horizontal grid line across the plot with its label on the left. */
const horizontalRule = (y: number, label: string) => gridLine(PLOT.left, PLOT.left + PLOT.width, y, label);

/** The left and bottom axis lines, and the y-axis title turned on its side. */
function frame(yTitle: string): string[] {
  const bottom = PLOT.top + PLOT.height;
  const middle = PLOT.top + PLOT.height / 2;
  return [
    ...axisLines(PLOT.left, PLOT.left + PLOT.width, PLOT.top, bottom),
    `<text x="16" y="${middle}" text-anchor="middle" transform="rotate(-90 16 ${middle})">${escapeXml(yTitle)}</text>`,
  ];
}

/** One legend entry per record (colour swatch, variant, timeouts), then any notes. */
function legend(records: readonly ProfileRecord[], colours: readonly string[], notes: readonly string[] = []): string[] {
  const left = PLOT.left + PLOT.width + 16;
  const parts = records.flatMap((record, i) =>
    legendEntry(left, PLOT.top + i * 20, colours[i], record.variant + (record.timeouts > 0 ? ` (${record.timeouts} timeouts)` : "")),
  );
  notes.forEach((note, i) => {
    parts.push(`<text x="${left}" y="${PLOT.top + (records.length + 1) * 20 + i * 16}" fill="#555555">${escapeXml(note)}</text>`);
  });
  return parts;
}

/** "magictour_top1465: 1,465 puzzles, limit 2". */
function describe(records: readonly ProfileRecord[]): string {
  const first = records[0];
  return `${first.dataset}: ${first.puzzles.toLocaleString("en-US")} puzzles, limit ${first.limit}`;
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
  const bottom = PLOT.top + PLOT.height;
  const axis = logAxis(allMicros(records), MIN_MICROS, PLOT.left, PLOT.left + PLOT.width);
  const colours = seriesColours(records.length);
  const parts = [...openSvg(WIDTH, HEIGHT, PLOT.left, `${describe(records)}: share of puzzles solved within a time`), ...timeAxis(axis, bottom)];
  for (const share of [0, 0.25, 0.5, 0.75, 1]) parts.push(...horizontalRule(PLOT.top + PLOT.height * (1 - share), `${share * 100}%`));
  records.forEach((record, i) => parts.push(cdfPath(record, axis, colours[i])));
  parts.push(...frame("puzzles solved (cumulative)"), ...legend(records, colours), "</svg>");
  return parts.join("\n") + "\n";
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
  const x = logAxis(allMicros(records), MIN_MICROS, PLOT.left, PLOT.left + PLOT.width);
  const guessAxis = logAxis([1, ...records.flatMap((r) => r.perPuzzle.guesses)], 1, bottom - ZERO_ROW, PLOT.top);
  const y = (guesses: number) => (guesses === 0 ? zeroY : guessAxis.at(guesses));
  const colours = seriesColours(records.length);
  const parts = [...openSvg(WIDTH, HEIGHT, PLOT.left, `${describe(records)}: guesses against time per puzzle`), ...timeAxis(x, bottom)];
  for (let exponent = guessAxis.low; exponent <= guessAxis.high; exponent++) parts.push(...horizontalRule(guessAxis.at(10 ** exponent), decadeLabel(exponent)));
  parts.push(...horizontalRule(zeroY, "0"));
  // Last variant first, so that the first (the default kernel) is drawn on top where they overlap.
  for (let i = records.length - 1; i >= 0; i--) parts.push(pointGroup(records[i], x, y, colours[i]));
  const notes = ["hollow: stopped by the node budget", "bottom row: no guess", "hover a point for its file line"];
  parts.push(...frame("guesses (log scale)"), ...legend(records, colours, notes), "</svg>");
  return parts.join("\n") + "\n";
}
