// Document → catalog Operations (origin 'import'). Family: the first tag, else the first path segment
// after a version prefix (/v1/constituents → Constituents). Name: the operationId in PascalCase, else
// method + path. Parameters, request body, the first 2xx JSON response and security are mapped; what
// cannot be mapped (external $refs, non-JSON bodies) becomes a warning, never a failure.
import type { JSONSchema } from '../catalog/jsonSchema';
import type { AuthMethod, HttpMethod, Operation, QueryParameter, SeedRef, ServiceId } from '../catalog/model';
import { HTTP_METHODS_OF_OPENAPI, type Json, type OpenApiDocument } from './document';
import { isJsonObject } from '../json/numberText';
import { pagingOptionsOf } from './paging';
import { resolveObject, SchemaConverter } from './schema';
import { scalarText } from '../text/scalarText';

const SEED_OF: Readonly<Record<ServiceId, SeedRef['seed']>> = { engagement: '000', fundraising: '001', booking: '002' };

/** Where imported facts say they come from: the service's seed, section 'import' (SeedRef has no other slot). */
export function importSeedRef(service: ServiceId): SeedRef {
  return { seed: SEED_OF[service], section: 'import' };
}

export interface MapOptions {
  readonly source: string;
  readonly service: ServiceId;
}

export function mapOperations(document: OpenApiDocument, options: MapOptions, warnings: string[]): Operation[] {
  const converter = new SchemaConverter(document.root, warnings);
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(document.paths)) {
    const item = resolveObject(document.root, rawItem, warnings, path);
    if (!item) continue;
    const shared = Array.isArray(item['parameters']) ? item['parameters'] : [];
    for (const method of HTTP_METHODS_OF_OPENAPI) {
      const raw = item[method];
      if (!isJsonObject(raw)) continue;
      operations.push(mapOperation(document, converter, options, warnings, { path, method, raw, shared }));
    }
  }
  return operations;
}

interface Located {
  readonly path: string;
  readonly method: (typeof HTTP_METHODS_OF_OPENAPI)[number];
  readonly raw: Json;
  readonly shared: readonly unknown[];
}

function mapOperation(document: OpenApiDocument, converter: SchemaConverter, options: MapOptions, warnings: string[], at: Located): Operation {
  const where = `${at.method.toUpperCase()} ${at.path}`;
  const root = document.root;
  const parameters = mergeParameters(root, at.shared, Array.isArray(at.raw['parameters']) ? at.raw['parameters'] : [], warnings, where);
  const query = parameters.filter((p) => p['in'] === 'query').map((p) => queryParameter(p, converter, options.service, where));
  const requestBodyJsonSchema = requestBodySchema(root, at.raw, converter, warnings, where);
  const response = successResponse(root, at.raw, converter, warnings, where);
  const pagingOptions = at.method === 'get' ? pagingOptionsOf(query.map((q) => q.name), response) : undefined;
  const operationId = typeof at.raw['operationId'] === 'string' ? at.raw['operationId'] : undefined;
  const family = familyOf(at.raw, at.path);
  const name = operationId ? pascalCase(operationId) : pascalCase(`${at.method} ${at.path.replace(/\{[^}]*\}/g, 'by')}`);
  const summary = [at.raw['summary'], at.raw['description']].find((s): s is string => typeof s === 'string' && s.trim() !== '')
    ?? `${where} (imported from ${options.source})`;
  const statuses = isJsonObject(at.raw['responses'])
    ? Object.keys(at.raw['responses']).filter((s) => /^\d{3}$/.test(s) && s !== '200').map(Number)
    : [];
  const headerParams = parameters.filter((p) => p['in'] === 'header').map((p) => String(p['name']));
  return {
    id: `${options.service}/${family}/${name}`,
    service: options.service,
    family,
    name,
    summary,
    method: at.method.toUpperCase() as HttpMethod,
    path: at.path,
    pathStatus: 'published',
    auth: authMethods(root, at.raw),
    paging: pagingOptions ? 'generic' : 'none',
    ...(pagingOptions ? { pagingOptions } : {}),
    ...(query.length ? { query } : {}),
    ...(requestBodyJsonSchema ? { requestBodyJsonSchema } : {}),
    ...(response ? { responseBodyJsonSchema: response } : {}),
    ...(statuses.length ? { statuses } : {}),
    notShown: headerParams.length ? [`Header parameters documented by the import: ${headerParams.join(', ')}.`] : [],
    ...(at.raw['deprecated'] === true ? { deprecated: { replacement: 'marked deprecated by the imported document' } } : {}),
    source: importSeedRef(options.service),
    origin: 'import',
    imported: { source: options.source, ...(operationId ? { operationId } : {}), contributed: ['operation'] },
  };
}

function mergeParameters(root: Json, shared: readonly unknown[], own: readonly unknown[], warnings: string[], where: string): Json[] {
  const byKey = new Map<string, Json>();
  for (const raw of [...shared, ...own]) {
    const p = resolveObject(root, raw, warnings, `${where} parameter`);
    if (p && typeof p['name'] === 'string' && typeof p['in'] === 'string') byKey.set(`${p['in']}:${p['name']}`, p);
  }
  return [...byKey.values()];
}

