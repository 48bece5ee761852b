// JSON Schema for the language server, generated from the catalog's zod schemas with zod v4's
// z.toJSONSchema — never written by hand. FieldMeta keys (description, source, enumMeanings,
// sandboxRequired, release, format) come through as schema keywords. Generation uses the *input* view: strict
// request shapes keep `additionalProperties: false`, loose ones `additionalProperties: {}`, and
// response objects stay open (a response may carry more than the contract lists).
import { z } from 'zod';
import type { JSONSchema as ZodJsonSchema } from 'zod/v4/core';
import type { Operation } from './model';

export type JSONSchema = ZodJsonSchema.JSONSchema;

const bySchema = new WeakMap<z.ZodType, JSONSchema>();

/** The JSON Schema of any catalog zod schema, generated once and cached. */
export function jsonSchemaOf(schema: z.ZodType): JSONSchema {
  let generated = bySchema.get(schema);
  if (!generated) {
    generated = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
    bySchema.set(schema, generated);
  }
  return generated;
}

/** The request body's JSON Schema: the one an import gave directly, else generated from the zod schema. */
export function requestBodyJsonSchema(op: Operation): JSONSchema | undefined {
  if (op.requestBodyJsonSchema) return op.requestBodyJsonSchema;
  return op.requestBody ? jsonSchemaOf(op.requestBody) : undefined;
}

export function responseBodyJsonSchema(op: Operation): JSONSchema | undefined {
  if (op.responseBodyJsonSchema) return op.responseBodyJsonSchema;
  return op.responseBody ? jsonSchemaOf(op.responseBody) : undefined;
}

type SchemaOrBool = JSONSchema | boolean;

/** `true` means "anything" and becomes `{}`; `false` means "nothing allowed" and becomes undefined. */
function asSchema(value: SchemaOrBool | undefined): JSONSchema | undefined {
  if (value === undefined || value === false) return undefined;
  return value === true ? {} : value;
}

/** Follows a local `$ref` (`#` or `#/$defs/<name>`); sibling keywords (description, meta) are kept. */
export function derefSchema(root: JSONSchema, schema: JSONSchema): JSONSchema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined && hops < 32; hops++) {
    const { $ref, ...siblings } = current;
    const target = $ref === '#' ? root : $ref.startsWith('#/$defs/') ? root.$defs?.[decodeURIComponent($ref.slice(8))] : undefined;
    if (!target) return current;
    current = { ...target, ...siblings };
  }
  return current;
}

function isNullSchema(schema: JSONSchema): boolean {
  return schema.type === 'null';
}

/**
 * True when the schema admits null. zod's `.nullable()` gives `anyOf: [T, {type: 'null'}]` for most
 * types and `type: [T, 'null']` for booleans and strings; both are recognised.
 */
export function isNullable(root: JSONSchema, schema: JSONSchema): boolean {
  const resolved = derefSchema(root, schema);
  if (isNullSchema(resolved)) return true;
  if (Array.isArray(resolved.type)) return resolved.type.includes('null');
  return (resolved.anyOf ?? resolved.oneOf ?? []).some((branch) => isNullable(root, branch));
}

/**
 * The schema without its null alternative, with `$ref` followed, so callers can read `type`,
 * `properties` or `items` directly. Metadata of the wrapper (description, enumMeanings...) is kept.
 */
export function nonNullSchema(root: JSONSchema, schema: JSONSchema): JSONSchema {
  const resolved = derefSchema(root, schema);
  // zod writes a nullable primitive as `type: ['boolean', 'null']`.
  if (Array.isArray(resolved.type) && resolved.type.includes('null')) {
    const rest = resolved.type.filter((t) => t !== 'null');
    return { ...resolved, type: rest.length === 1 && rest[0] ? rest[0] : rest };
  }
  const branches = resolved.anyOf ?? resolved.oneOf;
  if (!branches) return resolved;
  const nonNull = branches.filter((branch) => !isNullSchema(derefSchema(root, branch)));
  if (nonNull.length !== 1 || !nonNull[0]) return resolved;
  const { anyOf: _anyOf, oneOf: _oneOf, ...wrapper } = resolved;
  return { ...nonNullSchema(root, nonNull[0]), ...wrapper };
}

function step(root: JSONSchema, schema: JSONSchema, segment: string | number): JSONSchema | undefined {
  const node = nonNullSchema(root, schema);
  const candidates = node.anyOf ?? node.oneOf ?? [node];
  for (const candidate of candidates) {
    const branch = nonNullSchema(root, candidate);
    const isIndex = typeof segment === 'number' || (/^\d+$/.test(segment) && branch.properties?.[segment] === undefined);
    if (isIndex && branch.items !== undefined) {
      const index = Number(segment);
      const found = Array.isArray(branch.items) ? branch.items[index] : branch.items;
      return asSchema(found);
    }
    if (isIndex && branch.prefixItems) return asSchema(branch.prefixItems[Number(segment)]);
    if (typeof segment === 'string') {
      const property = branch.properties?.[segment];
      if (property !== undefined) return asSchema(property);
      if (branch.type === 'object' || branch.properties) {
        const additional = asSchema(branch.additionalProperties);
        // additionalProperties absent means "anything" in JSON Schema.
        if (branch.additionalProperties === undefined) return {};
        if (additional) return additional;
      }
    }
  }
  return undefined;
}

/**
 * The schema of the value at `jsonPath` inside a body (`['Choices', 0, 'Label']`), following $ref/$defs,
 * nullable anyOf and array items. Returns undefined when the path leaves the schema: an unknown key of a
 * strict object, an index into a non-array. The returned schema is not unwrapped, so nullability and the
 * field's metadata are still visible on it (use nonNullSchema to read its type).
 */
export function schemaAtPath(schema: JSONSchema, jsonPath: readonly (string | number)[]): JSONSchema | undefined {
  let current: JSONSchema | undefined = schema;
  for (const segment of jsonPath) {
    if (!current) return undefined;
    current = step(schema, current, segment);
  }
  return current ? derefSchema(schema, current) : undefined;
}
