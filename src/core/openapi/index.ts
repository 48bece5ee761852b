// OpenAPI import (issue 7). JSON documents only: the one service that publishes an OpenAPI document
// serves it as JSON (/openapi/v1.json), and a YAML parser would add weight to the VSIX for no target
// service; a YAML document gets an error that says so.
//
// Merge decision: an imported operation with the same service, method and path template as a contract
// operation ENRICHES it — the tree shows one operation (origin 'contract', `imported` mark listing what
// was filled in: request/response body, query parameters, paging names); the contract's stated types,
// strict field lists and paging styles win. Other imported operations are ADDED with origin 'import'.
//
//   const imported = await importOpenApiUrl(`${base}/openapi/v1.json`);
//   overlays.set(imported);                                   // OverlaySet: refresh replaces by source
//   const catalog = createCatalog(overlays.apply([engagementService, fundraisingService, bookingService]));
//   pagingPlanFor(request, directives, catalog)             // run/pagingPlan.ts: { style: 'generic', options: { next: 'next_link', ... } }
export { OpenApiImportError } from './errors';
export { importOpenApiText, importOpenApiUrl, type OpenApiImport } from './importer';
export { withOverlay, OverlaySet, sourceKey } from './overlay';
export { toCatalogOverlayParams } from './lspPayload';
export { overlayFileText, readOverlayFile } from './overlayFile';
export { importCounts, importSummary } from './importSummary';
