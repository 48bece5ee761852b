// The panel's views (Table, Raw JSON, Headers, Summary, ...) as one WAI-ARIA tabs widget: a tablist that is a
// single Tab stop (the selected tab), arrow keys / Home / End move between tabs and select them, and each tab
// names the tabpanel it controls (aria-controls / aria-labelledby).
//
// Adding a view to the panel (e.g. a "Tests" or "Contract" section): build its content as an element, then
// add one entry `{ id: 'tests', label: 'Tests', panel }` to the list main.ts hands to Tabs. Inside it, use
// `panelSection(title, ...)` from sections.ts for headed parts, so a screen reader's heading list finds them.
// Give the entry `focusable: true` only when the panel itself contains something focusable (the grid, an
// input); otherwise the tabpanel becomes a Tab stop so keyboard users can reach and scroll its text.
import { h } from './dom';

export interface TabSpec<Id extends string> {
  readonly id: Id;
  readonly label: string;
  readonly panel: HTMLElement;
  /** The panel has focusable content of its own; when false the panel itself takes focus (tabindex 0). */
  readonly focusable?: boolean;
}

export class Tabs<Id extends string> {
  readonly list: HTMLElement;
  private readonly buttons = new Map<Id, HTMLButtonElement>();
  private current: Id;

  constructor(label: string, private readonly specs: readonly TabSpec<Id>[], private readonly onSelect: (id: Id) => void) {
    if (specs.length === 0) throw new Error('a tab list needs at least one tab');
    this.current = specs[0]!.id;
    this.list = h('div', { className: 'tabs', attrs: { role: 'tablist', 'aria-label': label } });
    for (const spec of specs) {
      const tab = h('button', {
        text: spec.label,
        attrs: { type: 'button', role: 'tab', id: tabId(spec.id), 'aria-controls': panelId(spec.id), 'data-tab': spec.id },
        on: { click: () => this.select(spec.id) },
      });
      tab.addEventListener('keydown', (e) => this.key(e));
      spec.panel.id = panelId(spec.id);
      spec.panel.setAttribute('role', 'tabpanel');
      spec.panel.setAttribute('aria-labelledby', tabId(spec.id));
      if (!spec.focusable) spec.panel.setAttribute('tabindex', '0');
      this.buttons.set(spec.id, tab);
      this.list.append(tab);
    }
  }

  get selected(): Id {
    return this.current;
  }

  /** Shows one panel; `focus` moves keyboard focus to its tab (arrow keys do, a restored state does not). */
  select(id: Id, { notify = true, focus = false }: { notify?: boolean; focus?: boolean } = {}): void {
    this.current = id;
    for (const spec of this.specs) {
      const on = spec.id === id;
      spec.panel.hidden = !on;
      const tab = this.buttons.get(spec.id)!;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
    }
    if (focus) this.buttons.get(id)?.focus();
    if (notify) this.onSelect(id);
  }

  /** Focus on the selected tab (where a keyboard user picks another view). */
  focusSelected(): void {
    this.buttons.get(this.current)?.focus();
  }

  private key(event: KeyboardEvent): void {
    const ids = this.specs.map((s) => s.id);
    const at = ids.indexOf(this.current);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: ids.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    this.select(ids[(next + ids.length) % ids.length]!, { focus: true });
  }
}

function tabId(id: string): string {
  return `tab-${id}`;
}

function panelId(id: string): string {
  return `tabpanel-${id}`;
}
