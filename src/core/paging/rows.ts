// THE rule for which array of a body holds the rows. Every count and every table asks it: each paging
// strategy (so the walker, the exchange's count, what `apiwb run` prints and writes to --out, the
// panel's pages and its exports) and the panel's table of a body (rowsOfBody). In this order:
//   1. `items=PATH` when the plan gives it: only there (null there is no rows; anything else fails).
//   2. the style's own names (Orders, _Leads, Result, Assets, FactTransactions; value, items, data,
//      results for the configurable style): the first that holds an array (or null: no rows).
//   3. nothing else when the contract fixes where the rows are (page number, offset, export ordinal).
//   4. a top-level array.
//   5. the largest array of objects one or two levels down (an empty array counts, as a page with no
//      rows; ties go to the shallower, then the first), never a business-error list (Errors, Error).
// The generated paging loops (src/core/codegen/paging/) print this same rule from `rowsPlace` and the
// constants below: a style's place is data, never a second description of it.
// The streamed path (pageFetch.ts) agrees by construction: it streams only the style's first name or a
// top-level array, and hands the strategy every other field, so the rule sees what it would have seen.
// Where the style's place is not one top-level field (no style `none`, the configurable style's several
// names, the batch cursor's largest array), or an items= path (`a.b.c`, any depth, any style), it streams
// "anywhere" (anywhereFetch.ts): the arrays the rule may pick are cut out as they pass (for a path, only
// the array at it and at its whole text as one key: src/core/json/pathLanes.ts) and the rule is asked of
// the body's skeleton (placeholderRows, rowsSummary) at its end; the fields the style's steps read
// (StreamRows.kept) stay whole in it. `items=$` names the top-level array.
import type { PagingStyleId } from '../catalog/model';
import { isJsonObject } from '../json/numberText';
import { ownField, setOwnField } from '../json/ownField';
import { markNotHeld } from './notHeld';
import type { Acceptance } from './types';

/** Reads `path` from a JSON value: first as one literal key (so `@odata.nextLink` works), then dotted. */
export function readPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of keysOfPath(value, path)) {
    if (!isJsonObject(current)) return undefined;
    current = ownField(current, key);
  }
  return current;
}

/**
 * The keys readPath walks down `value` for `path`: none for the value itself (`$`, `.`, ''), the whole path
 * when the value has it as one key, else its dotted keys. Whoever puts something at a path asks this too.
 */
export function keysOfPath(value: unknown, path: string): readonly string[] {
  if (path === '' || path === '.' || path === '$') return [];
  return isJsonObject(value) && Object.hasOwn(value, path) ? [path] : pathKeys(path);
}

/** The keys a dotted path walks down, in order (readPath reads them after the whole path as one key). */
export function pathKeys(path: string): string[] {
  return path.split('.');
}

/** An items= that names a path (`a.b.c`): read from the body wherever it lies, not as one top-level field. */
export function rowsPathOf(options: Readonly<Record<string, string>>): string | undefined {
  const items = options['items'];
  return items !== undefined && !topLevel(items) && items.includes('.') ? items : undefined;
}

/** The items= forms that name the top-level array. */
function topLevel(items: string): boolean {
  return items === '$' || items === '.' || items === '';
}

/** Where the rows were found ('$' for a top-level array), or why none were. */
export type RowsFound = { readonly ok: true; readonly path: string; readonly rows: readonly unknown[] } | { readonly ok: false; readonly reason: string };

/** Where a style looks: its own names, and whether the contract fixes the rows there (then nowhere else). */
interface Place {
  readonly names: readonly string[];
  readonly fixed: boolean;
  /**
   * What the walker may stream to an NDJSON file: a top-level field, `undefined` for a top-level array,
   * 'anywhere' for the rule asked of the body's skeleton at its end.
   */
  readonly stream: string | undefined; // also 'anywhere'
}

/**
 * Where a rule looks for a page's rows, with the plan's options, as data (steps 1-3; 4 and 5 follow
 * unless `fixed`). What the rule asks and what a generated loop prints.
 */
export interface RowsPlace {
  /** Tried in order, each read as readPath reads (a literal key, else a dotted path): items= alone when given. */
  readonly names: readonly string[];
  /** Nothing else is tried after the names (the contract fixes the rows there, or items= says where). */
  readonly fixed: boolean;
  /** The names are an items= path: null anywhere there reads as no rows (else only a key present with null). */
  readonly path: boolean;
  /** Why a body has no rows, when it has none. */
  readonly missing: string;
}

const PLACES: Readonly<Record<PagingStyleId, Place>> = {
  'page-number': { names: ['Orders'], fixed: true, stream: 'Orders' },
  'offset-remaining': { names: ['_Leads'], fixed: true, stream: '_Leads' },
  'export-ordinal': { names: ['Result'], fixed: true, stream: 'Result' },
  'batch-cursor': { names: ['Assets'], fixed: false, stream: 'anywhere' },
  'stateful-extraction': { names: ['FactTransactions'], fixed: false, stream: 'FactTransactions' },
  'page-headers': { names: [], fixed: false, stream: undefined },
  generic: { names: ['value', 'items', 'data', 'results'], fixed: false, stream: 'anywhere' },
  none: { names: [], fixed: false, stream: 'anywhere' },
};

