// The only way the panel builds DOM: createElement + textContent. No HTML string is ever parsed, so response
// text cannot become markup whatever it contains.

type Child = Node | string | null | undefined | false;

export interface ElementProps {
  className?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[K]) => void }>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: ElementProps = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className) element.className = props.className;
  if (props.text !== undefined) element.textContent = props.text;
  if (props.title) element.title = props.title;
  for (const [name, value] of Object.entries(props.attrs ?? {})) element.setAttribute(name, value);
  for (const [event, handler] of Object.entries(props.on ?? {})) element.addEventListener(event, handler as EventListener);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/** A time in the user's locale, its ISO value on hover (and as the element's machine-readable datetime). */
export function timeOf(iso: string): HTMLElement {
  const when = new Date(iso);
  const shown = Number.isNaN(when.getTime()) ? iso : when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  return h('time', { text: shown, title: iso, attrs: { datetime: iso } });
}

/** A URL that wraps after its separators (/ ? & = #), not in the middle of a word: text and <wbr> nodes. */
export function wrappingUrl(url: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const part of url.split(/(?<=[/?&=#])/)) {
    fragment.append(document.createTextNode(part), document.createElement('wbr'));
  }
  return fragment;
}

export function button(label: string, onClick: () => void, title?: string): HTMLButtonElement {
  return h('button', { text: label, ...(title ? { title } : {}), attrs: { type: 'button' }, on: { click: () => onClick() } });
}
