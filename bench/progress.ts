/**
 * What the bench shows while it runs: a status line on stderr (rows done of all, elapsed time,
 * ETA, the row being measured; drawn only on a terminal, redrawn every second) and, when asked,
 * each row's compact line on the report stream as soon as the row finishes, under its dataset's
 * heading. The profiler shows the status line alone.
 */
import type { BenchRecord } from "./records.js";
import { CompactLayout } from "./report/compact.js";
import { describeDataset, terminalSafe } from "./report/format.js";
import type { MeasureProgress } from "./measure/rows.js";

export interface RowPrinting {
  /** Writes report text (stdout, or stderr when an export takes stdout). */
  write(text: string): void;
  /** Row labels the run will print (for the label column's width). */
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

/** The bench's live view, as the runner's progress callbacks. */
export class LiveReport implements MeasureProgress<unknown> {
  private readonly layout: CompactLayout | null;
  private readonly started = performance.now();
  private finished = 0;
  private label = "";
  /** Rows the run planned (set by `begin`). */
  totalRows = 0;
  private dataset: string | null = null;
  private refresh: NodeJS.Timeout | null = null;

  /** With `rows`, each finished row is printed; without, only the status line shows. */
  constructor(private readonly rows?: RowPrinting) {
    this.layout = rows ? new CompactLayout(rows.labels, rows.columns) : null;
  }

  /** Clears the status line and, while the run lasts, draws it again (on a terminal only). */
  private draw(): void {
    if (process.stderr.isTTY !== true) return;
    const seconds = (performance.now() - this.started) / 1000;
    const eta = this.finished === 0 ? NaN : (seconds / this.finished) * (this.totalRows - this.finished);
    const line = `bench ${this.finished}/${this.totalRows} rows | ${formatDuration(seconds)} elapsed | ETA ${formatDuration(eta)} | ${this.label}`;
    process.stderr.write(`\r\x1b[K${this.refresh ? line.slice(0, (process.stderr.columns ?? 80) - 1) : ""}`);
  }

  begin(totalRows: number): void {
    this.totalRows = totalRows;
    this.refresh = setInterval(() => this.draw(), REFRESH_MS);
    this.refresh.unref();
    this.draw();
  }

  row(label: string): void {
    this.label = terminalSafe(label);
    this.draw();
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
      if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");
      this.rows.write(lines.join("\n") + "\n");
    }
    this.draw();
  }

  /** Clears the status line; a second call does nothing. */
  end(): void {
    if (!this.refresh) return;
    clearInterval(this.refresh);
    this.refresh = null;
    this.draw();
  }
}
