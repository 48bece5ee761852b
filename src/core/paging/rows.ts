// Where the rows of a page live, per style: Orders, _Leads, Assets, Result, FactTransactions, value,
// or a top-level array. An `items=` option of the plan overrides the default location.

/** Reads `path` from a JSON value: first as one literal key (so `@odata.nextLink` works), then dotted. */
export function readPath(value: unknown, path: string): unknown {
  if (path === '' || path === '.' || path === '$') return value;
  if (!isRecord(value)) return undefined;
  if (path in value) return value[path];
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (!isRecord(current)) return undefined;
    current = current[part];
  }
  return current;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The first property holding an array, for operation-specific collections the contract does not name. */
export function firstArrayProperty(value: unknown): readonly unknown[] | undefined {
  if (!isRecord(value)) return undefined;
  for (const item of Object.values(value)) if (Array.isArray(item)) return item;
  return undefined;
}

export type RowsLookup = { readonly ok: true; readonly rows: readonly unknown[] } | { readonly ok: false; readonly reason: string };

/**
 * Finds the rows: the `items` option when given, else each of `defaults` in turn, else (when allowed)
 * a top-level array or the first array property.
 */
export function extractRows(
  body: unknown,
  options: Readonly<Record<string, string>>,
  defaults: readonly string[],
  fallback: { readonly topLevelArray: boolean; readonly firstArray: boolean },
): RowsLookup {
  const explicit = options['items'];
  if (explicit !== undefined) {
    const found = readPath(body, explicit);
    if (Array.isArray(found)) return { ok: true, rows: found };
    if (found === null) return { ok: true, rows: [] };
    return { ok: false, reason: `the response has no array at "${explicit}" (set by items=)` };
  }
  for (const name of defaults) {
    const found = readPath(body, name);
    if (Array.isArray(found)) return { ok: true, rows: found };
    if (found === null && isRecord(body) && name in body) return { ok: true, rows: [] };
  }
  if (fallback.topLevelArray && Array.isArray(body)) return { ok: true, rows: body };
  if (fallback.firstArray) {
    const first = firstArrayProperty(body);
    if (first) return { ok: true, rows: first };
  }
  const where = [...defaults, ...(fallback.topLevelArray ? ['a top-level array'] : [])].join(', ') || 'an array';
  return { ok: false, reason: `the response has no rows where this paging style expects them (${where}); name the field with items=` };
}

/**
 * The strategy's `streamRows`: the `items=` field when it names a top-level field, else the style's
 * default (`undefined` = a top-level array; `null` = not known before the body arrives: no streaming).
 */
export function streamRowsOption(options: Readonly<Record<string, string>>, fallback: string | undefined | null): { streamRows?: { field?: string } } {
  const items = options['items'];
  if (items !== undefined) return items.includes('.') ? {} : { streamRows: { field: items } };
  if (fallback === null) return {};
  return { streamRows: fallback === undefined ? {} : { field: fallback } };
}

/** Arrays of objects count; so does an array of primitives, but only at the top level or when named. */
export function objectShare(array: readonly unknown[]): number {
  if (array.length === 0) return 0;
  const sample = array.slice(0, 50);
  return sample.filter(isRecord).length / sample.length;
}

/** Business-error lists (Errors, errors, Error) are not result rows. */
const ERROR_LISTS = new Set(['Errors', 'errors', 'Error']);

function largestRowArray(body: unknown): { path: string; rows: unknown[] } | undefined {
  if (Array.isArray(body)) return { path: '$', rows: body };
  if (!isRecord(body)) return undefined;
  let best: { path: string; rows: unknown[] } | undefined;
  const consider = (path: string, value: unknown) => {
    if (!Array.isArray(value) || objectShare(value) < 0.5 || ERROR_LISTS.has(path.split('.').pop() ?? '')) return;
    if (!best || value.length > best.rows.length) best = { path, rows: value };
  };
  for (const [key, value] of Object.entries(body)) {
    consider(key, value);
    if (isRecord(value)) for (const [inner, innerValue] of Object.entries(value)) consider(`${key}.${inner}`, innerValue);
  }
  return best;
}

/**
 * THE rule for which array of a body holds the rows, used by the panel, the CLI's counts and --out, and a
 * plain send: the paging strategy's row path when there is one ('Orders', '$'), else a top-level array,
 * else the largest array of objects one or two levels down (never a business-error list). Undefined
 * when the body holds no collection (a PostOutput, an error object).
 */
export function rowsOfBody(body: unknown, rowsPath?: string): { path: string; rows: unknown[] } | undefined {
  if (rowsPath) {
    const named = readPath(body, rowsPath);
    if (Array.isArray(named)) return { path: rowsPath, rows: named };
  }
  return largestRowArray(body);
}

