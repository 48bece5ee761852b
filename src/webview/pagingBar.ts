// Paging controls: Next page, All pages (streamed by the host to NDJSON or CSV), Stop, Export, and the
// walk's progress. The webview only asks; the host's paging engine decides what the next request is.
// Focus is never lost to <body>: when a walk starts (the host reports progress) focus moves from the button
// that started it to Stop; when it ends, back to that button (or the next one still enabled); a button that
// disables itself under focus (Next page on the last page) hands focus to its neighbour.
import type { ExportFormat, HostToWebviewMessage, PagingState, WebviewToHostMessage } from '../protocol/webviewMessages';
import { formatCountOf, formatDuration, formatRows } from '../core/results/format';
import { walkProgressWords } from '../core/results/walkProgress';
import { pagingTail } from '../core/results/announcements';
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
  /** Where focus goes back when the walk ends: the button that was focused when it started. */
  private resumeFocus: HTMLButtonElement | undefined;

  /**
   * `focusElsewhere`: called when no control of the bar can take focus it had (the app focuses the grid).
   * `shownResponse`: the id of the response on screen, which Export names.
   */
  constructor(
    private readonly send: (message: WebviewToHostMessage) => void,
    private readonly focusElsewhere: () => void = () => undefined,
    private readonly shownResponse: () => string | undefined = () => undefined,
  ) {
    this.state = h('span', { className: 'paging-state', attrs: { 'data-testid': 'paging-state' } });
    // Not a live region: a walk updates it several times a second. Its start and verdict are announced.
    this.progressText = h('span', { className: 'progress', attrs: { 'data-testid': 'progress' } });
    this.format = h('select', { attrs: { 'aria-label': 'File format' } }, h('option', { text: 'NDJSON', attrs: { value: 'ndjson' } }), h('option', { text: 'CSV', attrs: { value: 'csv' } }));
    this.next = button('Next page', () => this.send({ type: 'nextPage' }));
    // Words, not an arrow glyph: the visible label is also what a screen reader says.
    this.all = button('All pages to file', () => this.send({ type: 'allPages', format: this.chosenFormat() }), 'Walk every page and stream the rows to a file in the workspace');
    this.stop = button('Stop', () => this.send({ type: 'stop' }));
    this.exportButton = button('Export rows', () => {
      const responseId = this.shownResponse();
      this.send({ type: 'export', format: this.chosenFormat(), ...(responseId ? { responseId } : {}) });
    }, 'Write the rows shown here to a file');
    this.element = h('div', { className: 'paging-bar', attrs: { role: 'group', 'aria-label': 'Paging' } }, this.state, this.next, this.all, this.format, this.stop, this.exportButton, this.progressText);
    this.update(undefined, false);
  }

  private chosenFormat(): ExportFormat {
    return this.format.value === 'csv' ? 'csv' : 'ndjson';
  }

  update(paging: PagingState | undefined, hasRows: boolean): void {
    const focused = document.activeElement;
    const wasWalking = this.paging?.walking ?? false;
    this.paging = paging;
    const walking = paging?.walking ?? false;
    this.next.hidden = this.all.hidden = this.stop.hidden = !paging;
    this.next.disabled = !paging?.canContinue || walking;
    this.all.disabled = !paging?.canContinue || walking;
    this.stop.disabled = !walking;
    this.exportButton.disabled = !hasRows || walking;
    this.format.disabled = walking;
    this.state.textContent = paging
      ? paging.verdict ? paging.styleLabel : [paging.styleLabel, formatCountOf(paging.pages, 'page'), formatRows(paging.rows), pagingTail(paging)].filter(Boolean).join(' · ')
      : hasRows ? 'Single page' : '';
    if (paging?.verdict) this.progressText.textContent = paging.verdict;
    this.keepFocus(focused, wasWalking, walking);
  }

  private keepFocus(focused: Element | null, wasWalking: boolean, walking: boolean): void {
    if (!focused) return;
    // <body> counts as lost focus only while the panel has focus at all (never pull focus into it).
    const lost = focused === document.body && document.hasFocus();
    if (walking && !wasWalking) {
      if (lost || focused === this.all || focused === this.next) {
        this.resumeFocus = focused instanceof HTMLButtonElement ? focused : this.all;
        this.stop.focus();
      }
      return;
    }
    if (!walking && wasWalking && (lost || focused === this.stop)) {
      this.focusFirst([this.resumeFocus, this.all, this.next, this.exportButton]);
      this.resumeFocus = undefined;
      return;
    }
    if (focused instanceof HTMLElement && this.element.contains(focused) && !usable(focused)) this.focusFirst([this.next, this.all, this.exportButton]);
  }

  private focusFirst(candidates: readonly (HTMLButtonElement | undefined)[]): void {
    const target = candidates.find((b): b is HTMLButtonElement => !!b && usable(b));
    if (target) target.focus();
    else this.focusElsewhere();
  }

  progress(p: Progress): void {
    if (this.paging) this.update({ ...this.paging, walking: true }, true);
    // The CLI's progress line says the same (walkProgressWords): pages (of the total), rows, rates, time left, waits.
    this.progressText.textContent = `Walking: ${walkProgressWords(p)} · ${formatDuration(p.elapsedMs)}${p.file ? ` → ${p.file}` : ''}`;
  }

  /** A walk's verdict: said once, in the bar's line (the state keeps only the style, not the counts again). */
  ended(message: string, paging: PagingState, hasRows: boolean): void {
    this.update(paging, hasRows);
    this.state.textContent = paging.styleLabel;
    this.progressText.textContent = message;
  }

  /** A sentence in the bar's line (a refused press), until the next update. */
  say(text: string): void {
    this.progressText.textContent = text;
  }

  clearProgress(): void {
    this.progressText.textContent = '';
  }
}

function usable(element: HTMLElement): boolean {
  return !(element as HTMLButtonElement).disabled && !element.hidden && element.offsetParent !== null;
}
