/**
 * The compact terminal view: one line per row as it finishes, in fixed columns that fit the terminal (lower-priority
 * columns dropped first), then the flags' notes and a closing summary per dataset. The full table is format.ts's.
 */
import { FLAG_NOTES, type NoiseFlag, PREEMPTED_SHARE, flagMarks, mostlyTimedOut, noiseFlags } from "../noise.js";
import { counted } from "../../src/model/whole-number.js";
import type { BenchRecord } from "../records.js";
import { type RatioEstimate, speedRatio, tukeyOutliers } from "../statistics.js";
import { verdictOf } from "./compare.js";
import { formatNumber, formatPercent, formatRatio, formatRatioWords, formatTimes, groupByDataset, rowNotes } from "./format.js";

/** Fixed width, so that lines align while they stream. */
interface CompactColumn {
  header: string;
  width: number;
  /** Columns of lower priority go first when the terminal is narrow. */
  priority: number;
  cell(record: BenchRecord): string;
}

/** The solver label's width: the longest planned label, within these bounds. */
const LABEL_WIDTH = { min: 12, max: 24 };
const INDENT = "  ";
/** Room the notes need for their longest phrase ("CPU/wall 0.91"). */
const NOTES_ROOM = 13;
/** Terminals narrower than this get one space between columns instead of two. */
const WIDE_GAP_FROM = 100;
/** The narrowest width the layout plans for, and the widest it uses. */
export const COMPACT_WIDTH = { min: 80, max: 140, unknown: 100 };

const COLUMNS: readonly CompactColumn[] = [
  { header: "puzzles/s", width: 9, priority: 10, cell: (r) => formatNumber(r.puzzlesPerSecond) },
  { header: "±", width: 6, priority: 9, cell: (r) => formatPercent(r.rmePercent) },
  { header: "µs mean", width: 7, priority: 5, cell: (r) => formatNumber(r.meanMicros) },
  { header: "µs p50", width: 7, priority: 7, cell: (r) => formatNumber(r.p50Micros) },
  { header: "µs p99", width: 7, priority: 4, cell: (r) => formatNumber(r.p99Micros) },
  { header: "guesses", width: 7, priority: 6, cell: (r) => formatNumber(r.guessesPerPuzzle) },
  { header: "no guess", width: 8, priority: 3, cell: (r) => formatPercent(r.noGuessPercent) },
  { header: "flags", width: 5, priority: 10, cell: (r) => flagMarks(noiseFlags(r)) },
];

/** Fits `text` in `width` characters, eliding its middle (labels keep their start and end). */
export function elideMiddle(text: string, width: number): string {
  if (text.length <= width) return text;
  const head = Math.ceil((width - 1) / 2);
  return text.slice(0, head) + "…" + text.slice(text.length - (width - 1 - head));
}

/** The compact layout for a terminal `columns` wide and the row labels the run will print. */
export class CompactLayout {
  private readonly labelWidth: number;
  private readonly columns: readonly CompactColumn[];
  private readonly notesWidth: number;
  private readonly gap: string;

  constructor(labels: readonly string[], columns: number | undefined) {
    const width = Math.min(Math.max(columns ?? COMPACT_WIDTH.unknown, COMPACT_WIDTH.min), COMPACT_WIDTH.max);
    this.labelWidth = Math.min(Math.max(LABEL_WIDTH.min, ...labels.map((label) => label.length)), LABEL_WIDTH.max);
    this.gap = width < WIDE_GAP_FROM ? " " : "  ";
    const gap = this.gap.length;
    const used = (list: readonly CompactColumn[]) => INDENT.length + this.labelWidth + list.reduce((sum, c) => sum + gap + c.width, 0);
    const kept = [...COLUMNS];
    while (used(kept) + gap + NOTES_ROOM > width && kept.length > 1) {
      const lowest = kept.reduce((a, c) => (c.priority < a.priority ? c : a));
      kept.splice(kept.indexOf(lowest), 1);
    }
    this.columns = kept;
    this.notesWidth = Math.max(0, width - used(kept) - gap);
  }

  header(): string {
    const cells = this.columns.map((c) => (c.header === "flags" ? c.header.padEnd(c.width) : c.header.padStart(c.width)));
    return (INDENT + ["solver".padEnd(this.labelWidth), ...cells, this.notesWidth > 0 ? "notes" : ""].join(this.gap)).trimEnd();
  }

