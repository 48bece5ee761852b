// Attack (review of fd823b6, `# @paging auto items=…`): a live walk now reads the rows where `auto`'s
// items= says. A History entry's stored response compared as a side (storedSide.ts) must read the same
// rows from the same body, or a comparison of the stored response with the live one compares two arrays.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { CONTRACT_SERVICES, createCatalog } from '../../src/core/catalog';
import { storedSide } from '../../src/core/compare/storedSide';
import { HistoryStore } from '../../src/core/history';
import { Redactor } from '../../src/core/secrets';
import { memoryHistoryFiles } from './memoryHistoryFiles';

const catalog = createCatalog(CONTRACT_SERVICES);
let dir: string;
before(async () => { dir = await mkdtemp(join(tmpdir(), 'apiwb-stored-auto-')); });
after(async () => rm(dir, { recursive: true, force: true }));

void it('a stored response of `# @paging auto items=chosen`: its rows are read at items=, as the live walk reads them', async () => {
  const body = { big: [{ id: 1 }, { id: 2 }, { id: 3 }], chosen: [{ id: 9 }] };
  const bodyText = JSON.stringify(body);
  const url = 'http://127.0.0.1:9/api/unknown';
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const entry = await store.record({
    request: { method: 'GET', url, headers: {} },
    source: `# @name x\n# @paging auto items=chosen\nGET ${url}\n`,
    response: { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText, timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: bodyText.length },
  });
  const side = await storedSide((await store.exchange(entry.id))!, catalog, join(dir, 'a.ndjson'));
  const rows = await readFile(side.rowsFile ?? '', 'utf8');
  assert.deepEqual({ count: side.summary.rows, rows }, { count: 1, rows: '{"id":9}\n' });
});
