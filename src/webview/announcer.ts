// The panel's polite live region: one visually hidden status element that screen readers read when its text
// changes ("200 OK, 100 rows, more pages", a walk's verdict, a sort). Polite: it waits for the reader to
// finish what it is saying. The same sentence twice in a row is made different (a trailing no-break space)
// so it is read again.
import { h } from './dom';

export class Announcer {
  readonly element = h('div', { className: 'visually-hidden', attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true', 'data-testid': 'announcer' } });

  say(text: string): void {
    const current = this.element.textContent ?? '';
    this.element.textContent = current.trimEnd() === text ? (current === text ? `${text}\u00a0` : text) : text;
  }
}