  /** One row's line, and continuation lines when its notes do not fit. */
  line(record: BenchRecord): string {
    const cells = this.columns.map((c) => (c.header === "flags" ? c.cell(record).padEnd(c.width) : c.cell(record).padStart(c.width)));
    const first = INDENT + [elideMiddle(record.row, this.labelWidth).padEnd(this.labelWidth), ...cells].join(this.gap) + this.gap;
    if (this.notesWidth === 0) return first.trimEnd();
    const notes = wrapPhrases(rowNotes(record, true), this.notesWidth);
    const pad = " ".repeat(first.length);
    return notes.length === 0 ? first.trimEnd() : notes.map((note, i) => (i === 0 ? first : pad) + note).join("\n");
  }
}

const NO_BREAK = "\u00a0";

/** Phrases joined by ", " in lines of at most `width` (a longer phrase stays whole), each phrase kept on one line. */
function wrapPhrases(phrases: readonly string[], width: number): string[] {
  return wrap(phrases.map((phrase) => phrase.replaceAll(" ", NO_BREAK)).join(", "), width).map((line) => line.replaceAll(NO_BREAK, " "));
}

/** Whether a row ran more worker threads than the `cores` the process may use: its threads took turns on them, and its CPU/wall stays below its thread count. */
const outnumbered = (r: BenchRecord, cores: number | undefined): cores is number => cores !== undefined && cores > 0 && r.threads !== null && r.threads > cores;

/** Flag P's note: another process had the core, or, for rows of more threads than the `cores` the process may use, the rows' own threads shared them. */
function preemptedNote(marked: readonly BenchRecord[], cores: number | undefined): string {
  const own = marked.filter((r) => outnumbered(r, cores)).length;
  if (own === 0) return FLAG_NOTES.preempted.note;
  const those = `the row's threads outnumber the ${counted(cores!, "core")} this process may use (taskset, or the machine), so they took turns on ${cores === 1 ? "it" : "them"}`;
  if (own === marked.length) {
    return (
      `pre-empted: CPU time / wall time while timing was below ${PREEMPTED_SHARE} per thread because ${those}, ` +
      `not because another process had the core; give the bench as many cores as threads, or --threads ${cores}`
    );
  }
  return `${FLAG_NOTES.preempted.note}; a row whose entry says "K threads on N cores" was slowed by its own threads instead: ${those}`;
}

/**
 * The notes of the flags raised, each with the rows it marks; empty when none was. `liveRows`: the rows were printed as they finished (without S);
 * `cores`: the cores the process may use, for flag P's rows of more threads than that.
 */
export function formatFlagNotes(
  records: readonly BenchRecord[],
  width: number = COMPACT_WIDTH.unknown,
  timeMs?: number,
  liveRows = false,
  cores?: number,
): string[] {
  const lines: string[] = [];
  for (const flag of Object.keys(FLAG_NOTES) as NoiseFlag[]) {
    const marked = records.filter((r) => noiseFlags(r).includes(flag));
    if (marked.length === 0) continue;
    const { mark } = FLAG_NOTES[flag];
    let note = flag === "preempted" ? preemptedNote(marked, cores) : FLAG_NOTES[flag].note;
    if (timeMs !== undefined) note = note.replace("--time 2000", `--time ${moreTime(timeMs)}`);
    if (flag === "speed" && liveRows) note += ". It is known once every row is timed: the rows above, printed as they finished, do not show it";
    lines.push(...wrap(`  ${mark}  ${note}.`, width, "     "));
    const rows = marked.map((r) => `${r.dataset} · ${r.row}`.replaceAll(" ", NO_BREAK) + flagDetail(flag, r, cores));
    const shown = rows.length > 6 ? [...rows.slice(0, 6), `${rows.length - 6} more`] : rows;
    const list = `${marked.length} row${marked.length === 1 ? "" : "s"}: ${shown.join(", ")}`;
    lines.push(...wrap(list, width - 5).map((line) => `     ${line.replaceAll(NO_BREAK, " ")}`));
  }
  const withOutliers = records.filter((r) => r.batchMs && tukeyOutliers(r.batchMs).severe > 0).length;
  if (withOutliers > 0) {
    const note = `  Outliers ("K outliers" in notes, ${withOutliers} row${withOutliers === 1 ? "" : "s"}): K timed batches more than 3 IQR beyond the quartiles (Tukey's fences; mild ones, beyond 1.5 IQR, are in the JSON), most likely disturbed by another process; many of them: rerun on a quieter machine.`;
    lines.push(...wrap(note, width, "     "));
  }
  return lines;
}

