/**
 * Where a command writes: standard output, or the `-o` file, opened before any work (so a bad
 * path fails first) and closed once flushed. Shared by `solve`, `merge` and `generate`.
 */
import { createWriteStream, existsSync, statSync, truncateSync } from "node:fs";
import { removeRunRecord } from "./run-record.js";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import type { Writable } from "node:stream";
import { OutputWriteError, guardOutputFile } from "./errors.js";
import type { ResumePoint } from "./resume.js";

/**
 * The output bytes a file stream holds before a write waits for it to drain: several batches, so a batch is solved while the
 * last one is written on libuv's threads (at Node's default 16 KiB every batch waited for its own write).
 */
const OUTPUT_BUFFER_BYTES = 4 << 20;

/**
 * Standard output, or the `-o` file once open (a bad path fails here); with a resume point, cut to its complete records and
 * written on. Errors name the file `shown` (merge writes `-o` through a temporary file).
 */
export async function openOutput(path: string | undefined, resume?: ResumePoint, shown?: string): Promise<Writable> {
  if (path === undefined) return process.stdout;
  try {
    if (resume && existsSync(path)) truncateSync(path, resume.bytes);
    const stream = createWriteStream(path, { flags: resume ? "a" : "w", highWaterMark: OUTPUT_BUFFER_BYTES });
    await once(stream, "open");
    if (!resume && statSync(path).isFile()) removeRunRecord(path); // emptied: a run record left beside it no longer tells of its bytes
    return guardOutputFile(stream, shown ?? path); // a failing write (a full disk) ends the run with one line, status 2
  } catch (error) {
    throw new OutputWriteError(shown ?? path, error); // ENOENT, EISDIR, EACCES: one line naming the file
  }
}

/** Closes the output (not standard output) and waits until it is flushed. */
export async function closeOutput(out: Writable): Promise<void> {
  if (out === process.stdout) return;
  out.end();
  await finished(out);
}
