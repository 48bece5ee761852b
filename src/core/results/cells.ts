// How one table cell reads: primitives as themselves, nested values as a short summary that expands on click.
// DOM-free: the webview calls it for the visible rows only, the tests call it directly.

import { jsonText, NumberText } from '../json/numberText';
import { scalarText } from '../text/scalarText';

export interface CellDisplay {
  readonly text: string;
  /** An object or array: the table shows the summary and expands `detailOf(value)` on click. */
  readonly nested: boolean;
  readonly kind: 'null' | 'string' | 'number' | 'boolean' | 'object' | 'array' | 'missing';
}

const MAX_CELL_CHARS = 200;

function oneLine(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ');
  return flat.length > MAX_CELL_CHARS ? `${flat.slice(0, MAX_CELL_CHARS - 1)}…` : flat;
}

export function summariseCell(value: unknown): CellDisplay {
  if (value === undefined) return { text: '', nested: false, kind: 'missing' };
  if (value === null) return { text: 'null', nested: false, kind: 'null' };
  if (typeof value === 'string') return { text: oneLine(value), nested: false, kind: 'string' };
  if (typeof value === 'number' || typeof value === 'bigint') return { text: String(value), nested: false, kind: 'number' };
  // A number kept as the server wrote it (12345678901234567890, 1.10): its text, never its double's.
  if (value instanceof NumberText) return { text: value.text, nested: false, kind: 'number' };
  if (typeof value === 'boolean') return { text: String(value), nested: false, kind: 'boolean' };
  if (Array.isArray(value)) {
    const n = value.length;
    return { text: n === 0 ? '[ ]' : `[${n} item${n === 1 ? '' : 's'}]`, nested: n > 0, kind: 'array' };
  }
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return { text: '{ }', nested: false, kind: 'object' };
    const shown = keys.slice(0, 3).join(', ');
    return { text: oneLine(`{${shown}${keys.length > 3 ? `, +${keys.length - 3}` : ''}}`), nested: true, kind: 'object' };
  }
  return { text: oneLine(scalarText(value)), nested: false, kind: 'string' };
}

/** A value the detail view shows whole: a non-empty object or array, or a string longer than a cell holds. */
export function expandable(value: unknown): boolean {
  if (typeof value === 'string') return value.length > MAX_CELL_CHARS;
  return summariseCell(value).nested;
}

/** The expanded view of a nested value: indented JSON text (rendered as text, never as markup), numbers as written. */
export function detailOf(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return jsonText(value, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Sort order for a column: missing and null last, numbers numerically, the rest by their summary text. */
export function compareCells(a: unknown, b: unknown): number {
  const rank = (v: unknown) => (v === undefined ? 3 : v === null ? 2 : numberOf(v) !== undefined ? 0 : 1);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  const na = numberOf(a);
  const nb = numberOf(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  if (ra >= 2) return 0;
  const ta = summariseCell(a).text;
  const tb = summariseCell(b).text;
  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

/** A cell's number (a NumberText's double, which orders it): undefined for any other value. */
function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' ? value : value instanceof NumberText ? Number(value.text) : undefined;
}