/** What a flagged row's entry in its note adds: the CPU share of a pre-empted row (and its threads and cores, when they outnumber the cores), how much slower or faster a row of another speed ran. */
function flagDetail(flag: NoiseFlag, r: BenchRecord, cores?: number): string {
  if (flag === "preempted") {
    const shared = outnumbered(r, cores) ? `, ${r.threads} threads on ${counted(cores, "core")}` : "";
    return ` (CPU/wall ${formatNumber(r.cpuPerWall, 2)}${shared})`.replaceAll(" ", NO_BREAK);
  }
  if (flag === "speed" && typeof r.speedShift === "number") {
    const atRunSpeed = `~${formatNumber(r.puzzlesPerSecond * r.speedShift)}/s at the run's speed`;
    return r.speedShift >= 1 ? ` (${formatNumber(r.speedShift, 2)}× slower, ${atRunSpeed})` : ` (${formatNumber(1 / r.speedShift, 2)}× faster, ${atRunSpeed})`;
  }
  return "";
}

/** The --time to advise a run of `timeMs` per row: 2000, or four times what it had when that was 2000 or more already. */
export function moreTime(timeMs: number): number {
  return timeMs < 2000 ? 2000 : 4 * timeMs;
}

/** Splits `text` at spaces into lines of at most `width` (a longer word stays whole); later lines start with `indent`. */
export function wrap(text: string, width: number, indent = ""): string[] {
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  for (const word of text.slice(lead.length).split(" ")) {
    const start = lines.length === 0 ? lead : indent;
    if (line !== start && (line + " " + word).length > width) {
      lines.push(line);
      line = indent + word;
    } else {
      line = line === start ? line + word : `${line} ${word}`;
    }
  }
  if (line.trim() !== "") lines.push(line);
  return lines;
}

/** At most this many rows are named as tied with the fastest. */
const TIES_SHOWN = 3;
/** Rows slower than the fastest by more than this factor are not checked for a tie. */
const TIE_SEARCH_RATIO = 2;

/** The rows the fastest is not told apart from ({@link verdictOf} "no change"), nearest first; only rows timed on the same puzzles. */
export function tiedWithFastest(fastest: BenchRecord, rows: readonly BenchRecord[]): { record: BenchRecord; estimate: RatioEstimate }[] {
  const ties: { record: BenchRecord; estimate: RatioEstimate }[] = [];
  for (const record of rows) {
    if (record === fastest || record.puzzles !== fastest.puzzles || record.puzzlesPerSecond * TIE_SEARCH_RATIO < fastest.puzzlesPerSecond) continue;
    const estimate = speedRatio(record, fastest);
    if (estimate && verdictOf(estimate) === "no change") ties.push({ record, estimate });
  }
  return ties.sort((a, b) => a.estimate.ratio - b.estimate.ratio);
}

/** ", tied within noise with wasm at 1.01× (0.98–1.04), …", or "" when the fastest stands alone. */
function describeTies(fastest: BenchRecord, rows: readonly BenchRecord[]): string {
  const ties = tiedWithFastest(fastest, rows);
  if (ties.length === 0) return "";
  const named = ties.slice(0, TIES_SHOWN).map(({ record, estimate }) => `${record.row} at ${formatRatio(estimate)}`);
  if (ties.length > TIES_SHOWN) named.push(`${ties.length - TIES_SHOWN} more`);
  return `, tied within noise with ${named.join(", ")}`;
}

