/**
 * The fuzzer's seeded randomness. Every request gets its own generator, derived from the campaign's
 * seed and the request's index, so that one request can be generated again on its own (and sent
 * again) without replaying the ones before it.
 */

/** A mulberry32 generator: small, fast, and the same sequence on every platform for a given seed. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One of the keys of `weights`, drawn in proportion to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [key, weight] of entries) {
      roll -= weight;
      if (roll < 0) return key;
    }
    return (entries[entries.length - 1] as [K, number])[0];
  }

  /** `length` bytes. */
  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = this.int(0, 255);
    return out;
  }

  /** `length` characters of `alphabet`. */
  text(length: number, alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }
}

/** The seed of request `index` of the campaign seeded with `seed` (a 32-bit mix of the two). */
export function requestSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A fresh seed for a run (printed by whoever uses it, so that a failing run can be replayed). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 32) >>> 0;
}
