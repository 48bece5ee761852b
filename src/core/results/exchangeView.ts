// An exchange's result (core/run/exchange.ts) as the panel's view model: everything redacted by the
// caller's Redactor, the table built from the same row path the exchange counted with (one row count).
// A JSON body is not parsed again: the exchange's parse is used, and what the panel shows of it is
// redacted value by value (Redactor.value: the rules of Redactor.text, per string) as it is shown.
import type { HttpResponse } from '../http/types';
import type { ExchangeResult } from '../run/exchange';
import type { Redactor } from '../secrets/redact';
import type { HistoryEntry, PagingState, ResultsViewModel } from '../../protocol/webviewMessages';
import { buildResultsViewModel, looksLikeJson } from './viewModel';

export interface ExchangeViewOptions {
  readonly requestKey: string;
  readonly title: string;
  readonly redactor: Redactor;
  readonly paging?: PagingState;
  readonly id?: string;
  readonly history?: readonly HistoryEntry[];
}

export function viewModelOfExchange(result: ExchangeResult, response: HttpResponse, options: ExchangeViewOptions): ResultsViewModel {
  const { redactor } = options;
  const request = result.request ?? (result.prepared.ok ? result.prepared.request : undefined);
  const operation = result.operation;
  const ok2xx = response.status >= 200 && response.status < 300;
  const contentType = Object.entries(response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const parsed = result.body !== undefined && response.bodyText.length > 0 && looksLikeJson(response.bodyText, contentType);
  return buildResultsViewModel({
    requestKey: options.requestKey,
    title: options.title,
    request: { method: request?.method ?? '', url: redactor.url(request?.url ?? ''), headers: redactor.headers(request?.headers ?? {}) },
    response: { ...response, headers: redactor.headers(response.headers), bodyText: parsed ? '' : redactor.text(response.bodyText) },
    ...(parsed ? { parsedBody: { value: result.body, chars: response.bodyText.length, redaction: redactor } } : {}),
    ...(ok2xx && result.business ? { businessErrors: result.business } : {}),
    ...(operation?.errorCatalogue ? { catalogue: operation.errorCatalogue } : {}),
    ...(operation ? { service: operation.service } : {}),
    ...(result.prepared.ok ? { authScheme: result.prepared.scheme } : {}),
    ...authWords(result),
    ...(result.rows ? { rowsPath: result.rows.path } : {}),
    ...(options.paging ? { paging: options.paging } : {}),
    ...(options.id ? { id: options.id } : {}),
    ...(options.history ? { history: options.history } : {}),
  });
}

/** The exchange's own 401/403 words (read from the body as received), so the panel does not explain it again. */
function authWords(result: ExchangeResult): { auth?: { title: string; explanation: string } } {
  return result.auth ? { auth: { title: result.auth.summary, explanation: result.auth.detail } } : {};
}
