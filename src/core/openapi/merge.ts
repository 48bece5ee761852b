// How an imported operation enriches the contract operation with the same method and path. The
// contract stays the source of truth: what it states (types, enums, strict field lists, paging style)
// is kept; what it leaves "not shown" is filled in from the import, and the ImportMark lists what the
// import contributed so the UI can say so.
import { jsonSchemaOf, type JSONSchema } from '../catalog/jsonSchema';
import type { Operation, QueryParameter } from '../catalog/model';

/** Keywords that state a type; a contract node without any of them is "type not shown". */
const TYPE_KEYWORDS = ['type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', 'items', 'prefixItems', 'properties', 'not'] as const;
/** Contract metadata kept on a node whose type comes from the import. */
const META_KEYWORDS = ['description', 'source', 'enumMeanings', 'sandboxRequired', 'release', 'title', 'default'] as const;

function statesType(schema: JSONSchema): boolean {
  return TYPE_KEYWORDS.some((k) => schema[k] !== undefined);
}

function isObjectSchema(schema: JSONSchema): boolean {
  return schema.type === 'object' || schema.properties !== undefined;
}

function metadataOf(schema: JSONSchema): JSONSchema {
  const out: Record<string, unknown> = {};
  for (const key of META_KEYWORDS) if (schema[key] !== undefined) out[key] = schema[key];
  return out;
}

/** Follows `#/$defs/X` of the imported root so object nodes can be merged (siblings win, as in derefSchema). */
function derefImported(root: JSONSchema, schema: JSONSchema): JSONSchema {
  let current = schema;
  for (let hops = 0; current.$ref?.startsWith('#/$defs/') && hops < 16; hops++) {
    const { $ref, ...siblings } = current;
    const target = root.$defs?.[decodeURIComponent($ref.slice(8))];
    if (!target) return current;
    current = { ...target, ...siblings };
  }
  return current;
}

function asSchema(value: JSONSchema | boolean | undefined): JSONSchema | undefined {
  if (value === undefined || value === false) return undefined;
  return value === true ? {} : value;
}

/** Two object schemas: the contract's properties (merged where both have them), then, unless the contract is strict, the import's others, marked. */
function mergeObject(contract: JSONSchema, target: JSONSchema, importedRoot: JSONSchema): JSONSchema {
  const strict = contract.additionalProperties === false;
  const properties: Record<string, JSONSchema> = {};
  for (const [name, value] of Object.entries(contract.properties ?? {})) {
    const mine = asSchema(value);
    const theirs = asSchema(target.properties?.[name]);
    if (mine) properties[name] = theirs ? mergeNode(mine, theirs, importedRoot) : mine;
  }
  if (!strict) {
    for (const [name, value] of Object.entries(target.properties ?? {})) {
      const theirs = asSchema(value);
      if (theirs && properties[name] === undefined) properties[name] = theirs;
    }
  }
  const required = [...new Set([...(contract.required ?? []), ...(strict ? [] : (target.required ?? []))])];
  return {
    ...contract,
    properties,
    ...(required.length ? { required } : {}),
    ...(strict ? {} : target.additionalProperties !== undefined ? { additionalProperties: target.additionalProperties } : {}),
  };
}

function mergeNode(contract: JSONSchema, imported: JSONSchema, importedRoot: JSONSchema): JSONSchema {
  if (!statesType(contract)) return { ...imported, ...metadataOf(contract) };
  const target = derefImported(importedRoot, imported);
  if (isObjectSchema(contract) && isObjectSchema(target)) return mergeObject(contract, target, importedRoot);
  if (contract.type === 'array' && target.type === 'array') {
    const mine = asSchema(Array.isArray(contract.items) ? undefined : contract.items);
    const theirs = asSchema(Array.isArray(target.items) ? undefined : target.items);
    if (mine && theirs) return { ...contract, items: mergeNode(mine, theirs, importedRoot) };
  }
  return contract;
}

/** The contract's body schema with the imported one filling in what the contract does not show. */
export function mergeBodySchema(contract: JSONSchema | undefined, imported: JSONSchema | undefined): JSONSchema | undefined {
  if (!imported) return contract;
  if (!contract) return imported;
  const { $defs: importedDefs, ...importedBody } = imported;
  const merged = mergeNode(contract, importedBody, imported);
  const defs = { ...importedDefs, ...contract.$defs };
  return Object.keys(defs).length ? { ...merged, $defs: defs } : merged;
}

function mergeQuery(contract: readonly QueryParameter[], imported: readonly QueryParameter[], contributed: string[]): QueryParameter[] {
  const out = contract.map((mine) => {
    const theirs = imported.find((q) => q.name === mine.name);
    if (!theirs || mine.type !== 'not-shown' || theirs.type === 'not-shown') return mine;
    contributed.push(`query-type:${mine.name}`);
    return { ...mine, type: theirs.type };
  });
  for (const theirs of imported) {
    if (contract.some((q) => q.name === theirs.name)) continue;
    contributed.push(`query:${theirs.name}`);
    out.push(theirs);
  }
  return out;
}

/** The contract operation enriched by the imported one (same method and path), still origin 'contract'. */
export function enrichOperation(contract: Operation, imported: Operation): Operation {
  const contributed: string[] = [];
  const query = mergeQuery(contract.query ?? [], imported.query ?? [], contributed);
  const contractRequest = contract.requestBodyJsonSchema ?? (contract.requestBody ? jsonSchemaOf(contract.requestBody) : undefined);
  const contractResponse = contract.responseBodyJsonSchema ?? (contract.responseBody ? jsonSchemaOf(contract.responseBody) : undefined);
  const requestBodyJsonSchema = mergeBodySchema(contractRequest, imported.requestBodyJsonSchema);
  const responseBodyJsonSchema = mergeBodySchema(contractResponse, imported.responseBodyJsonSchema);
  if (imported.requestBodyJsonSchema) contributed.push('requestBody');
  if (imported.responseBodyJsonSchema) contributed.push('responseBody');
  // Paging names only where the contract leaves them open (generic) or states no paging at all.
  const takesPaging = imported.pagingOptions !== undefined && (contract.paging === 'generic' || contract.paging === 'none');
  if (takesPaging) contributed.push('paging');
  return {
    ...contract,
    ...(query.length ? { query } : {}),
    ...(requestBodyJsonSchema ? { requestBodyJsonSchema } : {}),
    ...(responseBodyJsonSchema ? { responseBodyJsonSchema } : {}),
    ...(takesPaging ? { paging: 'generic' as const, pagingOptions: imported.pagingOptions } : {}),
    imported: {
      source: imported.imported?.source ?? 'an imported OpenAPI document',
      ...(imported.imported?.operationId ? { operationId: imported.imported.operationId } : {}),
      contributed,
    },
  };
}
