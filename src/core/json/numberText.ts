// A number as the service wrote it, where JSON.parse would lose its text: JSON.parse keeps a number as a
// double, and String() of it is not always the text it came as (12345678901234567890 reads back as
// 12345678901234567000, 1E400 as Infinity, -0 as 0, 1.50 as 1.5). parseKeepingNumbers is JSON.parse of a
// line that gives such a number as a NumberText holding its text (every other number stays a number, a
// row without one costs one scan of its text); jsonText is JSON.stringify that writes a NumberText's text.
// A NumberText's toJSON is its double, so a writer that does not know it writes what it wrote before.
// Node 20's JSON.parse gives a reviver no source text: the line is rewritten first, each such number
// made a string that starts with a control character no string of the line can hold (JSON writes one
// only as a \u escape, and the line holds none of that one's), and the reviver turns those back.

export class NumberText {
  constructor(readonly text: string) {
    // Not enumerable: a walk of a row's fields (the Redactor's) sees no field in it and leaves it as it is.
    Object.defineProperty(this, 'text', { enumerable: false });
  }

  toJSON(): number {
    return Number(this.text);
  }
}

/** Rows that hold a NumberText somewhere (a copy the Redactor makes of one is added by whoever makes it). */
const holding = new WeakSet<object>();

/** Whether `row` came from parseKeepingNumbers with a NumberText in it (or was said to: keepsNumberText). */
export const holdsNumberText = (row: unknown): boolean => typeof row === 'object' && row !== null && holding.has(row);

/** `copy` (a redacted copy of `row`) holds what `row` held. */
export function keepsNumberText(row: unknown, copy: unknown): void {
  if (holdsNumberText(row) && typeof copy === 'object' && copy !== null) holding.add(copy);
}

const QUOTE = 0x22, BACKSLASH = 0x5c, MINUS = 0x2d, ZERO = 0x30, NINE = 0x39;
/** Characters a number's text is made of (after its first): digits, + - . e E. */
const isNumberChar = (c: number): boolean => (c >= ZERO && c <= NINE) || c === 0x2b || c === MINUS || c === 0x2e || c === 0x65 || c === 0x45;
/** Control characters JSON writes only as a \u escape (no short escape such as \n). */
const MARKS = [...Array.from({ length: 8 }, (_, c) => c), 0x0b, ...Array.from({ length: 18 }, (_, c) => c + 0x0e)];

/** Whether a JSON text holds a number (outside its strings) whose String() is not its text. */
export const holdsLossyNumber = (text: string): boolean => lossyNumbers(text, true).length > 0;

/** The numbers of a JSON text (outside its strings) whose String() is not their text: [start, end) pairs (the first only: `first`). */
function lossyNumbers(line: string, first = false): number[] {
  const spans: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < line.length && line.charCodeAt(i) !== QUOTE; i++) if (line.charCodeAt(i) === BACKSLASH) i++;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      const start = i;
      while (i + 1 < line.length && isNumberChar(line.charCodeAt(i + 1))) i++;
      const text = line.slice(start, i + 1);
      if (String(Number(text)) !== text) {
        spans.push(start, i + 1);
        if (first) break;
      }
    }
  }
  return spans;
}

/** JSON.parse of `line`, its numbers whose String() is not their text as NumberText (see the top). */
export function parseKeepingNumbers(line: string): unknown {
  const spans = lossyNumbers(line);
  if (spans.length === 0) return JSON.parse(line);
  const lower = line.toLowerCase();
  const mark = MARKS.find((c) => !lower.includes(`\\u00${c.toString(16).padStart(2, '0')}`));
  // A line that holds every one of them as an escape (none is left to mark with): read as JSON.parse reads it.
  if (mark === undefined) return JSON.parse(line);
  // Written as its escape: JSON refuses a control character as it is.
  const markEscape = `\\u00${mark.toString(16).padStart(2, '0')}`;
  const texts: NumberText[] = [];
  let rewritten = '';
  let from = 0;
  for (let s = 0; s < spans.length; s += 2) {
    const text = line.slice(spans[s], spans[s + 1]);
    // No JSON number: JSON.parse of the line as it is refuses it, with its own message.
    if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) return JSON.parse(line);
    rewritten += `${line.slice(from, spans[s])}"${markEscape}${texts.length}"`;
    texts.push(new NumberText(text));
    from = spans[s + 1]!;
  }
  rewritten += line.slice(from);
  let row: unknown;
  try {
    row = JSON.parse(rewritten, (_key, value: unknown) => (typeof value === 'string' && value.charCodeAt(0) === mark ? texts[Number(value.slice(1))] : value));
  } catch {
    return JSON.parse(line); // not JSON: refused in JSON.parse's words about the line as it came
  }
  if (typeof row === 'object' && row !== null) holding.add(row);
  return row;
}

/** JSON.stringify of a parsed value, a NumberText written as its text. */
export function jsonText(value: unknown): string | undefined {
  if (value instanceof NumberText) return value.text;
  if (Array.isArray(value)) return `[${value.map((inner) => jsonText(inner) ?? 'null').join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  let text = '';
  for (const key of Object.keys(value)) {
    const inner = jsonText((value as Record<string, unknown>)[key]);
    if (inner !== undefined) text += `${text === '' ? '' : ','}${JSON.stringify(key)}:${inner}`;
  }
  return `{${text}}`;
}