function unnamed(names: readonly string[]): string {
  const named = names.length > 0 ? `${names.join(', ')}, ` : '';
  return `the response has no rows (no ${named}top-level array or array of objects); name the field with items=`;
}

/** A style's place with the plan's options: items= alone, else the style's names. */
export function rowsPlace(style: PagingStyleId, options: Readonly<Record<string, string>>): RowsPlace {
  const items = options['items'];
  if (items !== undefined) return { names: [items], fixed: true, path: true, missing: `the response has no array at "${items}" (set by items=)` };
  const { names, fixed } = PLACES[style];
  const missing = fixed ? `the response has no rows where this paging style expects them (${names.join(', ')}); name the field with items=` : unnamed(names);
  return { names, fixed, path: false, missing };
}

/** A body's rows with no style to ask (a response from history, a table given no path). */
const ANYWHERE: RowsPlace = rowsPlace('none', {});

/** How many of an array's first items objectShare looks at, and the share of objects that makes rows. */
export const ROWS_SAMPLE = 50;
export const ROWS_OBJECT_SHARE = 0.5;

/** Arrays of objects count; so does an array of primitives, but only at the top level or when named. */
export function objectShare(array: readonly unknown[]): number {
  const n = Math.min(array.length, ROWS_SAMPLE);
  if (n === 0) return 0;
  // Counted in place: the rule weighs every array of a body (200 000 small ones: no copy each).
  let objects = 0;
  for (let i = 0; i < n; i++) if (isJsonObject(array[i])) objects++;
  return objects / n;
}

/** Business-error lists (Errors, errors, Error) are not result rows. */
export const ERROR_LIST_KEYS: readonly string[] = ['Errors', 'errors', 'Error'];
const ERROR_LISTS = new Set(ERROR_LIST_KEYS);

/** An array the rule may take as rows under `key`: not a business-error list; empty, or mostly objects. */
function rowsCandidate(key: string, value: unknown): value is unknown[] {
  return Array.isArray(value) && !ERROR_LISTS.has(key) && (value.length === 0 || objectShare(value) >= ROWS_OBJECT_SHARE);
}

/**
 * The largest array of objects one level down, else two (ties to the shallower, then the first): the
 * body's keys read once (a body may have 200 000 of them), the objects on the way to depth 2 as they pass.
 */
function largestRowArray(body: Record<string, unknown>): { path: string; rows: unknown[] } | undefined {
  let top: { key: string; rows: unknown[] } | undefined;
  let inner: { outer: string; key: string; rows: unknown[] } | undefined;
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (rowsCandidate(key, value)) {
      if (!top || value.length > top.rows.length) top = { key, rows: value };
    } else if (isJsonObject(value)) {
      for (const innerKey of Object.keys(value)) {
        const rows = value[innerKey];
        if (rowsCandidate(innerKey, rows) && (!inner || rows.length > inner.rows.length)) inner = { outer: key, key: innerKey, rows };
      }
    }
  }
  if (inner && (!top || inner.rows.length > top.rows.length)) return { path: `${inner.outer}.${inner.key}`, rows: inner.rows };
  return top && { path: top.key, rows: top.rows };
}

/**
 * The streamed read asks the rule of a body's skeleton at its end (StreamRows.anywhere), and the page's
 * strategy asks it again of that same body for its verdict (a rule of its own, of the same place): the
 * answer is handed on to that next ask, once (a skeleton may hold 200 000 keys, each walked by the rule).
 * Kept beside the body itself, weakly: it goes with the body, and no other body (another request's, as
 * the editor runs many at once) can read or drop it. Any ask of the body takes it away; one of another
 * place walks the body all the same.
 */
const handedOn = new WeakMap<object, { readonly place: string; readonly found: RowsFound }>();

function placeKey(place: RowsPlace): string {
  return JSON.stringify([place.names, place.fixed, place.path]);
}

function findRows(body: unknown, place: RowsPlace, handOn = false): RowsFound {
  if (body === null || typeof body !== 'object') return ruleOf(body, place);
  const last = handedOn.get(body);
  if (last) handedOn.delete(body);
  const key = last || handOn ? placeKey(place) : '';
  const found = last && last.place === key ? last.found : ruleOf(body, place);
  if (handOn) handedOn.set(body, { place: key, found });
  return found;
}

function ruleOf(body: unknown, place: RowsPlace): RowsFound {
  for (const name of place.names) {
    const found = readPath(body, name);
    if (Array.isArray(found)) return { ok: true, path: name, rows: found };
    if (found === null && (place.path || (isJsonObject(body) && Object.hasOwn(body, name)))) return { ok: true, path: name, rows: [] };
  }
  if (place.fixed) return { ok: false, reason: place.missing };
  if (Array.isArray(body)) return { ok: true, path: '$', rows: body };
  const largest = isJsonObject(body) ? largestRowArray(body) : undefined;
  if (largest) return { ok: true, ...largest };
  return { ok: false, reason: place.missing };
}

