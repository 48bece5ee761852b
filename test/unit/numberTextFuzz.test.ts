// Fuzz (fixed seeds) of parseKeepingNumbers against a model: random JSON lines — strings holding control
// characters as \u escapes in either case (the marker candidates among them, sometimes every one of them),
// short escapes, quotes, backslashes, unicode and lone surrogates; numbers of every form; nesting;
// duplicate and `__proto__` keys; random whitespace — must read as JSON.parse reads them, except that a
// number whose String() is not its text is a NumberText holding that text. Lines cut or changed at one
// place are refused exactly when JSON.parse refuses them, and read as it reads them otherwise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NumberText, parseKeepingNumbers } from '../../src/core/json/numberText';
import { mulberry32 } from '../../src/sandbox/shared/prng';

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const int = (rng: Rng, n: number): number => Math.floor(rng() * n);

/** Control characters JSON writes only as a \u escape (parseKeepingNumbers' marker candidates). */
const MARKS = [...Array.from({ length: 8 }, (_, c) => c), 0x0b, ...Array.from({ length: 18 }, (_, c) => c + 0x0e)];
const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '/': '\\/' };

const hex4 = (rng: Rng, code: number): string => {
  const h = code.toString(16).padStart(4, '0');
  return `\\u${rng() < 0.5 ? h : h.toUpperCase()}`;
};

/** A string's characters. */
function randomString(rng: Rng): string {
  let s = '';
  for (let n = int(rng, 8); n > 0; n--) {
    const kind = int(rng, 9);
    if (kind === 0) s += String.fromCharCode(int(rng, 0x20));
    else if (kind === 1) s += String.fromCharCode(pick(rng, MARKS));
    else if (kind === 2) s += pick(rng, ['"', '\\', '/', '\\u0001', '\\\\u0002', '1e400', '-0', ',', ':', '{', '[']);
    else if (kind === 3) s += pick(rng, ['é', '漢', '😀', '\u2028', '\u2029', '\ufeff', '\ud800', '\udfff', '\u007f']);
    else if (kind === 4) s += String(int(rng, 100));
    else s += String.fromCharCode(0x20 + int(rng, 0x5f));
  }
  return s;
}

/** JSON text of a string, each character written one of the ways JSON allows. */
function stringText(rng: Rng, s: string): string {
  let text = '"';
  for (const ch of s.split('')) {
    const code = ch.charCodeAt(0);
    const short = SHORT[ch];
    if (code < 0x20) text += short && rng() < 0.5 ? short : hex4(rng, code);
    else if (ch === '"' || ch === '\\') text += rng() < 0.7 ? short : hex4(rng, code);
    else if (code >= 0xd800 && code <= 0xdfff) text += hex4(rng, code); // a lone surrogate has no UTF-16 text of its own in a line
    else text += rng() < 0.1 ? hex4(rng, code) : ch;
  }
  return `${text}"`;
}

/** A number's text, of every form JSON has. */
function numberText(rng: Rng): string {
  const digits = (n: number): string => Array.from({ length: n }, () => String(int(rng, 10))).join('');
  const kind = int(rng, 12);
  const sign = rng() < 0.3 ? '-' : '';
  if (kind === 0) return `${sign}0`;
  if (kind === 1) return `${sign}${1 + int(rng, 9)}${digits(int(rng, 25))}`; // up to 26 digits
  if (kind === 2) return `${sign}0.${digits(1 + int(rng, 12))}`;
  if (kind === 3) return `${sign}0.${'0'.repeat(int(rng, 9))}${1 + int(rng, 9)}${digits(int(rng, 4))}`;
  if (kind === 4) return `${sign}${1 + int(rng, 9)}${digits(int(rng, 17))}.${digits(1 + int(rng, 6))}`;
  if (kind === 5) return `${sign}${1 + int(rng, 9)}${digits(int(rng, 3))}${pick(rng, ['e', 'E'])}${pick(rng, ['', '+', '-'])}${digits(1 + int(rng, 3))}`;
  if (kind === 6) return `${sign}${int(rng, 10)}.${digits(1 + int(rng, 3))}0`;
  if (kind === 7) return pick(rng, ['1e400', '-1e400', '1E-400', '-0.0', '0e0', '5e-324', '1.7976931348623157e308', '9007199254740993', '0.1', '1e21', '123456789012345', '1234567890123456', '0.000001', '0.0000001']);
  return `${sign}${int(rng, 1000)}${rng() < 0.5 ? `.${1 + int(rng, 9)}` : ''}`;
}

