// Diagnostics of one request block: parse problems, operation-level facts (deprecated, path or contract
// not published), query paging ranges, body validation, removed response fields; and undefined
// variables, which depend on the rest of the file. validation.ts puts them together for a document.
import type { Diagnostic } from 'vscode-languageserver';
import { isSystemVariable, type HttpFileDiagnostic, type HttpRequestNode, type VariableReference } from '../../core/httpfile';
import type { HttpDocument } from './document';
import type { ServiceContext } from './context';
import { caseMismatch, SOURCE, validateBody } from './bodyValidation';
import { isJsonRequest } from './jsonBody';
import { DiagnosticSeverity, DiagnosticTag } from './lspConstants';
import type { KnownOperation } from './operations';
import { CREATE_PAYMENT_RELEASE } from '../../core/catalog/fundraising';
import { dynamicVariableProblems } from './dynamicVariableDiagnostics';

/** What one request says about itself, whatever else the file holds (validation.ts caches it per block). */
export function requestDiagnostics(document: HttpDocument, request: HttpRequestNode, context: ServiceContext): Diagnostic[] {
  const own = validateRequest(document, request, context);
  const removed = removedFieldReferences(document, request);
  const dynamic = dynamicVariableProblems(request, SOURCE);
  return removed.length === 0 && dynamic.length === 0 ? own : [...own, ...removed, ...dynamic];
}

export function fromParser(d: HttpFileDiagnostic): Diagnostic {
  return { severity: d.severity === 'error' ? DiagnosticSeverity.Error : d.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information, range: d.range, message: d.message, source: SOURCE, code: d.code };
}

function validateRequest(document: HttpDocument, request: HttpRequestNode, context: ServiceContext): Diagnostic[] {
  const line = request.requestLine;
  const known = context.operations.match(line.method, line.url);
  if (!known) {
    const family = context.operations.deprecatedFamily(line.url);
    if (family?.deprecated) {
      return [{ severity: DiagnosticSeverity.Warning, range: line.urlRange, message: `The ${family.name} operations are deprecated: use ${family.deprecated.replacement} (seed 000 §9).`, source: SOURCE, code: 'deprecated', tags: [DiagnosticTag.Deprecated] }];
    }
    // What the contract does not show is said once per request, by a CodeLens and the hover (contractNotes.ts).
    return [];
  }
  const out: Diagnostic[] = [];
  const op = known.operation;
  if (op.deprecated) {
    out.push({ severity: DiagnosticSeverity.Warning, range: line.urlRange, message: `${op.method ?? ''} ${op.path ?? op.id} is deprecated: use ${op.deprecated.replacement} (seed ${op.source.seed} §${op.source.section}).`, source: SOURCE, code: 'deprecated', tags: [DiagnosticTag.Deprecated] });
  }
  const hasBody = request.body !== undefined;
  out.push(...validateQuery(request, known));
  if (known.requestSchema && (!hasBody || isJsonRequest(request))) out.push(...validateBody(document, request, known));
  return out;
}

function validateQuery(request: HttpRequestNode, known: KnownOperation): Diagnostic[] {
  const out: Diagnostic[] = [];
  const parameters = request.queryParameters;
  for (let p = 0; p < parameters.length; p++) {
    const parameter = parameters[p]!;
    const documented = known.operation.query?.find((q) => q.name === parameter.name);
    if (!documented) {
      const sameLetters = known.operation.query?.find((q) => q.name.toLowerCase() === parameter.name.toLowerCase());
      // Names the contract does not publish are said once per request (contractNotes.ts), not here.
      if (sameLetters) out.push(caseMismatch(parameter.name, sameLetters.name, false, parameter.nameRange));
      continue;
    }
    if (parameter.value.includes('{{')) continue;
    const where = `seed ${documented.source.seed} §${documented.source.section}`;
    if (documented.type === 'integer') {
      if (!/^-?\d+$/.test(parameter.value)) {
        out.push({ severity: DiagnosticSeverity.Error, range: parameter.valueRange, message: `${parameter.name} must be an integer (${where}).`, source: SOURCE, code: 'wrong-type' });
        continue;
      }
      const value = Number(parameter.value);
      if (documented.minimum !== undefined && value < documented.minimum) {
        out.push({ severity: DiagnosticSeverity.Error, range: parameter.valueRange, message: `${parameter.name} ${value} is below ${documented.minimum}: the service rejects it (${where}).`, source: SOURCE, code: 'out-of-range' });
      } else if (documented.maximum !== undefined && value > documented.maximum) {
        out.push({ severity: DiagnosticSeverity.Warning, range: parameter.valueRange, message: `${parameter.name} ${value} is above the maximum ${documented.maximum}: the service caps it at ${documented.maximum} (${where}).`, source: SOURCE, code: 'out-of-range' });
      }
    }
  }
  return out;
}

const REMOVED_FIELDS: ReadonlyArray<[string, string]> = (CREATE_PAYMENT_RELEASE.removedResponseFields ?? []).map((f) => [f.name, f.readFrom]);
const CHANGED_IN = CREATE_PAYMENT_RELEASE.changed?.label ?? 'later release';

