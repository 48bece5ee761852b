// Response → results view model: everything the webview shows, prepared on the host. The webview renders
// this as text and decides nothing. Credential headers must arrive redacted (asserted); cookies, secret
// query parameters and the body's secret-named fields (the shared vocabulary's) are masked here.
import { headerValue, type HttpResponse } from '../http/types';
import { explainAuthFailure, type AuthScheme } from '../auth/explain';
import { detectBusinessErrors } from '../catalog/businessErrors';
import { jsonFault } from '../export/jsonFault';
import { jsonText, keepsNumberText, parseKeepingNumbers } from '../json/numberText';
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

/** A body as received, each number kept as written (12345678901234567890, 1.10: json/numberText.ts); a fault in the product's words. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: parseKeepingNumbers(text) };
  } catch (e) {
    if (e instanceof SyntaxError) return { ok: false, error: jsonFault(text).message };
    throw e;
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

/** What the panel shows of a body, and what the banners read of it. */
interface ShownBody {
  readonly body: BodyView;
  readonly table?: TableView;
  /** The caller's business-error report, or the one detected here when one is wanted. */
  readonly report?: BusinessErrorReportLike;
  /** The body as the 401/403 explanation reads it: secret-named fields masked. */
  readonly text: string;
}

/** The business-error report of a body: the caller's, or detected here for an engagement call or a known catalogue. */
type ReportOf = (value: () => unknown) => BusinessErrorReportLike | undefined;

function shownBody(input: ResultsInput, limit: number): ShownBody {
  const detect = input.businessErrors === undefined && (input.catalogue !== undefined || input.service === 'engagement');
  const reportOf: ReportOf = (value) => (detect ? detectBusinessErrors(value(), input.catalogue) : input.businessErrors);
  return input.parsedBody ? givenBody(input, input.parsedBody, limit, reportOf) : receivedBody(input, limit, reportOf);
}

/** A body the exchange parsed: the table reads it as it is, the pretty text is redacted when first read. */
function givenBody(input: ResultsInput, given: NonNullable<ResultsInput['parsedBody']>, limit: number, reportOf: ReportOf): ShownBody {
  const { value, redaction, chars } = given;
  const table = buildTable(value, input.rowsPath, redaction);
  const body = deferredBody('json', () => prettyBodyView((table && redactedBodyOf(table)) ?? redaction.value(value), chars, limit, table !== undefined));
  const status = input.response.status;
  // Only a 401/403 reads the body's text (explainAuth); nothing else needs it whole.
  const text = status === 401 || status === 403 ? JSON.stringify(redaction.value(value)) : '';
  return { body, text, report: reportOf(() => redaction.value(value)), ...(table ? { table } : {}) };
}

/** A body as received (response.bodyText): parsed here when it looks like JSON, else shown as text. */
function receivedBody(input: ResultsInput, limit: number, reportOf: ReportOf): ShownBody {
  const raw = input.response.bodyText;
  if (raw.length === 0) return { body: bodyView('', 'text', limit, 'The response has no body.'), text: raw, report: input.businessErrors };
  const contentType = headerValue(input.response.headers, 'content-type');
  const parsed = looksLikeJson(raw, contentType) ? parseJson(raw) : undefined;
  if (parsed?.ok) {
    const value = redactParsedBody(parsed.value);
    keepsNumberText(parsed.value, value);
    const table = buildTable(value, input.rowsPath);
    const text = value === parsed.value ? raw : (jsonText(value) ?? '');
    return { body: prettyBodyView(value, raw.length, limit, table !== undefined), text, report: reportOf(() => value), ...(table ? { table } : {}) };
  }
  const text = redactBodyText(raw, contentType);
  const note = parsed ? `The body is not valid JSON (${parsed.error}); shown as received.` : undefined;
  return { body: bodyView(text, 'text', limit, note), text, report: input.businessErrors };
}

export function buildResultsViewModel(input: ResultsInput): ResultsViewModel {
  const { response, request } = input;
  const requestHeaders = headerLines(request.headers);
  const responseHeaders = headerLines(response.headers);
  assertHeadersRedacted(requestHeaders);
  assertHeadersRedacted(responseHeaders);

  const { body, table, report, text } = shownBody(input, input.bodyDisplayLimit ?? DEFAULT_BODY_DISPLAY_LIMIT);
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
