// Completion: methods, operation paths, query parameters, headers and values, `{{variables}}`,
// directives, and JSON body keys and values (see jsonCompletion.ts). Pure: document + position + context.
import type { CompletionItem, CompletionList, Position } from 'vscode-languageserver';
import { HTTP_METHODS, READ_DIRECTIVES, type HttpRequestNode } from '../../core/httpfile';
import { nextReference } from '../../core/secrets/vocabulary';
import type { HttpDocument } from './document';
import { openVariableAt, textBefore, zoneAt, type ServiceContext } from './context';
import { completeJsonBody } from './jsonCompletion';
import { CompletionItemKind, InsertTextFormat } from './lspConstants';
import { BASE_URL_VARIABLES, type KnownOperation } from './operations';
import { variableCompletions } from './variableCompletion';
import { HEADERS } from './headers';
import { assertionCompletions } from './assertionService';

export function doComplete(document: HttpDocument, position: Position, context: ServiceContext): CompletionList {
  return { isIncomplete: false, items: completionItems(document, position, context) };
}

function completionItems(document: HttpDocument, position: Position, context: ServiceContext): CompletionItem[] {
  const before = textBefore(document, position);
  const openVariable = openVariableAt(before);
  if (openVariable) return variableCompletions(document, position, openVariable, context);
  const zone = zoneAt(document, position);
  // `??` lines follow a request (its headers, body or handlers), never stand in the preamble.
  const assertion = zone.kind === 'preamble' || zone.kind === 'request-line' ? undefined : assertionCompletions(before, position);
  if (assertion) return assertion;
  switch (zone.kind) {
    case 'preamble':
      return preambleCompletions(before, position);
    case 'request-line':
      return requestLineCompletions(document, position, context);
    case 'query-continuation':
      return queryCompletions(before, position, zone.request, context);
    case 'header':
      return headerCompletions(before, position);
    case 'body':
      return completeJsonBody(document, zone.request, position, context);
    case 'after-body':
      return [];
  }
}

/** The directives API Workbench acts on (core/httpfile/directives.ts: the others are said where written). */
const DIRECTIVES = READ_DIRECTIVES;

const PAGING_STYLES = ['page-number', 'page-headers', 'offset-remaining', 'batch-cursor', 'export-ordinal', 'stateful-extraction', 'generic', 'none'];

