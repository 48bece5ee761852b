// OpenAPI schema objects → JSON Schema draft 2020-12 the language server reads (schemaAtPath,
// derefSchema): `#/components/schemas/X` becomes `#/$defs/X` with only the reachable definitions
// copied into `$defs`; 3.0's `nullable` becomes a null alternative; 3.0's boolean exclusive bounds
// become numbers; OpenAPI-only keywords (discriminator, xml, externalDocs) are dropped.
import type { JSONSchema } from '../catalog/jsonSchema';
import type { Json } from './document';
import { isJsonObject } from '../json/numberText';

const DROPPED = new Set(['nullable', 'discriminator', 'xml', 'externalDocs', 'example']);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const;
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SCHEMA_SINGLES = ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames', 'unevaluatedProperties'] as const;
const COMPONENT_SCHEMA = '#/components/schemas/';

/** Follows a JSON pointer inside the document (`#/components/parameters/limit`). */
export function resolvePointer(root: Json, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isJsonObject(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A Parameter, RequestBody or Response object with its `$ref` chain followed (bounded). */
export function resolveObject(root: Json, value: unknown, warnings: string[], where: string): Json | undefined {
  let current = value;
  for (let hops = 0; isJsonObject(current) && typeof current['$ref'] === 'string' && hops < 16; hops++) {
    const ref = current['$ref'];
    const target = resolvePointer(root, ref);
    if (target === undefined) {
      warnings.push(`${where}: the reference ${ref} cannot be resolved (only references inside the document are followed).`);
      return undefined;
    }
    current = target;
  }
  return isJsonObject(current) ? current : undefined;
}

/** Converts schemas of one document; reachable component schemas are collected into `$defs`. */
export class SchemaConverter {
  private readonly defs = new Map<string, JSONSchema>();

  constructor(private readonly root: Json, private readonly warnings: string[]) {}

  /** The JSON Schema of an OpenAPI schema, as a self-contained root with the `$defs` it needs. */
  rootSchema(schema: unknown, where: string): JSONSchema {
    const converted = this.convert(schema, where);
    const needed = this.reachableDefs(converted);
    // A body that is one named schema is inlined at the root, so readers see its type directly.
    const { $ref, ...siblings } = converted;
    const target = $ref?.startsWith('#/$defs/') ? needed.get(decodeURIComponent($ref.slice(8))) : undefined;
    const body = target ? { ...target, ...siblings } : converted;
    const stillNeeded = target ? this.reachableDefs(body) : needed;
    return stillNeeded.size ? { ...body, $defs: Object.fromEntries(stillNeeded) } : body;
  }

  private reachableDefs(schema: JSONSchema): Map<string, JSONSchema> {
    const out = new Map<string, JSONSchema>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!isJsonObject(node)) return;
      const ref = node['$ref'];
      if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
        const name = decodeURIComponent(ref.slice(8));
        const def = this.defs.get(name);
        if (def && !out.has(name)) {
          out.set(name, def);
          visit(def);
        }
      }
      for (const [key, inner] of Object.entries(node)) if (key !== '$ref') visit(inner);
    };
    visit(schema);
    return out;
  }

  private convert(schema: unknown, where: string): JSONSchema {
    if (schema === true || schema === undefined) return {};
    if (schema === false) return { not: {} };
    if (!isJsonObject(schema)) return {};
    const ref = schema['$ref'];
    if (typeof ref === 'string') return this.convertRef(schema, ref, where);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      if (DROPPED.has(key)) continue;
      if ((SCHEMA_MAPS as readonly string[]).includes(key) && isJsonObject(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, this.convert(inner, `${where}.${name}`)]));
      } else if ((SCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value)) {
        out[key] = value.map((inner, i) => this.convert(inner, `${where}[${i}]`));
      } else if ((SCHEMA_SINGLES as readonly string[]).includes(key) && (isJsonObject(value) || typeof value === 'boolean')) {
        out[key] = typeof value === 'boolean' ? value : this.convert(value, `${where}.${key}`);
      } else {
        out[key] = value;
      }
    }
    if (schema['example'] !== undefined && out['examples'] === undefined) out['examples'] = [schema['example']];
    fixExclusiveBounds(out);
    return schema['nullable'] === true ? withNull(out) : (out);
  }

  private convertRef(schema: Json, ref: string, where: string): JSONSchema {
    const { $ref: _ref, ...siblings } = schema;
    const extra = this.convert(siblings, where);
    if (ref.startsWith(COMPONENT_SCHEMA)) {
      const name = decodeURIComponent(ref.slice(COMPONENT_SCHEMA.length)).replace(/~1/g, '/').replace(/~0/g, '~');
      if (!this.defs.has(name)) {
        const target = resolvePointer(this.root, ref);
        if (target === undefined) {
          this.warnings.push(`${where}: the schema ${ref} does not exist in the document; the field accepts anything.`);
          return extra;
        }
        this.defs.set(name, {}); // placeholder: recursive schemas refer back to it
        this.defs.set(name, this.convert(target, name));
      }
      const converted: JSONSchema = { ...extra, $ref: `#/$defs/${encodeURIComponent(name)}` };
      return schema['nullable'] === true ? withNull({ ...extra, $ref: converted.$ref }) : converted;
    }
    const target = resolvePointer(this.root, ref);
    if (target === undefined) {
      this.warnings.push(`${where}: the reference ${ref} cannot be resolved (only references inside the document are followed); the field accepts anything.`);
      return extra;
    }
    // A local reference outside components/schemas: inline it (bounded by the document's size).
    return { ...this.convert(target, where), ...extra };
  }
}

/** 3.0: `exclusiveMinimum: true` with `minimum: 5` means `exclusiveMinimum: 5` in 2020-12. */
function fixExclusiveBounds(out: Record<string, unknown>): void {
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else {
      delete out[flag];
    }
  }
}

/** Adds null as an allowed value the way zod writes it (type list for a plain type, else anyOf). */
function withNull(schema: JSONSchema): JSONSchema {
  if (typeof schema.type === 'string' && schema.$ref === undefined) {
    const enumValues = schema.enum ? { enum: [...schema.enum, null] } : {};
    return { ...schema, type: [schema.type, 'null'], ...enumValues };
  }
  const { description, title, default: fallback, ...rest } = schema;
  const meta: JSONSchema = {};
  if (description !== undefined) meta.description = description;
  if (title !== undefined) meta.title = title;
  if (fallback !== undefined) meta.default = fallback;
  return { ...meta, anyOf: [rest, { type: 'null' }] };
}
