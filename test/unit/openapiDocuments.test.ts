// OpenAPI import from documents on disk: mapping of a 3.1 document the contract does not cover (added
// with origin 'import'), 3.0 conversions (nullable, boolean exclusive bounds), the contract-wins merge
// rules, and a clear error naming the source for every kind of bad document.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bookingService } from '../../src/core/catalog/booking';
import { engagementService } from '../../src/core/catalog/engagement';
import { fundraisingService } from '../../src/core/catalog/fundraising';
import { createCatalog, nonNullSchema, isNullable } from '../../src/core/catalog';
import { requestBodyJsonSchema, schemaAtPath } from '../../src/core/catalog/jsonSchema';
import { importOpenApiText, OpenApiImportError, withOverlay } from '../../src/core/openapi';
import { mergeOverlays } from '../../src/core/openapi/overlay';
import { pagingPlanFor } from '../../src/core/run/pagingPlan';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'openapi');
const BASE = [engagementService, fundraisingService, bookingService] as const;
const fixture = (name: string): { text: string; source: string } => ({ text: readFileSync(join(FIXTURES, name), 'utf8'), source: join(FIXTURES, name) });

void describe('a 3.1 document of operations the contract does not show', () => {
  const { text, source } = fixture('campaigns-3.1.json');
  const imported = importOpenApiText(text, source);

  void it('maps operations, names, families, parameters and security', () => {
    const summary = imported.operations.map((op) => `${op.method} ${op.path} ${op.id}`);
    assert.deepEqual(summary, [
      'GET /v1/campaigns fundraising/Campaigns/ListCampaigns',
      'POST /v1/campaigns fundraising/Campaigns/CreateCampaign',
      'GET /v1/campaigns/{campaignId} fundraising/Campaigns/GetCampaign',
      'PUT /v1/campaigns/{campaignId}/logo fundraising/Campaigns/PutV1CampaignsByLogo',
    ]);
    const [list, create, get] = imported.operations;
    assert.deepEqual(list?.auth, ['jwt-bearer']);
    assert.equal(list?.summary, 'Campaigns of the instance');
    assert.deepEqual(list?.query?.map((q) => [q.name, q.type, q.maximum ?? null]), [['page', 'integer', null], ['per_page', 'integer', 200]]);
    assert.deepEqual(list?.notShown, ['Header parameters documented by the import: X-Request-Id.']);
    assert.deepEqual(list?.pagingOptions, { items: 'data', total: 'total', page: 'page', size: 'per_page' });
    assert.deepEqual(create?.statuses, [201, 409]);
    assert.ok(get?.deprecated);
  });

  void it('converts body schemas: $refs into $defs, recursion, 3.1 null types, strict objects, examples', () => {
    const create = imported.operations[1]!;
    const schema = requestBodyJsonSchema(create)!;
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(schema.required, ['name']);
    assert.equal(schemaAtPath(schema, ['goal', 'amount'])?.exclusiveMinimum, 0);
    assert.deepEqual(schemaAtPath(schema, ['goal', 'currency'])?.examples, ['GBP']);
    assert.equal(schemaAtPath(schema, ['unknownField']), undefined, 'strict: unknown keys leave the schema');
    assert.deepEqual(schemaAtPath(schema, ['external']), {}, 'an external $ref accepts anything');
    const campaign = imported.operations[2]!.responseBodyJsonSchema!;
    assert.equal(schemaAtPath(campaign, ['parent', 'parent', 'name'])?.type, 'string', 'recursive schema walks');
    assert.ok(isNullable(campaign, schemaAtPath(campaign, ['status'])!));
  });

  void it('reports what it could not map, naming the schema or operation', () => {
    assert.equal(imported.warnings.length, 2);
    assert.match(imported.warnings[0] ?? '', /^CampaignInput\.external: the reference https:\/\/example\.invalid\/schemas\/External\.json cannot be resolved/);
    assert.match(imported.warnings[1] ?? '', /PUT \/v1\/campaigns\/\{campaignId\}\/logo: the request body is not JSON \(image\/png\)/);
  });

  void it('adds them to the catalog (origin import) in the contract family that had none, with a page/size plan', () => {
    const { services, report } = mergeOverlays([...BASE], [imported]);
    assert.deepEqual(report.enriched, []);
    assert.equal(report.added.length, 4);
    const catalog = createCatalog(services);
    const family = catalog.service('fundraising').families.find((f) => f.name === 'Campaigns');
    assert.equal(family?.operations.length, 4);
    const op = catalog.match('get', 'https://x.test/v1/campaigns/7');
    assert.equal(op?.origin, 'import');
    assert.equal(op?.id, 'fundraising/Campaigns/GetCampaign');
    const lookup = pagingPlanFor({ method: 'GET', url: 'https://x.test/v1/campaigns?page=2' }, {}, catalog);
    assert.deepEqual(lookup.ok ? lookup.plan?.options : undefined, { items: 'data', total: 'total', page: 'page', size: 'per_page' });
    assert.equal(createCatalog(withOverlay([...BASE], [imported, imported])).operations().length, catalog.operations().length, 'same source twice counts once');
  });
});

