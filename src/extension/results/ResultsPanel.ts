// Host side of the results panel: owns one WebviewPanel, posts view models to it, validates what it sends
// back. Commands (owned by the lead) call show / appendPage / progress / walkEnded and listen to
// onDidRequest for Next page, All pages, Stop and Export. The panel keeps the current view model so a webview
// that was hidden and reloaded (retainContextWhenHidden is off) gets it again on `ready`.
import * as vscode from 'vscode';
import {
  encodeRows,
  encodeViewModel,
  parseWebviewToHost,
  type Column,
  type HostToWebviewMessage,
  type PagingState,
  type ResultsViewModel,
  type WebviewToHostMessage,
} from '../../protocol/webviewMessages';
import { detailOf } from '../../core/results/cells';
import { columnsOf } from '../../core/results/tableModel';
import { ResponseHistory } from '../../core/results/history';
import { buildResultsHtml, createNonce } from './html';

/** What the webview asks the commands to do. `ready`, `copy` and `openRow` are handled by the panel itself. */
export type ResultsRequest = Extract<WebviewToHostMessage, { type: 'nextPage' | 'allPages' | 'stop' | 'export' }> & {
  /** The response the request refers to (ResultsViewModel.id / requestKey). */
  readonly responseId: string;
  readonly requestKey: string;
};

export interface ResultsPanelOptions {
  /** context.extensionUri: dist/webview.js and dist/webview.css are loaded from there. */
  readonly extensionUri: vscode.Uri;
  /** Where rejected messages and failures are reported (an output channel's appendLine). Never gets content. */
  readonly log?: (line: string) => void;
  /** Response summaries per request; pass `new ResponseHistory(context.workspaceState)` to keep them. */
  readonly history?: ResponseHistory;
  readonly viewColumn?: vscode.ViewColumn;
}

export interface PageAppend {
  readonly rows: readonly unknown[];
  /** The full column list after these rows; computed from the rows when omitted. */
  readonly columns?: readonly Column[];
  readonly paging: PagingState;
}

/** The paging walker's WalkProgress fits as is; `file` is where "All pages" streams to. */
export interface WalkProgress {
  readonly pages: number;
  readonly rows: number;
  readonly rowsPerSecond: number;
  readonly elapsedMs: number;
  readonly waiting?: string;
  readonly file?: string;
}

export interface WalkEnd {
  readonly ok: boolean;
  readonly message: string;
  readonly paging: PagingState;
  readonly file?: string;
}

export class ResultsPanel implements vscode.Disposable {
  static readonly viewType = 'apiWorkbench.results';

  private panel: vscode.WebviewPanel | undefined;
  private panelDisposables: vscode.Disposable[] = [];
  private ready = false;
  private pending: HostToWebviewMessage[] = [];
  private current: ResultsViewModel | undefined;
  private readonly requests = new vscode.EventEmitter<ResultsRequest>();
  private readonly log: (line: string) => void;
  readonly history: ResponseHistory;

  /** Fires for nextPage / allPages / stop / export, after validation. */
  readonly onDidRequest = this.requests.event;

  constructor(private readonly options: ResultsPanelOptions) {
    this.log = options.log ?? (() => undefined);
    this.history = options.history ?? new ResponseHistory();
  }

