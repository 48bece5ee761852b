// The panel's host-side message flow, without an editor: messages wait for `ready`, a reloaded page gets the
// current state (rows appended since included), requests carry the response they refer to, bad input is dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResultsSession } from '../../src/extension/results/resultsSession';
import { buildResultsViewModel } from '../../src/core/results/viewModel';
import { HEAD_ROWS, decodeRows, type HistoryEntry, type HostToWebviewMessage } from '../../src/protocol/webviewMessages';
import { decodeViewModel } from './decodeViewModel';

const paging = { style: 'page-number', styleLabel: 'Page number', pages: 1, rows: 2, canContinue: true, walking: false };

function vm(id: string, rows: unknown[] = [{ a: 1 }, { a: 2 }]) {
  return buildResultsViewModel({
    requestKey: 'orders.http#list',
    id,
    request: { method: 'GET', url: 'http://127.0.0.1:1/orders?pageNumber=1', headers: {} },
    response: { status: 200, statusText: 'OK', headers: {}, bodyText: JSON.stringify(rows), timing: { startedAt: 0, firstByteMs: 1, totalMs: 3 }, sizeBytes: 10 },
    paging,
  });
}

const EARLIER: HistoryEntry = { receivedAt: '2026-11-22T10:00:00.000Z', method: 'GET', url: 'http://127.0.0.1:1/orders', status: 503, statusText: 'x', totalMs: 1, sizeBytes: 2, businessFailed: false };

function harness() {
  const logs: string[] = [];
  const session = new ResultsSession((l) => logs.push(l));
  const sent: HostToWebviewMessage[] = [];
  session.attach((m) => sent.push(m));
  return { session, sent, logs, types: () => sent.map((m) => m.type) };
}

void test('nothing is sent before the page is ready; on ready it gets the current view model', () => {
  const { session, sent, types } = harness();
  session.show(vm('r1'));
  session.appendPage({ rows: [{ a: 3, b: 4 }], paging: { ...paging, pages: 2, rows: 3 } });
  assert.equal(sent.length, 0);
  assert.equal(session.received({ type: 'ready' }), undefined);
  assert.deepEqual(types(), ['show']);
  const shown = sent[0]!.type === 'show' ? decodeViewModel(sent[0]!.viewModel, undefined, () => undefined) : undefined;
  assert.deepEqual(shown?.table?.rows, [{ a: 1 }, { a: 2 }, { a: 3, b: 4 }]);
  assert.deepEqual(shown?.table?.columns.map((c) => c.key), ['a', 'b']);
  assert.equal(shown?.paging?.pages, 2);
});

void test('once ready, pages are appended as rows only; a hidden-then-reloaded page gets everything again', () => {
  const { session, sent, types } = harness();
  session.received({ type: 'ready' });
  session.show(vm('r1'));
  session.appendPage({ rows: [{ a: 3 }], paging: { ...paging, pages: 2, rows: 3 } });
  assert.deepEqual(types(), ['show', 'appendRows']);
  const append = sent[1]!;
  assert.ok(append.type === 'appendRows' && decodeRows(append.rowsJson, append.rowCount)?.length === 1);
  session.pageHidden();
  session.appendPage({ rows: [{ a: 4 }], paging: { ...paging, pages: 3, rows: 4 } });
  session.progress({ pages: 3, rows: 4, rowsPerSecond: 10, elapsedMs: 5 });
  session.progress({ pages: 4, rows: 5, rowsPerSecond: 10, elapsedMs: 6, file: 'out.ndjson' });
  assert.equal(sent.length, 2);
  session.received({ type: 'ready' });
  assert.deepEqual(types(), ['show', 'appendRows', 'show', 'progress']);
  const replayed = sent[2]!.type === 'show' ? decodeViewModel(sent[2]!.viewModel, undefined, () => undefined) : undefined;
  assert.equal(replayed?.table?.rows.length, 4);
  assert.equal(replayed?.paging?.walking, true);
  assert.deepEqual(sent[3], { type: 'progress', pages: 4, rows: 5, rowsPerSecond: 10, elapsedMs: 6, file: 'out.ndjson' });
});

