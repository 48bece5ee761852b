// The host↔webview protocol: valid messages pass, invalid ones are dropped and logged without their content.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEAD_ROWS, decodeRows, decodeShowRest, decodeViewModelHead, encodeRows, parseHostToWebview, parseWebviewToHost } from '../../src/protocol/webviewMessages';
import { encodeShowRest, encodeViewModel } from '../../src/core/results/wire';
import { buildResultsViewModel } from '../../src/core/results/viewModel';
import { decodeViewModel } from './decodeViewModel';

const paging = { style: 'page-number', styleLabel: 'Page number', pages: 1, rows: 2, canContinue: true, walking: false };

function collect(): { log: (line: string) => void; lines: string[] } {
  const lines: string[] = [];
  return { log: (line) => lines.push(line), lines };
}

const built = buildResultsViewModel({
  requestKey: 'k',
  request: { method: 'GET', url: 'http://127.0.0.1:1/x', headers: {} },
  response: { status: 200, statusText: 'OK', headers: {}, bodyText: '[{"a":1}]', timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: 9 },
});
const viewModel = encodeViewModel(built);

void test('every webview→host message type is accepted when well formed', () => {
  const { log, lines } = collect();
  const messages = [
    { type: 'ready' },
    { type: 'nextPage' },
    { type: 'allPages', format: 'ndjson' },
    { type: 'allPages', format: 'csv' },
    { type: 'stop' },
    { type: 'export', format: 'csv' },
    { type: 'copy', text: '{"a":1}' },
    { type: 'openRow', index: 3 },
  ];
  for (const m of messages) assert.deepEqual(parseWebviewToHost(m, log), m);
  assert.deepEqual(lines, []);
});

void test('invalid webview→host messages are ignored and logged by type and path only', () => {
  const { log, lines } = collect();
  const invalid: unknown[] = [
    null,
    'ready',
    { type: 'fetch', url: 'http://example.invalid' },
    { type: 'allPages', format: 'xlsx' },
    { type: 'openRow', index: -1 },
    { type: 'openRow', index: 1.5 },
    { type: 'copy', text: 'x'.repeat(5_000_001) },
    { type: 'copy', text: 42 },
  ];
  for (const m of invalid) assert.equal(parseWebviewToHost(m, log), undefined);
  assert.equal(lines.length, invalid.length);
  assert.ok(lines.every((l) => l.startsWith('ignored an invalid')));
  assert.ok(!lines.some((l) => l.includes('example.invalid') || l.includes('xxxxxxxx')));
});

void test('every host→webview message type is accepted when well formed', () => {
  const { log, lines } = collect();
  const messages = [
    { type: 'show', viewModel },
    { type: 'appendRows', ...encodeRows([{ a: 2 }]), columns: [{ key: 'a', label: 'a' }], paging },
    { type: 'progress', pages: 3, rows: 300, rowsPerSecond: 1200.5, elapsedMs: 250, file: 'exports/orders.ndjson' },
    { type: 'walkEnded', ok: true, message: 'All 3 pages written.', paging: { ...paging, canContinue: false, endReason: 'last page' } },
  ];
  for (const m of messages) assert.deepEqual(parseHostToWebview(m, log), m);
  assert.deepEqual(lines, []);
});

void test('invalid host→webview messages are ignored, never thrown', () => {
  const { log, lines } = collect();
  const { body: _body, ...withoutBody } = viewModel;
  const invalid: unknown[] = [
    undefined,
    { type: 'show' },
    { type: 'show', viewModel: withoutBody },
    { type: 'show', viewModel: { ...viewModel, statusClass: 'weird' } },
    { type: 'appendRows', rows: [{ a: 1 }], columns: [], paging },
    { type: 'appendRows', rowCount: 1, rowsJson: 7, columns: [], paging },
    { type: 'progress', pages: -1, rows: 0, rowsPerSecond: 0, elapsedMs: 0 },
    { type: 'walkEnded', ok: 'yes', message: '', paging },
    { type: 'eval', code: 'alert(1)' },
  ];
  for (const m of invalid) assert.equal(parseHostToWebview(m, log), undefined);
  assert.equal(lines.length, invalid.length);
  assert.match(lines[2] ?? '', /'show'.*viewModel\.body/);
});

