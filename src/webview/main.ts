// Results panel (webview side). Renders the view models the host prepares; every message is validated on
// receipt and an invalid one is logged and ignored. No fetching, no business logic, no secret here.
import './styles.css';
import { decodeRows, decodeViewModelHead, parseHostToWebview, type HostToWebviewMessage, type PendingRows, type ResultsViewModel } from '../protocol/webviewMessages';
import { detailOf } from '../core/results/cells';
import { formatCount, formatRows } from '../core/results/format';
import { pageAnnouncement, responseAnnouncement } from '../core/results/announcements';
import { Announcer } from './announcer';
import { button, h } from './dom';
import { PagingBar } from './pagingBar';
import { RawView } from './rawView';
import { authBanner, businessBanner, headersView, statusLine, summaryView } from './sections';
import { testsSection } from './testsSection';
import { contractSection } from './contractSection';
import { VirtualTable, type CellRef } from './table';
import { Tabs } from './tabs';
import { loadState, post, saveState, type PanelState } from './vscodeApi';

const TABS = ['table', 'raw', 'headers', 'summary'] as const;
type Tab = (typeof TABS)[number];

function log(line: string): void {
  console.warn(`[API Workbench results] ${line}`);
}

class ResultsApp {
  private readonly status = h('div', { className: 'status-area' }, h('p', { className: 'note', text: 'Send a request to see its response here.' }));
  private readonly banners = h('div', { className: 'banners' });
  private readonly announcer = new Announcer();
  private readonly paging = new PagingBar(post, () => this.focusCurrentView(), () => this.vm?.id);
  private readonly table = new VirtualTable({
    expand: (cell, byKeyboard) => this.expand(cell, byKeyboard),
    openRow: (row) => post({ type: 'openRow', index: row }),
    announce: (text) => this.announcer.say(text),
  });
  private readonly raw = new RawView(() => this.persist());
  private readonly headersPane = h('div', { className: 'pane scroll' });
  private readonly summaryPane = h('div', { className: 'pane scroll' });
  private readonly detailTitle = h('h2', { className: 'detail-title', attrs: { id: 'detail-title' } });
  private readonly detailText = h('pre', { className: 'detail-text', attrs: { tabindex: '0', 'aria-labelledby': 'detail-title', 'data-testid': 'detail-text' } });
  private readonly detail: HTMLElement;
  private readonly panes: Record<Tab, HTMLElement>;
  private readonly tabs: Tabs<Tab>;
  private vm: ResultsViewModel | undefined;
  private detailRow = -1;
  /** A walk's progress has been shown and its end not yet. */
  private walking = false;
  private detailCopy = '';
  private scrollSave: ReturnType<typeof setTimeout> | undefined;
  /** The rows of the last `show` after its first screen, decoded on the next task. */
  private pendingRows: PendingRows | undefined;

