// The key the scanner (jsonScanner.ts) is reading: its plain bytes read four at a time (the same rule as a
// string value's), where it starts, its earlier pieces when it spans chunks, its text decoded only when
// someone asks for it, and what the secret-name test (secretKeys.ts) reads of it while it streams past:
// its letters, its bytes OR-ed, whether it holds an escape.

import { firstStop, ONE_BYTE, stringStops } from '../json/grammar';
import { mayNameSecret, wordLetters } from './secretKeys';

const BACKSLASH = 0x5c;
/**
 * The letter sets seen to hold no secret word (mayHoldSecretWord's memo): a fact of the letters alone, so
 * every reader shares one (a body of many small arrays makes a reader each; each one's own cost it).
 */
const PLAIN_LETTERS = new Int32Array(64);

export class KeyReader {
  /** Whether it holds an escape (the scanner reads escapes). */
  escaped = false;
  // Its letters (wordLetters) and its bytes OR-ed, gathered by `run`.
  private letters = 0;
  private wide = 0;
  private start = -1;
  private pieces: Buffer[] | undefined;

  /** A key's first byte is at `i` of the chunk. */
  begin(i: number): void {
    this.start = i;
    this.pieces = undefined;
    this.letters = 0;
    this.wide = 0;
    this.escaped = false;
  }

  /**
   * Reads the key's plain bytes from `i` of `b` (`words` over the same bytes), four at a time while four
   * are left, gathering its letters and bytes: returns where a quote, backslash or control byte stops
   * them, or b.length when the chunk ends first.
   */
  run(b: Buffer, words: DataView, i: number): number {
    const len = b.length;
    // A multi-byte character sets 0x80 in `wide` (see mayNameSecret).
    let letters = this.letters;
    let wide = this.wide;
    for (;;) {
      if (i + 4 <= len) {
        const v = words.getInt32(i, true);
        const stops = stringStops(v);
        if (stops === 0) {
          letters |= wordLetters(v);
          wide |= v;
          i += 4;
          continue;
        }
        const n = firstStop(stops);
        const head = v & ((1 << (8 * n)) - 1); // the bytes before the stop (0 sets bit 0, no letter)
        letters |= wordLetters(head);
        wide |= head;
        i += n;
        break;
      }
      if (i === len) break;
      const c = b[i]!;
      if (stringStops(c | ONE_BYTE) !== 0) break;
      letters |= 1 << c;
      wide |= c;
      i++;
    }
    this.letters = letters;
    this.wide = wide;
    return i;
  }

  /** Whether the key read so far may name a secret (see mayNameSecret). */
  mayNameSecret(): boolean {
    return mayNameSecret(this.letters, this.wide, this.escaped, PLAIN_LETTERS);
  }

  /** The chunk `b` ends inside the key: its bytes in `b` are kept. */
  keep(b: Buffer): void {
    const from = this.pieces ? 0 : this.start;
    (this.pieces ??= []).push(Buffer.from(b.subarray(from)));
  }

  /** The key ending at the quote at `i` of `b`, decoded (the scanner validated it). */
  text(b: Buffer, i: number): string {
    const raw = this.pieces ? Buffer.concat([...this.pieces, b.subarray(0, i)]) : b.subarray(this.start, i);
    this.pieces = undefined;
    this.start = -1;
    return raw.includes(BACKSLASH) ? (JSON.parse(`"${raw.toString('utf8')}"`) as string) : raw.toString('utf8');
  }
}
