/**
 * Fetching a public set: download each source (Node's fetch, with a time limit on silence),
 * check its SHA-256, take the zip member where the source is a zip (fflate), normalise
 * (normalise.ts), check the result's count and SHA-256, and write it to the cache folder
 * atomically: a temporary file beside the target, then a rename. A failure at any step throws a
 * {@link FetchError} naming the set, the URL and the reason, and leaves nothing in the folder.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import type { CatalogSet, CatalogSource } from "./catalog.js";
import { cachedPath, fileProblem, sha256 } from "./cache.js";
import { NormaliseError, normalise } from "./normalise.js";
import { describeError } from "../cli-kit/errors.js";

/** The default time a download may go without receiving a byte (connecting, waiting for the answer, or mid-body), in ms. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** A set that could not be fetched: the message names the set, the URL (where one was being read) and the reason. */
export class FetchError extends Error {
  override name = "FetchError";
  constructor(
    readonly set: string,
    readonly url: string | null,
    reason: string,
    /** True when the host could not be connected to: no network, or a firewall. */
    readonly unreachable = false,
  ) {
    super(`${set}: ${url === null ? "" : `${url}: `}${reason}`);
  }
}

/** A download that reached no server: it could not connect. */
class UnreachableError extends Error {}

/** What a download reports as it goes: bytes so far, and the total when the server said it. */
export type DownloadProgress = (received: number, total: number | undefined) => void;

/** The reason a download was stopped by the time limit. */
class SilenceTimeout extends Error {}

/** Why `fetch` failed, in words: the cause's code and message where there is one (ECONNREFUSED …). */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ""}`;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * The bytes at `url`. Throws an Error whose message is the reason: the HTTP status, a connection
 * closed before the promised length, no byte for `timeoutMs`, or the network error.
 */
export async function download(url: string, timeoutMs: number, progress?: DownloadProgress): Promise<Uint8Array> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new SilenceTimeout()), timeoutMs);
  };
  let received = 0;
  let total: number | undefined;
  const seconds = `${(timeoutMs / 1000).toLocaleString("en-US")} s`;
  try {
    arm();
    let response: Response;
    try {
      response = await fetch(url, { signal: controller.signal, headers: { "accept-encoding": "identity" } });
    } catch (error) {
      if (controller.signal.reason instanceof SilenceTimeout) throw new Error(`no answer within ${seconds} (timed out)`); // connected: reached
      throw new UnreachableError(`cannot connect: ${networkReason(error)}`);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
    }
    const length = response.headers.get("content-length");
    const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
    total = length !== null && !encoded && /^\d+$/.test(length) ? Number(length) : undefined;
    const chunks: Uint8Array[] = [];
    progress?.(0, total);
    try {
      const reader = response.body?.getReader();
      for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
        arm();
        chunks.push(part.value);
        received += part.value.length;
        progress?.(received, total);
      }
    } catch (error) {
      if (controller.signal.reason instanceof SilenceTimeout) throw new Error(`no data for ${seconds} after ${received} bytes (timed out)`);
      throw new Error(`connection closed after ${received}${total === undefined ? "" : ` of ${total}`} bytes (${networkReason(error)})`);
    }
    if (total !== undefined && received !== total) throw new Error(`connection closed after ${received} of ${total} bytes`);
    return Buffer.concat(chunks);
  } finally {
    clearTimeout(timer);
  }
}

/** The member `name` of the zip file `bytes`. */
function zipMember(bytes: Uint8Array, name: string): Uint8Array {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (file) => file.name === name });
  } catch (error) {
    throw new Error(`not a readable zip file (${(error as Error).message})`);
  }
  const member = files[name];
  if (member === undefined) throw new Error(`the zip file has no member '${name}'`);
  return member;
}

/** How a fetch goes: the time limit, and what to tell as it goes. */
export interface FetchSetOptions {
  /** Time a download may go without a byte, in ms (default {@link DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Called when a download starts; what it returns hears the download's progress. */
  onDownload?: (set: CatalogSet, url: string) => DownloadProgress | undefined;
  /** Downloads already made in this run, by URL (two sets can share a source file). */
  downloads?: Map<string, Promise<Uint8Array>>;
}

/** The text a source's bytes hold (its member, for a zip), checked against its SHA-256 first. */
function sourceText(set: CatalogSet, source: CatalogSource, bytes: Uint8Array): string {
  if (source.sha256 !== undefined) {
    const digest = sha256(bytes);
    if (digest !== source.sha256) {
      throw new FetchError(set.name, source.url, `checksum mismatch: the download has sha256 ${digest}, the catalog expects ${source.sha256}`);
    }
  }
  try {
    const text = source.member === undefined ? bytes : zipMember(bytes, source.member);
    return Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString("latin1");
  } catch (error) {
    throw new FetchError(set.name, source.url, (error as Error).message);
  }
}

/**
 * Downloads, checks, normalises and writes one set into `folder` (created when missing); returns
 * the file's path. Throws a {@link FetchError}; then nothing of the set is in the folder.
 */
export async function fetchSet(set: CatalogSet, folder: string, options: FetchSetOptions = {}): Promise<string> {
  if (set.unavailable !== undefined) throw new FetchError(set.name, null, `cannot be fetched: ${set.unavailable}`);
  const downloads = options.downloads ?? new Map<string, Promise<Uint8Array>>();
  const texts: string[] = [];
  for (const source of set.sources) {
    let pending = downloads.get(source.url);
    if (pending === undefined) {
      pending = download(source.url, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.onDownload?.(set, source.url));
      downloads.set(source.url, pending);
    }
    let bytes: Uint8Array;
    try {
      bytes = await pending;
    } catch (error) {
      throw new FetchError(set.name, source.url, (error as Error).message, error instanceof UnreachableError);
    }
    texts.push(sourceText(set, source, bytes));
  }
  let made: string;
  try {
    made = normalise(
      set.sources.map((source, index) => ({ text: texts[index], format: source.format, setAside: source.setAside, label: source.url })),
      set.size,
    ).text;
  } catch (error) {
    if (error instanceof NormaliseError) throw new FetchError(set.name, null, `cannot normalise: ${error.message}`);
    throw error;
  }
  const bytes = Buffer.from(made, "latin1");
  const problem = fileProblem(set, bytes);
  if (problem !== null) throw new FetchError(set.name, set.sources.length === 1 ? set.sources[0].url : null, `the normalised file has ${problem}`);
  return writeAtomically(set.name, folder, bytes);
}

/** Writes `bytes` as the set's file in `folder`: a temporary file beside it, then a rename, so no reader sees half a file. */
function writeAtomically(name: string, folder: string, bytes: Uint8Array): string {
  const target = cachedPath(name, folder);
  const temporary = join(folder, `.${name}.txt.${process.pid}.${Math.random().toString(36).slice(2, 10)}.part`);
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(temporary, bytes);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new FetchError(name, null, `cannot write '${target}': ${describeError(error)}`);
  }
  return target;
}