/** References to the create-payment response fields the later release removed (seed 001 §4, §9.3). */
function removedFieldReferences(document: HttpDocument, request: HttpRequestNode): Diagnostic[] {
  const out: Diagnostic[] = [];
  const message = (field: string, what: string): string =>
    `${field} is no longer returned by create payment (changed in the ${CHANGED_IN}): use ${what} (seed 001 §4, §9.3).`;
  // Indexed loops: a file's first validation runs mostly unoptimised, where for-of (and [a, b] of) step iterators.
  const references = request.references;
  for (let r = 0; r < references.length; r++) {
    const reference = references[r]!;
    if (!reference.name.includes('.response.')) continue;
    for (let f = 0; f < REMOVED_FIELDS.length; f++) {
      const [field, what] = REMOVED_FIELDS[f]!;
      if (reference.name.includes(field)) {
        out.push({ severity: DiagnosticSeverity.Warning, range: reference.nameRange, message: message(field, what), source: SOURCE, code: 'removed-field' });
      }
    }
  }
  for (const handler of request.responseHandlers) {
    for (let line = handler.range.start.line; line <= handler.range.end.line; line++) {
      const text = document.lineText(line);
      for (const [field, what] of REMOVED_FIELDS) {
        for (let at = text.indexOf(field); at !== -1; at = text.indexOf(field, at + field.length)) {
          out.push({ severity: DiagnosticSeverity.Warning, range: { start: { line, character: at }, end: { line, character: at + field.length } }, message: message(field, what), source: SOURCE, code: 'removed-field' });
        }
      }
    }
  }
  return out;
}

/**
 * A block's references that undefinedVariables may report, as validation keeps them for every block of
 * a file between passes: the names (not the system variables, which it never reports) and, four numbers
 * a name, where each name is (its nameRange: start line, start character, end line, end character).
 * Numbers rather than the parser's objects (a reference and two ranges, seven objects): a 50 000-line
 * file keeps thousands, and their size decides whether its first validation meets a full collection.
 */
export interface KeptReferences {
  readonly names: readonly string[];
  readonly places: readonly number[];
}

export const NO_REFERENCES: KeptReferences = Object.freeze({ names: Object.freeze([]), places: Object.freeze([]) });

/** `references` as validation keeps them. */
export function keptReferences(references: readonly VariableReference[]): KeptReferences {
  const names: string[] = [];
  const places: number[] = [];
  for (let r = 0; r < references.length; r++) {
    const reference = references[r]!;
    if (isSystemVariable(reference.name)) continue;
    const range = reference.nameRange;
    // `{{%name}}` is `name`, percent-encoded (REST Client).
    names.push(reference.name.startsWith('%') ? reference.name.slice(1).trim() : reference.name);
    places.push(range.start.line, range.start.character, range.end.line, range.end.character);
  }
  // Copied to their length: pushed arrays keep spare room, and these are kept for every block.
  return names.length === 0 ? NO_REFERENCES : { names: names.slice(), places: places.slice() };
}

/**
 * The names a block's requests give (`# @name`, else the `###` title), each with the last line of its
 * request: a request is named for what comes below it, in its own `###` block too (a block may hold more
 * than one request, as httpYac reads it). Lines count from the block's first line.
 */
export interface BlockNames {
  readonly names: readonly string[];
  readonly ends: readonly number[];
}

export const NO_NAMES: BlockNames = Object.freeze({ names: Object.freeze([]), ends: Object.freeze([]) });

/** The names of a block's requests, in their order. */
export function blockNames(requests: readonly HttpRequestNode[]): BlockNames {
  const named = requests.filter((r) => r.name);
  return named.length === 0 ? NO_NAMES : { names: named.map((r) => r.name!), ends: named.map((r) => r.range.end.line) };
}

/** Whether a request of the block named `name` ends above line `line` (block lines). */
function namedAbove(own: BlockNames, name: string, line: number): boolean {
  for (let j = 0; j < own.names.length; j++) if (own.names[j] === name && own.ends[j]! < line) return true;
  return false;
}

/**
 * The undefined variables among `references`, reported `lines` below where they are (a block's first line).
 * keptReferences has already left out the system variables, which are never undefined. A response of a
 * request is known when that request is named in a block before (`named`) or above it in its own (`own`).
 */
export function undefinedVariables(
  references: KeptReferences, lines: number, environment: readonly string[], fileVariables: ReadonlySet<string>, named: ReadonlySet<string>, own: BlockNames, out: Diagnostic[],
): void {
  const { names, places } = references;
  for (let r = 0; r < names.length; r++) {
    const name = names[r]!;
    if (fileVariables.has(name) || environment.includes(name)) continue;
    const range = { start: { line: places[4 * r]! + lines, character: places[4 * r + 1]! }, end: { line: places[4 * r + 2]! + lines, character: places[4 * r + 3]! } };
    const chained = /^([\w-]+)\.(response|request)\./.exec(name);
    if (chained) {
      const requestName = chained[1] ?? '';
      if (!named.has(requestName) && !namedAbove(own, requestName, places[4 * r]!)) {
        out.push({ severity: DiagnosticSeverity.Warning, range, message: `No request named '${chained[1]}' comes before this one (# @name ${chained[1]}).`, source: SOURCE, code: 'undefined-variable' });
      }
      continue;
    }
    out.push({ severity: DiagnosticSeverity.Warning, range, message: `The variable '${name}' is not defined in the active environment or the file.`, source: SOURCE, code: 'undefined-variable' });
  }
}