void test('requests carry the response they refer to; copy and openRow become panel actions', () => {
  const { session } = harness();
  assert.equal(session.received({ type: 'nextPage' }), undefined, 'no response shown yet');
  session.show(vm('r7'));
  assert.deepEqual(session.received({ type: 'allPages', format: 'csv' }), {
    kind: 'request',
    request: { type: 'allPages', format: 'csv', responseId: 'r7', requestKey: 'orders.http#list' },
  });
  assert.deepEqual(session.received({ type: 'copy', text: 'x' }), { kind: 'copy', text: 'x' });
  // Export names the response whose rows were on screen when pressed, even if another is shown by now.
  session.show(vm('history:e1'));
  assert.deepEqual(session.received({ type: 'export', format: 'ndjson', responseId: 'r7' }), {
    kind: 'request',
    request: { type: 'export', format: 'ndjson', responseId: 'r7', requestKey: 'orders.http#list' },
  });
  assert.deepEqual(session.received({ type: 'export', format: 'ndjson' }), {
    kind: 'request',
    request: { type: 'export', format: 'ndjson', responseId: 'history:e1', requestKey: 'orders.http#list' },
  });
  assert.deepEqual(session.received({ type: 'openRow', index: 1 }), { kind: 'openRow', index: 1, row: { a: 2 } });
  assert.equal(session.received({ type: 'openRow', index: 99 }), undefined);
});

void test('invalid messages from the page are logged without content and change nothing', () => {
  const { session, sent, logs } = harness();
  session.show(vm('r1'));
  for (const bad of [null, { type: 'exec', command: 'rm -rf /' }, { type: 'allPages', format: 'pdf' }]) assert.equal(session.received(bad), undefined);
  assert.equal(logs.length, 3);
  assert.ok(!logs.some((l) => l.includes('rm -rf')));
  assert.equal(sent.length, 0);
});

void test('a show keeps the earlier responses its view model brings (the sender finds them: requestNow.ts)', () => {
  const { session } = harness();
  session.show({ ...vm('r1'), history: [EARLIER] });
  assert.deepEqual(session.viewModel?.history.map((h) => h.status), [503]);
});

void test('a walk that ends while the page is loading is reported after the show', () => {
  const { session, types } = harness();
  session.show(vm('r1'));
  session.progress({ pages: 1, rows: 2, rowsPerSecond: 1, elapsedMs: 1 });
  session.walkEnded({ ok: false, message: 'Dropped on page 2; page 1 kept.', paging: { ...paging, canContinue: true, endReason: 'failed' } });
  session.received({ type: 'ready' });
  assert.deepEqual(types(), ['show', 'walkEnded']);
  session.detach();
  session.walkEnded({ ok: true, message: 'x', paging });
  assert.deepEqual(types(), ['show', 'walkEnded']);
});

void test('a big table: show carries the first screen, showRest the rest on a later task; a stale rest is never sent', () => {
  const owed: (() => void)[] = [];
  const session = new ResultsSession(() => undefined, (work) => owed.push(work));
  const sent: HostToWebviewMessage[] = [];
  session.attach((m) => sent.push(m));
  session.received({ type: 'ready' });
  const rows = Array.from({ length: HEAD_ROWS + 30 }, (_, i) => ({ i }));
  session.show(vm('big-1', rows));
  assert.deepEqual(sent.map((m) => m.type), ['show'], 'the rest waits for a later task');
  for (const work of owed.splice(0)) work();
  const [show, rest] = sent;
  assert.ok(show?.type === 'show' && rest?.type === 'showRest');
  assert.equal(rest.id, 'big-1');
  assert.deepEqual(decodeViewModel(show.viewModel, rest, () => undefined)?.table?.rows, rows);

  // A newer Send before the later task: the first rest is not owed any more; the newer one is.
  sent.length = 0;
  session.show(vm('big-2', rows));
  session.show(vm('big-3', rows.slice(0, HEAD_ROWS + 1)));
  for (const work of owed.splice(0)) work();
  assert.deepEqual(sent.map((m) => (m.type === 'show' ? `show ${m.viewModel.id}` : m.type === 'showRest' ? `rest ${m.id}` : m.type)), ['show big-2', 'show big-3', 'rest big-3']);

  // Any other message goes after the rest it would otherwise overtake; then the rest is not sent twice.
  sent.length = 0;
  session.show(vm('big-4', rows));
  session.appendPage({ rows: [{ i: -1 }], paging: { ...paging, pages: 2 } });
  for (const work of owed.splice(0)) work();
  assert.deepEqual(sent.map((m) => m.type), ['show', 'showRest', 'appendRows']);
  assert.equal(session.viewModel?.table?.rows.length, HEAD_ROWS + 31);
});

void test('a big table shown while the page loads: on ready it gets the show, then its rest', () => {
  const owed: (() => void)[] = [];
  const session = new ResultsSession(() => undefined, (work) => owed.push(work));
  const sent: HostToWebviewMessage[] = [];
  session.attach((m) => sent.push(m));
  session.show(vm('big-5', Array.from({ length: HEAD_ROWS + 1 }, (_, i) => ({ i }))));
  assert.equal(sent.length, 0);
  for (const work of owed.splice(0)) work();
  assert.equal(sent.length, 0, 'nothing owed before the page listens');
  session.received({ type: 'ready' });
  for (const work of owed.splice(0)) work();
  assert.deepEqual(sent.map((m) => m.type), ['show', 'showRest']);
});
