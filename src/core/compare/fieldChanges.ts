// Which fields of a changed record changed, and how: each leaf value (and each empty object or
// array) by its path, on the records as received, leaving out what records.ts leaves out of the
// comparison (the ignored paths). A path on one side only is added or removed; a value
// of another JSON type is a type change; any other difference is a changed value (a number by the value
// its text names: numberValue.ts).
import { NumberText } from '../json/numberText';
import { isNumberValue, numberValueText } from './numberValue';
import { compared, normalPath } from './records';

export interface FieldChange {
  /** `amount`, `allocations[1].fundCode`. */
  readonly path: string;
  readonly kind: 'added' | 'removed' | 'changed' | 'type';
  readonly before?: unknown;
  readonly after?: unknown;
}

/** A record with more changed fields than this lists the first ones. */
const MAX_FIELD_CHANGES = 50;
const MAX_DEPTH = 64;

export function fieldChanges(before: unknown, after: unknown, ignore: ReadonlySet<string>): FieldChange[] {
  const a = leaves(before, ignore);
  const b = leaves(after, ignore);
  const changes: FieldChange[] = [];
  for (const [path, value] of a) {
    if (!b.has(path)) changes.push({ path, kind: 'removed', before: value });
    else {
      const other = b.get(path);
      if (leafText(value) !== leafText(other)) changes.push({ path, kind: jsonType(value) === jsonType(other) ? 'changed' : 'type', before: value, after: other });
    }
  }
  for (const [path, value] of b) if (!a.has(path)) changes.push({ path, kind: 'added', after: value });
  return changes.slice(0, MAX_FIELD_CHANGES);
}

/** The JSON type name of a value: string, number, boolean, null, object or array. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof NumberText) return 'number';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The names a field change's path reads, as leaves() writes it (`allocations[1].fundCode` → allocations, fundCode). */
export const pathNames = (path: string): string[] => path.split(/\.|\[\d+\]/).filter((name) => name !== '');

/** A leaf's text as compared: a number by the value its text names (numberValue.ts). */
const leafText = (value: unknown): string | undefined => (isNumberValue(value) ? numberValueText(value) : JSON.stringify(value));

function leaves(value: unknown, ignore: ReadonlySet<string>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const visit = (v: unknown, path: string, depth: number): void => {
    if (v !== null && typeof v === 'object' && !(v instanceof NumberText) && depth < MAX_DEPTH) {
      const entries: [string, unknown][] = Array.isArray(v)
        ? v.map((item, i) => [`${path}[${i}]`, item])
        : Object.entries(v as Record<string, unknown>).map(([k, item]) => [path === '' ? k : `${path}.${k}`, item]);
      if (entries.length === 0 && path !== '') out.set(path, v);
      for (const [childPath, item] of entries) if (compared(normalPath(childPath), ignore)) visit(item, childPath, depth + 1);
      return;
    }
    out.set(path, v);
  };
  visit(value, '', 0);
  return out;
}
