// Send / Send and follow pages from a .http document, and the panel's Next page, All pages, Stop and
// Export: target → the core's exchange (core/run/exchange.ts, pagedWalk.ts) → view model. Every Send of
// a paged request is the first page of a walk, so the paging bar offers Next page whenever the paging
// strategy sees more. This file only connects the core to the editor. Nothing here retries a sign-in: a missing or refused credential is
// reported with a button the user may press. One paging walk runs at a time; a continuation is refused
// when the request or the environment behind it changed; every text shown goes through the Redactor.
import * as vscode from 'vscode';
import type { Catalog } from '../../core/catalog';
import { openFileSink, redactingSink, reopenFileSink, type RowSink, type SinkFormat } from '../../core/export';
import type { HttpResponse } from '../../core/http/types';
import { parseHttpFile, requestLabel } from '../../core/httpfile';
import type { NamedResponse } from '../../core/httpfile/resolve';
import type { WalkProgress, WalkResult } from '../../core/paging';
import { walkFactsOf, walkSentence } from '../../core/results/walkWords';
import { runExchange, type ExchangePorts, type ExchangeResult } from '../../core/run/exchange';
import { assertionSteps } from '../../core/run/assertions';
import { continueWalk, type Continued } from '../../core/run/pagedWalk';
import type { PrepareContext, Prepared } from '../../core/run/prepareRequest';
import { dynamicVariables } from '../../core/run/dynamicVariables';
import { Redactor, knownSecretValues } from '../../core/secrets';
import type { HistoryRecord } from '../../core/history';
import type { HttpFile } from '../../core/httpfile/model';
import type { HistoryEntry as EarlierResponse } from '../../protocol/webviewMessages';
import { contractDriftStep } from '../../core/contract';
import type { EnvironmentController } from '../environments/environmentController';
import type { ResultsPanel, ResultsRequest } from '../results/ResultsPanel';
import { csvFormulas, maxWaitMs, responseTimeoutMs } from '../settings';
import { processEnvironment, readIncludedBody } from '../workspaceTrust';
import { QuotaBook } from '../../core/http/serverWaits';
import { pagingStateOf, shownRowsOf, type PagedSession } from './pagedSession';
import { offerSignIn, reportUnprepared, signInAgain } from './credentialPrompts';
import { historyEntryOf, historyRecordOf, pagedSessionOf, sendViewModel, spilledSendViewModel, type SentRequest } from './sendView';
import { KeptResponse } from './keptResponse';
import { exportShown } from './exportShown';
import type { SpilledStores } from '../../core/results/spilledView';
import { faultText } from '../../core/text/faultText';

export interface SendTarget {
  readonly uri: string;
  readonly requestIndex: number;
}

const EMPTY_ENV = { name: '(no environment)', variables: {}, auth: {} };

export class SendController implements vscode.Disposable {
  /** Named responses per document, for {{name.response.body.$.x}}. */
  private readonly responses = new Map<string, Map<string, NamedResponse>>();
  private session: PagedSession | undefined;
  /** Each origin's quota as its answers announce it: a spent one holds the next request (http/serverWaits.ts). */
  private readonly quotas = new QuotaBook();
  /** The send under way; a newer send (or Stop) aborts it, and its late result is dropped. */
  private inFlight: AbortController | undefined;
  private readonly subscriptions: vscode.Disposable[];
  /** Where each exchange shown is recorded (the History view); awaited so a send settles with its entry written. */
  recorder: ((record: HistoryRecord) => Promise<unknown>) | undefined;
  /** The stored responses to the request at `index` of `file` (the file at `uri` as sent), newest first: the panel lists them. */
  earlier: ((uri: string, file: HttpFile, index: number) => readonly EarlierResponse[]) | undefined;

