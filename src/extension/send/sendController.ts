// Send / Send and follow pages from a .http document, and the panel's Next page, All pages, Stop and
// Export. The work is the core's (prepareRequest, sendRequest, walk, buildResultsViewModel); this file
// only connects it to the editor. Nothing here retries a sign-in: a missing or refused credential is
// reported with a button the user may press.
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { Catalog } from '../../core/catalog';
import { detectBusinessErrors } from '../../core/catalog/businessErrors';
import { openFileSink, reopenFileSink, type RowSink, type SinkFormat } from '../../core/export';
import { sendRequest } from '../../core/http/client';
import { HttpFault, type HttpRequest, type HttpResponse } from '../../core/http/types';
import { parseHttpFile } from '../../core/httpfile';
import type { NamedResponse } from '../../core/httpfile/resolve';
import { memorySink } from '../../core/export';
import { walk, type WalkResult } from '../../core/paging';
import { buildResultsViewModel } from '../../core/results/viewModel';
import { pagingPlanFor, pathOf } from '../../core/run/pagingPlan';
import { prepareRequest, type Prepared } from '../../core/run/prepareRequest';
import { Redactor, knownSecretValues } from '../../core/secrets';
import type { EnvironmentController } from '../environments/environmentController';
import type { ResultsPanel, ResultsRequest } from '../results/ResultsPanel';
import { pagingStateOf, type PagedSession } from './pagedSession';
import { dynamicVariables } from '../../core/run/dynamicVariables';

export interface SendTarget {
  readonly uri: string;
  readonly requestIndex: number;
}

const EMPTY_ENV = { name: '(no environment)', variables: {}, auth: {} };

