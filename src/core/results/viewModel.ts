// Response → results view model: everything the webview shows, prepared on the host. The webview renders
// this as text and decides nothing. Credential headers must arrive redacted (asserted); cookies, secret
// query parameters and the body's secret-named fields (the shared vocabulary's) are masked here.
import type { HttpResponse } from '../http/types';
import { explainAuthFailure, type AuthScheme } from '../auth/explain';
import { detectBusinessErrors } from '../catalog/businessErrors';
import type { ErrorCatalogueId } from '../catalog/model';
import type { AuthExplanation, BodyView, ContractView, PagingState, ResultsViewModel, HistoryEntry, TableView } from '../../protocol/webviewMessages';
import { buildBusinessBanner, type BusinessErrorReportLike } from './businessBanner';
import { formatBytes, formatDuration, formatCount } from './format';
import { assertHeadersRedacted, headerLines, redactBodyText, redactParsedBody, redactUrl } from './redaction';
import { buildTable, redactedBodyOf, type DisplayRedaction } from './tableModel';
import { prettyJsonPrefix } from './prettyJson';

/** Characters of body text sent for display; the table carries every row whatever the body's size. */
export const DEFAULT_BODY_DISPLAY_LIMIT = 1_000_000;

export interface ResultsInput {
  /** Identifies "the same request" for history: e.g. the scratch file and the request's name. */
  readonly requestKey: string;
  readonly title?: string;
  /** Headers as sent, with Authorization / X-API-Key already redacted by the caller. */
  readonly request: { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string>> };
  readonly response: HttpResponse;
  /** A report from detectBusinessErrors(); when absent it is run here for an engagement call or a known catalogue. */
  readonly businessErrors?: BusinessErrorReportLike;
  /** The error catalogue of the operation's family (SurveyApi, Customer, …): codes get their meanings. */
  readonly catalogue?: ErrorCatalogueId;
  /** The host's own words for a 401/403; by default core/auth/explain words it from the service and scheme. */
  readonly auth?: AuthExplanation;
  readonly service?: 'engagement' | 'fundraising' | 'booking';
  readonly authScheme?: AuthScheme;
  readonly paging?: PagingState;
  /** The paged field when the paging strategy knows it ('Data', '$'); otherwise the body's shape decides. */
  readonly rowsPath?: string;
  readonly history?: readonly HistoryEntry[];
  /** Contract drift of the response (core/contract), for the panel's Contract section. */
  readonly contract?: ContractView;
  readonly bodyDisplayLimit?: number;
  readonly id?: string;
  /**
   * The JSON body as the exchange parsed it (as received, secrets and all) and how to redact what is shown
   * of it. Then `response.bodyText` is not read (pass ''; `chars` is its length): the body is not parsed
   * again, and rows and the pretty-printed body are redacted when first read, not all before the first
   * screen (see tableModel's tableHead and deferredBody below).
   */
  readonly parsedBody?: { readonly value: unknown; readonly chars: number; readonly redaction: DisplayRedaction };
}

function statusClassOf(status: number): ResultsViewModel['statusClass'] {
  if (status < 200) return 'informational';
  if (status < 300) return 'success';
  if (status < 400) return 'redirect';
  if (status < 500) return 'client-error';
  return 'server-error';
}

