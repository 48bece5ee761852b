// Validates a JSON request body against the operation's schema: invalid JSON (with jsonc-parser's
// offsets), unknown fields of strict shapes, wrong types and an empty body (code 12), each citing the
// section that says so. What the contract does not show is at most information: absent non-nullable
// base fields are named (which fields are required is not shown, seed 000 §4.1; the sandbox answers
// code 1 only under its required-fields choice), enum values outside the published meanings are fine.
import { printParseErrorCode, type Node } from 'jsonc-parser';
import type { Diagnostic } from 'vscode-languageserver';
import type { Body, HttpRequestNode, Range } from '../../core/httpfile';
import type { JSONSchema } from '../../core/catalog/jsonSchema';
import type { KnownOperation } from './operations';
import type { HttpDocument } from './document';
import { MAX_JSON_DEPTH, tooDeepText } from '../../core/json/depth';
import { isJsonObject } from '../../core/json/numberText';
import { analyseJsonBody, isPlaceholder, maskedJsonText, MAX_ANALYSED_BODY_LENGTH, type JsonBody } from './jsonBody';
import { DiagnosticSeverity } from './lspConstants';
import { type FieldInfo, pathChecks, type PathChecks, sandboxRequiredNames, schemaPathChild, schemaPathTop, type SchemaPathNode } from './schemaInfo';

export const SOURCE = 'api-workbench';

type InlineBody = Extract<Body, { kind: 'inline' }>;

export function validateBody(document: HttpDocument, request: HttpRequestNode, known: KnownOperation): Diagnostic[] {
  const root = known.requestSchema;
  if (!root) return [];
  const body = request.body;
  if (!body) {
    return hasCodes(known) ? [emptyBody(request.requestLine.range, 'This request has no body', whereDescribed(known))] : [];
  }
  if (body.kind === 'include') return [];
  return reportsNothing(body.text, root, hasCodes(known)) ? [] : bodyDiagnostics(document, body, known, root);
}

/** Codes 1 and 12 follow from the operation's published rules: cite where the operation is described. */
function whereDescribed(known: KnownOperation): string {
  return ` (seed ${known.operation.source.seed} §${known.operation.source.section})`;
}

/** What validateBody reports on an inline body: the full check (a tree read from the text, then walked). */
export function bodyDiagnostics(document: HttpDocument, body: InlineBody, known: KnownOperation, root: JSONSchema): Diagnostic[] {
  const codes = hasCodes(known);
  const where = whereDescribed(known);
  const json = analyseJsonBody(body.text, body.offset);
  const range = (start: number, length: number): Range => ({ start: document.positionAt(body.offset + start), end: document.positionAt(body.offset + start + length) });
  if (json.tooLong) {
    return [{
      severity: DiagnosticSeverity.Information, range: range(0, 1), source: SOURCE, code: 'body-too-long',
      message: `The body is ${(body.text.length / 1_000_000).toFixed(1)} million characters: it is not checked against the operation's schema (bodies up to ${MAX_ANALYSED_BODY_LENGTH / 1_000_000} million are).`,
    }];
  }
  if (json.tooDeep) {
    return [{
      severity: DiagnosticSeverity.Warning, range: range(json.tooDeep.offset, 1), source: SOURCE, code: 'json-too-deep',
      message: `The body ${tooDeepText(json.tooDeep.limit)}: it is not checked against the operation's schema.`,
    }];
  }
  const diagnostics: Diagnostic[] = json.errors.map((e) => ({
    severity: DiagnosticSeverity.Error,
    range: range(e.offset, Math.max(e.length, 1)),
    message: `Invalid JSON: ${describeParseError(printParseErrorCode(e.error))}`,
    source: SOURCE,
    code: 'invalid-json',
  }));
  if (!json.tree || diagnostics.length > 0) return diagnostics;
  if (json.tree.type === 'object' && (json.tree.children?.length ?? 0) === 0 && codes) {
    return [emptyBody(range(json.tree.offset, json.tree.length), 'The body is an empty object', where)];
  }
  walk(root, root, json.tree, json, schemaPathTop(root), diagnostics, range);
  if (json.tree.type === 'object' && codes) {
    const properties = json.tree.children ?? [];
    const missing = sandboxRequiredNames(root).filter((name) => !hasKey(properties, name));
    if (missing.length) {
      diagnostics.push({
        severity: DiagnosticSeverity.Information,
        range: range(json.tree.offset, 1),
        message: `Not set: ${missing.join(', ')} (not nullable). Which fields are required is not shown (seed 000 §4.1); the sandbox answers code 1 without them only under its required-fields choice.`,
        source: SOURCE,
        code: 'missing-mandatory',
      });
    }
  }
  return diagnostics;
}

