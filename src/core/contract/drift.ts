// Contract drift: where a live response differs from what the contract documents for its operation.
// The rule that keeps this honest: only what the contract states can drift. A field whose type is
// "not shown" has no type to differ from; an object whose full field list is "not shown" (an open
// schema, `additionalProperties: {}`) has no undocumented fields; bodies of statuses the contract does
// not describe are not checked; codes of a family without a published catalogue are not judged.
// Pure: the caller hands in the operation (contract or imported overlay) and what it received.
import {
  detectBusinessErrors,
  derefSchema,
  isNullable,
  nonNullSchema,
  responseBodyJsonSchema,
  type JSONSchema,
  type Operation,
  type SeedRef,
} from '../catalog';
import { fieldsNotHeld, fieldsNotHeldUnnamed, heldHead, HEAD_ROWS_HELD, isNotHeld } from '../paging/notHeld';
import { PAGING_CONTRACT } from './pagingContract';
import { isJsonObject } from '../json/numberText';

export type DriftKind =
  | 'undocumented-field'
  | 'missing-field'
  | 'type-mismatch'
  | 'unknown-error-code'
  | 'missing-paging-header'
  | 'missing-paging-field';

export interface DriftFinding {
  readonly kind: DriftKind;
  /** JSON path into the body (`$.Errors[0].ErrorCode`), or `header:<Name>` for a response header. */
  readonly path: string;
  readonly message: string;
  /** The contract section the finding is measured against, in words: `seed 000 §2.4`, or the imported document. */
  readonly section: string;
}

export interface ContractResponse {
  readonly status: number;
  /** Header names in any case. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  readonly body?: unknown;
}

export interface DriftReport {
  readonly operationId: string;
  readonly findings: readonly DriftFinding[];
  /** What was not checked and why, in words (a status the contract does not describe, arrays sampled...). */
  readonly notChecked: readonly string[];
}

/** How many items of each array are compared with the schema; the rest are said to be unchecked. */
export const ARRAY_ITEMS_CHECKED = HEAD_ROWS_HELD;
/** Findings past this count are summarised, so a drifting 100 000-row page stays readable. */
export const MAX_FINDINGS = 100;

export function citeSeed(source: SeedRef): string {
  return `seed ${source.seed} §${source.section}`;
}

/** The section a finding cites: the schema node's own source, else the operation's (an import names its document). */
function sectionOf(op: Operation, node: JSONSchema | undefined): string {
  if (op.origin === 'import' || (node === undefined && op.imported)) {
    if (op.imported) return `imported ${op.imported.source}${op.imported.operationId ? ` (${op.imported.operationId})` : ''}`;
  }
  const source = (node as { source?: SeedRef } | undefined)?.source;
  if (source && typeof source.seed === 'string' && typeof source.section === 'string' && source.section !== 'import') {
    return citeSeed(source);
  }
  if (op.imported && source?.section === 'import') return `imported ${op.imported.source}`;
  return citeSeed(op.source);
}

export function checkContract(op: Operation, response: ContractResponse): DriftReport {
  const findings: DriftFinding[] = [];
  const notChecked: string[] = [];
  const success = response.status >= 200 && response.status < 300;
  const describedStatus = success || (op.paging === 'page-number' && response.status === 400);

  if (!describedStatus) {
    notChecked.push(`The body of a ${response.status} response is not described by the contract for ${op.name}.`);
  } else {
    const schema = responseBodyJsonSchema(op);
    if (!schema || statesNothing(schema)) notChecked.push(`The contract does not show the layout of the response body of ${op.name}.`);
    else if (response.body === undefined) notChecked.push('The response has no JSON body to compare.');
    else new BodyWalker(op, schema, findings, notChecked).walk(response.body, schema, '$', schema);
  }

  if (response.body !== undefined && describedStatus) checkErrorCodes(op, response.body, findings, notChecked);
  if (success) checkPaging(op, response, findings);

  if (findings.length > MAX_FINDINGS) {
    const extra = findings.length - MAX_FINDINGS;
    findings.length = MAX_FINDINGS;
    notChecked.push(`${extra} more finding(s) not listed (the first ${MAX_FINDINGS} are shown).`);
  }
  return { operationId: op.id, findings, notChecked };
}

/** What a part not held leaves unchecked, in words. */
function notHeldWords(value: object, path: string): string {
  return Array.isArray(value)
    ? `${path}: ${value.length} items went to the output as they arrived and were not held, so they were not compared with the contract.`
    : `${path}: too large to keep while the rows streamed, so it was not compared with the contract.`;
}

