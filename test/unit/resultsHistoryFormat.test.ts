// History of responses per request (summaries only, redacted), cell summaries and human formats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseHistory, type HistoryStorage } from '../../src/core/results/history';
import { buildResultsViewModel } from '../../src/core/results/viewModel';
import { compareCells, detailOf, summariseCell } from '../../src/core/results/cells';
import { formatBytes, formatCount, formatDuration, formatRate } from '../../src/core/results/format';

function memoryStorage(): HistoryStorage & { saved: Map<string, unknown> } {
  const saved = new Map<string, unknown>();
  return { saved, get: <T>(key: string) => saved.get(key) as T | undefined, update: async (key, value) => void saved.set(key, structuredClone(value)) };
}

function vmFor(requestKey: string, status: number, url = 'http://127.0.0.1:1/v1/x') {
  return buildResultsViewModel({
    requestKey,
    request: { method: 'GET', url, headers: { Authorization: 'Bearer ***' } },
    response: { status, statusText: 'S', headers: {}, bodyText: '[{"password":"pw-should-not-persist"}]', timing: { startedAt: 0, firstByteMs: 1, totalMs: 5 }, sizeBytes: 40 },
  });
}

void test('history keeps the last N per request, newest first, and survives a reload from storage', async () => {
  const storage = memoryStorage();
  const history = new ResponseHistory(storage, 3);
  for (const status of [200, 201, 202, 203]) await history.record(vmFor('a', status));
  await history.record(vmFor('b', 500));
  assert.deepEqual(history.entries('a').map((e) => e.status), [203, 202, 201]);
  assert.equal(history.entries('b')[0]?.rowCount, 1);
  assert.deepEqual(new ResponseHistory(storage, 3).entries('a').map((e) => e.status), [203, 202, 201]);
  assert.deepEqual(history.entries('unknown'), []);
});

void test('history holds no header, no body and a redacted URL', async () => {
  const storage = memoryStorage();
  const history = new ResponseHistory(storage);
  await history.record(vmFor('a', 200, 'http://127.0.0.1:1/v1/x?access_token=tok-123456&page=1'));
  const stored = JSON.stringify([...storage.saved.values()]);
  assert.ok(!stored.includes('tok-123456'));
  assert.ok(!stored.includes('pw-should-not-persist'));
  assert.ok(!/authorization/i.test(stored));
  assert.match(stored, /page=1/);
});

void test('history forgets the least recent request beyond its bound', async () => {
  const history = new ResponseHistory(undefined, 2, 2);
  await history.record(vmFor('a', 200));
  await history.record(vmFor('b', 200));
  await history.record(vmFor('c', 200));
  assert.deepEqual(history.entries('a'), []);
  assert.equal(history.entries('c').length, 1);
});

void test('cells: primitives as text, nested values summarised and expandable, long text cut to one line', () => {
  assert.deepEqual(summariseCell(null), { text: 'null', nested: false, kind: 'null' });
  assert.deepEqual(summariseCell(undefined), { text: '', nested: false, kind: 'missing' });
  assert.deepEqual(summariseCell(3.5), { text: '3.5', nested: false, kind: 'number' });
  assert.deepEqual(summariseCell([1, 2, 3]), { text: '[3 items]', nested: true, kind: 'array' });
  assert.deepEqual(summariseCell({ a: 1, b: 2, c: 3, d: 4, e: 5 }), { text: '{a, b, c, +2}', nested: true, kind: 'object' });
  assert.deepEqual(summariseCell({}), { text: '{ }', nested: false, kind: 'object' });
  const long = summariseCell(`line1\nline2 ${'x'.repeat(500)}`);
  assert.equal(long.text.length, 200);
  assert.ok(!long.text.includes('\n'));
  assert.equal(detailOf({ a: [1] }), '{\n  "a": [\n    1\n  ]\n}');
  assert.equal(detailOf('<script>'), '<script>');
});

void test('sorting puts numbers in numeric order and missing/null last', () => {
  const values = [10, undefined, 'b', 2, null, 'a'];
  assert.deepEqual([...values].sort(compareCells), [2, 10, 'a', 'b', null, undefined]);
});

void test('formats: bytes, durations, counts and rates', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(1536), '1.5 KB');
  assert.equal(formatBytes(15 * 1024 * 1024), '15 MB');
  assert.equal(formatBytes(-1), '—');
  assert.equal(formatDuration(0.2), '< 1 ms');
  assert.equal(formatDuration(1234), '1.23 s');
  assert.equal(formatDuration(125_000), '2 min 5 s');
  assert.equal(formatCount(100000), '100\u202f000');
  assert.equal(formatRate(0), '—');
  assert.equal(formatRate(8400.4), '8\u202f400 rows/s');
});

void test('paging state: labels per style, and a walk outcome turned into can-continue and end reason', async () => {
  const { pagingState, pagingStateOfCursor } = await import('../../src/core/results/pagingState');
  assert.deepEqual(pagingState({ style: 'export-ordinal', pages: 2, rows: 200_000, canContinue: true }), {
    style: 'export-ordinal', styleLabel: 'Export ordinal', pages: 2, rows: 200_000, canContinue: true, walking: false,
  });
  assert.equal(pagingState({ style: 'custom-x', pages: 0, rows: 0, canContinue: false }).styleLabel, 'custom-x');
  const plan = { style: 'batch-cursor' };
  const done = pagingStateOfCursor({ plan, more: false, checkpoint: { pages: 4, rows: 40, done: true, endReason: 'no BatchID' } }, false);
  assert.deepEqual([done.canContinue, done.endReason, done.rows], [false, 'complete: no BatchID', 40]);
  const more = pagingStateOfCursor({ plan, more: true, checkpoint: { pages: 1, rows: 10, done: false } }, false);
  assert.deepEqual([more.canContinue, more.endReason], [true, undefined], 'a walk that can go on says nothing has ended');
  const stuck = pagingStateOfCursor({ plan, more: false, checkpoint: { pages: 2, rows: 20, done: false, endReason: 'the BatchID repeats' } }, false);
  assert.deepEqual([stuck.canContinue, stuck.endReason], [false, 'the BatchID repeats']);
  const inconsistent = pagingStateOfCursor({ plan, more: false, stopped: 'inconsistent: TotalOrders changed from 10 to 4 on page 2', checkpoint: { pages: 1, rows: 10, done: false } }, false);
  assert.equal(inconsistent.endReason, 'inconsistent: TotalOrders changed from 10 to 4 on page 2', 'the bar says the verdict and why');
});
