/**
 * The byte buffers of batches in flight, used again and again instead of made anew.
 *
 *   BatchBuilder ── take: lines, cells (the batch it fills), output room ─► worker (transferred) ─┐
 *   withRetry ── take: the copy kept for a worker's retry; give back once the batch is solved    │
 *   OrderedOutput ◄── the outcome: its bytes and the task's buffers, handed back ◄───────────────┘
 *        └── give back each, once its bytes are written to the output stream
 *
 * Why: a batch's buffers live while it is in flight, long enough for V8 to move them to the old
 * generation, and an ArrayBuffer there is freed only by a full collection, which V8 starts when
 * the memory held outside its heap has grown by tens of MB (per thread). Made anew per batch,
 * the buffers of a long run float at that mark in every thread: a 2-thread run of 1M records
 * peaked at 205 MB RSS, 47–65 MB of it dead ArrayBuffers on the main thread alone. Reused,
 * they are a few MB in all, whatever the input size.
 *
 * One pool per thread (a module-level one, see {@link batchBuffers}); sizes are powers of two, so
 * batches of about the same size share buffers. A buffer given back that is detached (it went
 * to a worker) or not one of the pool's sizes is left to the collector.
 */

/** The smallest buffer the pool hands out. */
const MIN_BYTES = 1 << 10;

/**
 * Buffers kept per size, at most: more than a run has in use at once (the batches sealed from one
 * chunk of input, 2 in flight per thread with the copy each keeps, and those the output stream
 * holds). The pool never holds more than was in use at once; this only bounds it.
 */
const KEPT_PER_SIZE = 64;

/** Reused ArrayBuffers, by power-of-two size. */
export class BufferPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  /** Buffers made so far (not taken from the pool): bounded by the batches in flight, not by the input. */
  made = 0;

  /** An ArrayBuffer of at least `bytes` bytes (a power of two, from {@link MIN_BYTES}), not in use. */
  take(bytes: number): ArrayBuffer {
    const size = bytes <= MIN_BYTES ? MIN_BYTES : 2 ** Math.ceil(Math.log2(bytes));
    const reused = this.free.get(size)?.pop();
    if (reused !== undefined) return reused;
    this.made++;
    return new ArrayBuffer(size);
  }

  /** Takes `buffer` back for reuse; the caller no longer reads or writes it. */
  give(buffer: ArrayBufferLike): void {
    const size = buffer.byteLength;
    if (!(buffer instanceof ArrayBuffer) || size < MIN_BYTES || (size & (size - 1)) !== 0) return; // detached (0), or not ours
    let list = this.free.get(size);
    if (!list) this.free.set(size, (list = []));
    if (list.length < KEPT_PER_SIZE && !list.includes(buffer)) list.push(buffer);
  }

  /** Bytes held for reuse (for tests). */
  get heldBytes(): number {
    let bytes = 0;
    for (const [size, list] of this.free) bytes += size * list.length;
    return bytes;
  }
}

/** This thread's pool of batch buffers. */
export const batchBuffers = new BufferPool();
