// Results panel (webview side). Renders the view models the host prepares; every message is validated on
// receipt and an invalid one is logged and ignored. No fetching, no business logic, no secret here.
import './styles.css';
import { decodeRows, decodeViewModelHead, parseHostToWebview, type HostToWebviewMessage, type PendingRows, type ResultsViewModel } from '../protocol/webviewMessages';
import { detailOf } from '../core/results/cells';
import { formatCount, formatRows } from '../core/results/format';
import { button, h } from './dom';
import { PagingBar } from './pagingBar';
import { RawView } from './rawView';
import { authBanner, businessBanner, headersView, statusLine, summaryView } from './sections';
import { VirtualTable, type CellRef } from './table';
import { loadState, post, saveState, type PanelState } from './vscodeApi';

const TABS = ['table', 'raw', 'headers', 'summary'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = { table: 'Table', raw: 'Raw JSON', headers: 'Headers', summary: 'Summary' };

function log(line: string): void {
  console.warn(`[API Workbench results] ${line}`);
}

class ResultsApp {
  private readonly status = h('header', { className: 'top' }, h('p', { className: 'note', text: 'Send a request to see its response here.' }));
  private readonly banners = h('div', { className: 'banners' });
  private readonly paging = new PagingBar(post);
  private readonly tabBar = h('nav', { className: 'tabs', attrs: { role: 'tablist' } });
  private readonly table = new VirtualTable((cell) => this.expand(cell), (row) => post({ type: 'openRow', index: row }));
  private readonly raw = new RawView(() => this.persist());
  private readonly headersPane = h('div', { className: 'pane scroll' });
  private readonly summaryPane = h('div', { className: 'pane scroll' });
  private readonly detailTitle = h('span', { className: 'detail-title' });
  private readonly detailText = h('pre', { className: 'detail-text' });
  private readonly detail: HTMLElement;
  private readonly panes: Record<Tab, HTMLElement>;
  private readonly tabButtons = new Map<Tab, HTMLButtonElement>();
  private vm: ResultsViewModel | undefined;
  private tab: Tab = 'table';
  private detailRow = -1;
  private detailCopy = '';
  private scrollSave: ReturnType<typeof setTimeout> | undefined;
  /** The rows of the last `show` after its first screen, decoded on the next task. */
  private pendingRows: PendingRows | undefined;

  constructor(root: HTMLElement) {
    this.detail = h(
      'section',
      { className: 'detail', attrs: { 'data-testid': 'detail' } },
      h('div', { className: 'toolbar' }, this.detailTitle,
        button('Copy', () => post({ type: 'copy', text: this.detailCopy })),
        button('Open row as JSON', () => post({ type: 'openRow', index: this.detailRow })),
        button('Close', () => (this.detail.hidden = true))),
      this.detailText,
    );
    this.detail.hidden = true;
    this.panes = {
      table: h('div', { className: 'pane table-pane' }, this.table.element, this.detail),
      raw: h('div', { className: 'pane' }, this.raw.element),
      headers: this.headersPane,
      summary: this.summaryPane,
    };
    for (const tab of TABS) {
      const b = button(TAB_LABELS[tab], () => this.select(tab));
      b.setAttribute('role', 'tab');
      b.setAttribute('data-tab', tab);
      this.tabButtons.set(tab, b);
      this.tabBar.append(b);
    }
    const content = h('main', { className: 'content' }, ...TABS.map((t) => this.panes[t]));
    root.replaceChildren(this.status, this.banners, this.paging.element, this.tabBar, content);
    this.select('table', false);
    this.tabBar.hidden = true;
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
        break;
      }
      case 'progress':
        this.paging.progress(message);
        break;
      case 'walkEnded':
        this.paging.ended(message.message, message.paging, this.table.rowCount > 0);
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
    this.status.replaceChildren(statusLine(vm, rowCount));
    this.banners.replaceChildren(...[vm.businessErrors && businessBanner(vm.businessErrors), vm.auth && authBanner(vm.auth)].filter((e): e is HTMLElement => !!e));
    this.paging.update(vm.paging, rowCount > 0);
    this.paging.clearProgress();
    this.paging.element.hidden = !vm.paging && !vm.table;
    this.tabBar.hidden = false;
    this.detail.hidden = true;
    this.table.setData(vm.table, rest?.count ?? 0);
    this.raw.setBody(vm.body, same ? (saved.search ?? '') : '');
    this.headersPane.replaceChildren(headersView(vm));
    this.summaryPane.replaceChildren(summaryView(vm, rowCount));
    const savedTab = same && TABS.includes(saved.tab as Tab) ? (saved.tab as Tab) : undefined;
    this.select(savedTab ?? (rowCount > 0 ? 'table' : 'raw'), false);
    if (same && saved.scrollTop) this.table.scrollTop = saved.scrollTop;
    this.persist();
  }

  private select(tab: Tab, persist = true): void {
    this.tab = tab;
    for (const t of TABS) {
      this.panes[t].hidden = t !== tab;
      this.tabButtons.get(t)?.setAttribute('aria-selected', String(t === tab));
    }
    if (tab === 'table') this.table.refresh();
    if (persist) this.persist();
  }

  private expand(cell: CellRef): void {
    const long = typeof cell.value === 'string' && cell.value.length > 200;
    const nested = typeof cell.value === 'object' && cell.value !== null;
    if (!nested && !long) return;
    this.detailRow = cell.row;
    this.detailCopy = detailOf(cell.value);
    this.detailTitle.textContent = `Row ${cell.row + 1}${cell.column ? ` · ${cell.column.label}` : ''}`;
    this.detailText.textContent = this.detailCopy;
    this.detail.hidden = false;
  }

  private persistSoon(): void {
    clearTimeout(this.scrollSave);
    this.scrollSave = setTimeout(() => this.persist(), 200);
  }

  /** View settings only: the response itself is re-sent by the host on `ready`, so no body is stored. */
  private persist(): void {
    saveState({ ...(this.vm ? { responseId: this.vm.id } : {}), tab: this.tab, search: this.raw.searchTerm, scrollTop: this.table.scrollTop });
  }
}

const app = new ResultsApp(document.getElementById('app') ?? document.body);
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostToWebview(event.data, log);
  if (message) app.handle(message);
});
post({ type: 'ready' });
