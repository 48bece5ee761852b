// OpenAPI import of the sandbox's live /openapi/v1.json over real HTTP (sandbox in-process, port 0):
// the operations come in with origin 'import', merge over the contract catalog without duplicates
// (matching contract operations are enriched), their bodies give schemas schemaAtPath can walk, the
// documented limit/offset/next_link become a generic paging plan, and a refresh replaces the overlay.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bookingService } from '../../src/core/catalog/booking';
import { engagementService } from '../../src/core/catalog/engagement';
import { fundraisingService } from '../../src/core/catalog/fundraising';
import { createCatalog, nonNullSchema, type Catalog } from '../../src/core/catalog';
import { bodySkeleton } from '../../src/core/catalog/bodySkeleton';
import { requestBodyJsonSchema, schemaAtPath } from '../../src/core/catalog/jsonSchema';
import { closeHttpAgents, sendRequest } from '../../src/core/http/client';
import { walk } from '../../src/core/paging/walker';
import { memorySink } from '../../src/core/export/sink';
import { importOpenApiUrl, OpenApiImportError, OverlaySet, toCatalogOverlayParams, withOverlay, type OpenApiImport } from '../../src/core/openapi';
import { mergeOverlays } from '../../src/core/openapi/overlay';
import { catalogOverlayParams } from '../../src/protocol/lsp';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';
import { overlayOperations } from '../../src/server/overlay';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { pagingPlanFor } from '../../src/core/run/pagingPlan';

const BASE = [engagementService, fundraisingService, bookingService] as const;

