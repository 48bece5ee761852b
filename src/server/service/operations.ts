// The language service's view of the catalog: operations with their request JSON Schema, plus the
// operations an imported OpenAPI document adds (the overlay arrives as JSON Schema, not zod).
import type { Catalog, Family, Operation, ServiceId } from '../../core/catalog';
import { requestBodyJsonSchema, type JSONSchema } from '../../core/catalog/jsonSchema';
import { nextReference } from '../../core/secrets/vocabulary';

export interface KnownOperation {
  readonly operation: Operation;
  /** JSON Schema of the request body; undefined when the contract shows none. */
  readonly requestSchema?: JSONSchema;
}

/** An operation imported from an OpenAPI document: the catalog shape plus its body as JSON Schema. */
export interface OverlayOperation {
  readonly operation: Operation;
  readonly requestSchema?: JSONSchema;
}

/** The env-file variable holding each service's base URL (see samples/workspace and src/core/env). */
export const BASE_URL_VARIABLES: Readonly<Record<ServiceId, string>> = {
  engagement: 'engagement_base_url',
  fundraising: 'fundraising_base_url',
  booking: 'booking_base_url',
};

export class OperationIndex {
  private readonly known: readonly KnownOperation[];
  private readonly overlay: readonly OverlayOperation[];
  private readonly byContractOperation: ReadonlyMap<Operation, KnownOperation>;

  constructor(private readonly catalog: Catalog, overlay: readonly OverlayOperation[] = []) {
    // An overlay entry with a contract operation's id enriches it (an imported document adds query
    // parameters or a fuller body to a published operation); the others are new operations.
    const byId = new Map(overlay.map((o) => [o.operation.id, o]));
    this.overlay = overlay.filter((o) => !catalog.operationById(o.operation.id));
    const contract = catalog.operations().map((operation): [Operation, KnownOperation] => [operation, enrich(operation, byId.get(operation.id))]);
    this.byContractOperation = new Map(contract);
    this.known = [...contract.map(([, known]) => known), ...this.overlay];
  }

  withOverlay(overlay: readonly OverlayOperation[]): OperationIndex {
    return new OperationIndex(this.catalog, overlay);
  }

  all(): readonly KnownOperation[] {
    return this.known;
  }

  /** match's answers by method and URL: a file repeats a few URLs over thousands of requests. */
  private readonly matched = new Map<string, KnownOperation | null>();

  /** The operation a request's method and URL address; the contract's operations win over imported ones. */
  match(method: string, url: string): KnownOperation | undefined {
    const key = `${method} ${url}`;
    let found = this.matched.get(key);
    if (found === undefined) {
      if (this.matched.size >= 10_000) this.matched.clear();
      this.matched.set(key, (found = this.findMatch(method, url) ?? null));
    }
    return found ?? undefined;
  }

  private findMatch(method: string, url: string): KnownOperation | undefined {
    const path = pathOf(url);
    const operation = this.catalog.match(method, path);
    if (operation) return this.byContractOperation.get(operation);
    const upper = method.toUpperCase();
    return this.overlay.find((o) => o.operation.method === upper && o.operation.path !== undefined && templateMatches(o.operation.path, path));
  }

  /** A deprecated family (Contact, Survey) addressed as `/api/<Family>/...`. */
  deprecatedFamily(url: string): Family | undefined {
    const family = /\/api\/([^/?#]+)\//.exec(pathOf(url))?.[1];
    if (!family) return undefined;
    return this.catalog.services.flatMap((s) => s.families).find((f) => f.deprecated && f.name.toLowerCase() === family.toLowerCase());
  }

  /** A family of the catalog addressed as `/api/<Family>/<Op>` whose operation the contract does not show. */
  silentFamily(url: string): Family | undefined {
    const family = /\/api\/([^/?#]+)\/[^/?#]+/.exec(pathOf(url))?.[1];
    if (!family) return undefined;
    return this.catalog.services.flatMap((s) => s.families).find((f) => !f.deprecated && f.name.toLowerCase() === family.toLowerCase());
  }
}

function enrich(operation: Operation, imported: OverlayOperation | undefined): KnownOperation {
  const contractSchema = requestBodyJsonSchema(operation);
  if (!imported) return { operation, requestSchema: contractSchema };
  const query = [...(operation.query ?? [])];
  for (const parameter of imported.operation.query ?? []) if (!query.some((q) => q.name === parameter.name)) query.push(parameter);
  return { operation: { ...operation, query }, requestSchema: imported.requestSchema ?? contractSchema };
}

/** The path of a request URL: without `{{base}}` prefix, scheme, host, query and fragment. */
export function pathOf(url: string): string {
  let rest = url.trim();
  const base = nextReference(rest);
  if (base?.start === 0) rest = rest.slice(base.end);
  rest = rest.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return rest.split(/[?#]/, 1)[0] ?? '';
}

function templateMatches(template: string, path: string): boolean {
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`${pattern}/?$`, 'i').test(path);
}
