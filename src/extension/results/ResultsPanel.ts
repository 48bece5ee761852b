// Host side of the results panel: owns one WebviewPanel (created on the first show, re-created after the
// user closes it) and turns the page's requests into events. Commands (owned by the lead) call show /
// appendPage / progress / walkEnded and listen to onDidRequest for Next page, All pages, Stop and Export.
// The state and the message flow live in ResultsSession (vscode-free, unit-tested); this is the wiring.
import * as vscode from 'vscode';
import type { ResultsViewModel } from '../../protocol/webviewMessages';
import { detailOf } from '../../core/results/cells';
import type { PanelSource } from '../../core/results/spilledView';
import { buildResultsHtml, createNonce } from './html';
import { ResultsSession, type PageAppend, type ResultsRequest, type SessionAction, type WalkEnd, type WalkProgress } from './resultsSession';
import { faultText } from '../../core/text/faultText';

export type { PageAppend, ResultsRequest, WalkEnd, WalkProgress } from './resultsSession';

export interface ResultsPanelOptions {
  /** context.extensionUri: dist/webview.js and dist/webview.css are loaded from there. */
  readonly extensionUri: vscode.Uri;
  /** Where rejected messages and failures are reported (an output channel's appendLine). Never gets content. */
  readonly log?: (line: string) => void;
  /** Column of a newly opened panel; default Beside. A revealed panel stays where the user put it. */
  readonly viewColumn?: vscode.ViewColumn;
}

const ROW_SCHEME = 'apiwb-row';

export class ResultsPanel implements vscode.Disposable {
  static readonly viewType = 'apiWorkbench.results';

  private panel: vscode.WebviewPanel | undefined;
  private panelDisposables: vscode.Disposable[] = [];
  private readonly session: ResultsSession;
  private readonly requests = new vscode.EventEmitter<ResultsRequest>();
  private readonly log: (line: string) => void;

  /** Fires for nextPage / allPages / stop / export, after validation, with the response they refer to. */
  readonly onDidRequest = this.requests.event;

  /** Rows opened as JSON (Enter on a cell), served read-only: closing one asks nothing (no untitled file to save). */
  private readonly rowTexts = new Map<string, string>();
  private readonly rowDocuments: vscode.Disposable;
  private rowsOpened = 0;
  /** The response on disk the panel shows (its files live as long as it is shown). */
  private source: PanelSource | undefined;

  constructor(private readonly options: ResultsPanelOptions) {
    this.log = options.log ?? (() => undefined);
    this.session = new ResultsSession(this.log);
    this.rowDocuments = vscode.workspace.registerTextDocumentContentProvider(ROW_SCHEME, {
      provideTextDocumentContent: (uri) => this.rowTexts.get(uri.toString()) ?? '',
    });
  }

