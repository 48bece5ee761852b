// CodeLens ("Send", "Send and follow pages"), document symbols and folding ranges: one per request.
import type { CodeLens, DocumentSymbol, FoldingRange } from 'vscode-languageserver';
import type { HttpRequestNode } from '../../core/httpfile';
import { SEND_AND_FOLLOW_PAGES_COMMAND, SEND_COMMAND, type SendRequestArguments } from '../../protocol/lsp';
import type { HttpDocument } from './document';
import type { ServiceContext } from './context';
import { SymbolKind } from './lspConstants';

export function codeLenses(document: HttpDocument, context: ServiceContext): CodeLens[] {
  return document.file.requests.flatMap((request) => {
    const args: SendRequestArguments = { uri: document.uri, requestIndex: request.index };
    const range = request.requestLine.range;
    const paging = context.operations.match(request.requestLine.method, request.requestLine.url)?.operation.paging;
    const follow = paging && paging !== 'none' ? `Send and follow pages (${paging})` : 'Send and follow pages';
    return [
      { range, command: { title: 'Send', command: SEND_COMMAND, arguments: [args] } },
      { range, command: { title: follow, command: SEND_AND_FOLLOW_PAGES_COMMAND, arguments: [args] } },
    ];
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
