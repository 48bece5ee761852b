// The comparison view's HTML: response text is only ever text (escaped), no script can run (no script
// element, a CSP without script-src), the filters and field changes work without one, and its links run
// only the comparison's own commands.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareHtml, type CompareView } from '../../src/extension/compare/compareHtml';

const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>';

const view: CompareView = {
  title: `bookings ${hostile}`,
  sideA: 'sandbox', sideB: 'sandbox-next', state: 'done',
  summaries: [
    { request: 'bookings', a: 'HTTP 200 · business ok', b: `HTTP 200 · ${hostile}`, counts: 'added 1, removed 0, changed 1, unchanged 3', differs: true, differences: [`fields on side B only: ${hostile}`] },
    { request: `orders${hostile}`, a: 'HTTP 200', b: 'HTTP 200', counts: 'added 0, removed 0, changed 0, unchanged 3', differs: false, differences: [] },
  ],
  records: [
    { index: 0, request: 'bookings', kind: 'changed', key: `BK-1${hostile}`, fields: [{ path: 'status', kind: 'changed', before: 'Confirmed', after: hostile }] },
    { index: 1, request: 'bookings', kind: 'added', key: 'BK-9', fields: [] },
  ],
  differing: 2,
};

void describe('comparison view HTML', () => {
  const html = compareHtml(view, 'NONCE', 'vscode-resource:');

  void it('escapes every text from a response and has no script', () => {
    assert.ok(!html.includes('<script'), 'no script element');
    assert.ok(!html.includes('<img'), 'no element from a response');
    assert.ok(html.includes('&lt;script&gt;alert(2)&lt;/script&gt;'));
    assert.match(html, /content="default-src 'none'; style-src vscode-resource: 'nonce-NONCE';"/);
  });

  void it('sums up each request on a row of its own, and names the request of each record when there are several', () => {
    const rows = [...html.matchAll(/<tr><th scope="row">([^<]*)<\/th>/g)].map((m) => m[1]);
    assert.deepEqual(rows, ['bookings', 'orders&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;']);
    assert.match(html, /<span class="verdict differ">differ<\/span> <small class="counts">added 1, removed 0, changed 1, unchanged 3<\/small>/);
    // The sides are named once, under the title; each request says what each side answered.
    assert.match(html, /<\/h1>\s*<dl class="sides"><dt>A<\/dt><dd>sandbox<\/dd><dt>B<\/dt><dd>sandbox-next<\/dd><\/dl>/);
    assert.match(html, /<dl class="side"><dt>A<\/dt><dd>HTTP 200 · business ok<\/dd><dt>B<\/dt><dd>HTTP 200 · &lt;img/);
    assert.match(html, /<th scope="col">request<\/th><th scope="col">key<\/th>/);
  });

  void it('filters with radio buttons and CSS, one row a record with its kind as class', () => {
    for (const id of ['f-all', 'f-added', 'f-removed', 'f-changed']) assert.ok(html.includes(`id="${id}"`), id);
    assert.ok(html.includes('<label for="f-changed">Changed (1)</label>'));
    assert.match(html, /#f-changed:checked ~ table tbody tr:not\(\.changed\)/);
    assert.equal((html.match(/<tr class="(added|removed|changed)">/g) ?? []).length, 2);
  });

  void it('a changed record shows its field changes; pairs open through the comparison\'s command only', () => {
    // One field change is shown as it is; several fold under the fields they touch.
    assert.match(html, /<ul class="fields"><li><code class="path">status<\/code>: <code>&quot;Confirmed&quot;<\/code> → <code>&quot;&lt;img/);
    assert.ok(!html.includes('<details>'));
    const several = compareHtml({ ...view, records: [{ index: 0, request: 'bookings', kind: 'changed', key: 'BK-1', fields: ['a', 'b', 'c', 'd'].map((path) => ({ path, kind: 'added' as const, after: 1 })) }] }, 'N', 'c');
    assert.match(several, /<details><summary>4 fields: <code>a<\/code>, <code>b<\/code>, <code>c<\/code>…<\/summary><ul class="fields"><li><code class="path">a<\/code> added: <code>1<\/code><\/li>/);
    const links = [...html.matchAll(/href="command:([\w.]+)\?/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(links)], ['apiWorkbench.compareOpenPair']);
    assert.ok(html.includes(`command:apiWorkbench.compareOpenPair?${encodeURIComponent('[1]')}`));
  });

  void it('while running it offers Stop, and says how many records it could not list', () => {
    const running = compareHtml({ ...view, state: 'running', progress: 'side B: page 2', differing: 900 }, 'N', 'c');
    assert.ok(running.includes('command:apiWorkbench.compareStop?'));
    assert.match(running, /The first 2 of 900 differing records are listed/);
  });

  void it('names a request set aside (# @disabled) as set aside, with its line\'s words, never as unanswered', () => {
    const aside = compareHtml({ ...view, summaries: [{ request: 'leftOut', a: 'not sent', b: 'not sent', counts: '', differs: false, differences: [], setAside: `line 7: @disabled (httpYac): not sent ${hostile}` }] }, 'N', 'vscode-resource:');
    assert.match(aside, /<th scope="row">leftOut<\/th><td><span class="verdict aside">set aside<\/span> <small>line 7: @disabled \(httpYac\): not sent &lt;img/);
    assert.ok(!aside.includes('neither side answered') && !aside.includes('class="verdict agree"'));
  });
});
