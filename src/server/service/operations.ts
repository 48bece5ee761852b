// The language service's view of the catalog: operations with their request JSON Schema, plus the
// operations an imported OpenAPI document adds (the overlay arrives as JSON Schema, not zod).
import { createCatalog, type Catalog, type Family, type Operation, type ServiceId } from '../../core/catalog';
import { requestBodyJsonSchema, type JSONSchema } from '../../core/catalog/jsonSchema';
import { withOverlay } from '../../core/openapi/overlay';
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
  private readonly byOperation: ReadonlyMap<Operation, KnownOperation>;
  /** The contract catalog with the overlay merged in by core's one merge (openapi/overlay.ts), as the extension and the CLI see it. */
  private readonly merged: Catalog;

  constructor(private readonly catalog: Catalog, overlay: readonly OverlayOperation[] = []) {
    // The client sends the operations its merge created or enriched (an enriched one under its contract
    // id, method and path); the same merge puts them in their place here, so one operation answers a
    // request in the editor, the language server and the CLI alike.
    const operations = overlay.map((o) => (o.requestSchema ? { ...o.operation, requestBodyJsonSchema: o.requestSchema } : o.operation));
    this.merged = operations.length === 0 ? catalog
      : createCatalog(withOverlay(catalog.services, { source: 'apiWorkbench/catalogOverlay', service: operations[0]!.service, openapi: '', operations, warnings: [] }));
    this.known = this.merged.operations().map((operation) => ({ operation, requestSchema: requestBodyJsonSchema(operation) }));
    this.byOperation = new Map(this.known.map((known) => [known.operation, known]));
  }

  withOverlay(overlay: readonly OverlayOperation[]): OperationIndex {
    return new OperationIndex(this.catalog, overlay);
  }

  all(): readonly KnownOperation[] {
    return this.known;
  }

  /** match's answers by method and URL: a file repeats a few URLs over thousands of requests. */
  private readonly matched = new Map<string, KnownOperation | null>();

  /** The operation a request's method and URL address (the catalog's match: literal segments first). */
  match(method: string, url: string): KnownOperation | undefined {
    const key = `${method} ${url}`;
    let found = this.matched.get(key);
    if (found === undefined) {
      if (this.matched.size >= 10_000) this.matched.clear();
      const operation = this.merged.match(method, requestLinePath(url));
      this.matched.set(key, (found = (operation && this.byOperation.get(operation)) ?? null));
    }
    return found ?? undefined;
  }

  /** A deprecated family (Contact, Survey) addressed as `/api/<Family>/...`. */
  deprecatedFamily(url: string): Family | undefined {
    const family = /\/api\/([^/?#]+)\//.exec(requestLinePath(url))?.[1];
    if (!family) return undefined;
    return this.catalog.services.flatMap((s) => s.families).find((f) => f.deprecated && f.name.toLowerCase() === family.toLowerCase());
  }

  /** A family of the catalog addressed as `/api/<Family>/<Op>` whose operation the contract does not show. */
  silentFamily(url: string): Family | undefined {
    const family = /\/api\/([^/?#]+)\/[^/?#]+/.exec(requestLinePath(url))?.[1];
    if (!family) return undefined;
    return this.catalog.services.flatMap((s) => s.families).find((f) => !f.deprecated && f.name.toLowerCase() === family.toLowerCase());
  }
}

/**
 * The path of a request line as written, before its variables are filled in: without a leading
 * `{{base}}`, scheme, host, query and fragment (core/http/url's pathOf reads a sent URL instead).
 */
export function requestLinePath(url: string): string {
  let rest = url.trim();
  const base = nextReference(rest);
  if (base?.start === 0) rest = rest.slice(base.end);
  rest = rest.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return rest.split(/[?#]/, 1)[0] ?? '';
}
