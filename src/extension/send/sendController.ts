// Send / Send and follow pages from a .http document, and the panel's Next page, All pages, Stop and
// Export. The work is the core's (prepareRequest, sendRequest, walk, buildResultsViewModel); this file
// only connects it to the editor. Nothing here retries a sign-in: a missing or refused credential is
// reported with a button the user may press. One paging walk runs at a time; a continuation is refused
// when the request or the environment behind it changed; every text shown goes through the Redactor.
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { Catalog } from '../../core/catalog';
import { detectBusinessErrors } from '../../core/catalog/businessErrors';
import { memorySink, openFileSink, redactingSink, reopenFileSink, type RowSink, type SinkFormat } from '../../core/export';
import { sendRequest } from '../../core/http/client';
import { HttpFault, type HttpRequest, type HttpResponse } from '../../core/http/types';
import { parseHttpFile } from '../../core/httpfile';
import type { NamedResponse } from '../../core/httpfile/resolve';
import { walk, withoutSecrets, type WalkResult } from '../../core/paging';
import { buildResultsViewModel } from '../../core/results/viewModel';
import { pagingPlanFor, pathOf } from '../../core/run/pagingPlan';
import { prepareRequest, type Prepared } from '../../core/run/prepareRequest';
import { dynamicVariables } from '../../core/run/dynamicVariables';
import { Redactor, knownSecretValues } from '../../core/secrets';
import { requestBlockText } from '../../core/collections/requestBlocks';
import type { HistoryRecord } from '../../core/history';
import { checkContract, contractViewOf, type DriftReport } from '../../core/contract';
import type { EnvironmentController } from '../environments/environmentController';
import type { ResultsPanel, ResultsRequest } from '../results/ResultsPanel';
import { pagingStateOf, type PagedSession } from './pagedSession';

export interface SendTarget {
  readonly uri: string;
  readonly requestIndex: number;
}

const EMPTY_ENV = { name: '(no environment)', variables: {}, auth: {} };
type Ready = Extract<Prepared, { ok: true }>;

export class SendController implements vscode.Disposable {
  /** Named responses per document, for {{name.response.body.$.x}}. */
  private readonly responses = new Map<string, Map<string, NamedResponse>>();
  private session: PagedSession | undefined;
  /** The send under way; a newer send (or Stop) aborts it, and its late result is dropped. */
  private inFlight: AbortController | undefined;
  private readonly subscriptions: vscode.Disposable[];
  /** Where each exchange shown is recorded (the History view); awaited so a send settles with its entry written. */
  recorder: ((record: HistoryRecord) => Promise<unknown>) | undefined;

  constructor(
    private readonly catalog: () => Catalog,
    private readonly environments: EnvironmentController,
    private readonly panel: ResultsPanel,
    private readonly log: (line: string) => void,
    private readonly resultsFolder: () => vscode.Uri,
  ) {
    this.subscriptions = [
      panel.onDidRequest((request) => void this.onPanelRequest(request)),
      vscode.workspace.onDidCloseTextDocument((d) => this.responses.delete(d.uri.toString())),
    ];
  }

  dispose(): void {
    this.inFlight?.abort();
    this.session?.abort?.abort();
    for (const s of this.subscriptions) s.dispose();
  }

  /** The paging session behind the panel (for tests). */
  get current(): PagedSession | undefined {
    return this.session;
  }

