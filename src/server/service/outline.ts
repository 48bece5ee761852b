// CodeLens ("Send", "Send and follow pages", what the contract does not show), document symbols and folding ranges: one per request,
// read from each block's own parse (kept by block string, the one validation made) moved to the block's place,
// so an editor asking them after every edit costs the blocks the edit made, not a parse of the file.
import type { CodeLens, DocumentSymbol, FoldingRange } from 'vscode-languageserver';
import { writtenRequestLine, type HttpRequestNode, type Position, type Range, type RequestBlock } from '../../core/httpfile';
import { OPEN_CONTRACT_REFERENCE_COMMAND, SEND_AND_FOLLOW_PAGES_COMMAND, SEND_COMMAND, type SendRequestArguments } from '../../protocol/lsp';
import { contractNotes } from './contractNotes';
import type { HttpDocument, OwnBlock } from './document';
import type { ServiceContext } from './context';
import { SymbolKind } from './lspConstants';

/** Each block's own parse (kept from version to version), with its first line in the document. */
function* placedBlocks(document: HttpDocument): Generator<{ readonly own: OwnBlock; readonly first: number }> {
  const blocks = document.blockTexts;
  const firstLines = blocks.firstLines;
  for (let k = 0; k < firstLines.length; k++) yield { own: document.ownBlock(k), first: firstLines[k]! };
}

/** Every request of the document with its block and that block's first line (a `###` block may hold more than one). */
function* placedRequests(document: HttpDocument): Generator<{ readonly block: RequestBlock; readonly request: HttpRequestNode; readonly first: number }> {
  for (const { own, first } of placedBlocks(document)) {
    for (const block of own.blocks) if (block.request) yield { block, request: block.request, first };
  }
}

const down = (position: Position, lines: number): Position => ({ line: position.line + lines, character: position.character });
const moved = (range: Range, lines: number): Range => (lines === 0 ? range : { start: down(range.start, lines), end: down(range.end, lines) });

export function codeLenses(document: HttpDocument, context: ServiceContext): CodeLens[] {
  const lenses: CodeLens[] = [];
  let requestIndex = 0;
  for (const { request, first } of placedRequests(document)) {
    const args: SendRequestArguments = { uri: document.uri, requestIndex: requestIndex++ };
    const range = moved(request.requestLine.range, first);
    const paging = context.operations.match(request.requestLine.method, request.requestLine.url)?.operation.paging;
    const follow = paging && paging !== 'none' ? `Send and follow pages (${paging})` : 'Send and follow pages';
    lenses.push(
      { range, command: { title: 'Send', command: SEND_COMMAND, arguments: [args] } },
      { range, command: { title: follow, command: SEND_AND_FOLLOW_PAGES_COMMAND, arguments: [args] } },
    );
    // Once per request, what the contract does not show (the hover on the request line says it in full);
    // it opens the contract reference at the section in clients that have that command.
    const notes = contractNotes(request, context);
    if (notes.notes.length > 0) {
      lenses.push({ range, command: { title: `Contract: ${notes.notes.map((n) => n.short).join(', ')}`, command: notes.source ? OPEN_CONTRACT_REFERENCE_COMMAND : '', ...(notes.source ? { arguments: [notes.source] } : {}) } });
    }
  }
  return lenses;
}

export function documentSymbols(document: HttpDocument): DocumentSymbol[] {
  const symbols: DocumentSymbol[] = [];
  for (const { block, request, first } of placedRequests(document)) {
    const line = writtenRequestLine(request);
    symbols.push({
      name: request.name ?? line,
      detail: request.name ? line : undefined,
      kind: SymbolKind.Method,
      range: moved({ start: block.range.start, end: request.range.end }, first),
      selectionRange: moved(request.requestLine.range, first),
    });
  }
  return symbols;
}

export function foldingRanges(document: HttpDocument): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  for (const { own, first } of placedBlocks(document)) {
    const block = own.block;
    const end = own.lastFilled;
    if (end > block.firstLine) ranges.push({ startLine: first + block.firstLine, endLine: first + end, kind: 'region' });
    for (const request of own.blocks.flatMap((b) => (b.request ? [b.request] : []))) {
      const body = request.body;
      if (body && body.range.end.line > body.range.start.line) ranges.push({ startLine: first + body.range.start.line, endLine: first + body.range.end.line });
      for (const handler of request.responseHandlers) {
        if (handler.range.end.line > handler.range.start.line) ranges.push({ startLine: first + handler.range.start.line, endLine: first + handler.range.end.line });
      }
    }
  }
  return ranges;
}

