/**
 * A small seeded pseudo-random generator, so generated puzzles are reproducible: xoshiro128**
 * (Blackman & Vigna 2018) seeded by splitmix32; `Random.forStream(seed, stream)` gives independent
 * sequences, so puzzle k of a run never depends on puzzles 0..k-1.
 */
import { checkWhole } from "./whole-number.js";

const GOLDEN_GAMMA = 0x9e3779b9;

/** murmur3's 32-bit finaliser: a bijective mix of all 32 bits. */
function mix32(value: number): number {
  let z = value | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

function rotateLeft(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

/** `seed` when it is a whole number from 0 to 2^32-1; a RangeError otherwise. */
export function checkSeed(seed: number): number {
  return checkWhole("seed", seed, 0, 0xffffffff, "2^32-1");
}

export class Random {
  private readonly state = new Uint32Array(4);

  /** A generator for `seed` (0 to 2^32-1); equal seeds give equal sequences. */
  constructor(seed: number) {
    checkSeed(seed);
    let weyl = seed;
    for (let i = 0; i < 4; i++) {
      weyl = (weyl + GOLDEN_GAMMA) >>> 0;
      this.state[i] = mix32(weyl);
    }
    if (this.state.every((word) => word === 0)) this.state[0] = GOLDEN_GAMMA; // the one forbidden state
  }

  /** Sequence number `stream` of `seed`: a generator unrelated to the other streams of the same seed. */
  static forStream(seed: number, stream: number): Random {
    checkSeed(seed);
    return new Random(mix32(seed ^ mix32(stream + GOLDEN_GAMMA)));
  }

  /** The next unsigned 32-bit number. */
  nextUint32(): number {
    const s = this.state;
    const result = Math.imul(rotateLeft(Math.imul(s[1], 5), 7), 9) >>> 0;
    const shifted = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= shifted;
    s[3] = rotateLeft(s[3], 11);
    return result;
  }

  /** A uniform whole number from 0 to `bound - 1` (rejection sampling, no modulo bias). */
  below(bound: number): number {
    checkWhole("bound", bound, 1, 0x100000000, "2^32");
    const unbiasedLimit = 0x100000000 - (0x100000000 % bound);
    let value = this.nextUint32();
    while (value >= unbiasedLimit) value = this.nextUint32();
    return value % bound;
  }

  /** Shuffles `items` in place (Fisher–Yates) and returns it. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const item = items[i];
      items[i] = items[j];
      items[j] = item;
    }
    return items;
  }

  /** One element of a non-empty array, uniformly. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick from an empty array");
    return items[this.below(items.length)];
  }
}
