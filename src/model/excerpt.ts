/**
 * Text from the input is data: a message shows it with unsafe characters escaped (`\x1b`,
 * `\u200b`) and cut to a short excerpt saying how much was left out, so a terminal never sees an
 * escape sequence from the input and a 50 MB line never becomes a 50 MB message.
 */
import { commaGrouped } from "./whole-number.js";

/** Characters of the input a message shows at most. */
export const EXCERPT_LENGTH = 40;

/** Controls, DEL, soft hyphen, zero-width and bidirectional marks, line and paragraph separators, the BOM, interlinear annotations and lone surrogates. */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED: Readonly<Record<string, string>> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** One unsafe character as an escape: `\t`, `\x1b`, `\u200b`. */
function escapeCharacter(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with every unsafe character escaped (see the file comment); safe text is returned as is. */
export function escapeText(text: string): string {
  return text.replace(UNSAFE, escapeCharacter);
}

/** At most `max` characters of input text, escaped, then `… (N more characters)` when cut (never inside a surrogate pair). */
export function excerpt(text: string, max = EXCERPT_LENGTH): string {
  if (text.length <= max) return escapeText(text);
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${escapeText(text.slice(0, end))}… (${commaGrouped(text.length - end)} more characters)`;
}

/** One character of the input, quoted for a message: `'x'`, `'\x00'`, `'\u200b'`. */
export function quoteCharacter(ch: string): string {
  return ch === REPLACEMENT ? `'${REPLACEMENT}' (U+FFFD, which stands for bytes that are not UTF-8)` : `'${escapeText(ch)}'`;
}

/** The character a UTF-8 decoder puts for bytes that are not UTF-8 (the CLI reads its inputs as UTF-8). */
const REPLACEMENT = "\uFFFD";

/** The character of `text` that starts at UTF-16 unit `at`, quoted: both units of a pair (an emoji), not its first half. */
export function quoteCharacterAt(text: string, at: number): string {
  return quoteCharacter(String.fromCodePoint(text.codePointAt(at)!));
}
