// Which keys inside rows may name a secret, told as the row splitter reads them (jsonScanner.ts): a
// key's letters as a bit set, held against the letters of each word of SECRET_NAME_HINT; a key with an
// escape or a non-ASCII byte always may. A key that cannot is never asked about by the redacting sink.
import { SECRET_NAME_HINT } from '../secrets/vocabulary';

/**
 * A key's letters as a bit set: each byte sets bit (byte & 31), which is the same for a letter in
 * either case (a: 1 ... z: 26). Other ASCII bytes set a bit too, so the set may say more than the
 * letters, never less: it only tells which keys cannot hold a secret word.
 */
export function wordLetters(v: number): number {
  return (1 << v) | (1 << (v >>> 8)) | (1 << (v >>> 16)) | (1 << (v >>> 24)); // a shift counts its low 5 bits
}
/** The letters of each word that may name a secret (SECRET_NAME_HINT, plain words joined by |). */
const SECRET_WORD_LETTERS = Int32Array.from(SECRET_NAME_HINT.source.split('|'), (word) => {
  if (!/^[a-z]+$/.test(word)) throw new Error('SECRET_NAME_HINT must be plain lower-case words joined by |');
  let bits = 0;
  for (const c of word) bits |= 1 << c.charCodeAt(0);
  return bits;
});

/**
 * Whether a key with these letters could hold a word of SECRET_NAME_HINT. `plain` keeps letter sets known
 * to hold none, by a hash of the set (a page's keys have few of them); an empty slot holds 0, the set of
 * no byte, which holds no word indeed (any other value, -1 for every bit too, may be a key's set).
 */
function mayHoldSecretWord(letters: number, plain: Int32Array): boolean {
  const slot = Math.imul(letters, 0x9e3779b1) >>> 26;
  if (plain[slot] === letters) return false;
  for (let w = 0; w < SECRET_WORD_LETTERS.length; w++) if ((letters & SECRET_WORD_LETTERS[w]!) === SECRET_WORD_LETTERS[w]) return true;
  plain[slot] = letters;
  return false;
}

/**
 * Whether a key may name a secret: its letters (wordLetters) may hold a word of SECRET_NAME_HINT, or it
 * holds an escape (decoded, it may), or a multi-byte character (its bytes OR-ed, `wide`, have a 0x80 bit):
 * lower-casing can turn a non-ASCII letter into an ASCII one (the Kelvin sign U+212A becomes "k", and
 * "to\u212Aen" reads as "token").
 */
export function mayNameSecret(letters: number, wide: number, escaped: boolean, plain: Int32Array): boolean {
  return escaped || (wide & 0x80808080) !== 0 || mayHoldSecretWord(letters, plain);
}
