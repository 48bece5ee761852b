// A History entry opened in the results panel shows each number as the server wrote it: an id past 2^53
// (12345678901234567890) or a fraction ending in zero (1.10), in the body view, in the table's cells (sent
// to the page as JSON text and read back there), in a nested value's detail and in the sort. A double would
// show 12345678901234567000 and 1.1. The view model is built as HistoryController.open builds it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HistoryStore } from '../../src/core/history';
import type { HttpResponse } from '../../src/core/http/types';
import { compareCells, detailOf, summariseCell } from '../../src/core/results/cells';
import { buildResultsViewModel } from '../../src/core/results/viewModel';
import { encodeShowRest, encodeViewModel } from '../../src/core/results/wire';
import { Redactor } from '../../src/core/secrets';
import { decodeShowRest, decodeViewModelHead, HEAD_ROWS } from '../../src/protocol/webviewMessages';
import { memoryHistoryFiles } from './memoryHistoryFiles';

function response(bodyText: string): HttpResponse {
  return { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText, timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: bodyText.length };
}

/** The panel's view model of a History entry, as HistoryController.open makes it. */
async function openedFromHistory(bodyText: string): Promise<ReturnType<typeof buildResultsViewModel>> {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const entry = await store.record({ request: { method: 'GET', url: 'http://127.0.0.1:9/bookings', headers: {} }, response: response(bodyText) });
  const stored = await store.exchange(entry.id);
  assert.ok(stored?.response);
  return buildResultsViewModel({ requestKey: `history:${entry.id}`, id: `history:${entry.id}`, request: { method: 'GET', url: entry.request.url, headers: entry.request.headers }, response: stored.response });
}

const row = (i: number): string => `{"id":${12345678901234567890n + BigInt(i)},"rate":1.10,"password":"Pr0xySecret9","n":${i},"nested":{"ref":98765432109876543210}}`;

void describe('a History entry in the results panel keeps number text', () => {
  void it('the body view writes 12345678901234567890 and 1.10 as received (a masked field beside them)', async () => {
    const vm = await openedFromHistory(`{"value":[${row(0)}]}`);
    assert.match(vm.body.text, /"id": 12345678901234567890,/);
    assert.match(vm.body.text, /"rate": 1\.10,/);
    assert.match(vm.body.text, /"ref": 98765432109876543210\n/);
    assert.doesNotMatch(vm.body.text, /Pr0xySecret9/);
  });

  void it("the table's cells, as the page decodes them, show the numbers as written; a nested value's detail too", async () => {
    const vm = await openedFromHistory(`{"value":[${row(0)},${row(1)}]}`);
    const shown = decodeViewModelHead(encodeViewModel(vm), (line) => assert.fail(line));
    const rows = shown?.viewModel.table?.rows as Record<string, unknown>[] | undefined;
    assert.equal(rows?.length, 2);
    assert.deepEqual(summariseCell(rows?.[0]?.['id']), { text: '12345678901234567890', nested: false, kind: 'number' });
    assert.deepEqual(summariseCell(rows?.[1]?.['id']), { text: '12345678901234567891', nested: false, kind: 'number' });
    assert.equal(summariseCell(rows?.[0]?.['rate']).text, '1.10');
    assert.equal(summariseCell(rows?.[0]?.['password']).text, '***');
    assert.equal(detailOf(rows?.[0]?.['nested']), '{\n  "ref": 98765432109876543210\n}');
    // Host side (Open row as JSON reads the host's row).
    assert.match(detailOf(vm.table?.rows[1]), /"id": 12345678901234567891,/);
    assert.ok(compareCells(rows?.[0]?.['n'], rows?.[0]?.['id']) < 0, 'a number kept as text sorts as a number');
  });

  void it('rows past the first screen (showRest) keep their text too', async () => {
    const vm = await openedFromHistory(`[${Array.from({ length: HEAD_ROWS + 2 }, (_, i) => row(i)).join(',')}]`);
    const head = decodeViewModelHead(encodeViewModel(vm), (line) => assert.fail(line));
    assert.ok(head?.restFollows);
    const rest = encodeShowRest(vm);
    assert.ok(rest);
    const decoded = decodeShowRest({ id: vm.id, pending: head.pending }, rest);
    assert.ok(decoded.ok);
    assert.equal(summariseCell((decoded.rows.at(-1) as Record<string, unknown>)['id']).text, String(12345678901234567890n + BigInt(HEAD_ROWS + 1)));
    assert.match(rest.body.text, /"id": 12345678901234568091,/);
  });

  void it('a body without such a number is sent as before: JSON.stringify text, not marked, plain numbers', async () => {
    const vm = await openedFromHistory('{"value":[{"id":7,"rate":1.5}]}');
    const wire = encodeViewModel(vm);
    assert.equal(wire.table?.headJson, '[{"id":7,"rate":1.5}]');
    assert.equal(wire.table?.numbersAsWritten, undefined, 'the page reads it by JSON.parse alone');
    assert.deepEqual(decodeViewModelHead(wire, (line) => assert.fail(line))?.viewModel.table?.rows, [{ id: 7, rate: 1.5 }]);
  });
});