const space = (rng: Rng): string => (rng() < 0.8 ? '' : pick(rng, [' ', '\t', '\r', '  ', ' \t ']));

/** Defines a field as JSON.parse does (an own data property, `__proto__` too; a repeated key keeps its place, the last value). */
const define = (o: Record<string, unknown>, key: string, value: unknown): void => {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
};

/** A random value: its JSON text and what parseKeepingNumbers must make of it. */
function randomValue(rng: Rng, depth: number): { text: string; value: unknown } {
  const kind = depth > 3 ? int(rng, 5) : int(rng, 8);
  if (kind === 0 || kind === 1) {
    const text = numberText(rng);
    return { text, value: String(Number(text)) === text ? Number(text) : new NumberText(text) };
  }
  if (kind === 2) {
    const s = randomString(rng);
    return { text: stringText(rng, s), value: s };
  }
  if (kind === 3) return pick(rng, [{ text: 'true', value: true }, { text: 'false', value: false }, { text: 'null', value: null }]);
  if (kind === 4) {
    // Every marker candidate as an escape in one string (no single marker left free), beside a number.
    const s = MARKS.map((c) => String.fromCharCode(c)).join('');
    const num = pick(rng, ['1e400', '1.50', '-0', '12345678901234567890', numberText(rng)]);
    return { text: `[${stringText(rng, s)},${num}]`, value: [s, String(Number(num)) === num ? Number(num) : new NumberText(num)] };
  }
  if (kind === 5) {
    const items: { text: string; value: unknown }[] = [];
    for (let n = int(rng, 5); n > 0; n--) items.push(randomValue(rng, depth + 1));
    return { text: `[${space(rng)}${items.map((item) => `${item.text}${space(rng)}`).join(`,${space(rng)}`)}]`, value: items.map((item) => item.value) };
  }
  const o: Record<string, unknown> = {};
  const parts: string[] = [];
  const keys: string[] = [];
  for (let n = int(rng, 6); n > 0; n--) {
    const key = rng() < 0.15 && keys.length > 0 ? pick(rng, keys) : rng() < 0.05 ? '__proto__' : rng() < 0.5 ? `k${int(rng, 20)}` : randomString(rng);
    keys.push(key);
    const item = randomValue(rng, depth + 1);
    define(o, key, item.value);
    parts.push(`${stringText(rng, key)}${space(rng)}:${space(rng)}${item.text}`);
  }
  return { text: `{${space(rng)}${parts.join(`${space(rng)},${space(rng)}`)}${space(rng)}}`, value: o };
}

