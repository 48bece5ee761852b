// A number as the service wrote it, where JSON.parse would lose its text: JSON.parse keeps a number as a
// double, and String() of it is not always the text it came as (12345678901234567890 reads back as
// 12345678901234567000, 1E400 as Infinity, -0 as 0, 1.50 as 1.5). parseKeepingNumbers is JSON.parse of a
// line that gives such a number as a NumberText holding its text (every other number stays a number, a
// row without one costs one scan of its text); jsonText is JSON.stringify that writes a NumberText's text.
// A NumberText's toJSON is its double, so a writer that does not know it writes what it wrote before.
// Node 20's JSON.parse gives a reviver no source text: the line is rewritten first, each such number
// made a string that starts with a control character no string of the line can hold (JSON writes one
// only as a \u escape, and the line holds none of that one's; when it holds every one's, a run of NULs
// longer than any it holds), and the reviver turns those back.

export class NumberText {
  constructor(readonly text: string) {
    // Not enumerable: a walk of a row's fields (the Redactor's) sees no field in it and leaves it as it is.
    Object.defineProperty(this, 'text', { enumerable: false });
  }

  toJSON(): number {
    return Number(this.text);
  }
}

/**
 * THE test for "a JSON object" among parsed values (a row, a field): not null, not an array, and not a
 * NumberText (an object only in JavaScript: in JSON it is a number, and it has no fields).
 */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof NumberText);

/** Rows that hold a NumberText somewhere (a copy the Redactor makes of one is added by whoever makes it). */
const holding = new WeakSet<object>();

/** Whether `row` came from parseKeepingNumbers with a NumberText in it (or was said to: keepsNumberText). */
export const holdsNumberText = (row: unknown): boolean => typeof row === 'object' && row !== null && holding.has(row);

/** `copy` (a redacted copy of `row`) holds what `row` held. */
export function keepsNumberText(row: unknown, copy: unknown): void {
  if (holdsNumberText(row) && typeof copy === 'object' && copy !== null) holding.add(copy);
}

const QUOTE = 0x22, BACKSLASH = 0x5c, MINUS = 0x2d, DOT = 0x2e, ZERO = 0x30, NINE = 0x39;
/** Characters (or bytes) a number's text is made of: digits, + - . e E. A run of them is a number only when isJsonNumber says so. */
export const isNumberChar = (c: number): boolean => (c >= ZERO && c <= NINE) || c === 0x2b || c === MINUS || c === DOT || c === 0x65 || c === 0x45;
/** THE JSON number grammar (RFC 8259 §6), for every text read as a number: no leading zero, no bare dot, no "+" in front. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
export const isJsonNumber = (text: string): boolean => JSON_NUMBER.test(text);
/** Control characters JSON writes only as a \u escape (no short escape such as \n). */
const MARKS = [...Array.from({ length: 8 }, (_, c) => c), 0x0b, ...Array.from({ length: 18 }, (_, c) => c + 0x0e)];

/** Whether a JSON text holds a number (outside its strings) whose String() is not its text. */
export const holdsLossyNumber = (text: string): boolean => lossyNumbers(text, true).length > 0;

/** The numbers of a JSON text (outside its strings) whose String() is not their text: [start, end) pairs (the first only: `first`). */
function lossyNumbers(line: string, first = false): number[] {
  const spans: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(line, i + 1);
    else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      const start = i;
      while (i + 1 < line.length && isNumberChar(line.charCodeAt(i + 1))) i++;
      if (!plainNumber(line, start, i + 1) && String(Number(line.slice(start, i + 1))) !== line.slice(start, i + 1)) {
        spans.push(start, i + 1);
        if (first) break;
      }
    }
  }
  return spans;
}

