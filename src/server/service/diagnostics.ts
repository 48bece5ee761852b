// Diagnostics of one request block: parse problems, operation-level facts (deprecated, path or contract
// not published), query paging ranges, body validation, removed response fields; and undefined
// variables, which depend on the rest of the file. validation.ts puts them together for a document.
import type { Diagnostic } from 'vscode-languageserver';
import type { HttpFileDiagnostic, HttpRequestNode, Range, VariableReference } from '../../core/httpfile';
import type { HttpDocument } from './document';
import type { ServiceContext } from './context';
import { caseMismatch, SOURCE, validateBody } from './bodyValidation';
import { isJsonRequest } from './jsonBody';
import { DiagnosticSeverity, DiagnosticTag } from './lspConstants';
import type { KnownOperation } from './operations';

/** What one request says about itself, whatever else the file holds (validation.ts caches it per block). */
export function requestDiagnostics(document: HttpDocument, request: HttpRequestNode, context: ServiceContext): Diagnostic[] {
  return [...validateRequest(document, request, context), ...removedFieldReferences(document, request)];
}

export function fromParser(d: HttpFileDiagnostic): Diagnostic {
  return { severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, range: d.range, message: d.message, source: SOURCE, code: d.code };
}

function info(range: Range, message: string, code: string): Diagnostic {
  return { severity: DiagnosticSeverity.Information, range, message, source: SOURCE, code };
}

function validateRequest(document: HttpDocument, request: HttpRequestNode, context: ServiceContext): Diagnostic[] {
  const line = request.requestLine;
  const known = context.operations.match(line.method, line.url);
  if (!known) {
    const family = context.operations.deprecatedFamily(line.url);
    if (family?.deprecated) {
      return [{ severity: DiagnosticSeverity.Warning, range: line.urlRange, message: `The ${family.name} operations are deprecated: use ${family.deprecated.replacement} (seed 000 §9).`, source: SOURCE, code: 'deprecated', tags: [DiagnosticTag.Deprecated] }];
    }
    const silent = context.operations.silentFamily(line.url);
    if (silent) {
      return [info(line.urlRange, `Contract not published: the ${silent.name} family does not show this operation${silent.notShown[0] ? ` (${silent.notShown[0]})` : ''}. Import an OpenAPI document or check the path.`, 'contract-not-published')];
    }
    return [];
  }
  const out: Diagnostic[] = [];
  const op = known.operation;
  if (op.deprecated) {
    out.push({ severity: DiagnosticSeverity.Warning, range: line.urlRange, message: `${op.method ?? ''} ${op.path ?? op.id} is deprecated: use ${op.deprecated.replacement}.`, source: SOURCE, code: 'deprecated', tags: [DiagnosticTag.Deprecated] });
  }
  if (op.pathStatus === 'inferred') {
    const form = op.service === 'engagement' ? ' from the /api/<Family>/<Operation> form of every published path' : '';
    out.push(info(line.urlRange, `Contract not published: the path of ${op.family}/${op.name} is not shown; ${op.path ?? 'this path'} is inferred${form}.`, 'contract-not-published'));
  }
  const hasBody = request.body !== undefined;
  if (hasBody && !known.requestSchema && op.method !== 'GET') {
    out.push(info(line.range, `Contract not published: the request body of ${op.family}/${op.name} is not shown, so it is not checked.`, 'contract-not-published'));
  }
  out.push(...validateQuery(request, known));
  if (known.requestSchema && (!hasBody || isJsonRequest(request))) out.push(...validateBody(document, request, known));
  return out;
}

function validateQuery(request: HttpRequestNode, known: KnownOperation): Diagnostic[] {
  const out: Diagnostic[] = [];
  const silentNames = known.operation.origin === 'contract' ? known.operation.notShown.find((n) => /parameters?: not shown/i.test(n)) : undefined;
  let silentReported = false;
  for (const parameter of request.queryParameters) {
    const documented = known.operation.query?.find((q) => q.name === parameter.name);
    if (!documented) {
      const sameLetters = known.operation.query?.find((q) => q.name.toLowerCase() === parameter.name.toLowerCase());
      if (sameLetters) out.push(caseMismatch(parameter.name, sameLetters.name, false, parameter.nameRange));
      else if (silentNames && !silentReported) {
        // Once per request: the contract does not name these parameters, so they cannot be checked.
        silentReported = true;
        out.push(info(parameter.nameRange, `Contract not published: '${parameter.name}' is not checked. ${silentNames}`, 'contract-not-published'));
      }
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

const REMOVED_FIELDS: ReadonlyArray<[string, string]> = [
  ['mainContactConstituentId', 'the main contact'],
  ['giftAidDeclarationId', 'the Gift Aid declaration'],
];

/** References to the create-payment response fields the later release removed (seed 001 §4). */
function removedFieldReferences(document: HttpDocument, request: HttpRequestNode): Diagnostic[] {
  const out: Diagnostic[] = [];
  const message = (field: string, what: string): string =>
    `${field} was removed in the later release: the response no longer returns it; read ${what} from the constituent (seed 001 §4).`;
  for (const reference of request.references) {
    for (const [field, what] of REMOVED_FIELDS) {
      if (reference.name.includes('.response.') && reference.name.includes(field)) {
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

export function undefinedVariables(references: readonly VariableReference[], environment: readonly string[], fileVariables: ReadonlySet<string>, named: ReadonlySet<string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const reference of references) {
    const name = reference.name;
    if (name.startsWith('$') || fileVariables.has(name) || environment.includes(name)) continue;
    const chained = /^([\w-]+)\.(response|request)\./.exec(name);
    if (chained) {
      if (!named.has(chained[1] ?? '')) {
        out.push({ severity: DiagnosticSeverity.Warning, range: reference.nameRange, message: `No request named '${chained[1]}' comes before this one (# @name ${chained[1]}).`, source: SOURCE, code: 'undefined-variable' });
      }
      continue;
    }
    out.push({ severity: DiagnosticSeverity.Warning, range: reference.nameRange, message: `The variable '${name}' is not defined in the active environment or the file.`, source: SOURCE, code: 'undefined-variable' });
  }
  return out;
}
