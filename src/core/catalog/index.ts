// The catalog: the three services of the contracts, plus any imported overlay. Pure data and lookups.
import type { HttpMethod, Operation, Service, ServiceId } from './model';
import { engagementService } from './engagement';
import { fundraisingService } from './fundraising';
import { bookingService } from './booking';

export * from './model';
export { responseBodyJsonSchema, derefSchema, nonNullSchema, isNullable, type JSONSchema } from './jsonSchema';
export { detectBusinessErrors, type BusinessErrorReport, type BusinessFailure } from './businessErrors';
export * as schemas from './schemas';
export { releaseLines } from './releases';

export interface Catalog {
  readonly services: readonly Service[];
  service(id: ServiceId): Service;
  operations(): readonly Operation[];
  operationById(id: string): Operation | undefined;
  /** The operation whose method and path template match a request; `path` may carry a query string. */
  match(method: string, path: string): Operation | undefined;
}

/** The three services of the contracts, before any imported overlay. */
export const CONTRACT_SERVICES: readonly Service[] = [engagementService, fundraisingService, bookingService];

export function createCatalog(services: readonly Service[] = CONTRACT_SERVICES): Catalog {
  const all = services.flatMap((s) => s.families.flatMap((f) => f.operations));
  const byId = new Map(all.map((op) => [op.id, op]));
  const matchers = all
    .filter((op): op is Operation & { method: HttpMethod; path: string } => op.method !== undefined && op.path !== undefined)
    .map((op) => ({ op, pattern: pathPattern(op.path) }))
    // Literal segments win over placeholders: /v1/constituents/duplicate-check before /v1/constituents/{id}.
    .sort((a, b) => placeholderCount(a.op.path) - placeholderCount(b.op.path));
  // The answer for each method and path asked (a run asks the same few again and again): the catalog never changes.
  const matched = new Map<string, Operation | undefined>();
  return {
    services,
    service(id) {
      const found = services.find((s) => s.id === id);
      if (!found) throw new Error(`Unknown service '${id}'`);
      return found;
    },
    operations: () => all,
    operationById: (id) => byId.get(id),
    match(method, path) {
      const bare = path.split(/[?#]/, 1)[0] ?? '';
      const upper = method.toUpperCase();
      const key = `${upper} ${bare}`;
      if (matched.has(key)) return matched.get(key);
      const op = matchers.find((m) => m.op.method === upper && m.pattern.test(bare))?.op;
      if (matched.size >= MATCH_CACHE_LIMIT) matched.clear();
      matched.set(key, op);
      return op;
    },
  };
}

/** Paths remembered per catalog: a walk of 10 000 pages asks as many paths of one operation. */
const MATCH_CACHE_LIMIT = 1_000;

function placeholderCount(path: string): number {
  return (path.match(/\{[^}]+\}/g) ?? []).length;
}

/** `/v1/constituents/{constituentId}` matches any path that ends with it (the base URL may carry a prefix). */
function pathPattern(template: string): RegExp {
  const escaped = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`${escaped}/?$`, 'i');
}