  constructor(
    private readonly catalog: () => Catalog,
    private readonly environments: EnvironmentController,
    private readonly panel: ResultsPanel,
    private readonly log: (line: string) => void,
    private readonly resultsFolder: () => vscode.Uri,
  ) {
    this.subscriptions = [
      panel.onDidRequest((request) => void this.handlePanelRequest(request)),
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

  /** `afterSignIn`: this send follows a sign-in it asked for (it does not ask twice). */
  async send(target: SendTarget, followPages: boolean, afterSignIn = false): Promise<HttpResponse | undefined> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(target.uri));
    const uri = document.uri.toString();
    // The text as sent: History records the request from it, whatever the user types while it is on the wire.
    const text = document.getText();
    const file = parseHttpFile(text);
    const node = file.requests.find((r) => r.index === target.requestIndex);
    const name = requestLabel(file, target.requestIndex);
    this.inFlight?.abort();
    this.session?.abort?.abort();
    this.session = undefined;
    const mine = new AbortController();
    this.inFlight = mine;
    let result: ExchangeResult;
    // The response's rows and bytes as they arrive, on disk past a few MB (keptResponse.ts).
    const kept = new KeptResponse();
    // Contract drift is shown (the panel's Contract section), not a failure of the send.
    const steps = [...(node ? assertionSteps(node) : []), contractDriftStep('warning')];
    const ports = await this.ports();
    try {
      result = await runExchange({
        file, requestIndex: target.requestIndex, prepare: this.prepareContext(document.uri), remember: this.responsesOf(uri),
        pages: 'first', signal: mine.signal, steps, rowsTo: kept.rows, keepBodyWithin: kept.spillAt,
      }, kept.ports(ports));
    } catch (error) {
      await kept.dispose();
      throw error;
    } finally {
      if (this.inFlight === mine) this.inFlight = undefined;
    }
    // A newer send, or Stop, took over while this one was on the wire: its result is not shown.
    const settled = mine.signal.aborted ? (await kept.dispose(), { result }) : await kept.settle(result, steps, ports.catalog, this.responsesOf(uri));
    result = settled.result;
    const { prepared } = result;
    if (!prepared.ok) {
      // Not awaited: the sign-in prompt or the error's button may wait for the user for ever; send() must
      // still settle. Once the credential is there, the request the user asked for goes (once).
      void this.reportUnprepared(prepared, afterSignIn ? undefined : () => this.send(target, followPages, true));
      return undefined;
    }
    if (mine.signal.aborted) return result.response;
    return this.show({ result, prepared, target, followPages, document, text, file, node, name }, settled.stores);
  }

  /** A send's result in the panel, the History view and toasts; `stores`: the response is on disk. */
  private async show(sent: SentRequest, stores?: SpilledStores): Promise<HttpResponse | undefined> {
    const { result, prepared } = sent;
    const redactor = await this.redactor(prepared.secretValues);
    const response = result.response;
    // What the History view keeps of this send (the store redacts it before writing).
    const entry = historyEntryOf(sent, (this.environments.active ?? EMPTY_ENV).name);
    if (!response) {
      void vscode.window.showErrorMessage(`API Workbench: ${redactor.text(result.problem ?? 'no response')}`);
      await this.recorder?.({ ...entry, fault: result.problem ?? 'no response' });
      return undefined;
    }
    const pagingDirective = result.notices.find((n) => n.startsWith('# @paging'));
    if (sent.followPages && pagingDirective) {
      void vscode.window.showErrorMessage(`API Workbench: ${sent.document.uri.path.split('/').pop() ?? ''}: ${redactor.text(pagingDirective)}`);
    }
    const session = pagedSessionOf(sent, redactor, stores !== undefined);
    this.session = session;
    const { viewModel, contract, source } = stores ? await spilledSendViewModel(sent, response, redactor, session, stores) : sendViewModel(sent, response, redactor, session);
    const earlier = this.earlier?.(sent.document.uri.toString(), sent.file, sent.target.requestIndex) ?? [];
    this.panel.show({ ...viewModel, history: [...earlier] }, source);
    const record = historyRecordOf(entry, response, contract, result.business);
    if (session) session.historyRecord = record;
    await this.recorder?.(record);
    this.tellAfter(sent, response, redactor);
    return response;
  }

