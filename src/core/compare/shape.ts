// The shape of one side's records: every field path (array elements as `[]`) with the JSON types seen
// there, on the records as received (a volatile field that appears on one side only is still a shape
// difference; only ignored paths are left out). Two shapes differ by the paths seen on one side only
// and by paths whose types differ. Bounded: past MAX_PATHS distinct paths, new ones are not tracked.
import { jsonType } from './fieldChanges';

export const MAX_PATHS = 5_000;
const MAX_DEPTH = 32;

export interface ShapeDifferences {
  readonly onlyA: readonly string[];
  readonly onlyB: readonly string[];
  readonly typeChanges: readonly { readonly path: string; readonly a: readonly string[]; readonly b: readonly string[] }[];
}

export class ShapeTracker {
  readonly types = new Map<string, Set<string>>();

  constructor(private readonly ignore: ReadonlySet<string>) {}

  add(record: unknown): void {
    this.visit(record, '', 0);
  }

  private visit(value: unknown, path: string, depth: number): void {
    if (path !== '') {
      if (this.ignore.has(path)) return;
      let seen = this.types.get(path);
      if (!seen) {
        if (this.types.size >= MAX_PATHS) return;
        seen = new Set();
        this.types.set(path, seen);
      }
      seen.add(jsonType(value));
    }
    if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (const item of value) this.visit(item, `${path}[]`, depth + 1);
      return;
    }
    for (const [k, item] of Object.entries(value as Record<string, unknown>)) this.visit(item, path === '' ? k : `${path}.${k}`, depth + 1);
  }
}

export function shapeDifferences(a: ShapeTracker, b: ShapeTracker): ShapeDifferences {
  const onlyA = [...a.types.keys()].filter((p) => !b.types.has(p)).sort();
  const onlyB = [...b.types.keys()].filter((p) => !a.types.has(p)).sort();
  const typeChanges = [...a.types.entries()]
    .filter(([p]) => b.types.has(p))
    .map(([path, ta]) => ({ path, a: [...ta].sort(), b: [...(b.types.get(path) ?? [])].sort() }))
    .filter((t) => t.a.join() !== t.b.join())
    .sort((x, y) => (x.path < y.path ? -1 : 1));
  return { onlyA, onlyB, typeChanges };
}

export function shapeDiffers(shape: ShapeDifferences): boolean {
  return shape.onlyA.length + shape.onlyB.length + shape.typeChanges.length > 0;
}
