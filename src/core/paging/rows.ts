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