  /** The view model on screen (with the rows appended since), for tests and for the commands. */
  get viewModel(): ResultsViewModel | undefined {
    return this.session.viewModel;
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Open and in sight (not a background tab, not in a hidden group). */
  get isVisible(): boolean {
    return this.panel?.visible === true;
  }

  /**
   * Shows a response, opening or revealing the panel. Earlier responses to the same request become its
   * history. `source`: the response is on disk (spilledView.ts); the page reads it through the panel,
   * which removes it when another response replaces it, when the panel closes, and on dispose.
   */
  show(viewModel: ResultsViewModel, source?: PanelSource): void {
    if (this.panel) this.panel.reveal(undefined, true);
    else this.createPanel();
    this.letSourceGo();
    this.source = source;
    this.session.show(viewModel);
  }

  /** The response on disk behind the view model shown, if any (Export and All pages write its rows from there). */
  sourceOf(responseId: string): PanelSource | undefined {
    return this.source?.id === responseId ? this.source : undefined;
  }

  /** Adds the rows of a further page (Next page) to the table. */
  appendPage(page: PageAppend): void {
    this.session.appendPage(page);
  }

  /** Progress of an "All pages" walk (rows go to the file, not to the panel, so memory stays flat). */
  progress(progress: WalkProgress): void {
    this.session.progress(progress);
  }

  walkEnded(end: WalkEnd): void {
    this.session.walkEnded(end);
  }

  /** Why a paging press was refused, said and announced in the panel's paging bar. */
  notice(text: string): void {
    this.session.notice(text);
  }

  dispose(): void {
    this.letSourceGo();
    this.panel?.dispose();
    this.requests.dispose();
    this.rowDocuments.dispose();
  }

  private createPanel(): void {
    const dist = vscode.Uri.joinPath(this.options.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(
      ResultsPanel.viewType,
      'API Workbench results',
      { viewColumn: this.options.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        enableFindWidget: true,
        localResourceRoots: [dist],
        // Off: a hidden panel's page is dropped; on reveal it reloads and gets the current state on `ready`.
        retainContextWhenHidden: false,
      },
    );
    const webview = panel.webview;
    webview.html = buildResultsHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    });
    this.session.attach((message) => {
      webview.postMessage(message).then(undefined, (e: unknown) => this.log(`results panel did not take a '${message.type}' message: ${String(e)}`));
    });
    this.panelDisposables = [
      webview.onDidReceiveMessage((data: unknown) => this.received(data)),
      panel.onDidChangeViewState((e) => {
        if (!e.webviewPanel.visible) this.session.pageHidden();
      }),
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.letSourceGo();
        this.session.detach();
        for (const d of this.panelDisposables) d.dispose();
        this.panelDisposables = [];
      }),
    ];
    this.panel = panel;
  }

  /**
   * A row as JSON in an editor beside the panel (not over it: the table stays in sight). When that editor
   * is closed, focus goes back to the panel, where the grid still has the row's cell active.
   */
  private async openRow(index: number, row: unknown): Promise<void> {
    const uri = vscode.Uri.from({ scheme: ROW_SCHEME, path: `/row ${index + 1}.json`, query: String(++this.rowsOpened) });
    this.rowTexts.set(uri.toString(), detailOf(row));
    const document = await vscode.workspace.openTextDocument(uri);
    // The column right of the panel's own (Beside is relative to the active group, which need not be the panel's).
    const panelColumn = this.panel?.viewColumn;
    const column = panelColumn === undefined ? vscode.ViewColumn.Beside : ((panelColumn + 1) as vscode.ViewColumn);
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: column });
    const closed = vscode.window.tabGroups.onDidChangeTabs((change) => {
      const gone = change.closed.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString());
      if (!gone) return;
      closed.dispose();
      this.rowTexts.delete(uri.toString());
      this.panel?.reveal(undefined, false);
    });
    this.panelDisposables.push(closed);
    this.log(`row ${index + 1} opened beside the panel`);
  }

  private letSourceGo(): void {
    const gone = this.source;
    this.source = undefined;
    gone?.dispose().catch((e: unknown) => this.log(`the response on disk could not be removed: ${String(e)}`));
  }

  /** Rows or a body page of the response on disk, read and posted to the page (a problem said in the table). */
  private async fromDisk(want: Extract<SessionAction, { kind: 'fromDisk' }>['want']): Promise<void> {
    const source = this.source;
    if (!source || source.id !== want.id) return;
    if (want.type === 'wantBodyPage') {
      this.session.deliver(want.id, { type: 'bodyPage', id: want.id, body: await source.bodyPage(want.page) });
      return;
    }
    try {
      const { rows, columns } = await source.rows(want.from, want.count);
      this.session.deliver(want.id, { type: 'rows', id: want.id, from: want.from, rowCount: rows.length, rowsJson: JSON.stringify(rows), columns });
    } catch (error) {
      const problem = `The rows on disk could not be read: ${faultText(error)}`;
      this.session.deliver(want.id, { type: 'rows', id: want.id, from: want.from, rowCount: 0, rowsJson: '[]', columns: [], problem });
    }
  }

  private received(data: unknown): void {
    const action = this.session.received(data);
    if (!action) return;
    switch (action.kind) {
      case 'request':
        this.requests.fire(action.request);
        return;
      case 'copy':
        vscode.env.clipboard.writeText(action.text).then(undefined, (e: unknown) => this.log(`copy failed: ${String(e)}`));
        return;
      case 'openRow':
        this.openRow(action.index, action.row).then(undefined, (e: unknown) => this.log(`could not open row ${action.index + 1}: ${String(e)}`));
        return;
      case 'openRowFromDisk':
        (this.source?.rows(action.index, 1) ?? Promise.resolve({ rows: [] }))
          .then(({ rows }) => (rows.length > 0 ? this.openRow(action.index, rows[0]) : undefined))
          .then(undefined, (e: unknown) => this.log(`could not open row ${action.index + 1}: ${String(e)}`));
        return;
      case 'fromDisk':
        this.fromDisk(action.want).then(undefined, (e: unknown) => this.log(`could not read the response on disk: ${String(e)}`));
        return;
    }
  }
}