/** Where the string whose text starts at `from` ends (its closing quote; the text's end when there is none). */
function stringEnd(line: string, from: number): number {
  for (let at = line.indexOf('"', from); at >= 0; at = line.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (line.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return line.length;
}

/**
 * Whether line[start, end) is a number String() writes as it is, told without String(): no exponent, no
 * "-0", no zero ending its fraction, at most 15 digits (every such decimal is its double's shortest text)
 * and at most 5 zeros after "0.". False is "not told" (String() is asked).
 */
function plainNumber(line: string, start: number, end: number): boolean {
  if (end - start > 16) return false;
  let i = line.charCodeAt(start) === MINUS ? start + 1 : start;
  const zeroInt = line.charCodeAt(i) === ZERO;
  if (zeroInt && (end - i === 1 ? i > start : line.charCodeAt(i + 1) !== DOT)) return false; // -0, or 01
  let digits = 0;
  let dot = false;
  for (; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c === DOT) {
      if (dot || (zeroInt && line.startsWith('000000', i + 1))) return false;
      dot = true;
    } else if (c < ZERO || c > NINE) return false;
    else digits++;
  }
  return digits <= 15 && !(dot && line.charCodeAt(end - 1) === ZERO);
}

const escapeOf = (c: number): string => `\\u00${c.toString(16).padStart(2, '0')}`;

/** What a rewritten number's string starts with: text no string of `line` starts with (see the top). */
function markOf(line: string): string {
  const lower = line.toLowerCase();
  const free = MARKS.find((c) => !lower.includes(escapeOf(c)));
  if (free !== undefined) return String.fromCharCode(free);
  // Every one is in the line: NULs (written only as \u0000), one more than the longest run of them it holds.
  let longest = 0;
  for (const run of line.matchAll(/(?:\\u0000)+/g)) longest = Math.max(longest, run[0].length / 6);
  return '\u0000'.repeat(longest + 1);
}

/** JSON.parse of `line`, its numbers whose String() is not their text as NumberText (see the top). */
export function parseKeepingNumbers(line: string): unknown {
  const spans = lossyNumbers(line);
  if (spans.length === 0) return JSON.parse(line);
  const mark = markOf(line);
  // Written as escapes: JSON refuses a control character as it is.
  const markEscape = mark.split('').map((c) => escapeOf(c.charCodeAt(0))).join('');
  const texts: NumberText[] = [];
  let rewritten = '';
  let from = 0;
  for (let s = 0; s < spans.length; s += 2) {
    const text = line.slice(spans[s], spans[s + 1]);
    // No JSON number: JSON.parse of the line as it is refuses it, with its own message.
    if (!isJsonNumber(text)) return JSON.parse(line);
    rewritten += `${line.slice(from, spans[s])}"${markEscape}${texts.length}"`;
    texts.push(new NumberText(text));
    from = spans[s + 1]!;
  }
  rewritten += line.slice(from);
  let row: unknown;
  try {
    row = JSON.parse(rewritten, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(mark) ? texts[Number(value.slice(mark.length))] : value));
  } catch {
    return JSON.parse(line); // not JSON: refused in JSON.parse's words about the line as it came
  }
  if (typeof row === 'object' && row !== null) holding.add(row);
  return row;
}

/**
 * JSON.stringify of a parsed value, a NumberText written as its text; `indent` spaces a level as
 * JSON.stringify(value, null, indent) lays it out (none: compact).
 */
export function jsonText(value: unknown, indent = 0, pad = ''): string | undefined {
  if (value instanceof NumberText) return value.text;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = indent > 0 ? `${pad}${' '.repeat(indent)}` : '';
  const [open, colon] = indent > 0 ? [`\n${inner}`, ': '] : ['', ':'];
  const parts: string[] = [];
  if (Array.isArray(value)) for (const item of value) parts.push(jsonText(item, indent, inner) ?? 'null');
  else {
    for (const key of Object.keys(value)) {
      const text = jsonText((value as Record<string, unknown>)[key], indent, inner);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}${colon}${text}`);
    }
  }
  const [start, end] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return parts.length === 0 ? `${start}${end}` : `${start}${open}${parts.join(`,${open}`)}${indent > 0 ? `\n${pad}` : ''}${end}`;
}

/** The indent jsonText keeps a JSON text's layout with when it writes it anew: 2 for a pretty one (a line break after its first bracket), else none. */
export const layoutIndent = (text: string): number => (/^\s*[{[]\s*\n/.test(text) ? 2 : 0);

/** A row's JSON: its numbers' text where it holds a NumberText (jsonText), else JSON.stringify's (faster); `indent` as jsonText's. */
export const rowJsonText = (row: unknown, indent = 0): string | undefined => (holdsNumberText(row) ? jsonText(row, indent) : JSON.stringify(row, null, indent));
