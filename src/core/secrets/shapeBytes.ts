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

/**
 * Piece `i` of `pieces` (in order: a page's NDJSON, a row may be split between them). A shape cut by a
 * seam is searched whole, from where its string (or name) began in the pieces before; one that began more
 * than SEAM_LOOK_BACK bytes back is a yes. `startKnown`: `pieces[0]` begins where a row begins (else a
 * string may run on from before it: running into its start is a yes).
 */
export function mayHoldShapeBytes(pieces: readonly Buffer[], i: number, startKnown = true): boolean {
  const bytes = pieces[i]!;
  const before = (runStart: RunStart): Buffer | undefined => headBefore(pieces, i, runStart, startKnown);
  return mayHoldUrlPassword(bytes, before, byteBefore(pieces, i, startKnown)) || mayHoldSecretPair(bytes, before);
}

/** The byte before piece `i` (a `\` may escape a `"` that begins it): unknown before kept pieces counts as a `\`. */
function byteBefore(pieces: readonly Buffer[], i: number, startKnown: boolean): number | undefined {
  return i > 0 ? pieces[i - 1]!.at(-1) : startKnown ? undefined : BACKSLASH;
}

/** How far back a string or name cut by a seam is read (past it, the answer is yes). */
export const SEAM_LOOK_BACK = 1 << 20;

/** Where in `bytes` (after the byte `prior`) the run that reaches its end begins, or -1 when it fills it. */
type RunStart = (bytes: Buffer, prior: number | undefined) => number;
/** The bytes before piece `i` from where the run reaching its start began (undefined: too far back, a yes). */
type Before = (runStart: RunStart) => Buffer | undefined;

function headBefore(pieces: readonly Buffer[], i: number, runStart: RunStart, startKnown: boolean): Buffer | undefined {
  const parts: Buffer[] = [];
  let size = 0;
  for (let k = i - 1; k >= 0; k--) {
    const piece = pieces[k]!;
    const from = runStart(piece, byteBefore(pieces, k, startKnown));
    parts.unshift(from < 0 ? piece : piece.subarray(from));
    size += parts[0]!.length;
    if (size > SEAM_LOOK_BACK) return undefined;
    if (from >= 0) return Buffer.concat(parts);
  }
  return startKnown ? Buffer.concat(parts) : undefined;
}

/**
 * Bytes a URL's user info cannot hold before its `@` (URL_USERINFO: a blank, or the string's end: a `"` not
 * escaped; `prior` is the byte before `bytes`, in the piece before).
 */
const isStop = (bytes: Buffer, j: number, prior?: number): boolean => {
  const c = bytes[j]!;
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || (c === QUOTE && (j > 0 ? bytes[j - 1] : prior) !== BACKSLASH);
};

/** `://` as JSON writes it, plain or with its slashes escaped (`:\/\/`), at `j`. */
const schemeEndAt = (bytes: Buffer, j: number): boolean =>
  bytes[j] === COLON && ((bytes[j + 1] === SLASH && bytes[j + 2] === SLASH)
    || (bytes[j + 1] === BACKSLASH && bytes[j + 2] === SLASH && bytes[j + 3] === BACKSLASH && bytes[j + 4] === SLASH));

/**
 * An `@` with a `://` before it and no blank nor string end between (URL_USERINFO_IN_TEXT needs both).
 * Each byte is looked at once: the search back from an `@` stops where the one before began.
 */
function mayHoldUrlPassword(bytes: Buffer, before?: Before, prior?: number): boolean {
  let floor = 0;
  for (let at = bytes.indexOf(AT); at >= 0; at = bytes.indexOf(AT, at + 1)) {
    let j = at - 1;
    for (; j >= floor && !isStop(bytes, j, prior); j--) if (schemeEndAt(bytes, j)) return true;
    if (j < 0 && before) {
      // The `@`'s string began in an earlier piece: searched whole (a `://` may be cut by the seam).
      const head = before(lastStop);
      if (!head || mayHoldUrlPassword(Buffer.concat([head, bytes.subarray(0, at + 1)]))) return true;
    }
    floor = at;
  }
  return false;
}

/** The last stop of `bytes` (where a string running to its end began), or -1. */
function lastStop(bytes: Buffer, prior: number | undefined): number {
  let j = bytes.length - 1;
  while (j >= 0 && !isStop(bytes, j, prior)) j--;
  return j;
}

/** Bytes (or characters) of a pair's name (NAME_VALUE_PAIR: ASCII letters, digits, `_`, `.`, `-`). */
const isNameByte = (c: number): boolean => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c === 0x5f || c === 0x2e || c === 0x2d;

/** Letter sets known to hold no word of the hint (mayNameSecret's memo). */
const PLAIN_NAMES = new Int32Array(64);

/**
 * An `=` after a name that holds a word of SECRET_NAME_HINT (maskSecretPairs masks no other): a name whose
 * letters cannot spell one (the row splitter's test of keys, secretKeys.ts) is passed over undecoded.
 */
function mayHoldSecretPair(bytes: Buffer, before?: Before): boolean {
  for (let at = bytes.indexOf(EQUALS); at >= 0; at = bytes.indexOf(EQUALS, at + 1)) {
    const start = nameStart(bytes, at);
    if (start === 0 && before) {
      // The name may begin in an earlier piece: read whole.
      const head = before(nameRunStart);
      if (!head || mayHoldSecretPair(Buffer.concat([head, bytes.subarray(0, at + 1)]))) return true;
    } else if (namesSecret(bytes, start, at)) return true;
  }
  return false;
}

/** Where the name bytes that end `piece` begin, or -1 when it is all name bytes. */
function nameRunStart(piece: Buffer): number {
  const start = nameStart(piece, piece.length);
  return start === 0 ? -1 : start;
}

/** Where the run of name bytes that ends at `end` begins. */
function nameStart(bytes: Buffer, end: number): number {
  let start = end;
  while (start > 0 && isNameByte(bytes[start - 1]!)) start--;
  return start;
}

/** The name bytes [start, end) hold a word of the hint (their letters tested first, undecoded). */
function namesSecret(bytes: Buffer, start: number, end: number): boolean {
  let letters = 0;
  for (let i = start; i < end; i++) letters |= 1 << bytes[i]!;
  return mayNameSecret(letters, 0, false, PLAIN_NAMES) && SECRET_NAME_HINT.test(bytes.toString('latin1', start, end));
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
