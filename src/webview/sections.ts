// The static parts of the panel: status line, business-error banner, auth explanation, headers, summary.
// All text goes through textContent (see dom.ts).
import type { AuthExplanation, BusinessBanner, HeaderLine, ResultsViewModel } from '../protocol/webviewMessages';
import { formatBytes, formatCount, formatCountOf, formatDuration, formatRows } from '../core/results/format';
import { h, timeOf, wrappingUrl } from './dom';

let sectionIds = 0;

/**
 * A headed part of a view: <section> named by its <h2>, so screen readers list it among the headings and
 * landmarks. The shared shape for the panel's sections (Summary's facts and history; a "Tests" or "Contract"
 * view adds its parts the same way): `panelSection('Assertions', list)`.
 */
export function panelSection(title: string, ...children: (HTMLElement | null)[]): HTMLElement {
  const id = `section-${++sectionIds}`;
  return h('section', { className: 'panel-section', attrs: { 'aria-labelledby': id } }, h('h2', { text: title, attrs: { id } }), ...children);
}

/** `rowCount`: every row of the response, also those still being decoded. */
export function statusLine(vm: ResultsViewModel, rowCount: number): HTMLElement {
  const rows = vm.table ? formatRows(rowCount) : undefined;
  return h(
    'div',
    { className: 'status-line' },
    h('span', { className: `status ${vm.statusClass}`, text: `${vm.status} ${vm.statusText}`.trim(), attrs: { 'data-testid': 'status' } }),
    h('span', { className: 'metric', text: vm.timing.text, title: `first byte after ${formatDuration(vm.timing.firstByteMs)}` }),
    h('span', { className: 'metric', text: vm.size.text, title: `${vm.size.bytes} bytes` }),
    rows ? h('span', { className: 'metric row-count', text: rows, attrs: { 'data-testid': 'row-count' } }) : null,
    h('span', { className: 'title', text: vm.title, title: vm.request.url }),
  );
}

export function businessBanner(banner: BusinessBanner): HTMLElement {
  const heading = `Business failure reported in the body${banner.catalogue ? ` (${banner.catalogue})` : ''}`;
  const items = banner.failures.map((f) =>
    h(
      'li',
      {},
      h('span', { className: 'code', text: f.code !== undefined ? `Code ${f.code}` : 'No code' }),
      h('span', { className: 'message', text: f.message }),
      f.meanings.length > 0 ? h('div', { className: 'meanings', text: `Catalogue: ${f.meanings.join(' · or · ')}` }) : null,
      f.note ? h('div', { className: 'ambiguity', text: f.note }) : null,
    ),
  );
  return h(
    'section',
    { className: 'banner business', attrs: { role: 'alert', 'data-testid': 'business-banner' } },
    h('strong', { text: heading }),
    h('div', { className: 'status-note', text: banner.statusNote }),
    h('ul', {}, ...items),
    h('div', { className: 'convention', text: `Convention: ${banner.convention}` }),
  );
}

export function authBanner(auth: AuthExplanation): HTMLElement {
  return h('section', { className: 'banner auth', attrs: { role: 'alert' } }, h('strong', { text: auth.title }), h('div', { text: auth.explanation }));
}

function headerTable(caption: string, headers: readonly HeaderLine[]): HTMLElement {
  const body = h('tbody', {}, ...headers.map((line) => h('tr', {}, h('th', { text: line.name, attrs: { scope: 'row' } }), h('td', { text: line.value }))));
  return h('table', { className: 'headers' }, h('caption', { text: caption }), body);
}

export function headersView(vm: ResultsViewModel): HTMLElement {
  return h(
    'div',
    { className: 'headers-view' },
    headerTable(`Response headers (${vm.headers.length})`, vm.headers),
    headerTable(`Request headers: ${vm.request.method} ${vm.request.url}`, vm.request.headers),
  );
}

export function summaryView(vm: ResultsViewModel, rowCount: number): HTMLElement {
  const facts: [string, string | Node][] = [
    ['Status', `${vm.status} ${vm.statusText}`],
    ['Time', `${vm.timing.text} (first byte ${formatDuration(vm.timing.firstByteMs)})`],
    ['Size', `${vm.size.text} (${formatCountOf(vm.size.bytes, 'byte')})`],
    ['Received', timeOf(vm.receivedAt)],
    ['Request', h('span', { className: 'url' }, `${vm.request.method} `, wrappingUrl(vm.request.url))],
  ];
  if (vm.table) facts.push(['Rows', `${formatCount(rowCount)} from ${vm.table.source === '$' ? 'the top-level array' : vm.table.source}`]);
  if (vm.paging) facts.push(['Paging', `${vm.paging.styleLabel}: ${vm.paging.verdict ?? `${formatCountOf(vm.paging.pages, 'page')}, ${formatRows(vm.paging.rows)}${vm.paging.endReason ? `; ${vm.paging.endReason}` : ''}`}`]);
  const list = h('dl', { className: 'facts' }, ...facts.flatMap(([k, v]) => [h('dt', { text: k }), typeof v === 'string' ? h('dd', { text: v }) : h('dd', {}, v)]));
  const history = vm.history.length
    ? h(
        'table',
        { className: 'history' },
        h('caption', { className: 'visually-hidden', text: 'Earlier responses to this request' }),
        h('thead', {}, h('tr', {}, ...['Received', 'Status', 'Time', 'Size', 'Rows', 'Body'].map((label) => h('th', { text: label, attrs: { scope: 'col' } })))),
        h('tbody', {}, ...vm.history.map((e) =>
          h('tr', {},
            h('td', {}, timeOf(e.receivedAt)),
            h('td', { text: `${e.status} ${e.statusText}` }),
            h('td', { text: formatDuration(e.totalMs) }),
            h('td', { text: formatBytes(e.sizeBytes) }),
            h('td', { text: e.rowCount !== undefined ? formatRows(e.rowCount) : '' }),
            h('td', { text: e.businessFailed ? 'business failure' : '' }),
          ),
        )),
      )
    : h('p', { className: 'note', text: 'No earlier response to this request.' });
  return h('div', { className: 'summary-view' }, panelSection('This response', list), panelSection('Earlier responses to this request', history));
}
