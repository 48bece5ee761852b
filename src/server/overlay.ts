// Turns an `apiWorkbench/catalogOverlay` payload into operations the language service matches.
import type { Operation } from '../core/catalog';
import type { CatalogOverlayParams } from '../protocol/lsp';
import type { OverlayOperation } from './service';

export function overlayOperations(params: CatalogOverlayParams): OverlayOperation[] {
  return params.operations.map((o) => {
    const operation: Operation = {
      id: o.id,
      service: o.service,
      family: o.family,
      name: o.name,
      summary: o.summary || `Imported from ${params.origin ?? 'an OpenAPI document'}`,
      method: o.method,
      path: o.path,
      pathStatus: 'published',
      auth: [],
      paging: 'generic',
      query: o.query?.map((q) => ({ ...q, source: { seed: o.service === 'fundraising' ? '001' : o.service === 'booking' ? '002' : '000', section: 'import' } })),
      notShown: [],
      source: { seed: o.service === 'fundraising' ? '001' : o.service === 'booking' ? '002' : '000', section: 'import' },
      origin: 'import',
    };
    return { operation, requestSchema: o.requestBodySchema };
  });
}
