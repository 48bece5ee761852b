// The panel's side of a response on disk (issue 37), without an editor: the `show` of a table on disk
// carries its first rows and its full count (no `showRest`), the page's requests for rows and body pages
// reach the host only for the response shown, answers for another response are dropped, and the page
// holds a bounded window of rows whatever the table's length (DiskRows).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeViewModel, restFollows } from '../../src/core/results/wire';
import { buildResultsViewModel } from '../../src/core/results/viewModel';
import { ResultsSession } from '../../src/extension/results/resultsSession';
import { decodeViewModelHead, parseHostToWebview, parseWebviewToHost, type HostToWebviewMessage, type ResultsViewModel } from '../../src/protocol/webviewMessages';
import { BLOCK, DiskRows } from '../../src/webview/diskRows';

const TOTAL = 1_000_000;

function onDisk(id: string): ResultsViewModel {
  const base = buildResultsViewModel({
    requestKey: 'big.http#rows', id,
    request: { method: 'GET', url: 'http://127.0.0.1:1/rows', headers: {} },
    response: { status: 200, statusText: 'OK', headers: {}, bodyText: '', timing: { startedAt: 0, firstByteMs: 1, totalMs: 3 }, sizeBytes: 90_000_000 },
  });
  const head = Array.from({ length: 200 }, (_, i) => ({ id: i }));
  return { ...base, table: { source: '$', kind: 'objects', columns: [{ key: 'id', label: 'id' }], rows: head, pagedRows: TOTAL } };
}

void test('a table on disk goes in one show: its first rows and its count, no rest to wait for', () => {
  const vm = onDisk('d1');
  assert.equal(restFollows(vm), false);
  const wire = encodeViewModel(vm);
  assert.equal(wire.table?.rowCount, TOTAL);
  assert.equal(wire.table?.pagedRows, TOTAL);
  const decoded = decodeViewModelHead(wire, assert.fail);
  assert.equal(decoded?.viewModel.table?.rows.length, 200);
  assert.equal(decoded?.pending, 0);
  // The same head announced as more rows without being on disk is refused, as before.
  const { pagedRows: _dropped, ...notPaged } = wire.table;
  const logs: string[] = [];
  assert.equal(decodeViewModelHead({ ...wire, table: notPaged }, (l) => logs.push(l)), undefined);
  assert.equal(logs.length, 1);
});

void test("the page's requests for rows reach the host only for the response shown; answers for another are dropped", () => {
  const sent: HostToWebviewMessage[] = [];
  const session = new ResultsSession(() => undefined, (work) => work());
  session.attach((m) => sent.push(m));
  session.received({ type: 'ready' });
  session.show(onDisk('d1'));
  assert.deepEqual(session.received({ type: 'wantRows', id: 'd1', from: 400, count: 200 }), { kind: 'fromDisk', want: { type: 'wantRows', id: 'd1', from: 400, count: 200 } });
  assert.equal(session.received({ type: 'wantRows', id: 'older', from: 400, count: 200 }), undefined);
  assert.equal(session.received({ type: 'wantRows', id: 'd1', from: 0, count: 5000 }), undefined, 'at most 1000 rows a request');
  assert.deepEqual(session.received({ type: 'openRow', index: 999_999 }), { kind: 'openRowFromDisk', index: 999_999 });
  const rows: HostToWebviewMessage = { type: 'rows', id: 'd1', from: 400, rowCount: 1, rowsJson: '[{"id":400}]', columns: [] };
  session.deliver('d1', rows);
  session.show(onDisk('d2'));
  session.deliver('d1', { ...rows, from: 600 });
  assert.deepEqual(sent.map((m) => (m.type === 'rows' ? `rows ${m.from}` : m.type)), ['show', 'rows 400', 'show']);
  assert.ok(parseHostToWebview(rows, assert.fail));
  assert.ok(parseWebviewToHost({ type: 'wantBodyPage', id: 'd2', page: 3 }, assert.fail));
});

void test('the page asks once for each block in view and holds a bounded window of a million rows', () => {
  const rows: unknown[] = Array.from({ length: 200 }, (_, i) => ({ id: i }));
  rows.length = TOTAL;
  const asked: [number, number][] = [];
  const disk = new DiskRows(rows, (from, count) => asked.push([from, count]));
  disk.want(0, 40);
  assert.deepEqual(asked, [], 'the first rows came with the show');
  disk.want(TOTAL - 30, TOTAL);
  disk.want(TOTAL - 30, TOTAL);
  assert.deepEqual(asked, [[TOTAL - BLOCK, BLOCK]], 'the last block, asked once until it comes');
  // Scrolling through: every block asked and filled; the page keeps only a window of them.
  for (let from = BLOCK; from < TOTAL; from += 50 * BLOCK) {
    disk.want(from, from + 40);
    disk.received(from - (from % BLOCK), Array.from({ length: BLOCK }, (_, i) => ({ id: from - (from % BLOCK) + i })));
  }
  const held = Object.keys(rows).length;
  assert.ok(held <= 30 * BLOCK, `${held} rows held`);
  assert.deepEqual(rows[0], { id: 0 }, 'the first rows stay');
  assert.equal(1 in rows, true);
  // A block forgotten is asked again when the view comes back to it.
  const before = asked.length;
  disk.want(BLOCK, BLOCK + 40);
  assert.equal(asked.length, before + 1);
});
