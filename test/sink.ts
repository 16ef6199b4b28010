/** A Writable for the tests of the streaming core that keeps the bytes it is given. */
import { Writable } from "node:stream";

/** A Writable that keeps the bytes it is given; `bytes()` joins them. */
export function byteCollector(): Writable & { bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  }) as Writable & { bytes: () => Buffer };
  sink.bytes = () => Buffer.concat(chunks);
  return sink;
}