/** A style's rows rule with the plan's options: what its strategy asks of every page. */
export interface RowsRule {
  /** Where the rows are in this body. */
  find(body: unknown): RowsFound;
  /** `find` asked of a streamed body's skeleton at its end: its answer handed on to the page's verdict (findRows). */
  findStreamed(body: unknown): RowsFound;
  /** The page's verdict from its rows: rows (with where they were found), or a failure naming where they were looked for. */
  accept(body: unknown): Acceptance;
  /** Where the rows are before any body is seen: items=, else the style's first name, else '$'. */
  readonly declared: string;
  /** The strategy's `streamRows`: what the walker may stream to an NDJSON file as it arrives. */
  readonly streamRows?: StreamRows;
  /** Where it looks: what a paging loop generated from the strategy prints (loop.ts). */
  readonly place: RowsPlace;
}

/**
 * What the walker may stream as a body arrives: a top-level field's array (`field`), the top-level array
 * (neither), or, with `anywhere`, whatever this rule finds in the body's skeleton at its end.
 */
export interface StreamRows {
  readonly field?: string;
  /** The rule asked of the body's skeleton, with the response's head (for a style detected from it). */
  readonly anywhere?: (body: unknown, head: { readonly headers: Readonly<Record<string, string>> }) => RowsFound;
  /** With `anywhere`: the items= path (rowsPathOf), the only place the rule may take rows from. */
  readonly path?: string;
  /** With `anywhere`: the top-level fields the style's steps read besides the rows (its cursor, totals), kept whole in the skeleton. */
  readonly kept?: readonly string[];
}

export function rowsRule(style: PagingStyleId, options: Readonly<Record<string, string>>): RowsRule {
  const { stream: styleStream, names } = PLACES[style];
  const place = rowsPlace(style, options);
  const items = options['items'];
  const find = (body: unknown): RowsFound => findRows(body, place);
  const anywhere = (body: unknown): RowsFound => findRows(body, place, true);
  // items= streams when it names a top-level field or the top-level array ('$'); a dotted path, any
  // depth, is read anywhere, whatever the style: its array is cut out as it arrives.
  const path = rowsPathOf(options);
  const stream = items === undefined ? styleStream : topLevel(items) ? undefined : path !== undefined ? 'anywhere' : items;
  const streamRows: StreamRows = stream === 'anywhere' ? { anywhere, ...(path === undefined ? {} : { path }) } : stream === undefined ? {} : { field: stream };
  return {
    find,
    findStreamed: anywhere,
    accept(body) {
      const found = find(body);
      return found.ok ? { kind: 'rows', rows: found.rows, path: found.path } : { kind: 'fail', reason: found.reason };
    },
    declared: items ?? names[0] ?? '$',
    streamRows,
    place,
  };
}

/**
 * What stands for an array the rows rule may weigh but nobody holds: `count` items, of which the first
 * `sampled` hold `objects` objects (objectShare reads the same share), the rest empty slots. A long one
 * is sparse (V8 keeps a far store as a dictionary): 20 million numbers cost no 160 MB of slots. Marked
 * not held (notHeld.ts): its items are none the server sent.
 */
export function placeholderRows(items: unknown[], count: number, sampled = 0, objects = 0): unknown[] {
  for (let i = 0; i < sampled; i++) items[i] = i < objects ? {} : 0;
  if (count > items.length + 1024) {
    items[count - 1] = 0;
    // eslint-disable-next-line @typescript-eslint/no-array-delete -- a hole, on purpose: the length stays
    delete items[count - 1];
  }
  items.length = count;
  return markNotHeld(items);
}

/**
 * The part of a top-level field's value the rows rule can read (it looks one level into a field):
 * an object's arrays, as placeholders; undefined when it holds none. For a body too large to keep whole.
 * Marked not held (notHeld.ts): its fields are not the field's.
 */
export function rowsSummary(value: unknown): unknown {
  if (!isJsonObject(value)) return undefined;
  let summary: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const inner = value[key];
    if (!Array.isArray(inner)) continue;
    const sample = inner.slice(0, ROWS_SAMPLE);
    const objects = sample.filter(isJsonObject).length;
    // Objects first: the share is what the rule weighs, not their order.
    setOwnField(summary ??= {}, key, placeholderRows([], inner.length, sample.length, objects));
  }
  return summary && markNotHeld(summary);
}

/**
 * The panel's table of a body: the rule read at `rowsPath` first (the path the exchange found its rows
 * at), else as for a body of no style. Undefined when the body holds no rows.
 */
export function rowsOfBody(body: unknown, rowsPath?: string): { path: string; rows: readonly unknown[] } | undefined {
  const found = findRows(body, rowsPath ? { names: [rowsPath], fixed: false, path: false, missing: unnamed([rowsPath]) } : ANYWHERE);
  return found.ok ? { path: found.path, rows: found.rows } : undefined;
}