  /** What follows a shown response: an untrusted paged page, the exchange's notices, a 401's sign-in, the log line. */
  private tellAfter({ result, prepared, followPages }: SentRequest, response: HttpResponse, redactor: Redactor): void {
    // A paged first page the paging engine could not trust (an inconsistent or unreadable page) is said, by
    // the exchange's one rule (walkProblemOf); an unpaged response is shown as it came (a JSON body the JSON
    // grammar refuses is said too).
    if (result.incomplete) void vscode.window.showWarningMessage(`API Workbench: ${redactor.text(result.incomplete)}`);
    const notices = result.notices.filter((n) => followPages || !n.startsWith('# @paging'));
    for (const notice of notices) void vscode.window.showInformationMessage(`API Workbench: ${redactor.text(notice)}`);
    if (response.status === 401) void offerSignIn(prepared.scheme);
    const request = result.request ?? prepared.request;
    this.log(`${request.method} ${redactor.url(request.url)} → ${response.status} in ${Math.round(response.timing.totalMs)} ms`);
  }

  /** The panel's Next page, All pages, Stop and Export (public for the extension-host tests, which press them as the webview does). */
  async handlePanelRequest(request: ResultsRequest): Promise<void> {
    const session = this.session;
    if (request.type === 'stop') {
      this.inFlight?.abort();
      session?.abort?.abort();
      return;
    }
    try {
      if (request.type === 'export') {
        await this.exportShown(request.format, request.responseId);
        return;
      }
      if (!session || session.responseId !== request.responseId) {
        this.refused('That response is no longer the one being paged: send the request again.');
        return;
      }
      if (session.abort) {
        this.refused('A walk of this response is already running: stop it first.');
        return;
      }
      if (request.type === 'nextPage') await this.nextPage(session);
      else await this.allPages(session, request.format);
    } catch (error) {
      const redactor = await this.redactor([]);
      const message = redactor.text(faultText(error));
      void vscode.window.showErrorMessage(`API Workbench: ${message}`);
      if (session && this.session === session) {
        session.abort = undefined;
        this.panel.walkEnded({ ok: false, message, paging: pagingStateOf(session, false), ...(session.exportFile ? { file: session.exportFile } : {}) });
      }
    }
  }

  private async nextPage(session: PagedSession): Promise<void> {
    if (session.firstPageOnDisk) {
      this.refused('This page is too large to hold: the table reads its rows from disk, and Next page would add to rows held in memory. Use "All pages to file" to walk on.');
      return;
    }
    if (session.exportFile) {
      this.refused(`The rows of this walk are going to ${vscode.workspace.asRelativePath(session.exportFile)}: use "All pages to file" to continue it there.`);
      return;
    }
    session.abort = new AbortController();
    try {
      const continued = await this.continueSession(session, 'next', undefined);
      if (!continued || this.session !== session) return;
      const redactor = await this.redactor(continued.secretValues);
      session.cursor = continued.cursor;
      const rows = redactRows(redactor, continued.rows);
      shownRowsOf(session).push(...rows);
      this.panel.appendPage({ rows, paging: pagingStateOf(session, false) });
      if (continued.walk.outcome !== 'max-pages' && continued.walk.verdict !== 'complete') void vscode.window.showWarningMessage(`API Workbench: ${redactor.text(this.withResumeAction(continued.walk))}`);
      for (const notice of continued.walk.notices) void vscode.window.showInformationMessage(`API Workbench: ${redactor.text(notice)}`);
    } finally {
      session.abort = undefined;
    }
  }

