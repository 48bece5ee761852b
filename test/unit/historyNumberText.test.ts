// A number past 2^53 (12345678901234567890) or with a zero ending its fraction (1.10) keeps the text the
// server wrote through History (redacted, written, read back), through the History compare document
// the editor's diff shows, and through a stored response compared as a side: JSON.parse's double would
// read 12345678901234567890 as 12345678901234567000, and make it equal to 12345678901234567891.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CONTRACT_SERVICES, createCatalog } from '../../src/core/catalog';
import { compareSides } from '../../src/core/compare/compareSides';
import type { RecordDifference } from '../../src/core/compare/partitioned';
import { storedSide } from '../../src/core/compare/storedSide';
import { redactingSink } from '../../src/core/export/redactingSink';
import { compareDocument, HistoryStore, type StoredExchange } from '../../src/core/history';
import type { HttpResponse } from '../../src/core/http/types';
import { Redactor } from '../../src/core/secrets';
import { compareHtml } from '../../src/extension/compare/compareHtml';
import { memoryHistoryFiles } from './memoryHistoryFiles';

const catalog = createCatalog(CONTRACT_SERVICES);
const TRANSACTIONS = 'http://127.0.0.1:9/v1/transactions?limit=5';

function response(bodyText: string): HttpResponse {
  return { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText, timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: bodyText.length };
}

const body = (amount: string, extra = ''): string => `{"count":1,"value":[{"transactionId":7,"amount":${amount},"rate":1.10${extra}}]}`;

async function stored(bodyText: string): Promise<StoredExchange> {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const entry = await store.record({ request: { method: 'GET', url: TRANSACTIONS, headers: {} }, response: response(bodyText) });
  const back = await store.exchange(entry.id);
  assert.ok(back);
  return back;
}

let dir: string;
let n = 0;
before(async () => { dir = await mkdtemp(join(tmpdir(), 'apiwb-history-numbers-')); });
after(async () => rm(dir, { recursive: true, force: true }));

void describe('History keeps each number as the server wrote it', () => {
  void it('write → read: 12345678901234567890 and 1.10 come back as written', async () => {
    const back = await stored(body('12345678901234567890'));
    assert.equal(back.response?.bodyText, body('12345678901234567890'));
  });

  void it('a body with a field History masks keeps its numbers (and its layout) around the mask', async () => {
    const pretty = JSON.stringify({ value: [{ transactionId: 7, password: 'Pr0xySecret9', amount: 1 }] }, null, 2).replace('"amount": 1', '"amount": 12345678901234567890.10');
    const back = await stored(pretty);
    assert.equal(back.response?.bodyText, pretty.replace('"Pr0xySecret9"', '"***"'));
  });

  void it('the compare document shows the numbers as written', async () => {
    const doc = compareDocument({ label: 'x', request: { method: 'GET', url: TRANSACTIONS }, response: (await stored(body('12345678901234567890'))).response! });
    assert.match(doc, /"amount": 12345678901234567890,/);
    assert.match(doc, /"rate": 1\.10,\n/);
    const kept = compareDocument({ label: 'x', request: { method: 'GET', url: TRANSACTIONS }, response: response('{"requestId":12345678901234567890}') });
    assert.match(kept, /"requestId": 12345678901234567890\n/, 'a kept number is shown as written; a body line is never volatile');
  });

  void it('a stored side\'s rows keep the text, and 12345678901234567890 differs from 12345678901234567891', async () => {
    const file = join(dir, `${n++}.ndjson`);
    const a = await storedSide(await stored(body('12345678901234567890')), catalog, file);
    assert.equal(await readFile(file, 'utf8'), '{"transactionId":7,"amount":12345678901234567890,"rate":1.10}\n');
    const b = await storedSide(await stored(body('12345678901234567891')), catalog, join(dir, `${n++}.ndjson`));
    const differences: RecordDifference[] = [];
    const r = (await compareSides('payments', a, b, { ignore: [], tempDir: dir, onDifference: (d) => { differences.push(d); } })).records;
    assert.deepEqual([r?.changed, r?.unchanged], [1, 0]);
    // The comparison view's record shows the two values as written.
    const [d] = differences;
    assert.ok(d);
    const html = compareHtml({ title: 't', sideA: 'a', sideB: 'b', state: 'done', summaries: [], records: [{ index: 0, request: 'payments', kind: d.kind, key: '7', fields: d.fields ?? [] }], differing: 1 }, 'N', 'c');
    assert.match(html, /<code class="path">amount<\/code>: <code>12345678901234567890<\/code> → <code>12345678901234567891<\/code>/);
  });

  void it('a row the side\'s redacting sink changes keeps its numbers\' text', async () => {
    const file = join(dir, `${n++}.ndjson`);
    await storedSide(await stored(body('12345678901234567890', ',"note":"Zq9vLm2Xp7Rt"')), catalog, file, (sink) => redactingSink(sink, () => new Redactor(['Zq9vLm2Xp7Rt'])));
    assert.equal(await readFile(file, 'utf8'), '{"transactionId":7,"amount":12345678901234567890,"rate":1.10,"note":"***"}\n');
  });
});
