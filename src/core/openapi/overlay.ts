// Imported operations merged over the contract catalog as an overlay. Decision (documented in
// index.ts): an imported operation with the same service, method and path template as a contract
// operation ENRICHES it (one entry in the tree, origin 'contract', an `imported` mark listing what the
// import filled in); any other imported operation is ADDED (origin 'import') to the family of its name,
// or to a new family. Overlays are keyed by source: importing the same URL or file again replaces the
// previous overlay of that source, so refreshing never duplicates.
import type { Family, HttpMethod, Operation, Service } from '../catalog/model';
import { enrichOperation } from './merge';
import type { OpenApiImport } from './importer';

export interface OverlayReport {
  /** Contract operation ids the overlay enriched. */
  readonly enriched: readonly string[];
  /** Ids of operations the overlay added (origin 'import'). */
  readonly added: readonly string[];
}

/** `/v1/constituents/{constituentId}` and `/v1/constituents/{id}` are the same template. */
export function templateKey(method: HttpMethod | undefined, path: string | undefined): string | undefined {
  if (!method || !path) return undefined;
  return `${method} ${path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '').toLowerCase()}`;
}

/** The key overlays are replaced by: a URL without its fragment, or a file path as given. */
export function sourceKey(source: string): string {
  const trimmed = source.trim();
  try {
    const url = new URL(trimmed);
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      url.hash = '';
      return url.href;
    }
  } catch {
    // a file path
  }
  return trimmed;
}

/** The services with every overlay applied in order (a later overlay of the same source replaces an earlier one). */
export function mergeOverlays(services: readonly Service[], overlays: readonly OpenApiImport[]): { services: Service[]; report: OverlayReport } {
  const latest = new Map<string, OpenApiImport>();
  for (const overlay of overlays) {
    latest.delete(sourceKey(overlay.source));
    latest.set(sourceKey(overlay.source), overlay);
  }
  let current = [...services];
  const enriched: string[] = [];
  const added: string[] = [];
  for (const overlay of latest.values()) current = current.map((service) => applyToService(service, overlay, enriched, added));
  return { services: current, report: { enriched, added } };
}

/** The services with the imported operations merged in; pass the result to createCatalog(). */
export function withOverlay(services: readonly Service[], overlays: OpenApiImport | readonly OpenApiImport[]): Service[] {
  return mergeOverlays(services, Array.isArray(overlays) ? overlays : [overlays as OpenApiImport]).services;
}

function applyToService(service: Service, overlay: OpenApiImport, enriched: string[], added: string[]): Service {
  const mine = overlay.operations.filter((op) => op.service === service.id);
  if (mine.length === 0) return service;
  const byTemplate = new Map<string, Operation>();
  for (const op of mine) {
    const key = templateKey(op.method, op.path);
    if (key) byTemplate.set(key, op);
  }
  const used = new Set<Operation>();
  let families: Family[] = service.families.map((family) => ({
    ...family,
    operations: family.operations.map((op) => {
      const key = templateKey(op.method, op.path);
      const imported = key ? byTemplate.get(key) : undefined;
      if (!imported || op.deprecated) return op;
      used.add(imported);
      enriched.push(op.id);
      return enrichOperation(op, imported);
    }),
  }));
  const ids = new Set(families.flatMap((f) => f.operations.map((o) => o.id)));
  for (const op of mine) {
    if (used.has(op)) continue;
    const unique = uniqueId(op.id, ids);
    ids.add(unique);
    added.push(unique);
    const placed: Operation = unique === op.id ? op : { ...op, id: unique };
    const index = families.findIndex((f) => f.name.toLowerCase() === op.family.toLowerCase());
    const family = families[index];
    if (family) {
      families = families.map((f, i) => (i === index ? { ...family, operations: [...family.operations, { ...placed, family: family.name }] } : f));
    } else {
      families = [...families, {
        name: op.family,
        service: service.id,
        summary: `Imported from ${overlay.source}.`,
        operations: [placed],
        notShown: [],
        source: op.source,
      }];
    }
  }
  return { ...service, families };
}

function uniqueId(id: string, taken: ReadonlySet<string>): string {
  if (!taken.has(id)) return id;
  for (let n = 1; ; n++) {
    const candidate = `${id}~import${n === 1 ? '' : n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The overlays of a session, one per source; `set` replaces the previous overlay of the same source. */
export class OverlaySet {
  private readonly bySource = new Map<string, OpenApiImport>();

  set(overlay: OpenApiImport): void {
    this.bySource.set(sourceKey(overlay.source), overlay);
  }

  remove(source: string): boolean {
    return this.bySource.delete(sourceKey(source));
  }

  list(): readonly OpenApiImport[] {
    return [...this.bySource.values()];
  }

  apply(services: readonly Service[]): Service[] {
    return mergeOverlays(services, this.list()).services;
  }
}