void test('rows travel as JSON text and come back equal; a mismatch in count or shape is refused', () => {
  assert.deepEqual(decodeViewModel(encodeViewModel(built), undefined, () => undefined), built);
  assert.deepEqual(decodeRows(encodeRows([{ a: 1 }, 2]).rowsJson, 2), [{ a: 1 }, 2]);
  const { log, lines } = collect();
  const wire = encodeViewModel(built);
  const table = wire.table!;
  assert.equal(decodeViewModel({ ...wire, table: { ...table, rowCount: 5 } }, undefined, log), undefined, 'head shorter than announced and than HEAD_ROWS');
  assert.equal(decodeViewModel({ ...wire, table: { ...table, headJson: '{"a":1}' } }, undefined, log), undefined, 'head not an array');
  assert.equal(decodeViewModel({ ...wire, table: { ...table, headJson: '[{"a":' } }, undefined, log), undefined, 'head not JSON');
  assert.equal(lines.length, 3);
  assert.equal(decodeRows('[1,2]', 3), undefined);
});

void test('a big table is sent in two: the show holds the first HEAD_ROWS and a placeholder body, its showRest the rest and the body', () => {
  const rows = Array.from({ length: HEAD_ROWS + 50 }, (_, i) => ({ i }));
  const big = { ...built, table: { ...built.table!, rows } };
  const wire = encodeViewModel(big);
  assert.equal(wire.table?.rowCount, HEAD_ROWS + 50);
  assert.equal(wire.table?.restFollows, true);
  assert.equal(wire.body.text, '', 'the body view travels with the rest');
  const rest = encodeShowRest(big)!;
  assert.ok(parseHostToWebview(rest, () => undefined), 'the rest is a valid message');
  assert.deepEqual(rest.body, built.body);
  const head = decodeViewModelHead(wire, () => undefined);
  assert.equal(head?.viewModel.table?.rows.length, HEAD_ROWS);
  assert.equal(head?.rowCount, HEAD_ROWS + 50);
  assert.equal(head?.pending, 50);
  const decodedRest = decodeShowRest({ id: big.id, pending: 50 }, rest);
  assert.deepEqual(decodedRest.ok && decodedRest.rows, rows.slice(HEAD_ROWS));
  assert.deepEqual(decodeViewModel(wire, rest, () => undefined), big);

  const { log, lines } = collect();
  const shortTail = { ...rest, rowsJson: JSON.stringify(rows.slice(HEAD_ROWS + 1)) };
  assert.deepEqual(decodeShowRest({ id: big.id, pending: 50 }, shortTail), { ok: false, stale: false, reason: 'the last 50 rows of the response did not decode' }, 'the rest is one row short');
  assert.deepEqual(decodeShowRest({ id: big.id, pending: 50 }, { ...rest, rowCount: 49, rowsJson: JSON.stringify(rows.slice(HEAD_ROWS + 1)) }).ok, false, 'a count that is not the pending one');
  assert.deepEqual(decodeShowRest({ id: big.id, pending: 50 }, { ...rest, rowsJson: '[{"i":' }).ok, false, 'not JSON');
  const stale = decodeShowRest({ id: 'newer', pending: 50 }, rest);
  assert.ok(!stale.ok && stale.stale, 'the rest of another show is stale');
  assert.equal(decodeViewModel(wire, shortTail, log), undefined);
  assert.equal(decodeViewModel(wire, undefined, log), undefined, 'a show announcing a rest is not whole without it');
  assert.equal(decodeViewModelHead({ ...wire, table: { ...wire.table, restFollows: false } }, log), undefined, 'rows beyond the head with no rest to bring them');
  assert.equal(lines.length, 3);
  const small = decodeViewModelHead(encodeViewModel(built), () => undefined);
  assert.equal(small?.pending, 0, 'a small table has nothing pending');
  assert.equal(encodeShowRest(built), undefined);
});

void test('the show carries the columns of its first rows; the rest brings those only later rows have, after them', async () => {
  const { Redactor } = await import('../../src/core/secrets/redact');
  const { buildResultsViewModel: build } = await import('../../src/core/results/viewModel');
  const rows: Record<string, unknown>[] = Array.from({ length: HEAD_ROWS + 10 }, (_, i) => ({ id: i, name: `n${i}` }));
  rows[HEAD_ROWS + 5] = { id: -1, late: true, name: 'x' };
  const text = JSON.stringify(rows);
  const vm = build({
    requestKey: 'k', id: 'cols', request: { method: 'GET', url: 'http://127.0.0.1:1/x', headers: {} },
    response: { status: 200, statusText: 'OK', headers: {}, bodyText: '', timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: text.length },
    parsedBody: { value: JSON.parse(text), chars: text.length, redaction: new Redactor() },
  });
  const wire = encodeViewModel(vm);
  assert.deepEqual(wire.table?.columns.map((c) => c.key), ['id', 'name']);
  const rest = encodeShowRest(vm)!;
  assert.deepEqual(rest.columns.map((c) => c.key), ['id', 'name', 'late']);
  const whole = decodeViewModel(wire, rest, () => undefined);
  assert.deepEqual(whole?.table?.columns.map((c) => c.key), ['id', 'name', 'late']);
  assert.deepEqual(whole?.table?.rows, rows);
});
