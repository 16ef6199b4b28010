/**
 * What the bench shows while it runs: a progress line on stderr (drawn only on a terminal) and, when asked, each row's
 * compact line as soon as it finishes. The bar hides the cursor while it draws and shows it again on `end` or any exit.
 */
import cliProgress from "cli-progress";
import { restoreCursorOnExit } from "../src/cli-kit/progress.js";
import type { BenchRecord } from "./records.js";
import { CompactLayout } from "./report/compact.js";
import { describeDataset, terminalSafe } from "./report/format.js";
import type { MeasureProgress } from "./measure/rows.js";

export interface RowPrinting {
  /** Writes report text (stdout, or stderr when an export takes stdout). */
  write(text: string): void;
  /** Row labels the run will print, for the label column's width. */
  labels: readonly string[];
  /** Terminal width of the report stream, undefined when it is not a terminal. */
  columns: number | undefined;
  seed: number;
}

/** "42s", "3m 05s", "1h 02m". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, "0")}s`;
  return `${Math.floor(whole / 3600)}h ${String(Math.floor((whole % 3600) / 60)).padStart(2, "0")}m`;
}

/** Said above the first table: the mean and the percentiles come from different timings, which is why a batch row's p50 can exceed its mean. */
const COLUMN_LEGEND = "  (µs mean: the timed batches, as puzzles/s; µs p50, p99: each puzzle timed alone, one call each)";

/** How often the elapsed time and ETA are refreshed while a row runs. */
const REFRESH_MS = 1000;

/** The bench's live view. The bar is stopped around every row printed and started below it, so elapsed time and ETA are kept here. */
export class LiveReport implements MeasureProgress<unknown> {
  private readonly bar: cliProgress.SingleBar;
  private readonly layout: CompactLayout | null;
  private readonly tty = process.stderr.isTTY === true;
  private readonly started = performance.now();
  private running = false;
  private finished = 0;
  private label = "";
  totalRows = 0;
  private dataset: string | null = null;
  private releaseCursor: () => void = () => {};
  private refresh: NodeJS.Timeout | null = null;

  /** With `rows`, each finished row is printed; without, only the progress line shows. */
  constructor(private readonly rows?: RowPrinting) {
    this.layout = rows ? new CompactLayout(rows.labels, rows.columns) : null;
    this.bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format: "bench {bar} {value}/{total} rows | {spent} elapsed | ETA {left} | {row}",
        barsize: 16,
        hideCursor: true,
        clearOnComplete: true,
        fps: 4,
      },
      cliProgress.Presets.shades_classic,
    );
  }

  private payload(): { spent: string; left: string; row: string } {
    const seconds = (performance.now() - this.started) / 1000;
    const eta = this.finished === 0 ? NaN : (seconds / this.finished) * (this.totalRows - this.finished);
    return { spent: formatDuration(seconds), left: formatDuration(eta), row: this.label };
  }

  begin(totalRows: number): void {
    this.totalRows = totalRows;
    this.running = true;
    this.releaseCursor = restoreCursorOnExit(() => this.running && this.tty);
    this.bar.start(totalRows, 0, this.payload());
    this.refresh = setInterval(() => this.bar.update(this.finished, this.payload()), REFRESH_MS);
    this.refresh.unref();
  }

  row(label: string): void {
    this.label = terminalSafe(label);
    this.bar.update(this.finished, this.payload());
  }

  /** Counts a row done; prints it when rows are printed (the bench's, whose rows are BenchRecords). */
  done(row: unknown): void {
    const record = row as BenchRecord;
    this.finished++;
    if (this.rows && this.layout) {
      const lines: string[] = [];
      if (record.dataset !== this.dataset) {
        const first = this.dataset === null;
        this.dataset = record.dataset;
        lines.push("", describeDataset(record, this.rows.seed), ...(first ? [COLUMN_LEGEND] : []), this.layout.header());
      }
      lines.push(this.layout.line(record));
      this.bar.stop(); // clears the bar's line and puts the cursor at its start
      this.rows.write(lines.join("\n") + "\n");
      this.bar.start(this.totalRows, this.finished, this.payload());
    } else {
      this.bar.update(this.finished, this.payload());
    }
  }

  /** Stops the bar and shows the cursor; a second call does nothing. */
  end(): void {
    if (!this.running) return;
    if (this.refresh) clearInterval(this.refresh);
    this.bar.stop();
    this.running = false;
    this.releaseCursor();
  }
}
