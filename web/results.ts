/**
 * The solve results as a virtual table: every result is a row of one scrolling table, but only
 * the rows in view (and a few either side) are in the document, between two spacer rows that
 * stand for the rest. So 100,000 results show as fast as ten, and scrolling, clicking and
 * resizing cost the same whatever the paste.
 *
 *   ┌ #solve-view (scrolls) ─────────────┐
 *   │ thead (sticky)                     │
 *   │ tr.spacer    first rows, not built │
 *   │ tr[data-index=first … last-1]      │   built as the view scrolls
 *   │ tr.spacer    the rest, not built   │
 *   └────────────────────────────────────┘
 *
 * Rows have one height (one line each: cells do not wrap, a long one is cut with an ellipsis and
 * a click on the row shows it whole). The spacers stand for at most MAX_HEIGHT pixels (browsers
 * cap an element's height, Firefox near 18 million pixels): a longer list is scrolled
 * proportionally, a pixel of scrolling moving more than a pixel of rows.
 *
 *   virtual  the list as if every row were built: full = rows × rowHeight, scrolled to v
 *   real     the table as laid out: at most MAX_HEIGHT of rows, scrolled to scrollTop
 *            v = scrollTop × (full range / real range); the rows in view at v are drawn at scrollTop
 */
import { escapeXml } from "../bench/report/svg.js";
import type { SolveRecord } from "../src/index.js";

/** One result: the input line it came from, its puzzle text and its record. */
export interface Result {
  line: number;
  puzzle: string;
  record: SolveRecord;
}

/** Rows built above and below the ones in view, so that a scroll shows no gap before the next build. */
const OVERSCAN = 10;
/** The most pixels of rows the spacers stand for; beyond it scrolling maps proportionally. */
const MAX_HEIGHT = 2_000_000;
/** The row height assumed until a row has been laid out. */
const FALLBACK_ROW_HEIGHT = 26;

/** The results of the last solve as a scrolling table inside `view`; `onPick` gets a clicked row's result. */
export class ResultsTable {
  private results: readonly Result[] = [];
  private rowHeight = FALLBACK_ROW_HEIGHT;
  /** The rows built and where, so that a scroll within them builds nothing. */
  private built = { first: -1, last: -1, top: -1 };

  constructor(
    private readonly view: HTMLElement,
    private readonly table: HTMLTableElement,
    onPick: (result: Result) => void,
  ) {
    view.addEventListener("scroll", () => this.render(), { passive: true });
    new ResizeObserver(() => this.render(true)).observe(view);
    table.tBodies[0].addEventListener("click", (event) => {
      const row = (event.target as Element).closest<HTMLTableRowElement>("tr[data-index]");
      if (row) onPick(this.results[Number(row.dataset.index)]);
    });
  }

  /** Shows `results` (any number), scrolled to the first. */
  show(results: readonly Result[]): void {
    this.results = results;
    this.table.setAttribute("aria-rowcount", String(results.length + 1));
    this.table.hidden = results.length === 0;
    this.view.scrollTop = 0;
    this.render(true);
  }

  /** Scrolls to the first result from input line `line` on (the last if none) and returns it; undefined when there are none. */
  scrollToLine(line: number): Result | undefined {
    if (this.results.length === 0) return undefined;
    let low = 0;
    let high = this.results.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.results[middle].line < line) low = middle + 1;
      else high = middle;
    }
    const { real, full } = this.ranges();
    this.view.scrollTop = Math.ceil((low * this.rowHeight * real) / full); // the row just below the sticky header
    this.render();
    return this.results[low];
  }

  /** How far the view scrolls (real) and how far the list it stands for would (full). */
  private ranges(): { total: number; real: number; full: number } {
    const rows = this.results.length * this.rowHeight;
    const total = Math.min(rows, MAX_HEIGHT);
    const frame = (this.table.tHead?.offsetHeight ?? 0) - this.view.clientHeight;
    return { total, real: Math.max(1, total + frame), full: Math.max(1, rows + frame) };
  }

  /** Builds the rows in view (unless they are built already, or `anew`) and sizes the spacers for the rest. */
  private render(anew = false): void {
    const body = this.table.tBodies[0];
    const rows = this.results.length;
    if (rows === 0) {
      body.replaceChildren();
      this.built = { first: -1, last: -1, top: -1 };
      return;
    }
    const height = this.rowHeight;
    const { total, real, full } = this.ranges();
    const scrollTop = Math.min(this.view.scrollTop, real);
    const virtual = (scrollTop * full) / real;
    const firstInView = Math.floor(virtual / height);
    const lastInView = Math.ceil((virtual + this.view.clientHeight) / height);
    const fits = this.built.first <= firstInView && lastInView <= this.built.last && total === rows * height;
    if (fits && !anew) return; // (a proportional list moves its rows on every scroll, so it is built anew)
    const first = Math.max(0, firstInView - OVERSCAN);
    const last = Math.min(rows, lastInView + OVERSCAN);
    const top = Math.max(0, Math.min(first * height + scrollTop - virtual, total - (last - first) * height));
    const html = [spacer(top)];
    for (let i = first; i < last; i++) html.push(resultRow(this.results[i], i));
    html.push(spacer(total - top - (last - first) * height));
    body.innerHTML = html.join("");
    this.built = { first, last, top };
    const laidOut = body.rows[1].getBoundingClientRect().height;
    if (laidOut > 0 && Math.abs(laidOut - height) > 0.01) {
      this.rowHeight = laidOut; // the stylesheet's row height, once laid out (it differs at phone width)
      this.render(true);
    }
  }
}

/** A row standing for `height` pixels of rows not built. */
function spacer(height: number): string {
  return `<tr class="spacer" aria-hidden="true"><td colspan="5" style="height:${Math.max(0, height)}px"></td></tr>`;
}

/** The row of result `index`, every text in it escaped. */
function resultRow({ line, record }: Result, index: number): string {
  const status = escapeXml(record.status + (record.error ? `: ${record.error}` : ""));
  const guesses = record.guesses === null ? "n/a" : record.guesses;
  const title = record.solution ? "show as a grid" : "show in full";
  return (
    `<tr class="pickable" data-index="${index}" data-status="${escapeXml(record.status)}" aria-rowindex="${index + 2}" title="${title}">` +
    `<td>${line}</td><td class="status">${status}</td><td>${record.count}</td><td>${guesses}</td>` +
    `<td class="solution">${escapeXml(record.solution ?? "")}</td></tr>`
  );
}
