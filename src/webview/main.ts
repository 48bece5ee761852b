// Results panel (webview side). Renders the view models the host prepares; every message is validated on
// receipt and an invalid one is logged and ignored. No fetching, no business logic, no secret here.
import './styles.css';
import { decodeRows, decodeShowRest, decodeViewModelHead, parseHostToWebview, type HostToWebviewMessage, type ResultsViewModel } from '../protocol/webviewMessages';
import { detailOf } from '../core/results/cells';
import { formatCount, formatRows, useNumberLocale } from '../core/results/format';
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
    wantRows: (from, count) => {
      if (this.vm) post({ type: 'wantRows', id: this.vm.id, from, count });
    },
  });
  private readonly raw = new RawView(() => this.persist(), (page) => {
    if (this.vm) post({ type: 'wantBodyPage', id: this.vm.id, page });
  });
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
  /** The last `show`, while its `showRest` (the rows after its first screen, the body) has not come. */
  private awaitingRest: { readonly id: string; readonly pending: number } | undefined;

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
    // The host sends a show's rest before anything else: another message while waiting means it never comes.
    // A new show replaces the one waiting (the host drops a rest it no longer owes).
    if (message.type === 'show') this.awaitingRest = undefined;
    else if (message.type !== 'showRest' && this.awaitingRest) this.abandonRest(`a '${message.type}' came before the rest of the shown rows`);
    switch (message.type) {
      case 'show': {
        const decoded = decodeViewModelHead(message.viewModel, log);
        if (!decoded) break;
        this.show(decoded.viewModel, decoded.rowCount, loadState(), decoded.pending);
        if (decoded.restFollows) this.awaitingRest = { id: decoded.viewModel.id, pending: decoded.pending };
        break;
      }
      case 'showRest':
        this.completeRest(message);
        break;
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
        if (this.vm) {
          this.vm = { ...this.vm, paging: message.paging };
          this.summaryPane.replaceChildren(summaryView(this.vm, this.table.rowCount));
        }
        this.announcer.say(pageAnnouncement(message.paging.pages, message.rowCount, this.table.rowCount, message.paging));
        break;
      }
      case 'progress':
        if (!this.walking) this.announcer.say(`Walking every page${message.file ? ` to ${message.file}` : ''}; Stop ends it`);
        this.walking = true;
        this.paging.progress(message);
        break;
      case 'rows':
        this.diskRows(message);
        break;
      case 'bodyPage':
        if (message.id === this.vm?.id) this.raw.setBody(message.body, this.raw.searchTerm);
        break;
      case 'notice':
        this.paging.say(message.text);
        this.announcer.say(message.text);
        break;
      case 'walkEnded':
        this.walking = false;
        this.paging.ended(message.message, message.paging, this.table.rowCount > 0);
        // Summary says what the walk came to, as the bar does.
        if (this.vm) {
          this.vm = { ...this.vm, paging: { ...message.paging, verdict: message.message } };
          this.summaryPane.replaceChildren(summaryView(this.vm, this.table.rowCount));
        }
        this.announcer.say(message.message);
        this.showRowCount(message.paging.rows);
        break;
    }
  }

  /** The rows after the first screen and the body view, for the show on screen (a stale one is dropped). */
  private completeRest(message: Extract<HostToWebviewMessage, { type: 'showRest' }>): void {
    const awaited = this.awaitingRest;
    if (!awaited) {
      log(`ignored the rest of a response not on screen`);
      return;
    }
    const rest = decodeShowRest(awaited, message);
    if (!rest.ok && rest.stale) {
      log(rest.reason);
      return;
    }
    this.raw.setBody(message.body, this.raw.searchTerm);
    if (!rest.ok) {
      this.abandonRest(rest.reason);
      return;
    }
    this.awaitingRest = undefined;
    this.table.completeRows(rest.rows, message.columns);
  }

  /** Rows read from disk for the table on screen; a problem reading them is said in the paging bar. */
  private diskRows(message: Extract<HostToWebviewMessage, { type: 'rows' }>): void {
    if (message.id !== this.vm?.id) return;
    if (message.problem) {
      this.paging.say(message.problem);
      this.announcer.say(message.problem);
      return;
    }
    const rows = decodeRows(message.rowsJson, message.rowCount);
    if (rows) this.table.diskRows(message.from, rows, message.columns);
    else log(`ignored a 'rows' message whose rows are not a JSON array of ${message.rowCount}`);
  }

  private abandonRest(reason: string): void {
    const pending = this.awaitingRest?.pending ?? 0;
    this.awaitingRest = undefined;
    log(`${reason}; showing the first ${this.table.rowCount - pending} rows`);
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

  private show(vm: ResultsViewModel, rowCount: number, saved: PanelState, pending: number): void {
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
    // Cleared first: a reopened walk's verdict (paging.verdict) is what update puts in the bar's line.
    this.paging.clearProgress();
    this.paging.update(vm.paging, rowCount > 0);
    this.paging.element.hidden = !vm.paging && !vm.table;
    this.tabs.list.hidden = false;
    this.detail.hidden = true;
    this.walking = vm.paging?.walking ?? false;
    this.table.setData(vm.table, pending);
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

// Every count of the panel in the user's locale (VS Code's display language is the page's).
useNumberLocale(navigator.language);
const app = new ResultsApp(document.getElementById('app') ?? document.body);
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostToWebview(event.data, log);
  if (message) app.handle(message);
});
post({ type: 'ready' });