class BodyWalker {
  constructor(
    private readonly op: Operation,
    private readonly root: JSONSchema,
    private readonly findings: DriftFinding[],
    private readonly notChecked: string[],
  ) {}

  walk(value: unknown, schema: JSONSchema, path: string, fieldNode: JSONSchema): void {
    if (this.findings.length > MAX_FINDINGS) return;
    const resolved = derefSchema(this.root, schema);
    if (value === null) {
      // A null where the contract does not admit one is a type difference, when a type is stated.
      const stated = statedTypes(nonNullSchema(this.root, resolved));
      if (stated && !isNullable(this.root, resolved)) this.typeMismatch(path, stated, 'null', fieldNode);
      return;
    }
    const node = nonNullSchema(this.root, resolved);
    const branches = node.anyOf ?? node.oneOf;
    if (branches && branches.length > 0) {
      // A union: the value drifts only when it fits no branch's stated type.
      const fitting = branches.map((b) => nonNullSchema(this.root, b)).find((b) => typeFits(statedTypes(b), value));
      if (!fitting) {
        const stated = branches.flatMap((b) => statedTypes(nonNullSchema(this.root, b)) ?? ['any']);
        if (!stated.includes('any')) this.typeMismatch(path, stated, jsonTypeOf(value), fieldNode);
        return;
      }
      this.walk(value, fitting, path, fieldNode);
      return;
    }
    const stated = statedTypes(node);
    if (stated && !typeFits(stated, value)) {
      this.typeMismatch(path, stated, jsonTypeOf(value), fieldNode);
      return;
    }
    // A part of the body the walk did not hold (its rows went to the output as they arrived): none of
    // its items or fields is a value received, so none drifts; said as not checked (notHeld.ts).
    // Of rows streamed past, the first were held as they passed (heldHead): those are compared, as rows held are.
    const head = isNotHeld(value) && Array.isArray(value) ? heldHead(value) : undefined;
    if (head) this.walkArray(head, node, path, (value as readonly unknown[]).length);
    else if (isNotHeld(value)) this.notChecked.push(notHeldWords(value, path));
    else if (Array.isArray(value)) this.walkArray(value, node, path);
    else if (typeof value === 'object') this.walkObject(value as Record<string, unknown>, node, path);
  }

  /** `value`'s first items (all of them, or the first of `length` received) compared with the items' schema. */
  private walkArray(value: readonly unknown[], node: JSONSchema, path: string, length = value.length): void {
    const items = node.items;
    if (items === undefined || typeof items === 'boolean' || Array.isArray(items)) return;
    const count = Math.min(value.length, ARRAY_ITEMS_CHECKED);
    for (let i = 0; i < count; i++) this.walk(value[i], items, `${path}[${i}]`, items);
    if (length > count) {
      this.notChecked.push(`${path}: the first ${count} of ${length} items were compared with the contract.`);
    }
  }

  private walkObject(value: Record<string, unknown>, node: JSONSchema, path: string): void {
    const properties = node.properties ?? {};
    // Fields that arrived too large to keep: present, not compared (absent, or a word in their place).
    const notHeld = new Set(fieldsNotHeld(value));
    for (const name of notHeld) this.notChecked.push(`${child(path, name)}: too large to keep, so not compared with the contract.`);
    // Past the names noted, fields not held are only counted: their names are not known, so neither is a required one's absence.
    const unnamed = fieldsNotHeldUnnamed(value);
    if (unnamed > 0) this.notChecked.push(`${path}: up to ${unnamed} more field(s) arrived too large to keep, so neither their names nor their values were compared with the contract.`);
    for (const name of node.required ?? []) {
      if (!Object.hasOwn(value, name) && !notHeld.has(name)) {
        if (unnamed > 0) this.notChecked.push(`${child(path, name)}: not among the fields kept, and may be one of the ${unnamed} not named, so its presence was not checked.`);
        else this.push('missing-field', child(path, name), `'${name}' is documented as always present but the response lacks it.`, asNode(properties[name]) ?? node);
      }
    }
    // An open object (the contract says its full field list is not shown) has no undocumented fields.
    const additional = node.additionalProperties;
    const closed = additional === false || (additional === undefined && Object.keys(properties).length > 0);
    for (const [name, fieldValue] of Object.entries(value)) {
      // Own properties only: a field named __proto__, constructor or toString is not one the schema
      // object inherits (an `in` or a plain lookup would find Object.prototype's and call it documented).
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      // A field not held in its place (a word): its value is not compared, its name is.
      if (notHeld.has(name)) {
        if (property === undefined && closed) this.push('undocumented-field', child(path, name), `'${name}' is not a field the contract documents here.`, node);
        continue;
      }
      if (property !== undefined) {
        const propertyNode = asNode(property);
        if (propertyNode) this.walk(fieldValue, propertyNode, child(path, name), propertyNode);
      } else if (closed) {
        this.push('undocumented-field', child(path, name), `'${name}' is not a field the contract documents here.`, node);
      } else if (additional !== undefined && typeof additional === 'object' && Object.keys(additional).length > 0) {
        this.walk(fieldValue, additional, child(path, name), additional);
      }
    }
  }