/** Where `got` and `want` differ ('' when nowhere): numbers by Object.is, NumberText by its text, objects by own keys in order. */
function difference(got: unknown, want: unknown, path = '$'): string {
  if (want instanceof NumberText || got instanceof NumberText) {
    return got instanceof NumberText && want instanceof NumberText && got.text === want.text ? '' : `${path}: ${show(got)} is not ${show(want)}`;
  }
  if (typeof want !== 'object' || want === null || typeof got !== 'object' || got === null) return Object.is(got, want) ? '' : `${path}: ${show(got)} is not ${show(want)}`;
  if (Array.isArray(want) !== Array.isArray(got) || Object.getPrototypeOf(got) !== Object.getPrototypeOf(want)) return `${path}: not the same kind`;
  const [gotKeys, wantKeys] = [Reflect.ownKeys(got), Reflect.ownKeys(want)];
  if (gotKeys.join('\u0000') !== wantKeys.join('\u0000')) return `${path}: keys ${JSON.stringify(gotKeys)} are not ${JSON.stringify(wantKeys)}`;
  for (const key of wantKeys) {
    if (key === 'length' && Array.isArray(want)) continue;
    const inner = difference((got as Record<string | symbol, unknown>)[key], (want as Record<string | symbol, unknown>)[key], `${path}[${JSON.stringify(String(key))}]`);
    if (inner !== '') return inner;
  }
  return '';
}
const show = (v: unknown): string => (v instanceof NumberText ? `NumberText(${v.text})` : typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v)) : JSON.stringify(v) ?? String(v));

/** A NumberText read back as JSON.parse reads its text: what the line is to JSON.parse. */
function asJsonParse(v: unknown): unknown {
  if (v instanceof NumberText) return Number(v.text);
  if (Array.isArray(v)) return v.map(asJsonParse);
  if (typeof v !== 'object' || v === null) return v;
  const o: Record<string, unknown> = {};
  for (const key of Object.keys(v)) define(o, key, asJsonParse((v as Record<string, unknown>)[key]));
  return o;
}

const outcome = (read: () => unknown): { value?: unknown; error?: string } => {
  try {
    return { value: read() };
  } catch (error) {
    return { error: (error as Error).constructor.name };
  }
};

void describe('parseKeepingNumbers against a model (fuzz, fixed seeds)', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    void it(`seed ${seed}: 1 500 random lines read as JSON.parse reads them, numbers String() changes kept as their text`, () => {
      const rng = mulberry32(seed * 7919);
      for (let n = 0; n < 1500; n++) {
        const { text, value } = randomValue(rng, 0);
        const line = `${space(rng)}${text}${space(rng)}`;
        const got = parseKeepingNumbers(line);
        const diff = difference(got, value);
        assert.equal(diff, '', `line ${JSON.stringify(line)}`);
        assert.equal(difference(asJsonParse(got), JSON.parse(line)), '', `line ${JSON.stringify(line)} against JSON.parse`);
      }
    });
  }

  void it('a line holding every marker candidate, and strings of NULs, keeps its numbers and its strings', () => {
    const every = MARKS.map((c) => `\\u${c.toString(16).padStart(4, '0')}`).join('');
    const line = `["${every}","\\u0000\\u00000","\\u00000","\\\\u0000\\u0000",1e400,{"n":1.50}]`;
    const o: Record<string, unknown> = {};
    define(o, 'n', new NumberText('1.50'));
    const want = [MARKS.map((c) => String.fromCharCode(c)).join(''), '\u0000\u00000', '\u00000', '\\u0000\u0000', new NumberText('1e400'), o];
    assert.equal(difference(parseKeepingNumbers(line), want), '', line);
  });

  void it('a line cut or changed at one place: refused exactly when JSON.parse refuses it, read as it reads it otherwise', () => {
    const rng = mulberry32(424242);
    const bytes = ['', '"', '\\', ',', ':', '{', '}', '[', ']', '-', '.', 'e', '0', '9', ' ', '\u0001', 'x'];
    for (let n = 0; n < 6000; n++) {
      const { text } = randomValue(rng, 0);
      const at = int(rng, text.length + 1);
      const line = rng() < 0.3 ? text.slice(0, at) : `${text.slice(0, at)}${pick(rng, bytes)}${text.slice(at + int(rng, 2))}`;
      const [got, want] = [outcome(() => parseKeepingNumbers(line)), outcome(() => JSON.parse(line))];
      assert.equal(got.error, want.error, `line ${JSON.stringify(line)}`);
      if (want.error === undefined) assert.equal(difference(asJsonParse(got.value), want.value), '', `line ${JSON.stringify(line)}`);
    }
  });
});
