// The Tests section of the results panel: each `??` assertion of the request with its outcome, what it
// expected and what the response held, then the other tools' scripts that were not run. A labelled
// region with a heading and a list; outcome is said in words, the ✓/✗ marks are decoration only.
import './testsSection.css';
import type { TestsView } from '../protocol/webviewMessages';
import { h } from './dom';

export function testsSection(tests: TestsView): HTMLElement {
  const total = tests.passed + tests.failed;
  const heading = total === 0
    ? 'Tests: none checked'
    : `Tests: ${tests.passed} passed, ${tests.failed} failed`;
  const items = tests.results.map((r) =>
    h(
      'li',
      { className: `test ${r.outcome}`, attrs: { 'data-testid': `test-${r.outcome}` } },
      h('span', { className: 'mark', text: r.outcome === 'passed' ? '✓' : '✗', attrs: { 'aria-hidden': 'true' } }),
      h('span', { className: 'outcome', text: r.outcome === 'passed' ? 'Passed' : 'Failed' }),
      h('code', { className: 'assertion', text: `?? ${r.text}` }),
      h('span', { className: 'where', text: `line ${r.line}` }),
      r.outcome === 'failed'
        ? h('div', { className: 'detail', text: `expected ${r.expected}, actual ${r.actual}` })
        : h('div', { className: 'detail', text: `actual ${r.actual}` }),
    ),
  );
  const notRun = tests.notRun.map((n) => h('li', { className: 'test not-run' }, h('span', { className: 'outcome', text: 'Not run' }), h('span', { text: `${n.what}, line ${n.line}` })));
  return h(
    'section',
    { className: `tests ${tests.failed > 0 ? 'has-failures' : 'all-passed'}`, attrs: { 'aria-labelledby': 'tests-heading', 'data-testid': 'tests-section' } },
    h('h2', { text: heading, attrs: { id: 'tests-heading' } }),
    items.length ? h('ul', { className: 'test-results', attrs: { 'aria-label': 'Assertions' } }, ...items) : null,
    notRun.length ? h('ul', { className: 'not-run', attrs: { 'aria-label': 'Scripts not run (API Workbench runs no scripts)' } }, ...notRun) : null,
  );
}