/** The closing summary: per dataset, the fastest row, its ties, and how it stands against the reference and the fastest pure-TS row. */
export function formatSummary(
  records: readonly BenchRecord[],
  isPureTs: (record: BenchRecord) => boolean,
  width: number = COMPACT_WIDTH.unknown,
  /** The datasets whose rows that could be the reference (pure TS, or --reference's) a stopped run (Ctrl-C) did not measure. */
  unfinished: ReadonlySet<string> = new Set(),
): string[] {
  const lines = wrap("Summary: per dataset, the fastest row and any tied with it; ratios of mean µs/puzzle, 95% intervals", width, "  ");
  const unreferenced: string[] = [];
  const gaveUp: string[] = [];
  for (const [dataset, rows] of groupByDataset(records)) {
    // a row that mostly timed out (flag T) gave up fast rather than solved: never the fastest
    const solving = rows.filter((r) => !mostlyTimedOut(r));
    if (solving.length === 0) {
      lines.push(...wrap(`  ${dataset}: every row gave up on most puzzles (T), so none is the fastest; a larger --budget lets them solve`, width, "      "));
      continue;
    }
    const fastest = fastestRow(solving);
    const pureTs = solving.filter(isPureTs).reduce<BenchRecord | null>((a, r) => (!a || r.puzzlesPerSecond > a.puzzlesPerSecond ? r : a), null);
    const parts: string[] = [];
    const against = (label: string, what: string, record: BenchRecord) => {
      if (record === fastest) return `the fastest is the ${what.replace(/^the /, "")}`;
      return `${ratioText(fastest, record)} than ${label} (${what})`;
    };
    const reference = rows.find((r) => r.row === fastest.reference);
    if (reference) parts.push(against(reference.row, reference === pureTs ? "reference, the fastest pure TS" : "reference", reference));
    if (pureTs && pureTs !== reference) parts.push(against(pureTs.row, "the fastest pure TS", pureTs));
    if (parts.length === 0) (rows.some(isPureTs) ? gaveUp : unreferenced).push(dataset); // (its pure-TS rows mostly timed out)
    // an S row among those compared, or one that at the run's speed could have been (about) the fastest
    const marked = (r: BenchRecord | null | undefined) => r != null && noiseFlags(r).includes("speed");
    const contender = (r: BenchRecord) => marked(r) && r.puzzlesPerSecond * (r.speedShift ?? 1) >= 0.9 * fastest.puzzlesPerSecond;
    const shifted = parts.length > 0 && ([fastest, reference, pureTs].some(marked) || rows.some(contender));
    const caution = shifted ? ` (S: the machine changed speed while one of these rows was timed; rerun before quoting it)` : "";
    const comparisons = parts.length > 0 ? `; ${parts.join("; ")}${caution}` : "";
    const sampled = fastest.puzzles < fastest.selected ? ` on its first ${fastest.puzzles} puzzles (sampled)` : "";
    lines.push(
      ...wrap(
        `  ${dataset}: ${fastest.row}, ${formatNumber(fastest.puzzlesPerSecond)}/s${sampled}${describeTies(fastest, solving)}${comparisons}`,
        width,
        "      ",
      ),
    );
  }
  const stopped = unreferenced.filter((dataset) => unfinished.has(dataset));
  const unselected = unreferenced.filter((dataset) => !unfinished.has(dataset));
  const where = (datasets: string[]) => (datasets.length === groupByDataset(records).size ? "" : ` on ${datasets.join(", ")}`);
  for (const [datasets, why] of [
    [stopped, "the run was stopped before its reference rows were measured."],
    [gaveUp, "its pure-TS rows gave up on most puzzles (T); a larger --budget lets them solve."],
    [unselected, "no pure-TS baseline was selected; --reference ID names one."],
  ] as const) {
    if (datasets.length > 0) lines.push(...wrap(`  No reference${where(datasets)}: ${why}`, width, "      "));
  }
  return lines;
}

/**
 * The fastest of a dataset's rows. Two rows timed on the same puzzles are ranked by puzzles/s; two timed on different
 * puzzles (one sampled) by their ratios to the reference (`speedup`), each on the puzzles it shares with the reference:
 * a sampled row's puzzles/s is of its first puzzles only, which may be easier or harder than the draw. Without a
 * reference, only the rows timed on the most puzzles are ranked.
 */
export function fastestRow(rows: readonly BenchRecord[]): BenchRecord {
  const reference = rows[0].reference;
  const referenced = reference !== null && rows.every((r) => r.reference === reference && r.speedup !== null && Number.isFinite(r.speedup));
  const most = Math.max(...rows.map((r) => r.puzzles));
  const faster = (r: BenchRecord, than: BenchRecord) => (r.puzzles === than.puzzles ? r.puzzlesPerSecond > than.puzzlesPerSecond : r.speedup! > than.speedup!);
  return (referenced ? rows : rows.filter((r) => r.puzzles === most)).reduce((a, r) => (faster(r, a) ? r : a));
}

/** "1.55× (1.51–1.59) faster" (or "0.77× slower" as "1.30× slower") for the fastest row against `other`, from its recorded speedup when `other` is its reference. */
function ratioText(fastest: BenchRecord, other: BenchRecord): string {
  if (fastest.reference === other.row && fastest.speedup !== null) {
    const ratio = fastest.speedup;
    const interval = fastest.speedupInterval;
    if (!interval) return formatTimes(ratio);
    return formatRatioWords({ ratio, ...interval });
  }
  // rows timed on different puzzles (one sampled): through their ratios to the reference, each on the puzzles it shares with it
  if (other.puzzles !== fastest.puzzles && fastest.speedup !== null && other.speedup !== null && fastest.reference === other.reference) {
    return formatTimes(fastest.speedup / other.speedup);
  }
  const estimate = speedRatio(other, fastest);
  if (!estimate) return formatTimes(other.meanMicros / fastest.meanMicros);
  return formatRatioWords(estimate);
}
