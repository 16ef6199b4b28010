/**
 * The CLI's line reader's scan of input chunks on a 9×9 kernel instance (src/kernel/wasm.ts's
 * WasmKernel.lineScanner; the kernel's side is assembly/text.ts, scanLines). Not in
 * src/formats/lines.ts, which uses it: wasm.ts, which browsers load, makes it, and lines.ts
 * imports Node's string_decoder and Buffer.
 */

/** The lines the kernel found in a chunk (see {@link LineScanner.scan}); views valid until the next scan. */
export interface ScannedLines {
  count: number;
  /** Per line: its start, its end (the position of its `\n` or `\r`), and its number among the fast lines or -1. */
  table: Int32Array;
  /** The 81 cell bytes of each fast line, in order. */
  cells: Uint8Array;
}

/** What a scan uses of the 9×9 kernel's exports; the memory by its buffer alone, so the public types name nothing of WebAssembly's. */
interface ScanExports {
  memory: { readonly buffer: ArrayBuffer };
  reserveScan(room: number): number;
  scanLines(base: number, start: number, length: number): number;
}

/**
 * The line reader's scan of a chunk on the thread's 9×9 kernel instance: finds the complete lines
 * and copies out the cells of the 9×9 ones (81 of `1`–`9` and `.0_?-*xX`, maybe trailing blanks),
 * 16 bytes a step. Its memory is apart from the batch's; read a scan's views before the next call.
 */
export class LineScanner {
  private base = 0;
  private room = 0;

  constructor(private exports: ScanExports) {}

  /** Scans on `other`'s instance from now on (the thread's solving kernel was replaced), in a room of its own. */
  moveTo(other: LineScanner): void {
    this.exports = other.exports;
    this.base = 0;
    this.room = 0;
  }

  /** The largest chunk one scan takes (longer chunks are scanned in pieces by the caller). */
  static readonly MAX_CHUNK = 1 << 20;

  /** Makes room to scan chunks of up to `bytes` bytes; the kernel never frees a smaller room, so ask for the largest first. */
  reserve(bytes: number): void {
    if (bytes <= this.room) return;
    const room = Math.max(bytes, 1 << 16);
    const base = this.exports.reserveScan(room);
    if (base === 0) throw new RangeError(`the kernel could not reserve a scan of ${room} bytes (at most 2^24)`);
    this.base = base;
    this.room = room;
  }

  /** Scans the complete lines of `bytes` from `start` (at most {@link LineScanner.MAX_CHUNK} bytes). */
  scan(bytes: Uint8Array, start: number): ScannedLines {
    this.reserve(bytes.length);
    const buffer = this.exports.memory.buffer;
    new Uint8Array(buffer, this.base, bytes.length).set(bytes);
    const count = this.exports.scanLines(this.base, start, bytes.length);
    if (count < 0) throw new RangeError("scanLines: the kernel refused the chunk");
    const linesAt = Math.ceil((this.base + this.room) / 4) * 4;
    const cellsAt = linesAt + (this.room + 1) * 12;
    return { count, table: new Int32Array(buffer, linesAt, count * 3), cells: new Uint8Array(buffer, cellsAt, this.room) };
  }
}
