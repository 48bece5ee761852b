// The shape of one side's records: every field path (array elements as `[]`) with the JSON types seen
// there, on the records as received (a field that appears on one side only is a shape
// difference; only ignored paths are left out). Two shapes differ by the paths seen on one side only
// and by paths whose types differ. Bounded: past MAX_PATHS distinct paths, new ones are not tracked.
import { jsonType } from './fieldChanges';

const MAX_PATHS = 5_000;
const MAX_DEPTH = 32;

export interface ShapeDifferences {
  readonly onlyA: readonly string[];
  readonly onlyB: readonly string[];
  readonly typeChanges: readonly { readonly path: string; readonly a: readonly string[]; readonly b: readonly string[] }[];
}

interface ShapeNode {
  readonly types: Set<string>;
  readonly fields: Map<string, ShapeNode>;
  items?: ShapeNode;
}

const node = (): ShapeNode => ({ types: new Set(), fields: new Map() });

export class ShapeTracker {
  private readonly root = node();
  private paths = 0;

  constructor(private readonly ignore: ReadonlySet<string>) {}

  add(record: unknown): void {
    this.visit(record, this.root, 0);
  }

  /** Every path seen with its types (built once, at the end: a record's visit makes no path text). */
  get types(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    const walk = (n: ShapeNode, path: string): void => {
      for (const [name, child] of n.fields) {
        const p = path === '' ? name : `${path}.${name}`;
        if (this.ignore.has(p)) continue;
        out.set(p, child.types);
        walk(child, p);
      }
      if (n.items && !this.ignore.has(`${path}[]`)) {
        out.set(`${path}[]`, n.items.types);
        walk(n.items, `${path}[]`);
      }
    };
    walk(this.root, '');
    return out;
  }

  private visit(value: unknown, at: ShapeNode, depth: number): void {
    if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (const item of value) {
        const child = at.items ?? this.child(at, undefined);
        if (!child) return;
        child.types.add(jsonType(item));
        this.visit(item, child, depth + 1);
      }
      return;
    }
    for (const name in value) {
      const item = (value as Record<string, unknown>)[name];
      const child = at.fields.get(name) ?? this.child(at, name);
      if (!child) continue;
      child.types.add(jsonType(item));
      if (item !== null && typeof item === 'object') this.visit(item, child, depth + 1);
    }
  }

  /** A new path under `at` (a field, or the items of an array), unless MAX_PATHS are tracked. */
  private child(at: ShapeNode, name: string | undefined): ShapeNode | undefined {
    if (this.paths >= MAX_PATHS) return undefined;
    this.paths++;
    const created = node();
    if (name === undefined) at.items = created;
    else at.fields.set(name, created);
    return created;
  }
}

export function shapeDifferences(sideA: ShapeTracker, sideB: ShapeTracker): ShapeDifferences {
  const a = sideA.types;
  const b = sideB.types;
  const onlyA = [...a.keys()].filter((p) => !b.has(p)).sort();
  const onlyB = [...b.keys()].filter((p) => !a.has(p)).sort();
  const typeChanges = [...a.entries()]
    .filter(([p]) => b.has(p))
    .map(([path, ta]) => ({ path, a: [...ta].sort(), b: [...(b.get(path) ?? [])].sort() }))
    .filter((t) => t.a.join() !== t.b.join())
    .sort((x, y) => (x.path < y.path ? -1 : 1));
  return { onlyA, onlyB, typeChanges };
}

export function shapeDiffers(shape: ShapeDifferences): boolean {
  return shape.onlyA.length + shape.onlyB.length + shape.typeChanges.length > 0;
}