function queryParameter(p: Json, converter: SchemaConverter, service: ServiceId, where: string): QueryParameter {
  const schema = converter.rootSchema(p['schema'], `${where} query ${String(p['name'])}`);
  const resolved = resolveTarget(schema);
  const itemEnum = isJsonObject(resolved.items) ? (resolved.items).enum : undefined;
  const values = (resolved.enum ?? itemEnum)?.filter((v): v is string => typeof v === 'string');
  const description = typeof p['description'] === 'string' ? p['description'] : '';
  return {
    name: String(p['name']),
    type: parameterType(resolved),
    meaning: description || 'documented by the imported OpenAPI document',
    ...(p['required'] === true ? { required: true } : {}),
    ...(typeof resolved.default === 'string' || typeof resolved.default === 'number' ? { default: resolved.default } : {}),
    ...(typeof resolved.minimum === 'number' ? { minimum: resolved.minimum } : {}),
    ...(typeof resolved.maximum === 'number' ? { maximum: resolved.maximum } : {}),
    ...(values?.length ? { values } : {}),
    source: importSeedRef(service),
  };
}

/** The schema itself or its single `$defs` target, for reading type/enum/bounds of a parameter. */
function resolveTarget(schema: JSONSchema): JSONSchema {
  const ref = schema.$ref;
  if (ref?.startsWith('#/$defs/')) return { ...schema.$defs?.[decodeURIComponent(ref.slice(8))], ...schema };
  return schema;
}

function parameterType(schema: JSONSchema): QueryParameter['type'] {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return 'integer';
  if (type === 'boolean') return 'boolean';
  if (type === 'string' && (schema.format === 'date' || schema.format === 'date-time')) return 'date';
  if (type === 'string' || type === 'array') return 'string';
  return 'not-shown';
}

/** `application/json`, then any `+json` type, then `*\/*`. */
function jsonContent(content: unknown): Json | undefined {
  if (!isJsonObject(content)) return undefined;
  const key = Object.keys(content).find((k) => /^application\/json\b/i.test(k))
    ?? Object.keys(content).find((k) => /\+json\b/i.test(k))
    ?? Object.keys(content).find((k) => k === '*/*');
  const media = key ? content[key] : undefined;
  return isJsonObject(media) ? media : undefined;
}

function requestBodySchema(root: Json, raw: Json, converter: SchemaConverter, warnings: string[], where: string): JSONSchema | undefined {
  if (raw['requestBody'] === undefined) return undefined;
  const body = resolveObject(root, raw['requestBody'], warnings, `${where} requestBody`);
  const media = jsonContent(body?.['content']);
  if (!media) {
    const types = isJsonObject(body?.['content']) ? Object.keys(body['content']).join(', ') : 'none';
    warnings.push(`${where}: the request body is not JSON (${types}); no body schema imported.`);
    return undefined;
  }
  return converter.rootSchema(media['schema'], `${where} requestBody`);
}

function successResponse(root: Json, raw: Json, converter: SchemaConverter, warnings: string[], where: string): JSONSchema | undefined {
  const responses = raw['responses'];
  if (!isJsonObject(responses)) return undefined;
  const key = ['200', '201', '202', '203', '206', '2XX', '2xx', 'default'].find((k) => responses[k] !== undefined);
  if (!key) return undefined;
  const response = resolveObject(root, responses[key], warnings, `${where} response ${key}`);
  const media = jsonContent(response?.['content']);
  return media?.['schema'] === undefined ? undefined : converter.rootSchema(media['schema'], `${where} response ${key}`);
}

function familyOf(raw: Json, path: string): string {
  const tags = raw['tags'];
  if (Array.isArray(tags) && typeof tags[0] === 'string' && tags[0].trim()) return pascalCase(tags[0]);
  const segments = path.split('/').filter((s) => s && !s.startsWith('{'));
  const meaningful = segments.find((s) => !/^(v\d+(\.\d+)*|api)$/i.test(s)) ?? segments[0] ?? 'Root';
  return pascalCase(meaningful);
}

/** `listConstituents` → ListConstituents, `lookup-types` → LookupTypes, `get /v1/x` → GetV1X. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** Security requirements (the operation's, else the document's) as the catalog's auth methods. */
function authMethods(root: Json, raw: Json): AuthMethod[] {
  const requirements = Array.isArray(raw['security']) ? raw['security'] : Array.isArray(root['security']) ? root['security'] : [];
  const components = isJsonObject(root['components']) ? root['components'] : {};
  const schemes = isJsonObject(components['securitySchemes']) ? components['securitySchemes'] : {};
  const methods = new Set<AuthMethod>();
  for (const requirement of requirements) {
    if (!isJsonObject(requirement)) continue;
    const kinds = Object.keys(requirement).map((name) => schemes[name]).filter(isJsonObject);
    const scheme = (s: Json): string => scalarText(s['scheme'] ?? '').toLowerCase();
    if (kinds.some((s) => s['type'] === 'oauth2' && isJsonObject(s['flows']) && s['flows']['password'] !== undefined)) methods.add('password-grant');
    else if (kinds.some((s) => s['type'] === 'http' && scheme(s) === 'bearer')) methods.add('jwt-bearer');
    else if (kinds.some((s) => (s['type'] === 'http' && scheme(s) === 'basic') || s['type'] === 'apiKey')) methods.add('basic-api-key');
  }
  return methods.size ? [...methods] : ['not-shown'];
}
