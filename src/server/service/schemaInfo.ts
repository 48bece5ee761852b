// Reading the catalog's generated JSON Schema for people: type, nullability, meaning, enum meanings,
// seed section. Shared by completion, hover and diagnostics so they always say the same thing.
import { isNullable, nonNullSchema, schemaAtPath, type JSONSchema } from '../../core/catalog/jsonSchema';
import { releaseWords } from '../../core/catalog/releases';

export interface FieldInfo {
  readonly name: string;
  readonly typeText: string;
  readonly nullable: boolean;
  readonly description?: string;
  readonly enumMeanings?: Readonly<Record<string, string>>;
  readonly source?: { readonly seed: string; readonly section: string };
  /** Not nullable and asked for by the sandbox's required-fields choice; the contract does not say it is required. */
  readonly sandboxRequired: boolean;
  /** "introduced in the later release" and the like (seed 001 §9.3). */
  readonly release: readonly string[];
  /** The schema with null and $ref unwrapped. */
  readonly schema: JSONSchema;
  /** schemaTypes(schema). */
  readonly types: readonly string[];
}

type Meta = { description?: unknown; enumMeanings?: unknown; source?: unknown; sandboxRequired?: unknown; release?: unknown };

// Schemas are immutable and shared, so what is read from them is computed once per schema object.
const fieldInfoCache = new WeakMap<JSONSchema, Map<string, FieldInfo>>();
const propertiesCache = new WeakMap<JSONSchema, Array<[string, JSONSchema]>>();

/**
 * schemaAtPath's answers, per root schema, as a tree of paths: a path is looked up segment by segment
 * (one map lookup each, no key string), and a segment is a map key as written, so `["a.b"]` and
 * `["a", "b"]`, or `[0]` and `["0"]`, are different paths. Each node's schema is schemaAtPath's answer for
 * its path, computed once. Bounded: past MAX_CACHED_PATHS nodes per root (a file of hostile keys or
 * array indices), a child is computed and not kept. Body validation walks a body down this tree.
 */
export interface SchemaPathNode {
  readonly path: ReadonlyArray<string | number>;
  /** schemaAtPath(root, path). */
  readonly schema: JSONSchema | undefined;
  readonly children: Map<string | number, SchemaPathNode>;
  /** What body validation reads of this node's schema, kept on the node (pathChecks). */
  checks: PathChecks | undefined;
}

/** fieldInfo (named by the path's last segment), isStrictObject and propertyNames of a path's schema. */
export interface PathChecks {
  readonly schema: JSONSchema;
  readonly info: FieldInfo;
  readonly strict: boolean;
  readonly documented: ReadonlySet<string>;
}

/**
 * The checks of `schema` at `node` (body validation asks them for every value of every body: one property
 * read instead of four weak-map lookups). Kept for the schema they were computed for.
 */
export function pathChecks(root: JSONSchema, schema: JSONSchema, node: SchemaPathNode): PathChecks {
  const kept = node.checks;
  if (kept && kept.schema === schema) return kept;
  const checks: PathChecks = {
    schema,
    info: fieldInfo(root, schema, String(node.path.at(-1) ?? 'body')),
    strict: isStrictObject(root, schema),
    documented: propertyNames(root, schema),
  };
  node.checks = checks;
  return checks;
}
const pathTrees = new WeakMap<JSONSchema, { readonly top: SchemaPathNode; size: number }>();
export const MAX_CACHED_PATHS = 20_000;

function pathTree(root: JSONSchema): { readonly top: SchemaPathNode; size: number } {
  let tree = pathTrees.get(root);
  if (!tree) pathTrees.set(root, (tree = { top: { path: [], schema: schemaAtPath(root, []), children: new Map(), checks: undefined }, size: 1 }));
  return tree;
}

/** The tree's node for the empty path (the body itself). */
export function schemaPathTop(root: JSONSchema): SchemaPathNode {
  return pathTree(root).top;
}

/** The node for `node.path` followed by `segment`. */
export function schemaPathChild(root: JSONSchema, node: SchemaPathNode, segment: string | number): SchemaPathNode {
  const found = node.children.get(segment);
  if (found) return found;
  const path = [...node.path, segment];
  // A path below one that has no schema has none either (schemaAtPath stops at the first missing step).
  const child: SchemaPathNode = { path, schema: node.schema === undefined ? undefined : schemaAtPath(root, path), children: new Map(), checks: undefined };
  const tree = pathTree(root);
  if (tree.size < MAX_CACHED_PATHS) {
    node.children.set(segment, child);
    tree.size++;
  }
  return child;
}

/** `schemaAtPath` of the catalog, memoised per root schema and path. */
export function schemaAt(root: JSONSchema, path: ReadonlyArray<string | number>): JSONSchema | undefined {
  let node = schemaPathTop(root);
  for (const segment of path) {
    if (node.schema === undefined) return undefined;
    node = schemaPathChild(root, node, segment);
  }
  return node.schema;
}

export function fieldInfo(root: JSONSchema, schema: JSONSchema, name: string): FieldInfo {
  let byName = fieldInfoCache.get(schema);
  if (!byName) fieldInfoCache.set(schema, (byName = new Map<string, FieldInfo>()));
  let info = byName.get(name);
  if (!info) byName.set(name, (info = computeFieldInfo(root, schema, name)));
  return info;
}

