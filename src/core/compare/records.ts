// How one record is seen by a comparison, the rule in one place: its key (the field the caller or the
// operation's contract names, read from the record as received; a record without it is matched by its
// content), and its content as compared: object keys sorted at every depth, array order kept, and
// without the paths the caller ignores (`--ignore`), nothing else. No field is set aside as volatile by
// its name or its value's look: an id, a date or a UUID in a record is business data (an order moved
// to another customer, a booking to another day), and the contracts name no field a server stamps
// per response in a record (their per-response stamps, Date and request ids, are headers). This is
// THE rule of what is volatile: the History diff (history/compare.ts) marks only those headers `// volatile`,
// never a body's line. A number is compared by the value its text names (numberValue.ts:
// 1.0 = 1, but 12345678901234567890 ≠ 12345678901234567891). Two records are the same when their
// contents are the same text.
import { isJsonObject, NumberText } from '../json/numberText';
import { isNumberValue, numberValueText } from './numberValue';

/** Deeper than this, a value is compared as JSON.stringify writes it (no sort, no ignored path; numbers as doubles). */
const MAX_DEPTH = 200;

export interface RecordRules {
  /** Dot path of the key field (`transactionId`, `order.id`); none: every record is matched by content. */
  readonly key?: string;
  /** The key path's parts (split once, not per record). */
  readonly keyParts?: readonly string[];
  /** Paths left out of the comparison, in shape notation: `a.b`, `items[].price`. */
  readonly ignore: ReadonlySet<string>;
}

export function rulesOf(key: string | undefined, ignore: readonly string[] = []): RecordRules {
  return { ...(key ? { key, keyParts: key.split('.') } : {}), ignore: new Set(ignore.map(normalPath)) };
}

/** `a.b[3].c`, `a.b.[].c` and `a.b[].c` all name `a.b[].c`. */
export function normalPath(path: string): string {
  return path.trim().replace(/^\$\.?/, '').replace(/\[\d*\]/g, '[]').replace(/\.\[\]/g, '[]');
}

/** The record's key alone (its content is made only for a record without a key). */
export function recordKey(record: unknown, rules: RecordRules): string {
  const keyValue = rules.keyParts === undefined ? undefined : keyOf(record, rules.keyParts);
  return keyValue === undefined ? `c:${contentOf(record, rules)}` : `k:${keyValue}`;
}

/** The content as compared. Two records whose texts are equal have equal contents: callers ask only when they differ. */
export function contentOf(record: unknown, rules: RecordRules): string {
  return canonical(record, '', rules.ignore, 0);
}

/**
 * Whether two records have the same content (contentOf's texts would be equal), decided on the values
 * without writing either text, stopping at the first difference. Why: two sides whose records mostly
 * differ at the same position would otherwise write two contents a record (bench/compare.ts).
 */
export function sameContent(a: unknown, b: unknown, rules: RecordRules): boolean {
  return same(a, b, '', rules.ignore, 0);
}

function same(a: unknown, b: unknown, path: string, ignore: ReadonlySet<string>, depth: number): boolean {
  if (a instanceof NumberText || b instanceof NumberText) return isNumberValue(a) && isNumberValue(b) && numberValueText(a) === numberValueText(b);
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') {
    if ((a === null || typeof a !== 'object') !== (b === null || typeof b !== 'object')) return false;
    return a === b || canonical(a, path, ignore, depth) === canonical(b, path, ignore, depth);
  }
  if (depth > MAX_DEPTH || Array.isArray(a) !== Array.isArray(b)) return canonical(a, path, ignore, depth) === canonical(b, path, ignore, depth);
  if (Array.isArray(a)) return sameItems(a, b as unknown[], `${path}[]`, ignore, depth);
  const objA = a as Record<string, unknown>;
  const objB = b as Record<string, unknown>;
  let countA = 0;
  for (const name of Object.keys(objA)) {
    const childPath = path === '' ? name : `${path}.${name}`;
    if (!compared(childPath, ignore)) continue;
    countA++;
    if (!Object.hasOwn(objB, name)) return false;
    if (!same(objA[name], objB[name], childPath, ignore, depth + 1)) return false;
  }
  let countB = 0;
  for (const name of Object.keys(objB)) if (compared(path === '' ? name : `${path}.${name}`, ignore)) countB++;
  return countA === countB;
}

/** Arrays: the same length, and item by item (an ignored `a[]` path leaves every item out). */
function sameItems(a: readonly unknown[], b: readonly unknown[], inner: string, ignore: ReadonlySet<string>, depth: number): boolean {
  if (a.length !== b.length) return false;
  if (!compared(inner, ignore)) return true;
  for (let i = 0; i < a.length; i++) if (!same(a[i], b[i], inner, ignore, depth + 1)) return false;
  return true;
}

/** The key's JSON text, or undefined when the record has none usable (absent, null, an object or array). */
function keyOf(record: unknown, path: readonly string[]): string | undefined {
  let value: unknown = record;
  for (const part of path) {
    if (!isJsonObject(value)) return undefined;
    value = value[part];
  }
  if (isNumberValue(value)) return numberValueText(value);
  return typeof value === 'string' ? JSON.stringify(value) : typeof value === 'boolean' ? String(value) : undefined;
}

/** Whether the value at `path` takes part in the comparison: every path but those the caller ignores. */
export function compared(path: string, ignore: ReadonlySet<string>): boolean {
  return !ignore.has(path);
}

function canonical(value: unknown, path: string, ignore: ReadonlySet<string>, depth: number): string {
  if (value instanceof NumberText) return numberValueText(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (depth > MAX_DEPTH) return JSON.stringify(value);
  if (Array.isArray(value)) {
    const inner = `${path}[]`;
    // An ignored item path is written "~" for every item: the array's length still counts.
    const parts = value.map((item) => (compared(inner, ignore) ? canonical(item, inner, ignore, depth + 1) : '"~"'));
    return `[${parts.join(',')}]`;
  }
  const names = Object.keys(value).sort();
  const parts: string[] = [];
  for (const name of names) {
    const childPath = path === '' ? name : `${path}.${name}`;
    if (!compared(childPath, ignore)) continue;
    parts.push(`${JSON.stringify(name)}:${canonical((value as Record<string, unknown>)[name], childPath, ignore, depth + 1)}`);
  }
  return `{${parts.join(',')}}`;
}
