// CodeLens ("Send", "Send and follow pages", what the contract does not show), document symbols and folding ranges: one per request.
import type { CodeLens, DocumentSymbol, FoldingRange } from 'vscode-languageserver';
import type { HttpRequestNode } from '../../core/httpfile';
import { OPEN_CONTRACT_REFERENCE_COMMAND, SEND_AND_FOLLOW_PAGES_COMMAND, SEND_COMMAND, type SendRequestArguments } from '../../protocol/lsp';
import { contractNotes } from './contractNotes';
import type { HttpDocument } from './document';
import type { ServiceContext } from './context';
import { SymbolKind } from './lspConstants';

export function codeLenses(document: HttpDocument, context: ServiceContext): CodeLens[] {
  return document.file.requests.flatMap((request) => {
    const args: SendRequestArguments = { uri: document.uri, requestIndex: request.index };
    const range = request.requestLine.range;
    const paging = context.operations.match(request.requestLine.method, request.requestLine.url)?.operation.paging;
    const follow = paging && paging !== 'none' ? `Send and follow pages (${paging})` : 'Send and follow pages';
    const lenses: CodeLens[] = [
      { range, command: { title: 'Send', command: SEND_COMMAND, arguments: [args] } },
      { range, command: { title: follow, command: SEND_AND_FOLLOW_PAGES_COMMAND, arguments: [args] } },
    ];
    // Once per request, what the contract does not show (the hover on the request line says it in full);
    // it opens the contract reference at the section in clients that have that command.
    const notes = contractNotes(request, context);
    if (notes.notes.length > 0) {
      lenses.push({ range, command: { title: `Contract: ${notes.notes.map((n) => n.short).join(', ')}`, command: notes.source ? OPEN_CONTRACT_REFERENCE_COMMAND : '', ...(notes.source ? { arguments: [notes.source] } : {}) } });
    }
    return lenses;
  });
}

export function documentSymbols(document: HttpDocument): DocumentSymbol[] {
  return document.file.blocks.flatMap((block) => {
    const request = block.request;
    if (!request) return [];
    const line = `${request.requestLine.method} ${requestUrl(request)}`;
    return [{
      name: request.name ?? line,
      detail: request.name ? line : undefined,
      kind: SymbolKind.Method,
      range: { start: block.range.start, end: request.range.end },
      selectionRange: request.requestLine.range,
    }];
  });
}

export function foldingRanges(document: HttpDocument): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  for (const block of document.file.blocks) {
    let end = block.lastLine;
    while (end > block.firstLine && document.lineText(end).trim() === '') end--;
    if (end > block.firstLine) ranges.push({ startLine: block.firstLine, endLine: end, kind: 'region' });
    const body = block.request?.body;
    if (body && body.range.end.line > body.range.start.line) ranges.push({ startLine: body.range.start.line, endLine: body.range.end.line });
    for (const handler of block.request?.responseHandlers ?? []) {
      if (handler.range.end.line > handler.range.start.line) ranges.push({ startLine: handler.range.start.line, endLine: handler.range.end.line });
    }
  }
  return ranges;
}

function requestUrl(request: HttpRequestNode): string {
  return request.requestLine.url + request.queryContinuations.map((q) => q.text).join('');
}
