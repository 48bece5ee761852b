// The results panel's host-side state, free of 'vscode' so node tests drive it directly: the view model on
// screen (with rows appended by Next page), the history, and the message flow with the webview — messages
// wait until the page says `ready`, and a page that reloads (hidden, then shown again) gets the current
// state again. A big table's `show` carries its first screen; its `showRest` (the other rows, the body) is
// encoded on a later task, so the page paints the first rows meanwhile, and goes out before any other
// message. ResultsPanel wraps it with the real WebviewPanel.
import {
  encodeRows,
  parseWebviewToHost,
  type Column,
  type HostToWebviewMessage,
  type PagingState,
  type ResultsViewModel,
  type WebviewToHostMessage,
} from '../../protocol/webviewMessages';
import { columnsOf } from '../../core/results/tableModel';
import { encodeShowRest, encodeViewModel, restFollows } from '../../core/results/wire';
import type { WalkFigures } from '../../core/results/walkProgress';

/** What the webview asks the commands to do. `ready`, `copy` and `openRow` are handled by the panel itself. */
export type ResultsRequest = Extract<WebviewToHostMessage, { type: 'nextPage' | 'allPages' | 'stop' | 'export' }> & {
  /** The response the request refers to (ResultsViewModel.id / requestKey). */
  readonly responseId: string;
  readonly requestKey: string;
};

export interface PageAppend {
  readonly rows: readonly unknown[];
  /** The full column list after these rows; computed from the rows when omitted. */
  readonly columns?: readonly Column[];
  readonly paging: PagingState;
}

/** The paging walker's WalkProgress fits as is; `file` is where "All pages" streams to. */
export interface WalkProgress extends WalkFigures {
  readonly elapsedMs: number;
  readonly file?: string;
}

export interface WalkEnd {
  readonly ok: boolean;
  readonly message: string;
  readonly paging: PagingState;
  readonly file?: string;
}

/** What the panel must do about a message from the page. */
export type SessionAction =
  | { readonly kind: 'request'; readonly request: ResultsRequest }
  | { readonly kind: 'copy'; readonly text: string }
  | { readonly kind: 'openRow'; readonly index: number; readonly row: unknown }
  | { readonly kind: 'openRowFromDisk'; readonly index: number }
  /** The page asks for rows or a body page of the response on disk it shows (its id checked by the panel). */
  | { readonly kind: 'fromDisk'; readonly want: Extract<WebviewToHostMessage, { type: 'wantRows' | 'wantBodyPage' }> };

type Post = (message: HostToWebviewMessage) => void;

/** Runs work on a later task (after the show has left); tests pass one they drive by hand. */
export type Later = (work: () => void) => void;

const onLaterTask: Later = (work) => void setTimeout(work, 0);

export class ResultsSession {
  private current: ResultsViewModel | undefined;
  private post: Post | undefined;
  private ready = false;
  /** Progress and end of a walk that happened while the page was loading; replayed after `show`. */
  private walkNews: HostToWebviewMessage[] = [];
  /** The view model whose `showRest` is still to be sent (the one shown last). */
  private restOwed: ResultsViewModel | undefined;

  constructor(
    private readonly log: (line: string) => void = () => undefined,
    private readonly later: Later = onLaterTask,
  ) {}

  get viewModel(): ResultsViewModel | undefined {
    return this.current;
  }

  /** A page exists (not yet listening). Nothing is sent until it posts `ready`. */
  attach(post: Post): void {
    this.post = post;
    this.ready = false;
    this.walkNews = [];
  }

  /** The page was hidden; without retainContextWhenHidden it is gone until it reloads and posts `ready`. */
  pageHidden(): void {
    this.ready = false;
  }

  detach(): void {
    this.post = undefined;
    this.ready = false;
    this.walkNews = [];
    this.restOwed = undefined;
  }

  /** Shows a view model (its earlier responses come with it: the sender finds them, requestNow.ts's rule). */
  show(viewModel: ResultsViewModel): void {
    this.current = viewModel;
    this.walkNews = [];
    this.sendShow(this.current);
  }

  appendPage(page: PageAppend): void {
    if (!this.current) return;
    // The page's table grows from all of the shown rows: the rest goes out first if it has not yet.
    this.flushRest();
    const known = this.current.table?.columns ?? [];
    const columns = page.columns ? [...page.columns] : columnsOf(page.rows, known);
    const table = this.current.table ?? { source: '$', kind: 'objects' as const, columns, rows: [] };
    this.current = { ...this.current, table: { ...table, columns, rows: table.rows.concat(page.rows) }, paging: page.paging };
    // Not queued when the page is loading: the `show` it will get already holds these rows.
    if (this.ready) this.send({ type: 'appendRows', ...encodeRows(page.rows), columns, paging: page.paging });
  }