function preambleCompletions(before: string, position: Position): CompletionItem[] {
  const directive = /^\s*(?:#|\/\/)\s*@(\S*)$/.exec(before);
  if (directive) {
    const start = position.character - (directive[1]?.length ?? 0);
    return DIRECTIVES.map(([key, doc]) => ({
      label: key,
      kind: CompletionItemKind.Keyword,
      documentation: doc,
      textEdit: { range: { start: { line: position.line, character: start }, end: position }, newText: key === 'name' || key === 'paging' ? `${key} ` : key },
    }));
  }
  const paging = /^\s*(?:#|\/\/)\s*@paging\s+(\S*)$/.exec(before);
  if (paging) {
    const start = position.character - (paging[1]?.length ?? 0);
    return PAGING_STYLES.map((style) => ({ label: style, kind: CompletionItemKind.EnumMember, textEdit: { range: { start: { line: position.line, character: start }, end: position }, newText: style } }));
  }
  if (/^\s*[A-Za-z]*$/.test(before)) return methodCompletions(before, position);
  return [];
}

function methodCompletions(before: string, position: Position): CompletionItem[] {
  const start = before.length - before.trimStart().length;
  return HTTP_METHODS.map((method, index) => ({
    label: method,
    kind: CompletionItemKind.Keyword,
    sortText: String(index).padStart(2, '0'),
    textEdit: { range: { start: { line: position.line, character: start }, end: position }, newText: `${method} ` },
    command: { title: 'Suggest paths', command: 'editor.action.triggerSuggest' },
  }));
}

function requestLineCompletions(document: HttpDocument, position: Position, context: ServiceContext): CompletionItem[] {
  const line = document.lineText(position.line);
  const before = line.slice(0, position.character);
  if (/^\s*[A-Za-z]*$/.test(before)) return methodCompletions(before, position);
  const method = /^\s*([A-Za-z]+)\s/.exec(before)?.[1]?.toUpperCase() ?? 'GET';
  const urlStart = /^\s*[A-Za-z]+\s+/.exec(before)?.[0].length ?? 0;
  const typed = before.slice(urlStart);
  if (typed.includes('?')) {
    const request = document.blockAt(position.line)?.request;
    return request ? queryCompletions(before, position, request, context) : [];
  }
  if (/\s/.test(typed)) return typed.trimEnd() === typed ? [] : [{ label: 'HTTP/1.1', kind: CompletionItemKind.Keyword }];
  let end = position.character;
  while (end < line.length && !/\s/.test(line[end] ?? '')) end++;
  const range = { start: { line: position.line, character: urlStart }, end: { line: position.line, character: end } };
  const first = nextReference(typed);
  const written = first?.start === 0 ? first.name : undefined;
  // A service's own base-URL variable narrows the list to that service.
  const writtenService = Object.entries(BASE_URL_VARIABLES).find(([, variable]) => variable === written)?.[0];
  return context.operations.all()
    .filter((k) => k.operation.path !== undefined && k.operation.method === method)
    .filter((k) => writtenService === undefined || k.operation.service === writtenService)
    .map((k) => {
      const path = k.operation.path ?? '';
      const base = written ?? (typed.startsWith('/') ? undefined : BASE_URL_VARIABLES[k.operation.service]);
      let placeholder = 0;
      const snippetPath = path.replace(/\{([^}]+)\}/g, (_m, name: string) => `\${${++placeholder}:${name}}`);
      const newText = `${base !== undefined ? `{{${base}}}` : ''}${snippetPath}`;
      return {
        label: path,
        kind: CompletionItemKind.Reference,
        detail: operationDetail(k),
        documentation: k.operation.summary,
        filterText: `${base !== undefined ? `{{${base}}}` : ''}${path}`,
        sortText: `${k.operation.deprecated ? 'z' : 'a'}${path}`,
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: { range, newText },
        ...(k.operation.deprecated ? { tags: [1] } : {}),
      };
    });
}

export function operationDetail(k: KnownOperation): string {
  const op = k.operation;
  const notes = [op.pathStatus === 'inferred' ? 'path inferred (not published)' : undefined, op.deprecated ? `deprecated: use ${op.deprecated.replacement}` : undefined, op.origin === 'import' ? 'imported' : undefined];
  return [op.id, ...notes.filter(Boolean)].join(' · ');
}

function queryCompletions(before: string, position: Position, request: HttpRequestNode, context: ServiceContext): CompletionItem[] {
  const known = context.operations.match(request.requestLine.method, request.requestLine.url);
  const name = /[?&]([^=&?\s]*)$/.exec(before);
  if (!known?.operation.query) return [];
  if (name) {
    const start = position.character - (name[1]?.length ?? 0);
    // Parameters written anywhere in the request (request line and continuation lines), except the one being typed.
    const present = new Set(request.queryParameters
      .filter((q) => !(q.range.start.line === position.line && q.range.start.character <= position.character && position.character <= q.range.end.character))
      .map((q) => q.name));
    return known.operation.query.filter((q) => !present.has(q.name)).map((q) => ({
      label: q.name,
      kind: CompletionItemKind.Field,
      detail: `${q.type}${q.required ? ', required' : ''}${q.default !== undefined ? `, default ${q.default}` : ''}${q.maximum !== undefined ? `, max ${q.maximum}` : ''}`,
      documentation: `${q.meaning} (seed ${q.source.seed} §${q.source.section})`,
      textEdit: { range: { start: { line: position.line, character: start }, end: position }, newText: `${q.name}=` },
    }));
  }
  const value = /[?&]([^=&?\s]+)=([^&\s]*)$/.exec(before);
  const parameter = known.operation.query.find((q) => q.name === value?.[1]);
  if (!value || !parameter) return [];
  const start = position.character - (value[2]?.length ?? 0);
  const values = parameter.values ?? (parameter.default !== undefined ? [String(parameter.default)] : parameter.type === 'boolean' ? ['true', 'false'] : []);
  return values.map((v) => ({ label: v, kind: CompletionItemKind.Value, textEdit: { range: { start: { line: position.line, character: start }, end: position }, newText: v } }));
}


function headerCompletions(before: string, position: Position): CompletionItem[] {
  const colon = before.indexOf(':');
  if (colon === -1) {
    const start = before.length - before.trimStart().length;
    return HEADERS.map(([name, doc]) => ({
      label: name,
      kind: CompletionItemKind.Property,
      documentation: doc,
      textEdit: { range: { start: { line: position.line, character: start }, end: position }, newText: `${name}: ` },
      command: { title: 'Suggest values', command: 'editor.action.triggerSuggest' },
    }));
  }
  const name = before.slice(0, colon).trim().toLowerCase();
  const values = HEADERS.find(([n]) => n.toLowerCase() === name)?.[2] ?? [];
  let start = colon + 1;
  while (before[start] === ' ') start++;
  return values.map((value) => ({
    label: value,
    kind: CompletionItemKind.Value,
    textEdit: { range: { start: { line: position.line, character: start }, end: position }, newText: value },
  }));
}
