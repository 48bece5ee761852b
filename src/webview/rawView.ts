// Raw body with search. Matches are highlighted by splitting the text into text nodes and <mark> elements
// (never by writing HTML), at most MAX_MARKS of them so a common letter in a 1 MB body stays cheap.
import type { BodyView } from '../protocol/webviewMessages';
import { button, h } from './dom';
import { jsonRuns } from './jsonTokens';

const MAX_MARKS = 2000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class RawView {
  readonly element: HTMLDivElement;
  private readonly pre: HTMLPreElement;
  private readonly input: HTMLInputElement;
  private readonly counter: HTMLSpanElement;
  private readonly note: HTMLDivElement;
  private text = '';
  private marks: HTMLElement[] = [];
  private current = -1;
  private totalText = '';
  private debounce: ReturnType<typeof setTimeout> | undefined;

  /** A body on disk: its pages and the buttons that ask for another. */
  private readonly pager: HTMLDivElement;
  private readonly pageLabel: HTMLSpanElement;
  private page: { index: number; count: number } | undefined;

  /** `wantPage`: asks the host for a page of a body on disk. */
  constructor(private readonly onSearchChanged: (term: string) => void, private readonly wantPage: (index: number) => void = () => undefined) {
    this.input = h('input', { className: 'search', attrs: { type: 'search', placeholder: 'Search the body', 'aria-label': 'Search the body' } });
    this.input.addEventListener('input', () => {
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => this.search(this.input.value), 120);
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.step(e.shiftKey ? -1 : 1);
    });
    // A status: "3 / 12 matches" is read after each search and each step, as the editor's find widget does.
    this.counter = h('span', { className: 'counter', attrs: { role: 'status' } });
    this.note = h('div', { className: 'note' });
    this.pre = h('pre', { className: 'raw', attrs: { tabindex: '0', 'aria-label': 'Response body' } });
    const previous = button('↑', () => this.step(-1), 'Previous match (Shift+Enter)');
    const next = button('↓', () => this.step(1), 'Next match (Enter)');
    // The arrows are glyphs; the names are words.
    previous.setAttribute('aria-label', 'Previous match');
    next.setAttribute('aria-label', 'Next match');
    const bar = h('div', { className: 'toolbar', attrs: { role: 'search' } }, this.input, previous, next, this.counter);
    this.pageLabel = h('span', { className: 'counter', attrs: { role: 'status' } });
    const go = (label: string, to: (page: { index: number; count: number }) => number): HTMLButtonElement => {
      const pressed = button(label, () => {
        if (this.page) this.wantPage(Math.min(this.page.count - 1, Math.max(0, to(this.page))));
      });
      pressed.setAttribute('aria-label', `${label} body page`);
      return pressed;
    };
    this.pager = h('div', { className: 'toolbar', attrs: { role: 'navigation', 'aria-label': 'Pages of the body' } },
      go('First', () => 0), go('Previous', (p) => p.index - 1), go('Next', (p) => p.index + 1), go('Last', (p) => p.count - 1), this.pageLabel);
    this.pager.hidden = true;
    this.element = h('div', { className: 'raw-view' }, bar, this.pager, this.note, this.pre);
  }

  /** Keyboard focus on the search box, where a keyboard user starts in this view. */
  focus(): void {
    this.input.focus();
  }

  get searchTerm(): string {
    return this.input.value;
  }

  setBody(body: BodyView, searchTerm = ''): void {
    this.text = body.text;
    this.page = body.page;
    this.pager.hidden = !body.page;
    this.pageLabel.textContent = body.page ? `Page ${body.page.index + 1} of ${body.page.count}` : '';
    this.pre.scrollTop = 0;
    this.note.textContent = body.note ?? '';
    this.note.hidden = !body.note;
    this.input.value = searchTerm;
    this.search(searchTerm);
  }

  /** Rebuilds the text with the matches of `term` (case-insensitive) wrapped in <mark>. */
  search(term: string): void {
    this.marks = [];
    this.current = -1;
    if (!term) {
      // Coloured runs (text nodes in spans, never HTML); a search shows its matches on plain text instead.
      const fragment = document.createDocumentFragment();
      for (const run of jsonRuns(this.text)) fragment.append(run.kind ? h('span', { className: `json-${run.kind}`, text: run.text }) : document.createTextNode(run.text));
      this.pre.replaceChildren(fragment);
      this.counter.textContent = '';
      this.onSearchChanged(term);
      return;
    }
    const fragment = document.createDocumentFragment();
    const pattern = new RegExp(escapeRegExp(term), 'gi');
    let last = 0;
    let total = 0;
    for (const match of this.text.matchAll(pattern)) {
      total += 1;
      if (this.marks.length >= MAX_MARKS) continue;
      const at = match.index;
      if (at > last) fragment.append(document.createTextNode(this.text.slice(last, at)));
      const mark = h('mark', { text: match[0] });
      this.marks.push(mark);
      fragment.append(mark);
      last = at + match[0].length;
    }
    if (last < this.text.length) fragment.append(document.createTextNode(this.text.slice(last)));
    this.pre.replaceChildren(fragment);
    this.totalText =
      total === 0 ? 'no match' : total > this.marks.length ? `${total} matches (first ${this.marks.length} highlighted)` : `${total} match${total === 1 ? '' : 'es'}`;
    this.counter.textContent = this.totalText;
    if (this.marks.length > 0) this.step(1);
    this.onSearchChanged(term);
  }

  private step(delta: number): void {
    if (this.marks.length === 0) return;
    this.marks[this.current]?.classList.remove('current');
    this.current = (this.current + delta + this.marks.length) % this.marks.length;
    const mark = this.marks[this.current]!;
    mark.classList.add('current');
    mark.scrollIntoView({ block: 'center' });
    this.counter.textContent = `${this.current + 1} / ${this.totalText}`;
  }
}