void describe('3.0 conversions and the contract-wins merge', () => {
  // A document as the product reads it: JSON text.
  const doc = (paths: Record<string, unknown>, schemas: Record<string, unknown> = {}): string =>
    JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths, components: { schemas } });
  const body = (schema: unknown): unknown => ({ requestBody: { content: { 'application/json; charset=utf-8': { schema } } }, responses: { 200: { description: 'ok' } } });

  void it('turns nullable and boolean exclusive bounds into 2020-12', () => {
    const imported = importOpenApiText(doc({ '/v1/x': { post: body({
      type: 'object',
      properties: {
        a: { type: 'string', nullable: true, enum: ['p', 'q'] },
        b: { $ref: '#/components/schemas/B', nullable: true },
        c: { type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
      },
    }) } }, { B: { type: 'object', properties: { z: { type: 'boolean' } } } }), 'mem:doc');
    const schema = requestBodyJsonSchema(imported.operations[0]!)!;
    assert.deepEqual(schemaAtPath(schema, ['a']), { type: ['string', 'null'], enum: ['p', 'q', null] });
    assert.ok(isNullable(schema, schemaAtPath(schema, ['b'])!));
    assert.equal(schemaAtPath(schema, ['b', 'z'])?.type, 'boolean');
    assert.deepEqual(schemaAtPath(schema, ['c']), { type: 'integer', exclusiveMinimum: 1, maximum: 9 });
  });

  void it('keeps a strict contract body as stated: no imported field is added, stated types win', () => {
    const imported = importOpenApiText(doc({ '/api/SurveyApi/AddChoiceQuestion': { post: body({
      type: 'object', properties: { OpCode: { type: 'string' }, Invented: { type: 'string' } },
    }) } }), 'mem:engagement', { service: 'engagement' });
    const contract = createCatalog([...BASE]).operationById('engagement/SurveyApi/AddChoiceQuestion')!;
    const catalog = createCatalog(withOverlay([...BASE], imported));
    const op = catalog.operationById('engagement/SurveyApi/AddChoiceQuestion')!;
    const schema = requestBodyJsonSchema(op)!;
    assert.equal(schemaAtPath(schema, ['Invented']), undefined);
    assert.deepEqual(nonNullSchema(schema, schemaAtPath(schema, ['OpCode'])!).type, nonNullSchema(requestBodyJsonSchema(contract)!, schemaAtPath(requestBodyJsonSchema(contract)!, ['OpCode'])!).type);
    assert.equal(op.paging, contract.paging);
  });

  void it('fills a loose contract body and marks imported-only fields', () => {
    const imported = importOpenApiText(doc({ '/v1/lists': { post: body({ type: 'object', properties: { name: { type: 'string' } } }) } }), 'mem:lists');
    const op = createCatalog(withOverlay([...BASE], imported)).match('POST', '/v1/lists')!;
    assert.equal(schemaAtPath(requestBodyJsonSchema(op)!, ['name'])?.type, 'string');
    assert.deepEqual(op.imported?.contributed, ['requestBody']);
  });
});

void describe('bad documents give clear errors naming the source', () => {
  const cases: ReadonlyArray<[string, RegExp]> = [
    ['not-json.yaml', /is YAML; API Workbench imports OpenAPI documents in JSON/],
    ['broken.json', /not valid JSON: .* at line \d+, column \d+/],
    ['swagger-2.json', /a Swagger 2\.0 document; only OpenAPI 3\.0 and 3\.1/],
    ['missing-paths.json', /has no 'paths': there are no operations to import/],
    ['not-openapi.json', /not an OpenAPI document: it has no 'openapi' version field/],
  ];
  for (const [name, pattern] of cases) {
    void it(name, () => {
      const { text, source } = fixture(name);
      assert.throws(() => importOpenApiText(text, source), (e: unknown) =>
        e instanceof OpenApiImportError && e.source === source && e.message.startsWith(`${source}: `) && pattern.test(e.message));
    });
  }

  void it('empty text, plain text, a JSON array, version 4, empty paths', () => {
    assert.throws(() => importOpenApiText('  ', 'a.json'), /^OpenApiImportError: a\.json: the document is empty/);
    assert.throws(() => importOpenApiText('<html></html>', 'b'), /b: not JSON \(it starts with "<html><\/html>"\)/);
    assert.throws(() => importOpenApiText('[1]', 'c'), /c: not an OpenAPI document: the top level is not a JSON object/);
    assert.throws(() => importOpenApiText(JSON.stringify({ openapi: '4.0.0', paths: {} }), 'd'), /d: OpenAPI version 4\.0\.0 is not supported/);
    assert.throws(() => importOpenApiText(JSON.stringify({ openapi: '3.1.0', paths: { '/x': { summary: 'no methods' } } }), 'e'), /e: 'paths' holds no operations/);
  });
});