  constructor(root: HTMLElement) {
    this.detail = h(
      'section',
      { className: 'detail', attrs: { 'data-testid': 'detail', 'aria-labelledby': 'detail-title' } },
      h('div', { className: 'toolbar' }, this.detailTitle,
        button('Copy', () => post({ type: 'copy', text: this.detailCopy })),
        button('Open row as JSON', () => post({ type: 'openRow', index: this.detailRow })),
        button('Close', () => this.closeDetail())),
      this.detailText,
    );
    this.detail.hidden = true;
    // Escape anywhere in the detail closes it and gives focus back to the grid cell it came from.
    this.detail.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.closeDetail();
      }
    });
    this.panes = {
      table: h('div', { className: 'pane table-pane' }, this.table.element, this.detail),
      raw: h('div', { className: 'pane' }, this.raw.element),
      headers: this.headersPane,
      summary: this.summaryPane,
    };
    this.tabs = new Tabs<Tab>('Response views', [
      { id: 'table', label: 'Table', panel: this.panes.table, focusable: true },
      { id: 'raw', label: 'Raw JSON', panel: this.panes.raw, focusable: true },
      { id: 'headers', label: 'Headers', panel: this.headersPane },
      { id: 'summary', label: 'Summary', panel: this.summaryPane },
    ], (tab) => this.selected(tab));
    const content = h('div', { className: 'views' }, ...TABS.map((t) => this.panes[t]));
    // Landmarks: the response's status, banners and paging in a header; the views in main.
    const heading = h('h1', { className: 'visually-hidden', text: 'API Workbench results' });
    root.replaceChildren(h('header', { className: 'top' }, heading, this.announcer.element, this.status, this.banners, this.paging.element), h('main', { className: 'content' }, this.tabs.list, content));
    this.tabs.select('table', { notify: false });
    this.tabs.list.hidden = true;
    // Focus arriving in the panel from the editor (Ctrl+1/2, Focus Next Group) lands on the current view,
    // not on <body> where Tab would have to start over.
    window.addEventListener('focus', () => {
      if (document.activeElement === document.body || document.activeElement === null) this.focusCurrentView();
    });
    this.paging.element.hidden = true;
    this.table.element.addEventListener('scroll', () => this.persistSoon(), { capture: true, passive: true });
  }

  handle(message: HostToWebviewMessage): void {
    if (message.type === 'show') this.pendingRows = undefined;
    else this.finishRows(); // anything after a `show` applies to all of its rows
    switch (message.type) {
      case 'show': {
        const decoded = decodeViewModelHead(message.viewModel, log);
        if (!decoded) break;
        this.show(decoded.viewModel, decoded.rowCount, loadState(), decoded.rest);
        if (decoded.rest) {
          this.pendingRows = decoded.rest;
          // After the frame that paints the first screen (a task queued from rAF runs after that paint);
          // the timer alone covers a hidden page, where animation frames do not come.
          requestAnimationFrame(() => setTimeout(() => this.finishRows(), 0));
          setTimeout(() => this.finishRows(), 100);
        }
        break;
      }
      case 'appendRows': {
        const rows = decodeRows(message.rowsJson, message.rowCount);
        if (!rows) {
          log(`ignored an 'appendRows' message whose rows are not a JSON array of ${message.rowCount}`);
          break;
        }
        this.table.append(rows, message.columns);
        this.showRowCount();
        this.paging.update(message.paging, this.table.rowCount > 0);
        this.paging.clearProgress();
        this.announcer.say(pageAnnouncement(message.paging.pages, message.rowCount, this.table.rowCount, message.paging));
        break;
      }
      case 'progress':
        if (!this.walking) this.announcer.say(`Walking every page${message.file ? ` to ${message.file}` : ''}; Stop ends it`);
        this.walking = true;
        this.paging.progress(message);
        break;
      case 'walkEnded':
        this.walking = false;
        this.paging.ended(message.message, message.paging, this.table.rowCount > 0);
        this.announcer.say(message.message);
        this.showRowCount(message.paging.rows);
        break;
    }
  }

  /** Decodes the rest of the shown rows (after the first screen is on screen). */
  private finishRows(): void {
    const pending = this.pendingRows;
    if (!pending) return;
    this.pendingRows = undefined;
    const rows = pending.decode();
    if (rows) {
      this.table.completeRows(rows);
      return;
    }
    log(`the last ${pending.count} rows of the response did not decode; showing the first ${this.table.rowCount - pending.count}`);
    this.table.abandonPending();
    this.showRowCount();
  }

  /** One row count everywhere: after a walk to a file, the walk's total, and how many of them are on screen. */
  private showRowCount(walked?: number): void {
    const count = this.status.querySelector('.row-count');
    if (!count) return;
    const shown = this.table.rowCount;
    count.textContent = walked !== undefined && walked > shown ? `${formatRows(walked)} (${formatCount(shown)} shown)` : formatRows(shown);
  }

  private show(vm: ResultsViewModel, rowCount: number, saved: PanelState, rest: PendingRows | undefined): void {
    this.vm = vm;
    const same = saved.responseId === vm.id;
    // Where the user was: if the new response hides it (the detail closes, a table gives way to Raw JSON),
    // focus goes to the view now showing instead of falling to <body>.
    const focused = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : undefined;
    this.status.replaceChildren(statusLine(vm, rowCount));
    this.banners.replaceChildren(...[
      vm.businessErrors && businessBanner(vm.businessErrors),
      vm.auth && authBanner(vm.auth),
      vm.tests && testsSection(vm.tests),
      vm.contract && contractSection(vm.contract),
    ].filter((e): e is HTMLElement => !!e));
    this.paging.update(vm.paging, rowCount > 0);
    this.paging.clearProgress();
    this.paging.element.hidden = !vm.paging && !vm.table;
    this.tabs.list.hidden = false;
    this.detail.hidden = true;
    this.walking = vm.paging?.walking ?? false;
    this.table.setData(vm.table, rest?.count ?? 0);
    this.raw.setBody(vm.body, same ? (saved.search ?? '') : '');
    this.headersPane.replaceChildren(headersView(vm));
    this.summaryPane.replaceChildren(summaryView(vm, rowCount));
    const savedTab = same && TABS.includes(saved.tab as Tab) ? (saved.tab as Tab) : undefined;
    this.tabs.select(savedTab ?? (rowCount > 0 ? 'table' : 'raw'), { notify: false });
    this.selected(this.tabs.selected, false);
    if (same && saved.scrollTop) this.table.scrollTop = saved.scrollTop;
    this.persist();
    if (focused && (!focused.isConnected || focused.closest('[hidden]'))) this.focusCurrentView();
    // A reload of the same response (the panel was hidden) is not news.
    if (!same) {
      this.announcer.say(responseAnnouncement({
        status: vm.status, statusText: vm.statusText,
        ...(vm.table ? { rowCount } : {}),
        ...(vm.paging ? { paging: vm.paging } : {}),
        businessFailure: !!vm.businessErrors,
        ...(vm.auth ? { authProblem: vm.auth.title } : {}),
      }));
    }
  }

  private selected(tab: Tab, persist = true): void {
    if (tab === 'table') this.table.refresh();
    if (persist) this.persist();
  }

  /** Focus on the view that is showing: the grid, the body text, or the panel itself. */
  private focusCurrentView(): void {
    const tab = this.tabs.selected;
    if (tab === 'table' && this.table.rowCount > 0) this.table.focus();
    else if (tab === 'raw') this.raw.focus();
    else if (tab === 'table' || this.tabs.list.hidden) this.tabs.focusSelected();
    else this.panes[tab].focus();
  }

  /** Shows a nested or long value whole; opened from the keyboard, focus moves to it (Escape comes back). */
  private expand(cell: CellRef, byKeyboard: boolean): void {
    this.detailRow = cell.row;
    this.detailCopy = detailOf(cell.value);
    this.detailTitle.textContent = `Row ${cell.row + 1}${cell.column ? ` · ${cell.column.label}` : ''}`;
    this.detailText.textContent = this.detailCopy;
    this.detail.hidden = false;
    if (byKeyboard) this.detailText.focus();
  }

  private closeDetail(): void {
    this.detail.hidden = true;
    this.table.focus();
  }

  private persistSoon(): void {
    clearTimeout(this.scrollSave);
    this.scrollSave = setTimeout(() => this.persist(), 200);
  }

  /** View settings only: the response itself is re-sent by the host on `ready`, so no body is stored. */
  private persist(): void {
    saveState({ ...(this.vm ? { responseId: this.vm.id } : {}), tab: this.tabs.selected, search: this.raw.searchTerm, scrollTop: this.table.scrollTop });
  }
}

const app = new ResultsApp(document.getElementById('app') ?? document.body);
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostToWebview(event.data, log);
  if (message) app.handle(message);
});
post({ type: 'ready' });