  /**
   * Streams every remaining page to a file; rows already shown go first, so nothing fetched is lost.
   * After a failure, "All pages" again resumes into the same file from the walk's checkpoint.
   */
  private async allPages(session: PagedSession, format: SinkFormat): Promise<void> {
    session.abort = new AbortController();
    let sink: RowSink | undefined;
    /** The file this press created, gone again if the walk is refused before it starts. */
    let created: string | undefined;
    // The file this press made (the rows shown, nothing else) goes, and the session is not a walk into a
    // file, so Next page works again once it may. A file that cannot be removed stays (it holds only rows
    // already shown); what went wrong is still said.
    const discardCreated = async (): Promise<void> => {
      if (!created) return;
      const made = sink;
      sink = undefined;
      if (session.exportFile === created) session.exportFile = undefined;
      try {
        await made?.close();
        await vscode.workspace.fs.delete(vscode.Uri.file(created), { useTrash: false });
      } catch {
        // Nothing to undo: the session no longer points at the file.
      }
    };
    try {
      const resumeSink = session.cursor.checkpoint.sink;
      if (session.exportFile && resumeSink?.path === session.exportFile) {
        sink = await reopenFileSink(resumeSink, { csvFormulas: csvFormulas() });
      } else {
        const folder = this.resultsFolder();
        await vscode.workspace.fs.createDirectory(folder);
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const target = vscode.Uri.joinPath(folder, `${session.name.replace(/[^\w.-]+/g, '_')}-${stamp}.${format}`);
        sink = await openFileSink(format, target.fsPath, { exclusive: true, csvFormulas: csvFormulas() });
        created = target.fsPath;
        const shownRows = shownRowsOf(session);
        const onDisk = session.firstPageOnDisk ? this.panel.sourceOf(session.responseId) : undefined;
        try {
          // A first page on disk is copied from there, redacted, a batch at a time.
          if (onDisk) await onDisk.writeRows(sink);
          if (shownRows.length > 0) await sink.writePage(shownRows);
        } catch (error) {
          // A disk full or a folder gone: no half-written file is left behind the error.
          await discardCreated();
          throw error;
        }
        session.exportFile = target.fsPath;
      }
      const file = session.exportFile;
      // Every stored secret, renewed tokens included, is scrubbed from the file.
      const redactor = await this.redactor([]);
      const redacting = redactingSink(sink, () => redactor);
      this.panel.progress({ pages: session.cursor.checkpoint.pages, rows: session.cursor.checkpoint.rows, rowsPerSecond: 0, elapsedMs: 0, file });
      const continued = await this.continueSession(session, 'all', redacting, {
        onProgress: (p) => { if (this.session === session) this.panel.progress({ ...p, file }); },
        // A token renewed mid-walk (the user signed in again) is scrubbed from the file too.
        onSecrets: (values) => redactor.addKnownSecrets(values),
        // Refused before a page was asked for: the file this press made goes.
        onRefused: discardCreated,
      });
      if (!continued) return;
      session.cursor = continued.cursor;
      const shownFile = vscode.workspace.asRelativePath(file);
      const facts = walkFactsOf(continued.walk);
      // What happened is kept whether or not the panel still shows this response.
      if (session.historyRecord) await this.recorder?.({ ...session.historyRecord, walk: { ...facts, file: shownFile, style: session.cursor.plan.style } });
      if (this.session !== session) return;
      const ok = continued.walk.verdict === 'complete';
      const message = redactor.text(`${this.withResumeAction(continued.walk)} The rows are in ${shownFile}.`);
      this.panel.walkEnded({ ok, message, paging: pagingStateOf(session, false), file });
      // Said once, in the paging bar; a notification only when the panel is out of sight.
      if (this.panel.isVisible) return;
      const open = 'Open File';
      const say = ok ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
      void say(`API Workbench: ${message}`, open).then((choice) => {
        if (choice === open) void vscode.window.showTextDocument(vscode.Uri.file(file));
      });
    } finally {
      await sink?.close();
      session.abort = undefined;
    }
  }

  /** A paging press refused: said in the panel, where it was pressed (announced there), and as a warning. */
  private refused(text: string): void {
    this.panel.notice(text);
    void vscode.window.showWarningMessage(`API Workbench: ${text}`);
  }

  /** The walk's sentence plus what resumes it here, or why nothing can. */
  private withResumeAction(walked: WalkResult): string {
    const said = walkSentence(walkFactsOf(walked));
    if (walked.resumeAt !== undefined) return `${said} Press "All pages to file" to continue from page ${walked.resumeAt} into the same file.`;
    return walked.cannotResume ? `${said} It cannot be resumed: ${walked.cannotResume}.` : said;
  }

