// Deterministic data without materialising it: every generated value is a pure function of
// (seed, stream, index), so a 1 000 000-row export costs nothing until a page of it is read.

/** A 32-bit avalanche hash (murmur3 finaliser) to turn (seed, stream, index) into a PRNG state. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for test data. Returns floats in [0, 1). */
export function mulberry32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Names the independent sequences so that, e.g., order 7 and lead 7 of a customer differ. */
export type Stream =
  | 'customer' | 'order' | 'lead' | 'asset' | 'selection' | 'fact'
  | 'constituent' | 'transaction' | 'booking' | 'lookup' | 'token' | 'table';

const STREAM_SALT: Record<Stream, number> = {
  customer: 1, order: 2, lead: 3, asset: 4, selection: 5, fact: 6,
  constituent: 7, transaction: 8, booking: 9, lookup: 10, token: 11, table: 12,
};

/** A generator for one row: same (seed, stream, key, index) → same sequence, always. */
export function rowRandom(seed: number, stream: Stream, index: number, key = 0): () => number {
  const h = mix32(mix32(mix32(seed ^ Math.imul(STREAM_SALT[stream], 0x9e3779b9)) ^ key) ^ index);
  return mulberry32(h);
}

export function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

export function intBetween(rand: () => number, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

/** Hex string of `length` characters, deterministic from the generator. */
export function hex(rand: () => number, length: number): string {
  let out = '';
  while (out.length < length) out += Math.floor(rand() * 0x100000000).toString(16).padStart(8, '0');
  return out.slice(0, length);
}

/**
 * The fast path for bulk rows: one 32-bit hash per (stream key, index), whose bits pick the row's
 * values. About 5x cheaper than a generator per row, which matters at 100 000 rows a page.
 */
export function streamKey(seed: number, stream: Stream, key = 0): number {
  return mix32(mix32(seed ^ Math.imul(STREAM_SALT[stream], 0x9e3779b9)) ^ key);
}

export function rowHash(streamKeyValue: number, index: number, salt = 0): number {
  return mix32(streamKeyValue ^ Math.imul(index + 1, 0x9e3779b1) ^ salt);
}