export function looksLikeJson(text: string, contentType: string | undefined): boolean {
  if (contentType && /json/i.test(contentType)) return true;
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

function bodyView(text: string, language: BodyView['language'], limit: number, note?: string): BodyView {
  const truncated = text.length > limit;
  const notes = [note, truncated ? `Showing the first ${formatCount(limit)} of ${formatCount(text.length)} characters.` : undefined];
  return finishBody(truncated ? text.slice(0, limit) : text, language, truncated, text.length, notes);
}

/** A parsed JSON body, pretty-printed only as far as the display limit. */
function prettyBodyView(value: unknown, rawChars: number, limit: number, hasTable: boolean): BodyView {
  const pretty = prettyJsonPrefix(value, limit);
  const note = pretty.complete
    ? undefined
    : `Showing the first ${formatCount(limit)} characters of the pretty-printed body (${formatCount(rawChars)} characters as received)${hasTable ? '; the table holds every row.' : '.'}`;
  return finishBody(pretty.text, 'json', !pretty.complete, rawChars, [note]);
}

/** A body view computed when first read (the panel sends it after the first rows). */
function deferredBody(language: BodyView['language'], compute: () => BodyView): BodyView {
  let computed: BodyView | undefined;
  const view = { language } as BodyView;
  for (const key of ['text', 'truncated', 'totalChars', 'note'] as const) {
    Object.defineProperty(view, key, { enumerable: true, get: () => (computed ??= compute())[key] });
  }
  return view;
}

function finishBody(text: string, language: BodyView['language'], truncated: boolean, totalChars: number, notes: (string | undefined)[]): BodyView {
  const joined = notes.filter(Boolean).join(' ');
  return { text, language, truncated, totalChars, ...(joined ? { note: joined } : {}) };
}

function explainAuth(input: ResultsInput, bodyText: string): AuthExplanation | undefined {
  if (input.auth) return input.auth;
  const explained = explainAuthFailure({
    status: input.response.status,
    bodyText,
    ...(input.service ? { service: input.service } : {}),
    ...(input.authScheme ? { scheme: input.authScheme } : {}),
  });
  return explained ? { title: explained.summary, explanation: explained.detail } : undefined;
}

export function buildResultsViewModel(input: ResultsInput): ResultsViewModel {
  const { response, request } = input;
  const requestHeaders = headerLines(request.headers);
  const responseHeaders = headerLines(response.headers);
  assertHeadersRedacted(requestHeaders);
  assertHeadersRedacted(responseHeaders);

  const limit = input.bodyDisplayLimit ?? DEFAULT_BODY_DISPLAY_LIMIT;
  const raw = response.bodyText;
  const given = input.parsedBody;
  const contentType = Object.entries(response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  let body: BodyView;
  let table: TableView | undefined;
  let report = input.businessErrors;
  /** The body as the panel may show it: secret-named fields masked (set below for every branch). */
  let text = raw;
  const detect = report === undefined && (input.catalogue !== undefined || input.service === 'engagement');
  const parsed = given || !(raw.length > 0 && looksLikeJson(raw, contentType)) ? undefined : parseJson(raw);
  if (given) {
    const { value, redaction, chars } = given;
    table = buildTable(value, input.rowsPath, redaction);
    const hasTable = table !== undefined;
    if (detect) report = detectBusinessErrors(redaction.value(value), input.catalogue);
    const shownTable = table;
    body = deferredBody('json', () => prettyBodyView((shownTable && redactedBodyOf(shownTable)) ?? redaction.value(value), chars, limit, hasTable));
    // Only a 401/403 reads the body's text (explainAuth); nothing else needs it whole.
    text = response.status === 401 || response.status === 403 ? JSON.stringify(redaction.value(value)) : '';
  } else if (raw.length === 0) {
    body = bodyView('', 'text', limit, 'The response has no body.');
  } else if (parsed?.ok) {
    const value = redactParsedBody(parsed.value);
    if (value !== parsed.value) text = JSON.stringify(value);
    table = buildTable(value, input.rowsPath);
    if (detect) report = detectBusinessErrors(value, input.catalogue);
    body = prettyBodyView(value, raw.length, limit, table !== undefined);
  } else {
    text = redactBodyText(raw, contentType);
    body = bodyView(text, 'text', limit, parsed ? `The body is not valid JSON (${parsed.error}); shown as received.` : undefined);
  }

  const businessErrors = buildBusinessBanner(report, response.status, response.statusText, input.catalogue);
  const auth = explainAuth(input, text);
  const url = redactUrl(request.url);
  return {
    id: input.id ?? globalThis.crypto.randomUUID(),
    requestKey: input.requestKey,
    title: input.title ?? `${request.method} ${url}`,
    request: { method: request.method, url, headers: requestHeaders },
    status: response.status,
    statusText: response.statusText,
    statusClass: statusClassOf(response.status),
    receivedAt: new Date(response.timing.startedAt + response.timing.totalMs).toISOString(),
    timing: { totalMs: response.timing.totalMs, firstByteMs: response.timing.firstByteMs, text: formatDuration(response.timing.totalMs) },
    size: { bytes: response.sizeBytes, text: formatBytes(response.sizeBytes) },
    headers: responseHeaders,
    body,
    ...(table ? { table } : {}),
    ...(businessErrors ? { businessErrors } : {}),
    ...(auth ? { auth } : {}),
    ...(input.paging ? { paging: input.paging } : {}),
    history: [...(input.history ?? [])],
    ...(input.contract ? { contract: input.contract } : {}),
  };
}