  /**
   * The session's walk continued with the request prepared again (current credentials). Refused when the
   * environment changed, or the request at that index is no longer the one paged (core/run/pagedWalk).
   */
  private async continueSession(
    session: PagedSession, pages: 'next' | 'all', sink: RowSink | undefined,
    hooks: { onProgress?: (p: WalkProgress) => void; onRefused?: () => Promise<void>; onSecrets?: (values: readonly string[]) => void } = {},
  ): Promise<Extract<Continued, { ok: true }> | undefined> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(session.uri));
    const continued = await continueWalk({
      cursor: session.cursor, file: parseHttpFile(document.getText()), requestIndex: session.requestIndex,
      prepare: this.prepareContext(document.uri), pages, ...(sink ? { sink } : {}),
      ...(session.abort ? { signal: session.abort.signal } : {}), ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
      ...(hooks.onSecrets ? { onSecrets: hooks.onSecrets } : {}),
    }, await this.ports());
    if (!continued.ok) {
      await hooks.onRefused?.();
      const problem = (await this.redactor([])).text(continued.problem);
      // Said where the button was pressed too: a toast hides itself, and an "All pages" the panel already
      // shows as walking must end there (it stayed "walking", its buttons off, for good).
      if (this.session === session) {
        this.panel.walkEnded({ ok: false, message: problem, paging: pagingStateOf(session, false), ...(session.exportFile ? { file: session.exportFile } : {}) });
      }
      if (continued.prepared) void this.reportUnprepared(continued.prepared);
      else void vscode.window.showWarningMessage(`API Workbench: ${problem}`);
      return undefined;
    }
    return continued;
  }

  /** The panel's Export: the rows of the response it was pressed on (exportShown.ts). */
  private async exportShown(format: SinkFormat, responseId: string): Promise<void> {
    const session = this.session?.responseId === responseId ? this.session : undefined;
    await exportShown({ panel: this.panel, session, folder: this.resultsFolder(), redactor: await this.redactor([]) }, format, responseId);
  }

  /** The exchange's ports, with the send boundary's guard holding every secret SecretStorage holds now. */
  private async ports(): Promise<ExchangePorts> {
    return {
      http: this.environments.http, catalog: this.catalog(), timeoutMs: responseTimeoutMs(), guard: await this.environments.refreshGuard(),
      maxWaitMs: maxWaitMs(), quotas: this.quotas,
      signInAgain,
    };
  }

  private prepareContext(uri: vscode.Uri): PrepareContext {
    return {
      environment: this.environments.sendEnvironment ?? EMPTY_ENV,
      credentials: this.environments.credentials,
      responses: this.responsesOf(uri.toString()),
      dynamic: dynamicVariables({ env: processEnvironment() }),
      // Not in Restricted Mode; outside the workspace folder only once the user says so (workspaceTrust.ts).
      readInclude: (path, encoding, strict) => readIncludedBody(uri, path, encoding, strict),
    };
  }

  /** Why a request could not be prepared, with the sign-in or credential command that fixes it (credentialPrompts.ts). */
  private async reportUnprepared(prepared: Extract<Prepared, { ok: false }>, then?: () => Promise<unknown>): Promise<void> {
    await reportUnprepared(await this.redactor([]), this.environments.active?.auth, prepared, then);
  }

  private async redactor(extra: readonly string[]): Promise<Redactor> {
    return new Redactor([...(await knownSecretValues(this.environments.allSecrets)), ...extra]);
  }

  private responsesOf(uri: string): Map<string, NamedResponse> {
    let map = this.responses.get(uri);
    if (!map) this.responses.set(uri, (map = new Map<string, NamedResponse>()));
    return map;
  }
}

function redactRows(redactor: Redactor, rows: readonly unknown[]): unknown[] {
  return rows.map((row) => redactor.row(row));
}