void describe('OpenAPI import of the sandbox /openapi/v1.json', () => {
  let sandbox: RunningSandbox;
  let imported: OpenApiImport;
  let url: string;

  before(async () => {
    sandbox = await startSandbox({ constituents: 120 });
    url = `${sandbox.descriptor.fundraising.baseUrl}/openapi/v1.json`;
    imported = await importOpenApiUrl(url);
  });
  after(async () => {
    await sandbox.close();
    await closeHttpAgents();
  });

  void it('reads every operation of the document with origin import, method, path and body schema', () => {
    assert.equal(imported.source, url);
    assert.equal(imported.service, 'fundraising');
    assert.match(imported.openapi, /^3\.0\./);
    assert.deepEqual(imported.warnings, []);
    const lines = imported.operations.map((op) => `${op.method} ${op.path}`).sort();
    assert.deepEqual(lines, [
      'GET /v1/constituents', 'GET /v1/constituents/{constituentId}', 'GET /v1/lists/{listDefinitionId}', 'GET /v1/lookup-types',
      'GET /v1/transactions', 'GET /v1/transactions/{transactionId}', 'POST /v1/constituents', 'POST /v1/constituents/duplicate-check',
      'POST /v1/lists', 'POST /v1/transactions',
    ]);
    for (const op of imported.operations) {
      assert.equal(op.origin, 'import');
      assert.equal(op.imported?.source, url);
      assert.deepEqual([...op.auth].sort(), ['basic-api-key', 'jwt-bearer']);
    }
    const create = imported.operations.find((op) => op.imported?.operationId === 'createTransaction');
    assert.equal(create?.name, 'CreateTransaction');
    const schema = create && requestBodyJsonSchema(create);
    assert.ok(schema, 'the imported operation carries its body schema');
    assert.deepEqual(schema.required, ['constituentId', 'amount']);
    assert.equal(nonNullSchema(schema, schemaAtPath(schema, ['allocations', 0, 'canRecoverTax']) ?? {}).type, 'boolean');
  });

  void it('maps the documented paging: limit bounds, and next_link/value/count as a generic plan', () => {
    const list = imported.operations.find((op) => op.path === '/v1/constituents' && op.method === 'GET');
    assert.ok(list);
    assert.equal(list.paging, 'generic');
    assert.deepEqual(list.pagingOptions, { items: 'value', next: 'next_link', total: 'count', offset: 'offset', limit: 'limit' });
    const limit = list.query?.find((q) => q.name === 'limit');
    assert.deepEqual([limit?.type, limit?.minimum, limit?.maximum, limit?.default], ['integer', 1, 500, 50]);
    assert.equal(imported.operations.find((op) => op.path === '/v1/constituents/{constituentId}')?.paging, 'none');
  });

  void it('merges into the catalog without duplicating the built-in operations: they are enriched', () => {
    const plain = createCatalog([...BASE]);
    const { services, report } = mergeOverlays([...BASE], [imported]);
    const catalog = createCatalog(services);
    assert.equal(catalog.operations().length, plain.operations().length, 'no operation added twice');
    assert.equal(report.enriched.length, 10);
    assert.deepEqual(report.added, []);
    const op = catalog.match('POST', '/v1/constituents');
    assert.ok(op);
    assert.equal(op.id, 'fundraising/Constituents/CreateConstituent', 'the contract id and family stay');
    assert.equal(op.origin, 'contract');
    assert.equal(op.imported?.source, url);
    assert.ok(op.imported?.contributed.includes('requestBody'));
    assert.ok(op.requestBody, 'the zod schema of the contract is still there for its other callers');
    const untouched = catalog.operationById('engagement/SurveyApi/AddChoiceQuestion');
    assert.equal(untouched, plain.operationById('engagement/SurveyApi/AddChoiceQuestion'), 'other services are untouched');
  });

  void it('gives the enriched body schema to schemaAtPath (completion) with the contract meanings kept', () => {
    const catalog = createCatalog(withOverlay([...BASE], imported));
    const create = catalog.match('POST', '/v1/transactions');
    assert.ok(create);
    const schema = requestBodyJsonSchema(create);
    assert.ok(schema);
    const keys = Object.keys(nonNullSchema(schema, schema).properties ?? {});
    for (const key of ['constituentId', 'amount', 'giftAid', 'allocations', 'utmSource']) assert.ok(keys.includes(key), key);
    // utmSource: named by the contract (meaning kept), typed by the import.
    const utm = schemaAtPath(schema, ['utmSource']);
    assert.equal(utm?.type, 'string');
    assert.match(String(utm?.description), /UTM tracking code: source/);
    // constituentId: only the import names it.
    assert.ok(schemaAtPath(schema, ['constituentId']));
    assert.equal(nonNullSchema(schema, schemaAtPath(schema, ['giftAid', 'addDeclaration']) ?? {}).type, 'boolean');
    assert.equal(schemaAtPath(schema, ['allocations', 0, 'canRecoverTax'])?.type, 'boolean');
    // The constituent body the contract leaves empty gets the document's fields, enum included.
    const constituent = requestBodyJsonSchema(catalog.match('POST', '/v1/constituents')!);
    assert.deepEqual(schemaAtPath(constituent!, ['type'])?.enum, ['individual', 'household', 'organisation']);
    assert.equal(schemaAtPath(constituent!, ['mainContact', 'email'])?.type, 'string');
    const skeleton = bodySkeleton(catalog.match('POST', '/v1/lists')!);
    assert.ok(skeleton === undefined || typeof skeleton === 'string' || typeof skeleton === 'object');
  });

  void it('gives completion and hover for the imported body fields in a .http file (pure language service)', () => {
    const service = createHttpLanguageService(createCatalog(withOverlay([...BASE], imported)));
    const text = [
      '### Create',
      'POST {{fundraising_base_url}}/v1/constituents',
      'Content-Type: application/json',
      '',
      '{',
      '  "type": "individual",',
      '  ',
      '}',
      '',
    ].join('\n');
    const document = new HttpDocument('file:///create.http', 1, text);
    const labels = service.doComplete(document, { line: 6, character: 2 }).items.map((i) => i.label);
    for (const key of ['firstName', 'lastName', 'email', 'mainContact']) assert.ok(labels.some((l) => l.includes(key)), `${key} in ${labels.join(', ')}`);
    const hover = service.doHover(document, { line: 5, character: 4 });
    assert.match(JSON.stringify(hover?.contents), /\*\*type\*\*: `string`/);
    const plainService = createHttpLanguageService(createCatalog([...BASE]));
    const plain = plainService.doComplete(document, { line: 6, character: 2 }).items.map((i) => i.label);
    assert.equal(plain.some((l) => l.includes('firstName')), false, 'without the import the contract shows no field');
    // The same through the apiWorkbench/catalogOverlay notification payload the extension sends.
    plainService.setOverlay(overlayOperations(catalogOverlayParams.parse(toCatalogOverlayParams(withOverlay([...BASE], imported), url))));
    const viaPayload = plainService.doComplete(document, { line: 6, character: 2 }).items.map((i) => i.label);
    for (const key of ['firstName', 'mainContact']) assert.ok(viaPayload.some((l) => l.includes(key)), `${key} via the overlay payload`);
  });

  void it('surfaces the paging names on the enriched list operations, and they walk the live service', async () => {
    const catalog = createCatalog(withOverlay([...BASE], imported));
    const list = catalog.match('GET', '/v1/constituents?limit=50');
    assert.ok(list);
    // The plan a send of the request follows (the exchange's pagingPlanFor), from the enriched operation.
    const lookup = pagingPlanFor({ method: 'GET', url: `${sandbox.descriptor.fundraising.baseUrl}/v1/constituents?limit=50` }, {}, catalog);
    const plan = lookup.ok ? lookup.plan : undefined;
    assert.deepEqual(plan, { style: 'generic', options: { items: 'value', next: 'next_link', total: 'count', offset: 'offset', limit: 'limit' }, source: 'catalog' });
    const { tenantCode, fullAccess } = sandbox.descriptor.credentials.fundraising;
    const headers = { 'X-API-Key': tenantCode, Authorization: `Basic ${Buffer.from(`${fullAccess.permissionName}:${fullAccess.serviceKey}`).toString('base64')}` };
    const sink = memorySink();
    const result = await walk(
      { method: 'GET', url: `${sandbox.descriptor.fundraising.baseUrl}/v1/constituents?limit=50`, headers },
      { plan: plan, sink, send: (request) => sendRequest(request) },
    );
    assert.equal(result.outcome, 'complete', result.message);
    assert.equal(result.rows, 120);
  });

  void it('refreshing the same source replaces its overlay; the LSP payload validates', async () => {
    const overlays = new OverlaySet();
    overlays.set(imported);
    const again = await importOpenApiUrl(`${url}#refresh`);
    overlays.set(again);
    assert.equal(overlays.list().length, 1, 'same source (fragment ignored): replaced, not added');
    const services = overlays.apply([...BASE]);
    assert.equal(createCatalog(services).operations().length, createCatalog([...BASE]).operations().length);
    const payload = catalogOverlayParams.parse(toCatalogOverlayParams(services, url));
    assert.equal(payload.operations.length, 10);
    const body = payload.operations.find((o) => o.method === 'POST' && o.path === '/v1/lists')?.requestBodySchema;
    assert.ok(body && typeof body === 'object' && 'properties' in body);
    assert.equal(overlays.remove(url), true);
    assert.equal(overlays.list().length, 0);
  });

  void it('names the URL in clear errors: HTML page, 404, refused connection', async () => {
    const base = sandbox.descriptor.fundraising.baseUrl;
    await assert.rejects(importOpenApiUrl(`${base}/swagger/index.html`), (e: unknown) =>
      e instanceof OpenApiImportError && e.message.startsWith(`${base}/swagger/index.html: `) && /HTML page/.test(e.message));
    await assert.rejects(importOpenApiUrl(`${base}/openapi/v2.json`), (e: unknown) =>
      e instanceof OpenApiImportError && /HTTP 404/.test(e.message));
    await assert.rejects(importOpenApiUrl('ftp://127.0.0.1/x.json'), /only http and https/);
    await assert.rejects(importOpenApiUrl('not a url'), /not a URL/);
  });
});

void describe('catalog without overlay', () => {
  void it('keeps requestBodyJsonSchema generated from zod for contract operations', () => {
    const catalog: Catalog = createCatalog();
    const op = catalog.operationById('engagement/SurveyApi/AddChoiceQuestion');
    assert.ok(op && requestBodyJsonSchema(op)?.properties);
  });
});
