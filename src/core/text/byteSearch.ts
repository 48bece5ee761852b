// A byte search at memchr speed for a value in bytes where the value's rarest byte is rare: what lets the
// Redactor ask whether a streamed page's bytes hold a known secret (mayRedactJsonBytes) without decoding them.

/** How often each byte occurs in the first bytes of `pieces` (a sample: 4 KiB). */
export function byteCounts(pieces: readonly Buffer[]): Uint32Array {
  const counts = new Uint32Array(256);
  let left = 4096;
  for (const piece of pieces) {
    const n = Math.min(left, piece.length);
    for (let i = 0; i < n; i++) counts[piece[i]!]!++;
    left -= n;
    if (left === 0) break;
  }
  return counts;
}

/** The position in `value` of its byte that `counts` says is rarest (the first of equals). */
export function rarestByte(value: Buffer, counts: Uint32Array): number {
  let at = 0;
  for (let i = 1; i < value.length; i++) if (counts[value[i]!]! < counts[value[at]!]!) at = i;
  return at;
}

/** Past this many places where the probe matches but the value does not, the plain search takes over. */
const PROBE_MISSES = 256;

/**
 * Exactly `bytes.includes(value)`, faster when `value[at]` is a rare byte in `bytes`: the bytes of
 * `value` from `at` (at most 6: node searches such a short pattern by memchr on its first byte) are
 * found, and the whole value is compared where they are. Too many such places (bytes chosen to defeat
 * the probe) and the plain search runs instead, from where the probe got to.
 */
export function containsBytes(bytes: Buffer, value: Buffer, at: number): boolean {
  if (value.length === 0) return true;
  const probe = value.subarray(at, at + 6);
  let misses = 0;
  for (let hit = bytes.indexOf(probe); hit >= 0; hit = bytes.indexOf(probe, hit + 1)) {
    const start = hit - at;
    if (start >= 0 && start + value.length <= bytes.length && value.compare(bytes, start, start + value.length) === 0) return true;
    if (++misses > PROBE_MISSES) return bytes.includes(value, Math.max(0, start));
  }
  return false;
}
