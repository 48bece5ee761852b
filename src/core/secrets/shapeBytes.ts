// Whether a page's bytes (serialised JSON rows) may hold a credential shape the Redactor's text() masks,
// told from the bytes each shape cannot be written without, so a page holding none is written as it came
// (redactingSink's fast path). A `\u` escape can hide anything: the Redactor parses a page holding one
// anyway, so the bytes here are the text as written. The shapes: a JWT's `eyJ` and a Bearer/Basic word
// (SHAPE_WORDS, searched by the Redactor as it searches known values), a URL's password (an `@` after a
// `://` in the same string: mayHoldUrlPassword) and a secret-named pair (an `=` after a name holding a
// word of SECRET_NAME_HINT: mayHoldSecretPair). Each may say yes where text() changes nothing (the page is
// parsed then), never no where it would change something.
import { mayNameSecret } from '../export/secretKeys';
import { SECRET_NAME_HINT } from './vocabulary';

/** Words text() finds a shape by (its `eyJ`, SCHEME_VALUE's Bearer and Basic). */
export const SHAPE_WORDS: readonly Buffer[] = ['eyJ', 'Bearer', 'Basic'].map((word) => Buffer.from(word));

const AT = 0x40, EQUALS = 0x3d, QUOTE = 0x22, BACKSLASH = 0x5c, SLASH = 0x2f, COLON = 0x3a;

/** `continued`: the bytes may start inside a string (a piece after the first): a shape cut there is a yes. */
export function mayHoldShapeBytes(bytes: Buffer, continued: boolean): boolean {
  return mayHoldUrlPassword(bytes, continued) || mayHoldSecretPair(bytes, continued);
}

/** Bytes a URL's user info cannot hold before its `@` (URL_USERINFO: a blank, or the string's end). */
const isStop = (bytes: Buffer, j: number): boolean => {
  const c = bytes[j]!;
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || (c === QUOTE && bytes[j - 1] !== BACKSLASH);
};

/** `://` as JSON writes it, plain or with its slashes escaped (`:\/\/`), at `j`. */
const schemeEndAt = (bytes: Buffer, j: number): boolean =>
  bytes[j] === COLON && ((bytes[j + 1] === SLASH && bytes[j + 2] === SLASH)
    || (bytes[j + 1] === BACKSLASH && bytes[j + 2] === SLASH && bytes[j + 3] === BACKSLASH && bytes[j + 4] === SLASH));

/**
 * An `@` with a `://` before it and no blank nor string end between (URL_USERINFO_IN_TEXT needs both).
 * Each byte is looked at once: the search back from an `@` stops where the one before began.
 */
function mayHoldUrlPassword(bytes: Buffer, continued: boolean): boolean {
  let floor = 0;
  for (let at = bytes.indexOf(AT); at >= 0; at = bytes.indexOf(AT, at + 1)) {
    let j = at - 1;
    for (; j >= floor && !isStop(bytes, j); j--) if (schemeEndAt(bytes, j)) return true;
    if (j < 0 && continued) return true;
    floor = at;
  }
  return false;
}

/** Bytes (or characters) of a pair's name (NAME_VALUE_PAIR: ASCII letters, digits, `_`, `.`, `-`). */
const isNameByte = (c: number): boolean => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c === 0x5f || c === 0x2e || c === 0x2d;

/** Letter sets known to hold no word of the hint (mayNameSecret's memo). */
const PLAIN_NAMES = new Int32Array(64);

/**
 * An `=` after a name that holds a word of SECRET_NAME_HINT (maskSecretPairs masks no other): a name whose
 * letters cannot spell one (the row splitter's test of keys, secretKeys.ts) is passed over undecoded.
 */
function mayHoldSecretPair(bytes: Buffer, continued: boolean): boolean {
  for (let at = bytes.indexOf(EQUALS); at >= 0; at = bytes.indexOf(EQUALS, at + 1)) {
    let start = at;
    let letters = 0;
    for (let c = bytes[start - 1]!; start > 0 && isNameByte(c); c = bytes[--start - 1]!) letters |= 1 << c;
    if (start === 0 && continued) return true;
    if (mayNameSecret(letters, 0, false, PLAIN_NAMES) && SECRET_NAME_HINT.test(bytes.toString('latin1', start, at))) return true;
  }
  return false;
}

/** The same test of a text (Redactor.text, before its pair rule's regular expressions): an `=` after a name that may spell a word of the hint. */
export function mayHoldSecretPairText(text: string): boolean {
  for (let at = text.indexOf('='); at >= 0; at = text.indexOf('=', at + 1)) {
    let start = at;
    let letters = 0;
    for (let c = text.charCodeAt(start - 1); start > 0 && isNameByte(c); c = text.charCodeAt(--start - 1)) letters |= 1 << c;
    if (mayNameSecret(letters, 0, false, PLAIN_NAMES)) return true;
  }
  return false;
}
