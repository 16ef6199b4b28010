/**
 * Progress on stderr while the bench runs: one cli-progress bar over every row, with the
 * row being measured. cli-progress stays quiet when stderr is not a TTY.
 */
import cliProgress from "cli-progress";
import type { BenchProgress } from "./runner.js";

/** A progress bar on stderr for runBench. */
export function progressBar(): BenchProgress {
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: "bench {bar} {value}/{total} rows | {row}", hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let finishedRows = -1;
  return {
    begin: (totalRows) => bar.start(totalRows, 0, { row: "" }),
    // Each row that starts means the one before it finished.
    row: (label) => bar.update(++finishedRows, { row: label }),
    end: () => bar.stop(),
  };
}
