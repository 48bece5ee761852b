// The panel's Contract section: where the response differs from what the contract documents for its
// operation, each finding with its JSON path and contract section, and what was not checked because the
// contract does not show it. Text only (dom.ts); a labelled region with a heading and lists, so a screen
// reader can find it and count its findings.
import type { ContractView } from '../protocol/webviewMessages';
import { h } from './dom';

const KIND_WORDS: Readonly<Record<string, string>> = {
  'undocumented-field': 'Not documented',
  'missing-field': 'Documented field missing',
  'type-mismatch': 'Type differs',
  'unknown-error-code': 'Error code outside the catalogue',
  'missing-paging-header': 'Paging header missing',
  'missing-paging-field': 'Paging field missing',
};

let sequence = 0;

export function contractSection(contract: ContractView): HTMLElement {
  const headingId = `contract-heading-${++sequence}`;
  const count = contract.findings.length;
  const heading = count === 0
    ? `Contract: no drift${contract.operation ? ` from ${contract.operation}` : ''}`
    : `Contract: ${count} finding${count === 1 ? '' : 's'}${contract.operation ? ` against ${contract.operation}` : ''}`;
  const findings = count
    ? h('ul', { className: 'contract-findings', attrs: { 'aria-label': 'Contract drift findings' } },
        ...contract.findings.map((f) =>
          h('li', { attrs: { 'data-kind': f.kind } },
            h('span', { className: 'contract-kind', text: KIND_WORDS[f.kind] ?? f.kind }),
            h('code', { className: 'contract-path', text: f.path }),
            h('span', { className: 'contract-message', text: f.message }),
            h('span', { className: 'contract-source', text: f.section }),
          )))
    : null;
  const notChecked = contract.notChecked.length
    ? h('details', { className: 'contract-not-checked' },
        h('summary', { text: `Not checked (${contract.notChecked.length})` }),
        h('ul', {}, ...contract.notChecked.map((n) => h('li', { text: n }))))
    : null;
  return h('section', {
    className: `banner contract${count ? ' drift' : ''}`,
    attrs: { role: 'region', 'aria-labelledby': headingId, 'data-testid': 'contract-section' },
  },
  h('h2', { className: 'contract-heading', text: heading, attrs: { id: headingId } }),
  findings,
  notChecked);
}
