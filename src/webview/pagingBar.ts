// Paging controls: Next page, All pages (streamed by the host to NDJSON or CSV), Stop, Export, and the
// walk's progress. The webview only asks; the host's paging engine decides what the next request is.
import type { ExportFormat, HostToWebviewMessage, PagingState, WebviewToHostMessage } from '../protocol/webviewMessages';
import { formatDuration, formatRate, formatRows } from '../core/results/format';
import { button, h } from './dom';

type Progress = Extract<HostToWebviewMessage, { type: 'progress' }>;

export class PagingBar {
  readonly element: HTMLDivElement;
  private readonly state: HTMLSpanElement;
  private readonly progressText: HTMLSpanElement;
  private readonly format: HTMLSelectElement;
  private readonly next: HTMLButtonElement;
  private readonly all: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;
  private readonly exportButton: HTMLButtonElement;
  private paging: PagingState | undefined;

  constructor(private readonly send: (message: WebviewToHostMessage) => void) {
    this.state = h('span', { className: 'paging-state', attrs: { 'data-testid': 'paging-state' } });
    this.progressText = h('span', { className: 'progress', attrs: { 'aria-live': 'polite', 'data-testid': 'progress' } });
    this.format = h('select', { attrs: { 'aria-label': 'File format' } }, h('option', { text: 'NDJSON', attrs: { value: 'ndjson' } }), h('option', { text: 'CSV', attrs: { value: 'csv' } }));
    this.next = button('Next page', () => this.send({ type: 'nextPage' }));
    this.all = button('All pages → file', () => this.send({ type: 'allPages', format: this.chosenFormat() }), 'Walk every page and stream the rows to a file in the workspace');
    this.stop = button('Stop', () => this.send({ type: 'stop' }));
    this.exportButton = button('Export rows', () => this.send({ type: 'export', format: this.chosenFormat() }), 'Write the rows shown here to a file');
    this.element = h('div', { className: 'paging-bar' }, this.state, this.next, this.all, this.format, this.stop, this.exportButton, this.progressText);
    this.update(undefined, false);
  }

  private chosenFormat(): ExportFormat {
    return this.format.value === 'csv' ? 'csv' : 'ndjson';
  }

  update(paging: PagingState | undefined, hasRows: boolean): void {
    this.paging = paging;
    const walking = paging?.walking ?? false;
    this.next.hidden = this.all.hidden = this.stop.hidden = !paging;
    this.next.disabled = !paging?.canContinue || walking;
    this.all.disabled = !paging?.canContinue || walking;
    this.stop.disabled = !walking;
    this.exportButton.disabled = !hasRows || walking;
    this.format.disabled = walking;
    this.state.textContent = paging
      ? `${paging.styleLabel} · ${paging.pages} page${paging.pages === 1 ? '' : 's'} · ${formatRows(paging.rows)}${paging.endReason ? ` · ${paging.endReason}` : paging.canContinue ? ' · more pages' : ''}`
      : hasRows ? 'Single page' : '';
  }

  progress(p: Progress): void {
    if (this.paging) this.update({ ...this.paging, walking: true }, true);
    this.progressText.textContent = `Walking: ${p.pages} page${p.pages === 1 ? '' : 's'} · ${formatRows(p.rows)} · ${formatRate(p.rowsPerSecond)} · ${formatDuration(p.elapsedMs)}${p.file ? ` → ${p.file}` : ''}${p.waiting ? ` · waiting: ${p.waiting}` : ''}`;
  }

  ended(message: string, paging: PagingState, hasRows: boolean): void {
    this.update(paging, hasRows);
    this.progressText.textContent = message;
  }

  clearProgress(): void {
    this.progressText.textContent = '';
  }
}
