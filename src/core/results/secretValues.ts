// The whole value of every secret-named key (the vocabulary's isSecretName, the rule Redactor.row asks) in
// JSON bytes read a page at a time: a string, a number, an array or an object, at any depth. The scanner's
// state (depth, string, the last key, inside a masked value) is a plain record, so a page starts from the
// state its cut stored and a value cut across a page boundary stays masked on the next page.
import { REDACTED } from '../secrets/redact';
import { isSecretName } from '../secrets/vocabulary';

export interface ScanState {
  readonly depth: number;
  readonly inString: boolean;
  readonly escaped: boolean;
  /** The bytes of the string being read (capped), or undefined when it cannot be a key (masked). */
  readonly keyBytes: readonly number[] | undefined;
  /** The bytes of the last string read, when only whitespace followed it: a key if a colon comes. */
  readonly lastString: readonly number[] | undefined;
  /** After a secret-named key's colon, before its value. */
  readonly pending: boolean;
  /** The depth of the masked value being skipped, -1 when none. */
  readonly maskDepth: number;
}

export const START: ScanState = { depth: 0, inString: false, escaped: false, keyBytes: undefined, lastString: undefined, pending: false, maskDepth: -1 };

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const KEY_LIMIT = 4096;
const MASK = Buffer.from(`"${REDACTED}"`);

const isOpen = (b: number): boolean => b === 0x5b || b === 0x7b;
const isClose = (b: number): boolean => b === 0x5d || b === 0x7d;
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** One JSON byte scanner; `step` says whether the byte is shown (false inside a masked value). */
export class SecretValueScanner {
  private depth: number;
  private inString: boolean;
  private escaped: boolean;
  private keyBytes: number[] | undefined;
  private lastString: readonly number[] | undefined;
  private pending: boolean;
  private maskDepth: number;
  /** Set by step when a masked value starts at this byte: the mask is shown in its place. */
  maskStarts = false;

  constructor(state: ScanState = START) {
    this.depth = state.depth;
    this.inString = state.inString;
    this.escaped = state.escaped;
    this.keyBytes = state.keyBytes ? [...state.keyBytes] : undefined;
    this.lastString = state.lastString;
    this.pending = state.pending;
    this.maskDepth = state.maskDepth;
  }

  get state(): ScanState {
    const { depth, inString, escaped, lastString, pending, maskDepth } = this;
    return { depth, inString, escaped, keyBytes: this.keyBytes ? [...this.keyBytes] : undefined, lastString, pending, maskDepth };
  }

  get masking(): boolean {
    return this.maskDepth >= 0;
  }

  /** Whether a page may start after the byte just stepped: never between a key and its value. */
  get mayCut(): boolean {
    return !this.inString && !this.pending && this.lastString === undefined;
  }

  /**
   * Inside a string, no escape pending: steps the bytes of `bytes` from `from` up to `to` that neither end
   * it nor escape (the common run of a string's text) in one loop; returns where it stopped.
   */
  skipInString(bytes: Buffer, from: number, to: number): number {
    if (!this.inString || this.escaped) return from;
    const key = this.maskDepth < 0 ? this.keyBytes : undefined;
    let i = from;
    for (; i < to; i++) {
      const byte = bytes[i]!;
      if (byte === QUOTE || byte === BACKSLASH) break;
      if (key && key.length < KEY_LIMIT) key.push(byte);
    }
    return i;
  }

  step(byte: number): boolean {
    this.maskStarts = false;
    if (this.inString) return this.inStringByte(byte);
    if (this.pending && !isSpace(byte)) {
      this.pending = false;
      this.maskDepth = this.depth;
      this.maskStarts = true;
    }
    if (this.maskDepth >= 0) return this.maskedByte(byte);
    if (byte === QUOTE) {
      this.inString = true;
      this.keyBytes = [];
      this.lastString = undefined;
    } else if (byte === COLON) {
      this.pending = this.lastString !== undefined && isSecretKey(this.lastString);
      this.lastString = undefined;
    } else if (!isSpace(byte)) {
      this.lastString = undefined;
      if (isOpen(byte)) this.depth++;
      else if (isClose(byte)) this.depth = Math.max(0, this.depth - 1);
    }
    return true;
  }

  private inStringByte(byte: number): boolean {
    const shown = this.maskDepth < 0;
    if (this.escaped) this.escaped = false;
    else if (byte === BACKSLASH) this.escaped = true;
    else if (byte === QUOTE) {
      this.inString = false;
      if (shown && this.keyBytes) this.lastString = this.keyBytes;
      this.keyBytes = undefined;
      return shown;
    }
    if (shown && this.keyBytes && this.keyBytes.length < KEY_LIMIT) this.keyBytes.push(byte);
    return shown;
  }

  /** A byte of a masked value: it ends at a comma or a close bracket back at the value's depth, both shown. */
  private maskedByte(byte: number): boolean {
    if (byte === QUOTE) {
      this.inString = true;
      this.keyBytes = undefined;
    } else if (isOpen(byte)) this.depth++;
    else if (isClose(byte)) {
      if (this.depth === this.maskDepth) {
        this.maskDepth = -1;
        this.depth = Math.max(0, this.depth - 1);
        return true;
      }
      this.depth--;
    } else if (byte === COMMA && this.depth === this.maskDepth) {
      this.maskDepth = -1;
      return true;
    }
    return false;
  }
}

/** `bytes` with the value of every secret-named key masked, scanned from `state` (a page's cut). */
export function maskSecretValues(bytes: Buffer, state: ScanState): Buffer {
  const scanner = new SecretValueScanner(state);
  const parts: Buffer[] = [];
  // A page that starts inside a masked value shows the mask where the value's rest is.
  if (scanner.masking) parts.push(MASK);
  let runFrom = 0;
  for (let i = 0; i < bytes.length; i++) {
    const shown = scanner.step(bytes[i]!);
    if (shown) continue;
    if (i > runFrom) parts.push(bytes.subarray(runFrom, i));
    if (scanner.maskStarts) parts.push(MASK);
    runFrom = i + 1;
  }
  if (runFrom < bytes.length) parts.push(bytes.subarray(runFrom));
  return Buffer.concat(parts);
}

/** isSecretName of a key's bytes as written, remembered for plain ASCII keys (a body repeats a few keys). */
const plainKeys = new Map<string, boolean>();
function isSecretKey(bytes: readonly number[]): boolean {
  if (bytes.some((b) => b >= 0x80 || b === BACKSLASH)) return isSecretName(decodedKey(bytes));
  const key = String.fromCharCode(...bytes);
  let secret = plainKeys.get(key);
  if (secret === undefined) {
    secret = isSecretName(key);
    if (plainKeys.size >= 1000) plainKeys.clear();
    plainKeys.set(key, secret);
  }
  return secret;
}

function decodedKey(bytes: readonly number[]): string {
  const raw = Buffer.from(bytes).toString('utf8');
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
