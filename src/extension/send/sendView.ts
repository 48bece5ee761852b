// What a Send shows and keeps: the panel's view model (the exchange's, with its tests and contract
// sections), the paging session of a paged first page, and the History entry (redacted by the store
// before writing). Pure: the controller shows and records them.
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import { requestBlockText } from '../../core/collections/requestBlocks';
import { contractViewOfFindings } from '../../core/contract';
import type { HistoryRecord } from '../../core/history';
import type { HttpResponse } from '../../core/http/types';
import type { HttpFile, HttpRequestNode } from '../../core/httpfile/model';
import { viewModelOfExchange } from '../../core/results/exchangeView';
import { spilledViewModel, type PanelSource, type SpilledStores } from '../../core/results/spilledView';
import { testsViewOf } from '../../core/results/testsView';
import { assertionResultsOf, notRunOfSend } from '../../core/run/assertions';
import type { ExchangeResult } from '../../core/run/exchange';
import type { Prepared } from '../../core/run/prepareRequest';
import type { Redactor } from '../../core/secrets';
import { pagingStateOf, type PagedSession } from './pagedSession';

/** A request sent from a document, with what the exchange made of it. */
export interface SentRequest {
  readonly result: ExchangeResult;
  readonly prepared: Extract<Prepared, { ok: true }>;
  readonly target: { readonly uri: string; readonly requestIndex: number };
  readonly followPages: boolean;
  readonly document: vscode.TextDocument;
  /** The document's text when the request was sent (it may have been edited since). */
  readonly text: string;
  readonly file: HttpFile;
  readonly node: HttpRequestNode | undefined;
  readonly name: string;
}

/** The panel's name for the request of a send (its file and label); which sends are the same request is requestNow.ts's rule. */
const requestKeyOf = ({ document, name }: SentRequest): string => `${document.uri.toString()}#${name}`;

/** What the History view keeps of a send, before its response (or fault) is known. */
export function historyEntryOf(sent: SentRequest, environment: string): HistoryRecord {
  const { result, prepared, target, document, text, node, file } = sent;
  const uri = document.uri.toString();
  return {
    request: result.request ?? prepared.request, ...(node?.name ? { name: node.name } : {}),
    origin: { file: uri, index: target.requestIndex }, source: requestBlockText(text, target.requestIndex), sentFrom: file,
    environment, ...(result.operation ? { operationId: result.operation.id } : {}),
  };
}

/** Every Send of a paged request is the first page of a walk: its session, for Next page and All pages. */
export function pagedSessionOf({ result, document, target, name }: SentRequest, redactor: Redactor, spilled = false): PagedSession | undefined {
  if (!result.paging) return undefined;
  return {
    responseId: randomUUID(), cursor: result.paging,
    uri: document.uri.toString(), requestIndex: target.requestIndex, name, shownRows: [],
    firstPage: { rows: result.rows?.items ?? [], redact: (row) => redactor.row(row) },
    ...(spilled ? { firstPageOnDisk: true } : {}),
  };
}

/** What frames a sent response in the panel: its key, title, tests and contract sections. */
function framingOf(sent: SentRequest, redactor: Redactor) {
  const { result, prepared, file, node, name } = sent;
  const request = result.request ?? prepared.request;
  const block = file.blocks.find((b) => b.request === node);
  const tests = testsViewOf(assertionResultsOf(result.findings), block && node ? notRunOfSend(file, block, node) : [], redactor);
  const contract = contractViewOfFindings(result.operation?.id, result.findings, (text) => redactor.text(text));
  const options = { requestKey: requestKeyOf(sent), title: `${name} — ${request.method} ${redactor.url(request.url)}`, redactor };
  return { options, sections: { ...(tests ? { tests } : {}), ...(contract ? { contract } : {}) }, contract };
}

/** The panel's view of a sent response, and its contract section (the History entry counts its findings). */
export function sendViewModel(sent: SentRequest, response: HttpResponse, redactor: Redactor, session: PagedSession | undefined) {
  const { options, sections, contract } = framingOf(sent, redactor);
  const shown = viewModelOfExchange(sent.result, response, { ...options, ...(session ? { paging: pagingStateOf(session, false), id: session.responseId } : {}) });
  return { viewModel: { ...shown, ...sections }, contract, source: undefined as PanelSource | undefined };
}

/** As sendViewModel, for a response on disk: its first rows and body page, and the source the panel reads the rest from. */
export async function spilledSendViewModel(sent: SentRequest, response: HttpResponse, redactor: Redactor, session: PagedSession | undefined, stores: SpilledStores) {
  const { options, sections, contract } = framingOf(sent, redactor);
  const spilled = await spilledViewModel(sent.result, response, stores, { ...options, id: session?.responseId ?? randomUUID(), ...(session ? { paging: pagingStateOf(session, false) } : {}) });
  return { viewModel: { ...spilled.viewModel, ...sections }, contract, source: spilled.source as PanelSource | undefined };
}

/** A Send is one page, never a walk (History says so); "All pages" on it is recorded with its verdict. */
export function historyRecordOf(
  entry: HistoryRecord, response: HttpResponse, contract: ReturnType<typeof contractViewOfFindings>, business: ExchangeResult['business'],
): HistoryRecord {
  return {
    ...entry,
    response,
    ...(contract?.operation ? { driftFindings: contract.findings.length } : {}),
    ...(business && business.convention !== 'none'
      ? { business: { failed: business.failed, codes: business.failures.flatMap((f) => (f.code === undefined ? [] : [f.code])) } }
      : {}),
  };
}
