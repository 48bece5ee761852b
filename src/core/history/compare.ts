// One side of a Compare: an exchange (a history entry, or the response on screen) as a pretty JSON
// document with its status, headers and body, keys sorted so that two answers line up in a diff
// editor. What is volatile is `apiwb compare`'s rule (compare/records.ts): the stamps a server puts on
// each response (Date, request ids, ...) are headers, and only a header line of those ends with a
// `// volatile` comment (the document is JSON with comments), so the eye can skip it; a body's ids, dates,
// UUIDs and cursors are data (an order moved to another customer, a booking to another day), never
// marked. Only redacted material is given to this module. A number is shown as the server wrote it
// (12345678901234567890, 1.10), never as the double JSON.parse makes of it (json/numberText.ts).
import type { HttpResponse } from '../http/types';
import { NumberText, parseKeepingNumbers } from '../json/numberText';

export interface CompareSide {
  readonly label: string;
  readonly request: { readonly method: string; readonly url: string };
  readonly response?: Pick<HttpResponse, 'status' | 'statusText' | 'headers' | 'bodyText'>;
  readonly fault?: string;
  /** Set when the stored body was cut: the note travels into the document. */
  readonly bodyNote?: string;
}

/** Headers whose value differs between two calls by design. */
const VOLATILE_HEADERS = new Set([
  'date', 'age', 'etag', 'expires', 'last-modified', 'x-request-id', 'request-id', 'x-correlation-id', 'traceparent',
  'x-pagination-total-results', 'set-cookie',
]);

export const VOLATILE_MARK = '// volatile';

function isVolatileHeader(name: string): boolean {
  return VOLATILE_HEADERS.has(name.toLowerCase());
}

/** The document's text (JSON with `// volatile` comments). */
export function compareDocument(side: CompareSide): string {
  const out: string[] = [`// ${side.label}`];
  const doc: Record<string, unknown> = { request: `${side.request.method} ${side.request.url}` };
  if (side.fault) doc['fault'] = side.fault;
  if (side.response) {
    doc['status'] = `${side.response.status} ${side.response.statusText}`.trim();
    doc['headers'] = sortedObject(side.response.headers);
    doc['body'] = parsedBody(side.response.bodyText);
  }
  if (side.bodyNote) doc['bodyNote'] = side.bodyNote;
  write(doc, 0, undefined, [], out, '');
  return `${out.join('\n')}\n`;
}

function parsedBody(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return sortDeep(parseKeepingNumbers(text));
  } catch {
    return text;
  }
}

function sortedObject(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)));
}

/** Object keys sorted at every depth; array order is data and is kept. */
function sortDeep(value: unknown, depth = 0): unknown {
  if (depth > 200 || value === null || typeof value !== 'object' || value instanceof NumberText) return value;
  if (Array.isArray(value)) return value.map((v) => sortDeep(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, sortDeep(v, depth + 1)]),
  );
}

/** A pretty printer that can end a line with a comment: JSON.stringify cannot. */
function write(value: unknown, indent: number, key: string | undefined, path: readonly string[], out: string[], prefix: string, comma = ''): void {
  const pad = '  '.repeat(indent);
  const inHeaders = path.length === 2 && path[0] === 'headers';
  if (value !== null && typeof value === 'object' && !(value instanceof NumberText) && indent < 200) {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      out.push(`${pad}${prefix}${open}${close}${comma}`);
      return;
    }
    out.push(`${pad}${prefix}${open}`);
    entries.forEach(([k, v], i) => {
      const childPrefix = Array.isArray(value) ? '' : `${JSON.stringify(k)}: `;
      const childKey = Array.isArray(value) ? key : k;
      write(v, indent + 1, childKey, [...path, k], out, childPrefix, i < entries.length - 1 ? ',' : '');
    });
    out.push(`${pad}${close}${comma}`);
    return;
  }
  const volatile = inHeaders && key !== undefined && isVolatileHeader(key);
  const text = value instanceof NumberText ? value.text : JSON.stringify(value);
  out.push(`${pad}${prefix}${text ?? 'null'}${comma}${volatile ? ` ${VOLATILE_MARK}` : ''}`);
}