/**
 * True when bodyDiagnostics would report nothing on `text`; false when it might report something, or when
 * this cannot tell (then the full check runs). Most bodies are plain valid JSON whose every field is
 * documented and of its type: they are read by JSON.parse (no tree, no reader to warm up as a file opens)
 * and checked by quickCheck with walk's own rules (typeMatches, rangeProblem, the schema path tree).
 * Stricter where that is simpler: an undocumented key, or a placeholder (checked as the 0 it is masked to,
 * where walk skips it), is left to the full check. JSON.parse keeps the last of repeated keys, which the
 * tree has all of: the keys it kept must be as many as the text's colons outside strings. Counted without
 * cutting the strings out: the value's keys plus the colons inside its strings (keys and string values)
 * must be all the text's colons. A repeated key's dropped entry takes at least one key and its strings
 * with it, so that sum falls short; without one, every string of the text is in the value as written, as
 * long as no escape can write a colon (\u003a): a body with a backslash is left to the full check.
 * test/unit/languageServiceBodyFastPath.test.ts checks on valid and hostile bodies that it answers true
 * only where the full check reports nothing.
 */
export function reportsNothing(text: string, root: JSONSchema, codes: boolean): boolean {
  if (text.length > MAX_ANALYSED_BODY_LENGTH || text.includes('\\')) return false;
  const masked = maskedJsonText(text);
  let value: unknown;
  try {
    value = JSON.parse(masked);
  } catch {
    return false;
  }
  if (codes && isJsonObject(value)) {
    // bodyDiagnostics' empty-body and missing-mandatory findings.
    if (Object.keys(value).length === 0) return false;
    const required = sandboxRequiredNames(root);
    for (let r = 0; r < required.length; r++) if (!Object.hasOwn(value, required[r]!)) return false;
  }
  const found = quickCheck(root, root, schemaPathTop(root), value, 0);
  return found >= 0 && found === colonsIn(masked);
}

/**
 * walk's checks on a parsed value: the number of object keys it holds at any depth plus the colons in its
 * strings (keys and string values), or -1 where walk might report something (or a container nests deeper
 * than MAX_JSON_DEPTH, which the full check reports).
 * `place` undefined: the schema shows nothing here (walk does not go there); keys and depth are still counted.
 */
function quickCheck(root: JSONSchema, schema: JSONSchema | undefined, place: SchemaPathNode | undefined, value: unknown, depth: number): number {
  const checks = schema && place ? pathChecks(root, schema, place) : undefined;
  if (checks) {
    const info = checks.info;
    const kind = jsonKind(value);
    if (info.types.length > 0 && !typeMatches(kind, value, info.types, info.nullable)) return -1;
    if (kind === 'number' && rangeProblem(value as number, info.schema) !== undefined) return -1;
  }
  if (typeof value === 'string') return colonsIn(value);
  if (value === null || typeof value !== 'object') return 0;
  // A container at depth + 1: jsonTextTooDeep's rule (past the limit).
  if (depth >= MAX_JSON_DEPTH) return -1;
  let keys = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const child = checks && place ? schemaPathChild(root, place, index) : undefined;
      const found = quickCheck(root, child?.schema, child, value[index], depth + 1);
      if (found < 0) return -1;
      keys += found;
    }
    return keys;
  }
  const object = value as Record<string, unknown>;
  const names = Object.keys(object);
  for (let k = 0; k < names.length; k++) {
    const name = names[k]!;
    if (checks && !checks.documented.has(name)) return -1;
    const child = checks && place ? schemaPathChild(root, place, name) : undefined;
    const found = quickCheck(root, child?.schema, child, object[name], depth + 1);
    if (found < 0) return -1;
    keys += found + colonsIn(name);
  }
  return keys + names.length;
}

/** How many colons `text` holds. */
function colonsIn(text: string): number {
  let colons = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) colons++;
  return colons;
}

/** A parsed JSON value's kind, in jsonc-parser's node types. */
function jsonKind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** Whether one of an object's property nodes has the key `name`. */
function hasKey(properties: readonly Node[], name: string): boolean {
  for (let p = 0; p < properties.length; p++) if (String(properties[p]!.children?.[0]?.value) === name) return true;
  return false;
}

function hasCodes(known: KnownOperation): boolean {
  return known.operation.errorCatalogue === 'SurveyApi' || known.operation.errorCatalogue === 'Customer';
}

function emptyBody(range: Range, what: string, where: string): Diagnostic {
  return { severity: DiagnosticSeverity.Warning, range, message: `${what}: code 12 (empty input parameter) would follow${where}.`, source: SOURCE, code: 'empty-body' };
}

/**
 * Checks `node` against `schema`, the schema at `place.path` (the body's root schema itself at the top).
 * `place` is the node of the memoised path tree (schemaInfo.ts): a child's schema is one map lookup.
 */