export class SendController implements vscode.Disposable {
  /** Named responses per document, for {{name.response.body.$.x}}. */
  private readonly responses = new Map<string, Map<string, NamedResponse>>();
  private session: PagedSession | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly catalog: () => Catalog,
    private readonly environments: EnvironmentController,
    private readonly panel: ResultsPanel,
    private readonly log: (line: string) => void,
    private readonly resultsFolder: () => vscode.Uri,
  ) {
    this.subscription = panel.onDidRequest((request) => void this.onPanelRequest(request));
  }

  dispose(): void {
    this.session?.abort?.abort();
    this.subscription.dispose();
  }

  /** The paging session behind the panel (for tests). */
  get current(): PagedSession | undefined {
    return this.session;
  }

  async send(target: SendTarget, followPages: boolean): Promise<HttpResponse | undefined> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(target.uri));
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
    const requestKey = `${target.uri}#${name}`;
    this.session?.abort?.abort();
    this.session = undefined;

    let response: HttpResponse | undefined;
    let rows: unknown[] | undefined;
    let walked: WalkResult | undefined;
    try {
      if (followPages) {
        const lookup = pagingPlanFor(prepared.request, prepared.resolved.directives, this.catalog());
        if (!lookup.ok) {
          void vscode.window.showErrorMessage(`API Workbench: ${document.uri.path.split('/').pop() ?? ''}: ${lookup.error}`);
          return undefined;
        }
        const sink = memorySink();
        walked = await walk(prepared.request, {
          sink, maxPages: 1, ...(lookup.plan ? { plan: lookup.plan } : {}),
          send: async (request, options) => (response = await sendRequest(request, options)),
        });
        rows = sink.pages.flat();
        this.session = {
          requestKey, responseId: randomUUID(), first: prepared.request, uri: target.uri, requestIndex: target.requestIndex, name,
          plan: walked.checkpoint.plan, checkpoint: walked.checkpoint, shownRows: [...rows],
        };
      } else {
        response = await sendRequest(prepared.request, { timeoutMs: 60_000 });
      }
    } catch (error) {
      const message = error instanceof HttpFault ? error.message : error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`API Workbench: ${redactor.text(message)}`);
      return undefined;
    }
    if (!response) {
      void vscode.window.showErrorMessage(`API Workbench: ${redactor.text(walked?.message ?? 'no response')}`);
      return undefined;
    }
    if (prepared.resolved.name) this.responsesOf(target.uri).set(prepared.resolved.name, { status: response.status, headers: response.headers, bodyText: response.bodyText });

    const viewModel = buildResultsViewModel({
      requestKey,
      title: `${name} — ${prepared.request.method} ${redactor.url(prepared.request.url)}`,
      request: { method: prepared.request.method, url: redactor.url(prepared.request.url), headers: redactor.headers(prepared.request.headers) },
      response: { ...response, bodyText: redactor.text(response.bodyText) },
      businessErrors: businessErrorsOf(response, op?.errorCatalogue),
      ...(op?.errorCatalogue ? { catalogue: op.errorCatalogue } : {}),
      ...(op ? { service: op.service } : {}),
      authScheme: prepared.scheme,
      ...(this.session ? { paging: pagingStateOf(this.session, false), id: this.session.responseId } : {}),
    });
    this.panel.show(viewModel);
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
      session?.abort?.abort();
      return;
    }
    if (request.type === 'export') {
      await this.exportShown(request.format);
      return;
    }
    if (!session || session.responseId !== request.responseId) {
      void vscode.window.showWarningMessage('API Workbench: that response is no longer the one being paged; send the request again.');
      return;
    }
    if (request.type === 'nextPage') await this.nextPage(session);
    else await this.allPages(session, request.format);
  }

  private async nextPage(session: PagedSession): Promise<void> {
    const fresh = await this.freshRequest(session);
    if (!fresh) return;
    const sink = memorySink();
    session.abort = new AbortController();
    const result = await walk(fresh, { sink, maxPages: 1, resumeFrom: session.checkpoint, signal: session.abort.signal });
    session.abort = undefined;
    session.checkpoint = result.checkpoint;
    const rows = sink.pages.flat();
    session.shownRows.push(...rows);
    this.panel.appendPage({ rows, paging: pagingStateOf(session, false) });
    if (result.outcome === 'failed') void vscode.window.showWarningMessage(`API Workbench: ${result.message}`);
  }

  /** Streams every remaining page to a file; rows already shown go first, so nothing fetched is lost. */
  private async allPages(session: PagedSession, format: SinkFormat): Promise<void> {
    const fresh = await this.freshRequest(session);
    if (!fresh) return;
    let sink: RowSink;
    const resumeSink = session.checkpoint.sink;
    if (session.exportFile && resumeSink && resumeSink.path === session.exportFile) {
      sink = await reopenFileSink(resumeSink);
    } else {
      const folder = this.resultsFolder();
      await vscode.workspace.fs.createDirectory(folder);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const target = vscode.Uri.joinPath(folder, `${session.name.replace(/[^\w.-]+/g, '_')}-${stamp}.${format}`);
      session.exportFile = target.fsPath;
      sink = await openFileSink(format, target.fsPath);
      if (session.shownRows.length > 0) await sink.writePage(session.shownRows);
    }
    session.abort = new AbortController();
    this.panel.progress({ pages: session.checkpoint.pages, rows: session.checkpoint.rows, rowsPerSecond: 0, elapsedMs: 0, file: session.exportFile });
    let result: WalkResult;
    try {
      result = await walk(fresh, {
        sink, resumeFrom: session.checkpoint, signal: session.abort.signal,
        onProgress: (p) => this.panel.progress({ pages: p.pages, rows: p.rows, rowsPerSecond: p.rowsPerSecond, elapsedMs: p.elapsedMs, file: session.exportFile }),
        onPage: (e) => this.panel.progress({ pages: e.progress.pages, rows: e.progress.rows, rowsPerSecond: e.progress.rowsPerSecond, elapsedMs: e.progress.elapsedMs, file: session.exportFile }),
      });
    } finally {
      await sink.close();
      session.abort = undefined;
    }
    session.checkpoint = result.checkpoint;
    const ok = result.outcome === 'complete';
    this.panel.walkEnded({ ok, message: result.message, paging: pagingStateOf(session, false), file: session.exportFile });
    const open = 'Open File';
    const say = ok ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void say(`API Workbench: ${result.message} Rows are in ${vscode.workspace.asRelativePath(session.exportFile ?? '')}.`, open).then((choice) => {
      if (choice === open && session.exportFile) void vscode.window.showTextDocument(vscode.Uri.file(session.exportFile));
    });
  }

  /** Writes the rows on screen to a file. */
  private async exportShown(format: SinkFormat): Promise<void> {
    const rows = this.session?.shownRows ?? tableRows(this.panel.viewModel?.table?.rows);
    const folder = this.resultsFolder();
    await vscode.workspace.fs.createDirectory(folder);
    const name = (this.session?.name ?? 'response').replace(/[^\w.-]+/g, '_');
    const target = vscode.Uri.joinPath(folder, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.${format}`);
    const sink = await openFileSink(format, target.fsPath);
    await sink.writePage(rows);
    await sink.close();
    void vscode.window.showInformationMessage(`API Workbench: ${rows.length} row(s) written to ${vscode.workspace.asRelativePath(target)}.`);
  }

  /** The request again with current credentials (a token may have been renewed), for a continuation. */
  private async freshRequest(session: PagedSession): Promise<HttpRequest | undefined> {
    const prepared = await this.prepare(vscode.Uri.parse(session.uri), session.requestIndex);
    if (!prepared.ok) {
      void this.reportUnprepared(prepared);
      return undefined;
    }
    return prepared.request;
  }

  private async prepare(uri: vscode.Uri, requestIndex: number): Promise<Prepared> {
    const document = await vscode.workspace.openTextDocument(uri);
    const file = parseHttpFile(document.getText());
    return prepareRequest(file, requestIndex, {
      environment: this.environments.active ?? EMPTY_ENV,
      credentials: this.environments.credentials,
      responses: this.responsesOf(uri.toString()),
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
    const choice = await vscode.window.showWarningMessage('API Workbench: 401 — the engagement service did not accept the token. Sign in again?', 'Sign In');
    if (choice === 'Sign In') await vscode.commands.executeCommand('apiWorkbench.signIn');
  }

  private async redactor(extra: readonly string[]): Promise<Redactor> {
    return new Redactor([...(await knownSecretValues(this.environments.secrets)), ...extra]);
  }

  private responsesOf(uri: string): Map<string, NamedResponse> {
    let map = this.responses.get(uri);
    if (!map) this.responses.set(uri, (map = new Map()));
    return map;
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

function tableRows(rows: readonly unknown[] | undefined): unknown[] {
  return rows ? [...rows] : [];
}
