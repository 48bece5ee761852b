// The JSON grammar's byte tables and word tricks the row splitter (jsonRowSplitter.ts) reads a body with:
// the literals by their first byte, the short escapes, hex digits, and the four-bytes-at-a-time test of
// a string's run (which bytes end it). The grammar itself (states and their cases) is the splitter's scan.

/** The literal a value's first byte starts, by that byte (an array: an object with number keys is a slow dictionary). */
export const LITERALS: Buffer[] = Array.from({ length: 256 }, () => Buffer.alloc(0));
/** The first four bytes of each literal as one word (little-endian, as a DataView reads them), by its first byte. */
export const LITERAL_HEADS = new Int32Array(256);
for (const word of ['true', 'false', 'null']) {
  LITERALS[word.charCodeAt(0)] = Buffer.from(word);
  LITERAL_HEADS[word.charCodeAt(0)] = Buffer.from(word).readInt32LE(0);
}
/** The bytes a short escape may name after a backslash: " \ / b f n r t (u is handled apart). */
export const SHORT_ESCAPES = new Uint8Array(256);
for (const c of '"\\/bfnrt') SHORT_ESCAPES[c.charCodeAt(0)] = 1;
export const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

// Strings are read four bytes at a time: `v` holds four bytes of the body (little-endian, the first in
// the low byte), and a few integer operations flag those that end a run of plain string bytes.

/**
 * The 0x80 bit of each byte of `v` that is `"`, `\` or a control character (< 0x20): 0 when all four
 * stand for themselves in a string (0x7f and every byte from 0x80 do, as in JSON.parse). A borrow may
 * also flag a byte above a flagged one, so only the lowest flag is sure, and only it is used.
 */
export function stringStops(v: number): number {
  const quote = v ^ 0x22222222;
  const backslash = v ^ 0x5c5c5c5c;
  return (((quote - 0x01010101) & ~quote) | ((backslash - 0x01010101) & ~backslash) | ((v - 0x20202020) & ~v)) & 0x80808080;
}
/** Which byte (0 to 3) of a word the lowest flag of a non-zero stringStops mask is on. */
export function firstStop(stops: number): number {
  return (31 - Math.clz32(stops & -stops)) >> 3;
}
/** One byte `c` as a word (`c | ONE_BYTE`) whose other bytes stop nothing: the last bytes of a chunk. */
export const ONE_BYTE = 0x41414100;

/** A body's first byte that is not JSON whitespace, in this chunk (undefined: none yet). */
export function firstNonBlank(chunk: Buffer): number | undefined {
  for (const c of chunk) if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c;
  return undefined;
}