function walk(
  root: JSONSchema,
  schema: JSONSchema,
  node: Node,
  json: JsonBody,
  place: SchemaPathNode,
  out: Diagnostic[],
  range: (start: number, length: number) => Range,
): void {
  if (isPlaceholder(json, node)) return;
  const path = place.path;
  const checks = pathChecks(root, schema, place);
  const info = checks.info;
  const types = info.types;
  if (types.length > 0 && !typeMatches(node.type, node.value, types, info.nullable)) {
    out.push({
      severity: DiagnosticSeverity.Error,
      range: range(node.offset, node.length),
      message: `Wrong type for ${path.length ? `'${path.join('.')}'` : 'the body'}: expected ${info.typeText}${info.nullable ? ' or null' : ''}, found ${describeNode(node)}${info.source ? ` (seed ${info.source.seed} §${info.source.section})` : ''}.`,
      source: SOURCE,
      code: 'wrong-type',
    });
    return;
  }
  if (node.type === 'number' && typeof node.value === 'number') {
    const problem = rangeProblem(node.value, info.schema);
    if (problem) {
      out.push({ severity: DiagnosticSeverity.Error, range: range(node.offset, node.length), message: `'${path.join('.')}' ${problem}${info.source ? ` (seed ${info.source.seed} §${info.source.section})` : ''}.`, source: SOURCE, code: 'out-of-range' });
    }
    return;
  }
  if (node.type === 'object') walkObject(root, node, json, place, checks, out, range);
  else if (node.type === 'array') {
    const items = node.children ?? [];
    for (let index = 0; index < items.length; index++) {
      const child = schemaPathChild(root, place, index);
      if (child.schema) walk(root, child.schema, items[index] as Node, json, child, out, range);
    }
  }
}

/** walk's object case: each key against the documented fields, each documented key's value walked. */
function walkObject(
  root: JSONSchema,
  node: Node,
  json: JsonBody,
  place: SchemaPathNode,
  checks: PathChecks,
  out: Diagnostic[],
  range: (start: number, length: number) => Range,
): void {
  const { strict, documented, info } = checks;
  // Indexed loops here and in the other per-value and per-block loops: the first validation of a file
  // runs mostly before V8 optimises it, where for-of steps an iterator object per element.
  const properties = node.children ?? [];
  for (let p = 0; p < properties.length; p++) {
    const property = properties[p]!;
    const key = property.children?.[0];
    const value = property.children?.[1];
    if (!key) continue;
    const name = String(key.value);
    if (!documented.has(name)) {
      const names = [...documented];
      const sameLetters = names.find((n) => n.toLowerCase() === name.toLowerCase());
      if (sameLetters) out.push(caseMismatch(name, sameLetters, strict, range(key.offset, key.length)));
      else if (strict) out.push(unknownField(name, names, range(key.offset, key.length), info.source));
      if (strict || sameLetters) continue;
    }
    const child = schemaPathChild(root, place, name);
    if (child.schema && value) walk(root, child.schema, value, json, child, out, range);
  }
}

function rangeProblem(value: number, schema: JSONSchema): string | undefined {
  if (typeof schema.minimum === 'number' && value < schema.minimum) return `must be at least ${schema.minimum}`;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return `must be greater than ${schema.exclusiveMinimum}`;
  if (typeof schema.maximum === 'number' && value > schema.maximum) return `must be at most ${schema.maximum}`;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return `must be less than ${schema.exclusiveMaximum}`;
  return undefined;
}

/** Names are case-sensitive (seed 000 §4.2 rule 1: Offset, OFFSET and pageNumber are different names). */
export function caseMismatch(written: string, documented: string, strict: boolean, range: Range): Diagnostic {
  return {
    severity: strict ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    range,
    message: `'${written}' is not '${documented}': names are case-sensitive, so the service does not read it as ${documented} (seed 000 §4.2 rule 1).`,
    source: SOURCE,
    code: 'case-mismatch',
  };
}

/** A key the field table does not list: a warning (the contract lists the fields, it does not say the service rejects others). */
function unknownField(name: string, known: readonly string[], range: Range, source: FieldInfo['source']): Diagnostic {
  const suggestion = closest(name, known);
  return {
    severity: DiagnosticSeverity.Warning,
    range,
    message: `Unknown field '${name}': the contract does not list it for this request${source ? ` (seed ${source.seed} §${source.section})` : ''}, so the service is not said to read it.${suggestion ? ` Did you mean '${suggestion}'?` : ''}`,
    source: SOURCE,
    code: 'unknown-field',
  };
}

/** Whether a value of kind `type` (a node's type) and `value` is of one of the schema's `types`. */
function typeMatches(type: string, value: unknown, types: readonly string[], nullable: boolean): boolean {
  switch (type) {
    case 'null': return nullable;
    case 'string': return types.includes('string');
    case 'boolean': return types.includes('boolean');
    case 'object': return types.includes('object');
    case 'array': return types.includes('array');
    case 'number': return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
    default: return true;
  }
}

function describeNode(node: Node): string {
  if (node.type === 'number') return Number.isInteger(node.value) ? `the integer ${String(node.value)}` : `the number ${String(node.value)}`;
  if (node.type === 'string') return 'a string';
  if (node.type === 'null') return 'null';
  return `${node.type === 'array' ? 'an' : 'a'} ${node.type}`;
}

function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) { best = candidate; bestDistance = d; }
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min(current + 1, (row[j - 1] ?? 0) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] ?? 0;
}

function describeParseError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
