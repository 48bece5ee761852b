// The `apiWorkbench/catalogOverlay` notification payload (src/protocol/lsp.ts) for the language server:
// every operation the overlay created or enriched, with its request body as JSON Schema.
import type { Operation, Service } from '../catalog/model';
import { requestBodyJsonSchema } from '../catalog/jsonSchema';
import type { CatalogOverlayParams } from '../../protocol/lsp';

type OverlayQuery = NonNullable<CatalogOverlayParams['operations'][number]['query']>[number];

/** Operations of the merged services that an import created or enriched. */
export function importedOperationsOf(services: readonly Service[]): Operation[] {
  return services.flatMap((s) => s.families.flatMap((f) => f.operations)).filter((op) => op.imported !== undefined);
}

export function toCatalogOverlayParams(services: readonly Service[], origin?: string): CatalogOverlayParams {
  const operations = importedOperationsOf(services).flatMap((op) => {
    if (!op.method || !op.path) return [];
    const query = (op.query ?? []).flatMap((q): OverlayQuery[] => (q.type === 'not-shown' ? [] : [{
      name: q.name,
      type: q.type,
      meaning: q.meaning,
      ...(q.required ? { required: true } : {}),
      ...(q.minimum !== undefined ? { minimum: q.minimum } : {}),
      ...(q.maximum !== undefined ? { maximum: q.maximum } : {}),
    }]));
    const schema = requestBodyJsonSchema(op);
    return [{
      id: op.id,
      service: op.service,
      family: op.family,
      name: op.name,
      summary: op.summary,
      method: op.method,
      path: op.path,
      ...(query.length ? { query } : {}),
      ...(schema ? { requestBodySchema: schema } : {}),
    }];
  });
  return { ...(origin ? { origin } : {}), operations };
}