  /** The view model on screen (with the rows appended since), for tests and for the commands. */
  get viewModel(): ResultsViewModel | undefined {
    return this.current;
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Shows a response, opening or revealing the panel. Earlier responses to the same request become its history. */
  show(viewModel: ResultsViewModel): void {
    const earlier = this.history.entries(viewModel.requestKey);
    this.current = { ...viewModel, history: viewModel.history.length > 0 ? viewModel.history : [...earlier] };
    this.history.record(viewModel).then(undefined, (e: unknown) => this.log(`results history not saved: ${String(e)}`));
    if (this.panel) this.panel.reveal(undefined, true); // stays in the column the user put it in
    else this.ensurePanel();
    this.pending = [];
    this.post({ type: 'show', viewModel: encodeViewModel(this.current) });
  }

  /** Adds the rows of a further page (Next page) to the table. */
  appendPage(page: PageAppend): void {
    if (!this.current) return;
    const known = this.current.table?.columns ?? [];
    const columns = page.columns ? [...page.columns] : columnsOf(page.rows, known);
    const table = this.current.table ?? { source: '$', kind: 'objects' as const, columns, rows: [] };
    const rows = table.rows.concat(page.rows);
    this.current = { ...this.current, table: { ...table, columns, rows }, paging: page.paging };
    this.post({ type: 'appendRows', ...encodeRows(page.rows), columns, paging: page.paging });
  }

  /** Progress of an "All pages" walk (rows go to the file, not to the panel, so memory stays flat). */
  progress(progress: WalkProgress): void {
    if (this.current?.paging && !this.current.paging.walking) this.current = { ...this.current, paging: { ...this.current.paging, walking: true } };
    const { pages, rows, rowsPerSecond, elapsedMs, waiting, file } = progress;
    this.post({ type: 'progress', pages, rows, rowsPerSecond, elapsedMs, ...(waiting ? { waiting } : {}), ...(file ? { file } : {}) });
  }

  walkEnded(end: WalkEnd): void {
    if (this.current) this.current = { ...this.current, paging: end.paging };
    this.post({ type: 'walkEnded', ok: end.ok, message: end.message, paging: end.paging, ...(end.file ? { file: end.file } : {}) });
  }

  dispose(): void {
    this.panel?.dispose();
    this.requests.dispose();
  }

  private ensurePanel(): vscode.WebviewPanel {
    if (this.panel) return this.panel;
    const dist = vscode.Uri.joinPath(this.options.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(ResultsPanel.viewType, 'API Workbench results', { viewColumn: this.options.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [dist],
      // Off: on reveal the webview reloads and asks for the current view model with `ready`.
      retainContextWhenHidden: false,
    });
    const webview = panel.webview;
    webview.html = buildResultsHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    });
    this.ready = false;
    this.panelDisposables = [
      webview.onDidReceiveMessage((data: unknown) => this.received(data)),
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.ready = false;
        this.pending = [];
        for (const d of this.panelDisposables) d.dispose();
        this.panelDisposables = [];
      }),
    ];
    this.panel = panel;
    return panel;
  }

  private post(message: HostToWebviewMessage): void {
    if (!this.panel) return;
    if (!this.ready) {
      // `show` replaces everything before it; the rest is replayed in order once the page is listening.
      this.pending.push(message);
      return;
    }
    this.panel.webview.postMessage(message).then(undefined, (e: unknown) => this.log(`results panel did not take a '${message.type}' message: ${String(e)}`));
  }

  private received(data: unknown): void {
    const message = parseWebviewToHost(data, (line) => this.log(`results panel: ${line}`));
    if (!message) return;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.replay();
        return;
      case 'copy':
        vscode.env.clipboard.writeText(message.text).then(undefined, (e: unknown) => this.log(`copy failed: ${String(e)}`));
        return;
      case 'openRow':
        this.openRow(message.index);
        return;
      default:
        if (this.current) this.requests.fire({ ...message, responseId: this.current.id, requestKey: this.current.requestKey });
    }
  }

  /** On (re)load the page has nothing: send the current state, then whatever came after it. */
  private replay(): void {
    const queued = this.pending;
    this.pending = [];
    const afterShow = queued.filter((m) => m.type === 'progress' || m.type === 'walkEnded');
    if (this.current) this.post({ type: 'show', viewModel: encodeViewModel(this.current) });
    for (const m of afterShow) this.post(m);
  }

  private openRow(index: number): void {
    const row = this.current?.table?.rows[index];
    if (row === undefined) return;
    vscode.workspace
      .openTextDocument({ language: 'json', content: detailOf(row) })
      .then((doc) => vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Active }))
      .then(undefined, (e: unknown) => this.log(`could not open row ${index}: ${String(e)}`));
  }
}
