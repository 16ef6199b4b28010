/**
 * Splits a byte stream into lines, a chunk at a time: one `await` per chunk (64 KiB),
 * not per line. Line ends are `\n` or `\r\n`; UTF-8 sequences cut by a chunk edge are
 * kept whole. The last line needs no line end. A UTF-8 byte order mark (U+FEFF) at the start
 * of the text is dropped, so the first line reads like any other.
 */
import { StringDecoder } from "node:string_decoder";

/** The complete lines of one chunk and the bytes read so far. */
export interface LineChunk {
  lines: string[];
  bytesRead: number;
}

/** Yields the lines of `stream` in order, chunk by chunk. */
export async function* readLineChunks(stream: AsyncIterable<Buffer | string>): AsyncGenerator<LineChunk> {
  const decoder = new StringDecoder("utf8");
  let rest = "";
  let bytesRead = 0;
  let atStart = true;
  for await (const chunk of stream) {
    bytesRead += chunk.length;
    let text = rest + (typeof chunk === "string" ? chunk : decoder.write(chunk));
    if (atStart && text.length > 0) {
      text = withoutByteOrderMark(text);
      atStart = false;
    }
    const lines = text.split("\n");
    rest = lines.pop()!;
    yield { lines: text.includes("\r") ? lines.map(dropCarriageReturn) : lines, bytesRead };
  }
  rest += decoder.end();
  if (rest.length > 0) yield { lines: [dropCarriageReturn(rest)], bytesRead };
}

/** `text` without a leading byte order mark (U+FEFF), which editors on Windows put before UTF-8 text. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** All lines of a whole text (for the judge formats, which read all input first); a leading byte order mark is dropped. */
export function splitLines(text: string): string[] {
  const lines = withoutByteOrderMark(text).split("\n").map(dropCarriageReturn);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function dropCarriageReturn(line: string): string {
  return line.length > 0 && line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}