function computeFieldInfo(root: JSONSchema, schema: JSONSchema, name: string): FieldInfo {
  const node = nonNullSchema(root, schema);
  const meta = { ...(node as Meta), ...(schema as Meta) };
  const source = meta.source as FieldInfo['source'] | undefined;
  const enumMeanings = (meta.enumMeanings ?? itemsOf(root, node)?.enumMeanings) as FieldInfo['enumMeanings'] | undefined;
  return {
    name,
    typeText: typeText(root, node),
    nullable: isNullable(root, schema),
    description: typeof meta.description === 'string' ? meta.description : undefined,
    enumMeanings,
    source: source && typeof source.seed === 'string' ? source : undefined,
    sandboxRequired: meta.sandboxRequired === true,
    release: typeof meta.release === 'object' && meta.release !== null ? releaseWords(meta.release) : [],
    schema: node,
    types: schemaTypes(node),
  };
}

function itemsOf(root: JSONSchema, node: JSONSchema): (JSONSchema & Meta) | undefined {
  const items = node.items;
  if (!items || typeof items === 'boolean' || Array.isArray(items)) return undefined;
  return nonNullSchema(root, items);
}

/** The JSON types a schema admits, null excluded ('integer' counts as 'number' too when checking). */
export function schemaTypes(node: JSONSchema): string[] {
  if (Array.isArray(node.type)) return node.type.filter((t) => t !== 'null');
  if (typeof node.type === 'string') return [node.type];
  if (node.properties) return ['object'];
  return [];
}

export function typeText(root: JSONSchema, node: JSONSchema): string {
  const types = schemaTypes(node);
  if (types.length === 0) return 'any (type not shown)';
  return types.map((type) => {
    if (type === 'integer') return node.format ? `integer ${node.format}` : 'integer';
    if (type === 'array') {
      const items = itemsOf(root, node);
      return items ? `array of ${typeText(root, items)}` : 'array';
    }
    if (type === 'object' && typeof node.description === 'string' && /^\w+:/.test(node.description)) {
      return node.description.split(':')[0] ?? 'object';
    }
    return type;
  }).join(' | ');
}

/** The properties of an object schema, in schema order. */
export function propertiesOf(root: JSONSchema, schema: JSONSchema): Array<[string, JSONSchema]> {
  let properties = propertiesCache.get(schema);
  if (!properties) propertiesCache.set(schema, (properties = computeProperties(root, schema)));
  return properties;
}

const namesCache = new WeakMap<JSONSchema, ReadonlySet<string>>();

/** The names of propertiesOf, in schema order, as a set (body validation asks once per key written). */
export function propertyNames(root: JSONSchema, schema: JSONSchema): ReadonlySet<string> {
  let names = namesCache.get(schema);
  if (!names) namesCache.set(schema, (names = new Set(propertiesOf(root, schema).map(([name]) => name))));
  return names;
}

const sandboxRequiredCache = new WeakMap<JSONSchema, readonly string[]>();

/** The names of the root's properties (schema order) that the sandbox's required-fields choice asks for. */
export function sandboxRequiredNames(root: JSONSchema): readonly string[] {
  let names = sandboxRequiredCache.get(root);
  if (!names) sandboxRequiredCache.set(root, (names = propertiesOf(root, root).filter(([name, schema]) => fieldInfo(root, schema, name).sandboxRequired).map(([name]) => name)));
  return names;
}

function computeProperties(root: JSONSchema, schema: JSONSchema): Array<[string, JSONSchema]> {
  const node = nonNullSchema(root, schema);
  return Object.entries(node.properties ?? {}).flatMap(([name, value]) => (typeof value === 'boolean' ? [] : [[name, value] as [string, JSONSchema]]));
}

/** True when the object rejects keys it does not list (the fully specified contract shapes). */
export function isStrictObject(root: JSONSchema, schema: JSONSchema): boolean {
  let byRoot = strictCache.get(root);
  if (!byRoot) strictCache.set(root, (byRoot = new WeakMap()));
  let strict = byRoot.get(schema);
  if (strict === undefined) byRoot.set(schema, (strict = nonNullSchema(root, schema).additionalProperties === false));
  return strict;
}

/** isStrictObject's answers by root (a $ref resolves against it) and schema: nonNullSchema copies objects at each call. */
const strictCache = new WeakMap<JSONSchema, WeakMap<JSONSchema, boolean>>();

export function formatSource(source: FieldInfo['source']): string | undefined {
  return source ? `seed ${source.seed} §${source.section}` : undefined;
}

export function enumLines(meanings: FieldInfo['enumMeanings']): string[] {
  return Object.entries(meanings ?? {}).map(([value, meaning]) => `${value} — ${meaning}`);
}

/** Markdown for hover and completion documentation. */
export function fieldMarkdown(info: FieldInfo): string {
  const parts = [`**${info.name}**: \`${info.typeText}\`${info.nullable ? ', nullable' : ', not nullable'}`];
  if (info.description) parts.push(info.description);
  const meanings = enumLines(info.enumMeanings);
  if (meanings.length) parts.push(meanings.map((m) => `- \`${m}\``).join('\n'));
  if (info.sandboxRequired) parts.push('Required: not shown by the contract (seed 000 §4.1). The sandbox answers code 1 without it only under its required-fields choice.');
  if (info.release.length) parts.push(`Release: ${info.release.join('; ')} (seed 001 §9.3).`);
  const source = formatSource(info.source);
  if (source) parts.push(`Source: ${source}`);
  return parts.join('\n\n');
}
