// The body a "New request scratch" starts from: every documented field of the operation's request
// body with a neutral value, so the user sees the names and fills the values. Built from the generated
// JSON Schema, so it can never drift from the zod source of truth; it always validates against it.
import type { Operation } from './model';
import { derefSchema, isNullable, nonNullSchema, requestBodyJsonSchema, type JSONSchema } from './jsonSchema';

/**
 * Neutral values: a stated default when there is one; null for a nullable field or one whose type is
 * not shown; 0 for numbers (or the smallest allowed value when 0 is out of range); "" for strings;
 * false for booleans; for arrays, one item skeleton when the items are documented objects
 * (Choices: ChoiceItem[]), else []. Undefined when the operation has no documented request body.
 */
export function bodySkeleton(op: Operation): unknown {
  const schema = requestBodyJsonSchema(op);
  return schema ? skeletonOf(schema, schema, 0) : undefined;
}

const MAX_DEPTH = 8;

function skeletonOf(root: JSONSchema, schema: JSONSchema, depth: number): unknown {
  const resolved = derefSchema(root, schema);
  if (resolved.default !== undefined) return resolved.default;
  if (isNullable(root, resolved)) return null;
  const node = nonNullSchema(root, resolved);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  if (type === 'object' || (type === undefined && node.properties)) {
    if (depth >= MAX_DEPTH) return {};
    const result: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(node.properties ?? {})) {
      result[name] = typeof property === 'boolean' ? null : skeletonOf(root, property, depth + 1);
    }
    return result;
  }
  switch (type) {
    case 'array':
      return arraySkeleton(root, node, depth);
    case 'integer':
    case 'number':
      return numberSkeleton(node);
    case 'string':
      return '';
    case 'boolean':
      return false;
    default:
      // The contract names the field but not its type.
      return null;
  }
}

function arraySkeleton(root: JSONSchema, node: JSONSchema, depth: number): unknown[] {
  const items = node.items;
  if (items === undefined || typeof items === 'boolean' || Array.isArray(items) || depth >= MAX_DEPTH) return [];
  const item = nonNullSchema(root, derefSchema(root, items));
  const documentedObject = item.type === 'object' && Object.keys(item.properties ?? {}).length > 0;
  return documentedObject ? [skeletonOf(root, item, depth + 1)] : [];
}

function numberSkeleton(node: JSONSchema): number {
  if (typeof node.minimum === 'number' && node.minimum > 0) return node.minimum;
  if (typeof node.exclusiveMinimum === 'number' && node.exclusiveMinimum >= 0) return Math.floor(node.exclusiveMinimum) + 1;
  if (typeof node.maximum === 'number' && node.maximum < 0) return node.maximum;
  return 0;
}
