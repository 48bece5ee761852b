// Validates a JSON request body against the operation's schema: invalid JSON (with jsonc-parser's
// offsets), unknown fields of strict shapes, wrong types and an empty body (code 12), each citing the
// section that says so. What the contract does not show is at most information: absent non-nullable
// base fields are named (which fields are required is not shown, seed 000 §4.1; the sandbox answers
// code 1 only under its required-fields choice), enum values outside the published meanings are fine.
import { printParseErrorCode, type Node } from 'jsonc-parser';
import type { Diagnostic } from 'vscode-languageserver';
import type { HttpRequestNode, Range } from '../../core/httpfile';
import type { JSONSchema } from '../../core/catalog/jsonSchema';
import type { KnownOperation } from './operations';
import type { HttpDocument } from './document';
import { tooDeepText } from '../../core/json/depth';
import { analyseJsonBody, isPlaceholder, MAX_ANALYSED_BODY_LENGTH, type JsonBody } from './jsonBody';
import { DiagnosticSeverity } from './lspConstants';
import { type FieldInfo, pathChecks, sandboxRequiredNames, schemaPathChild, schemaPathTop, type SchemaPathNode } from './schemaInfo';

export const SOURCE = 'api-workbench';

export function validateBody(document: HttpDocument, request: HttpRequestNode, known: KnownOperation): Diagnostic[] {
  const root = known.requestSchema;
  if (!root) return [];
  const body = request.body;
  const codes = hasCodes(known);
  const lineRange = request.requestLine.range;
  // Codes 1 and 12 follow from the operation's published rules: cite where the operation is described.
  const where = ` (seed ${known.operation.source.seed} §${known.operation.source.section})`;
  if (!body) {
    return codes ? [emptyBody(lineRange, 'This request has no body', where)] : [];
  }
  if (body.kind === 'include') return [];
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
  if (types.length > 0 && !typeMatches(node, types, info.nullable)) {
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
  if (node.type === 'object') {
    const { strict, documented } = checks;
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
      if (!child.schema) continue;
      if (value) walk(root, child.schema, value, json, child, out, range);
    }
  } else if (node.type === 'array') {
    const items = node.children ?? [];
    for (let index = 0; index < items.length; index++) {
      const child = schemaPathChild(root, place, index);
      if (child.schema) walk(root, child.schema, items[index] as Node, json, child, out, range);
    }
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

function typeMatches(node: Node, types: readonly string[], nullable: boolean): boolean {
  switch (node.type) {
    case 'null': return nullable;
    case 'string': return types.includes('string');
    case 'boolean': return types.includes('boolean');
    case 'object': return types.includes('object');
    case 'array': return types.includes('array');
    case 'number': return types.includes('number') || (types.includes('integer') && Number.isInteger(node.value));
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