  progress(progress: WalkProgress): void {
    if (this.current?.paging && !this.current.paging.walking) this.current = { ...this.current, paging: { ...this.current.paging, walking: true } };
    const { pages, rows, rowsPerSecond, elapsedMs, pagesPerSecond, totalPages, timeLeftMs, waits, waitedMs, waiting, file } = progress;
    this.sendOrKeep({
      type: 'progress', pages, rows, rowsPerSecond, elapsedMs,
      ...(pagesPerSecond !== undefined ? { pagesPerSecond } : {}), ...(totalPages !== undefined ? { totalPages } : {}),
      ...(timeLeftMs !== undefined ? { timeLeftMs } : {}), ...(waits ? { waits, waitedMs: waitedMs ?? 0 } : {}),
      ...(waiting ? { waiting } : {}), ...(file ? { file } : {}),
    });
  }

  /** Why a paging press was refused, in the panel where it was pressed (not kept for a reload). */
  notice(text: string): void {
    if (this.post && this.ready) this.post({ type: 'notice', text });
  }

  walkEnded(end: WalkEnd): void {
    if (this.current) this.current = { ...this.current, paging: end.paging };
    this.sendOrKeep({ type: 'walkEnded', ok: end.ok, message: end.message, paging: end.paging, ...(end.file ? { file: end.file } : {}) });
  }

  /** Validates a message from the page; invalid ones are logged (type and path only) and give undefined. */
  received(data: unknown): SessionAction | undefined {
    const message = parseWebviewToHost(data, (line) => this.log(`results panel: ${line}`));
    if (!message) return undefined;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.replay();
        return undefined;
      case 'copy':
        return { kind: 'copy', text: message.text };
      case 'openRow': {
        const row = this.current?.table?.rows[message.index];
        // A row of a table on disk beyond its first ones is read from there.
        if (row === undefined && this.current?.table?.pagedRows !== undefined) return { kind: 'openRowFromDisk', index: message.index };
        return row === undefined ? undefined : { kind: 'openRow', index: message.index, row };
      }
      case 'wantRows':
      case 'wantBodyPage':
        return message.id === this.current?.id ? { kind: 'fromDisk', want: message } : undefined;
      default:
        // Export names the response its rows are of (what was on screen when pressed); the others act on the current one.
        return this.current ? { kind: 'request', request: { ...message, responseId: (message.type === 'export' ? message.responseId : undefined) ?? this.current.id, requestKey: this.current.requestKey } } : undefined;
    }
  }

  /** An answer read from disk for the response `id`, if the page still shows it and listens. */
  deliver(id: string, message: HostToWebviewMessage): void {
    if (this.current?.id === id) this.send(message);
  }

  private send(message: HostToWebviewMessage): void {
    if (!this.post || !this.ready) return;
    this.flushRest();
    this.post(message);
  }

  /** `show` now; its `showRest`, when the table has more than a screen, on a later task (or before anything else). */
  private sendShow(vm: ResultsViewModel): void {
    if (!this.post || !this.ready) return;
    this.restOwed = undefined;
    this.post({ type: 'show', viewModel: encodeViewModel(vm) });
    if (!restFollows(vm)) return;
    this.restOwed = vm;
    this.later(() => this.flushRest());
  }

  /** Sends the owed `showRest` if it is still for the view model on screen and the page is listening. */
  private flushRest(): void {
    const owed = this.restOwed;
    this.restOwed = undefined;
    if (!owed || owed !== this.current || !this.post || !this.ready) return;
    const rest = encodeShowRest(owed);
    if (rest) this.post(rest);
  }

  private sendOrKeep(message: HostToWebviewMessage): void {
    if (this.post && this.ready) {
      this.flushRest();
      this.post(message);
      return;
    }
    if (message.type === 'walkEnded') this.walkNews = [message];
    else this.walkNews = [...this.walkNews.filter((m) => m.type !== 'progress'), message];
  }

  /** On (re)load the page has nothing: the current state, then the latest news of a walk. */
  private replay(): void {
    if (!this.current) return;
    this.sendShow(this.current);
    for (const m of this.walkNews) this.send(m);
    this.walkNews = [];
  }
}