  async send(target: SendTarget, followPages: boolean): Promise<HttpResponse | undefined> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(target.uri));
    const uri = document.uri.toString();
    const file = parseHttpFile(document.getText());
    const node = file.requests.find((r) => r.index === target.requestIndex);
    const name = node?.name ?? `request ${target.requestIndex + 1}`;
    const prepared = await this.prepare(document.uri, target.requestIndex);
    if (!prepared.ok) {
      // Not awaited: the error's "Sign In" button may wait for the user for ever; send() must still settle.
      void this.reportUnprepared(prepared);
      return undefined;
    }
    const redactor = await this.redactor(prepared.secretValues);
    const op = this.catalog().match(prepared.request.method, pathOf(prepared.request.url));
    const requestKey = `${uri}#${name}`;
    this.inFlight?.abort();
    this.session?.abort?.abort();
    this.session = undefined;
    const mine = new AbortController();
    this.inFlight = mine;

    let response: HttpResponse | undefined;
    let walked: WalkResult | undefined;
    let session: PagedSession | undefined;
    try {
      if (followPages) {
        const lookup = pagingPlanFor(prepared.request, prepared.resolved.directives, this.catalog());
        if (!lookup.ok) {
          void vscode.window.showErrorMessage(`API Workbench: ${document.uri.path.split('/').pop() ?? ''}: ${lookup.error}`);
          return undefined;
        }
        const sink = memorySink();
        walked = await walk(prepared.request, {
          sink, maxPages: 1, signal: mine.signal, ...(lookup.plan ? { plan: lookup.plan } : {}),
          send: async (request, options) => (response = await sendRequest(request, options)),
        });
        session = {
          responseId: randomUUID(), first: withoutSecrets(prepared.request), environment: this.environmentName(),
          uri, requestIndex: target.requestIndex, name, checkpoint: walked.checkpoint,
          shownRows: redactRows(redactor, sink.pages.flat()),
        };
      } else {
        response = await sendRequest(prepared.request, { timeoutMs: 60_000, signal: mine.signal });
      }
    } catch (error) {
      if (mine.signal.aborted) return undefined;
      const message = error instanceof HttpFault ? error.message : error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`API Workbench: ${redactor.text(message)}`);
      return undefined;
    } finally {
      if (this.inFlight === mine) this.inFlight = undefined;
    }
    // A newer send, or Stop, took over while this one was on the wire: its result is not shown.
    if (mine.signal.aborted) return response;
    if (!response) {
      void vscode.window.showErrorMessage(`API Workbench: ${redactor.text(walked?.message ?? 'no response')}`);
      return undefined;
    }
    this.session = session;
    if (prepared.resolved.name) this.responsesOf(uri).set(prepared.resolved.name, { status: response.status, headers: response.headers, bodyText: response.bodyText });

    const report = businessErrorsOf(response, op?.errorCatalogue);
    const drift = op ? driftOf(op, response) : undefined;
    const viewModel = buildResultsViewModel({
      requestKey,
      title: `${name} — ${prepared.request.method} ${redactor.url(prepared.request.url)}`,
      request: { method: prepared.request.method, url: redactor.url(prepared.request.url), headers: redactor.headers(prepared.request.headers) },
      response: { ...response, headers: redactor.headers(response.headers), bodyText: redactor.text(response.bodyText) },
      businessErrors: report,
      ...(op?.errorCatalogue ? { catalogue: op.errorCatalogue } : {}),
      ...(op ? { service: op.service } : {}),
      authScheme: prepared.scheme,
      ...(session ? { paging: pagingStateOf(session, false), id: session.responseId } : {}),
      ...(drift ? { contract: contractViewOf(drift, (text) => redactor.text(text)) } : {}),
    });
    this.panel.show(viewModel);
    await this.recorder?.({
      request: prepared.request,
      key: requestKey,
      ...(node?.name ? { name: node.name } : {}),
      origin: { file: uri, index: target.requestIndex },
      source: requestBlockText(document.getText(), target.requestIndex),
      environment: this.environmentName(),
      ...(op ? { operationId: op.id } : {}),
      response,
      ...(drift ? { driftFindings: drift.findings.length } : {}),
      ...(walked ? { walk: { verdict: walked.verdict, reason: walked.message, pages: walked.pages, rows: walked.rows } } : {}),
      ...(report && report.convention !== 'none'
        ? { business: { failed: report.failed, codes: report.failures.flatMap((f) => (f.code === undefined ? [] : [f.code])) } }
        : {}),
    });
    if (walked && walked.outcome === 'failed' && response.status < 400) {
      void vscode.window.showWarningMessage(`API Workbench: ${redactor.text(walked.message)}`);
    }
    if (response.status === 401) void this.offerSignIn(prepared.scheme);
    this.log(`${prepared.request.method} ${redactor.url(prepared.request.url)} → ${response.status} in ${Math.round(response.timing.totalMs)} ms`);
    return response;
  }

  private async onPanelRequest(request: ResultsRequest): Promise<void> {
    const session = this.session;
    if (request.type === 'stop') {
      this.inFlight?.abort();
      session?.abort?.abort();
      return;
    }
    try {
      if (request.type === 'export') {
        await this.exportShown(request.format);
        return;
      }
      if (!session || session.responseId !== request.responseId) {
        void vscode.window.showWarningMessage('API Workbench: that response is no longer the one being paged; send the request again.');
        return;
      }
      if (session.abort) {
        void vscode.window.showWarningMessage('API Workbench: a walk of this response is already running; Stop it first.');
        return;
      }
      if (request.type === 'nextPage') await this.nextPage(session);
      else await this.allPages(session, request.format);
    } catch (error) {
      const redactor = await this.redactor([]);
      const message = redactor.text(error instanceof Error ? error.message : String(error));
      void vscode.window.showErrorMessage(`API Workbench: ${message}`);
      if (session && this.session === session) {
        session.abort = undefined;
        this.panel.walkEnded({ ok: false, message, paging: pagingStateOf(session, false), ...(session.exportFile ? { file: session.exportFile } : {}) });
      }
    }
  }

  private async nextPage(session: PagedSession): Promise<void> {
    if (session.exportFile) {
      void vscode.window.showWarningMessage(`API Workbench: the rows of this walk are going to ${vscode.workspace.asRelativePath(session.exportFile)}; use "All pages" to continue it there.`);
      return;
    }
    session.abort = new AbortController();
    try {
      const fresh = await this.continuation(session);
      if (!fresh) return;
      const redactor = await this.redactor(fresh.secretValues);
      const sink = memorySink();
      const result = await walk(fresh.request, { sink, maxPages: 1, resumeFrom: session.checkpoint, signal: session.abort.signal });
      if (this.session !== session) return;
      session.checkpoint = result.checkpoint;
      const rows = redactRows(redactor, sink.pages.flat());
      session.shownRows.push(...rows);
      this.panel.appendPage({ rows, paging: pagingStateOf(session, false) });
      if (result.outcome === 'failed') void vscode.window.showWarningMessage(`API Workbench: ${redactor.text(result.message)}`);
    } finally {
      session.abort = undefined;
    }
  }

  /** Streams every remaining page to a file; rows already shown go first, so nothing fetched is lost. */
  private async allPages(session: PagedSession, format: SinkFormat): Promise<void> {
    session.abort = new AbortController();
    let sink: RowSink | undefined;
    try {
      const fresh = await this.continuation(session);
      if (!fresh) return;
      const redactor = await this.redactor(fresh.secretValues);
      const resumeSink = session.checkpoint.sink;
      if (session.exportFile && resumeSink?.path === session.exportFile) {
        sink = await reopenFileSink(resumeSink);
      } else {
        const folder = this.resultsFolder();
        await vscode.workspace.fs.createDirectory(folder);
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const target = vscode.Uri.joinPath(folder, `${session.name.replace(/[^\w.-]+/g, '_')}-${stamp}.${format}`);
        sink = await openFileSink(format, target.fsPath);
        if (session.shownRows.length > 0) await sink.writePage(session.shownRows);
        session.exportFile = target.fsPath;
      }
      const file = session.exportFile;
      const redacting = redactingSink(sink, () => redactor);
      this.panel.progress({ pages: session.checkpoint.pages, rows: session.checkpoint.rows, rowsPerSecond: 0, elapsedMs: 0, file });
      const result = await walk(fresh.request, {
        sink: redacting, resumeFrom: session.checkpoint, signal: session.abort.signal,
        onProgress: (p) => { if (this.session === session) this.panel.progress({ pages: p.pages, rows: p.rows, rowsPerSecond: p.rowsPerSecond, elapsedMs: p.elapsedMs, file }); },
        onPage: (e) => { if (this.session === session) this.panel.progress({ pages: e.progress.pages, rows: e.progress.rows, rowsPerSecond: e.progress.rowsPerSecond, elapsedMs: e.progress.elapsedMs, file }); },
      });
      session.checkpoint = result.checkpoint;
      if (this.session !== session) return;
      const ok = result.outcome === 'complete';
      const message = redactor.text(result.message);
      this.panel.walkEnded({ ok, message, paging: pagingStateOf(session, false), file });
      const open = 'Open File';
      const say = ok ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
      void say(`API Workbench: ${message} Rows are in ${vscode.workspace.asRelativePath(file)}.`, open).then((choice) => {
        if (choice === open) void vscode.window.showTextDocument(vscode.Uri.file(file));
      });
    } finally {
      await sink?.close();
      session.abort = undefined;
    }
  }

  /** Writes the rows on screen to a file. */
  private async exportShown(format: SinkFormat): Promise<void> {
    const rows = this.session?.shownRows ?? [...(this.panel.viewModel?.table?.rows ?? [])];
    const folder = this.resultsFolder();
    await vscode.workspace.fs.createDirectory(folder);
    const name = (this.session?.name ?? 'response').replace(/[^\w.-]+/g, '_');
    const target = vscode.Uri.joinPath(folder, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.${format}`);
    const sink = await openFileSink(format, target.fsPath);
    try {
      await sink.writePage(rows);
    } finally {
      await sink.close();
    }
    void vscode.window.showInformationMessage(`API Workbench: ${rows.length} row(s) written to ${vscode.workspace.asRelativePath(target)}.`);
  }

  /**
   * The request again with current credentials (a token may have been renewed), for a continuation.
   * Refused when the environment changed, or the request at that index is no longer the one paged
   * (another method or origin): its credentials must not travel with the old request.
   */
  private async continuation(session: PagedSession): Promise<Ready | undefined> {
    if (this.environmentName() !== session.environment) {
      void vscode.window.showWarningMessage(`API Workbench: this response was paged in environment '${session.environment}'; switch back to it, or send the request again.`);
      return undefined;
    }
    const prepared = await this.prepare(vscode.Uri.parse(session.uri), session.requestIndex);
    if (!prepared.ok) {
      void this.reportUnprepared(prepared);
      return undefined;
    }
    if (prepared.request.method !== session.first.method || originOf(prepared.request.url) !== originOf(session.first.url)) {
      void vscode.window.showWarningMessage('API Workbench: the request behind this response changed in the file; send it again to page it.');
      return undefined;
    }
    return prepared;
  }

  private async prepare(uri: vscode.Uri, requestIndex: number): Promise<Prepared> {
    const document = await vscode.workspace.openTextDocument(uri);
    const file = parseHttpFile(document.getText());
    return prepareRequest(file, requestIndex, {
      environment: this.environments.active ?? EMPTY_ENV,
      credentials: this.environments.credentials,
      responses: this.responsesOf(document.uri.toString()),
      dynamic: dynamicVariables(),
      readInclude: async (path) => {
        const target = vscode.Uri.joinPath(uri, '..', path);
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
      },
    });
  }

  private async reportUnprepared(prepared: Extract<Prepared, { ok: false }>): Promise<void> {
    const redactor = await this.redactor([]);
    const problem = redactor.text(prepared.problem);
    if (prepared.kind !== 'auth' || !prepared.authId) {
      void vscode.window.showErrorMessage(`API Workbench: ${problem}`);
      return;
    }
    const kind = this.environments.active?.auth[prepared.authId]?.kind;
    const action = kind === 'password-grant' ? 'Sign In' : kind === 'basic-api-key' ? 'Set Basic Credentials' : kind === 'jwt-bearer' ? 'Paste Bearer Token' : undefined;
    const choice = await vscode.window.showErrorMessage(`API Workbench: ${problem}`, ...(action ? [action] : []));
    if (choice === 'Sign In') await vscode.commands.executeCommand('apiWorkbench.signIn', prepared.authId);
    if (choice === 'Set Basic Credentials') await vscode.commands.executeCommand('apiWorkbench.setBasicCredentials', prepared.authId);
    if (choice === 'Paste Bearer Token') await vscode.commands.executeCommand('apiWorkbench.pasteBearerToken', prepared.authId);
  }

  /** A 401 offers an explicit sign-in once; it never signs in or re-sends by itself. */
  private async offerSignIn(scheme: string): Promise<void> {
    if (scheme !== 'password-grant') return;
    const choice = await vscode.window.showWarningMessage('API Workbench: 401 — the engagement service did not accept the credentials sent. Sign in again?', 'Sign In');
    if (choice === 'Sign In') await vscode.commands.executeCommand('apiWorkbench.signIn');
  }

  private environmentName(): string {
    return this.environments.active?.name ?? EMPTY_ENV.name;
  }

  private async redactor(extra: readonly string[]): Promise<Redactor> {
    return new Redactor([...(await knownSecretValues(this.environments.allSecrets)), ...extra]);
  }

  private responsesOf(uri: string): Map<string, NamedResponse> {
    let map = this.responses.get(uri);
    if (!map) this.responses.set(uri, (map = new Map()));
    return map;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function businessErrorsOf(response: HttpResponse, catalogue: Parameters<typeof detectBusinessErrors>[1]): ReturnType<typeof detectBusinessErrors> | undefined {
  if (response.status < 200 || response.status >= 300) return undefined;
  try {
    return detectBusinessErrors(JSON.parse(response.bodyText) as unknown, catalogue);
  } catch {
    return undefined;
  }
}

/** Contract drift of a response of a catalog operation (core/contract); the body parsed once more, leniently. */
function driftOf(op: Parameters<typeof checkContract>[0], response: HttpResponse): DriftReport {
  let body: unknown;
  try {
    body = response.bodyText ? (JSON.parse(response.bodyText) as unknown) : undefined;
  } catch {
    body = undefined;
  }
  return checkContract(op, { status: response.status, headers: response.headers, body });
}

function redactRows(redactor: Redactor, rows: readonly unknown[]): unknown[] {
  return rows.map((row) => redactor.row(row));
}