  private typeMismatch(path: string, stated: readonly string[], actual: string, node: JSONSchema): void {
    this.push('type-mismatch', path, `documented as ${stated.join(' or ')}, received ${actual}.`, node);
  }

  private push(kind: DriftKind, path: string, message: string, node: JSONSchema | undefined): void {
    this.findings.push({ kind, path, message, section: sectionOf(this.op, node) });
  }
}

/** A schema with no type, fields, items or branches: the contract describes the body in words only. */
function statesNothing(schema: JSONSchema): boolean {
  return schema.type === undefined && schema.properties === undefined && schema.items === undefined && schema.anyOf === undefined && schema.oneOf === undefined && schema.$ref === undefined;
}

function asNode(schema: JSONSchema | boolean | undefined): JSONSchema | undefined {
  if (schema === undefined || schema === false) return undefined;
  return schema === true ? {} : schema;
}

function child(path: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
}

/** The JSON types the node states, or undefined when it states none (type not shown). */
function statedTypes(node: JSONSchema): readonly string[] | undefined {
  const type = node.type;
  if (type === undefined) return undefined;
  return Array.isArray(type) ? type : [type];
}

function typeFits(stated: readonly string[] | undefined, value: unknown): boolean {
  if (!stated) return true;
  const actual = jsonTypeOf(value);
  return stated.some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function checkErrorCodes(op: Operation, body: unknown, findings: DriftFinding[], notChecked: string[]): void {
  const report = detectBusinessErrors(body, op.errorCatalogue);
  const coded = report.failures.filter((f) => f.code !== undefined);
  if (coded.length === 0) return;
  if (!op.errorCatalogue) {
    notChecked.push(`Error codes of ${op.family}: the contract publishes no catalogue for this family.`);
    return;
  }
  const section = `${op.errorCatalogue} catalogue, seed 000 §7.3`;
  report.failures.forEach((failure, index) => {
    if (failure.code === undefined || !failure.unknownCode) return;
    findings.push({
      kind: 'unknown-error-code',
      path: errorPath(report.convention, index),
      message: `error code ${failure.code} is not in the ${op.errorCatalogue} catalogue.`,
      section,
    });
  });
}

function errorPath(convention: string, index: number): string {
  if (convention === 'ResponseStatus+Errors' || convention === 'Response+Errors') return `$.Errors[${index}].ErrorCode`;
  if (convention === 'response+errors') return `$.errors[${index}].ErrorCode`;
  return '$.Error.ErrorCode';
}

function checkPaging(op: Operation, response: ContractResponse, findings: DriftFinding[]): void {
  const contract = PAGING_CONTRACT[op.paging];
  if (!contract) return;
  const headerNames = new Set(Object.keys(response.headers).map((h) => h.toLowerCase()));
  for (const header of contract.headers) {
    if (!headerNames.has(header.toLowerCase())) {
      findings.push({
        kind: 'missing-paging-header',
        path: `header:${header}`,
        message: `the contract names the paging header ${header}; the response lacks it.`,
        section: citeSeed(contract.source),
      });
    }
  }
  const body = response.body;
  if (contract.fields.length === 0 || !isJsonObject(body)) return;
  // A page that reports a business failure (out of range, invalid input) is not a page of rows.
  if (detectBusinessErrors(body, op.errorCatalogue).failed) return;
  for (const field of contract.fields) {
    if (!Object.hasOwn(body, field)) {
      findings.push({
        kind: 'missing-paging-field',
        path: child('$', field),
        message: `the contract names the paging field ${field}; the response lacks it.`,
        section: citeSeed(contract.source),
      });
    }
  }
}
