// Rule: a history body file is trusted only while its content is what its name says. A response body is
// stored once under its content's SHA-256 (`<hash>.body`, src/core/history/store.ts): read back, a file
// whose content is not its hash is refused (not shown; the entry's body note says why); stored again, it
// is written anew. Before, a body file edited on disk was shown as the entry's stored response, and a
// LATER send that received the same body was recorded against the edited file (the store skipped a
// name that existed), so the new entry showed text the server never sent.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { HttpResponse } from '../../src/core/http/types';
import { Redactor } from '../../src/core/secrets';
import { HistoryStore, directoryHistoryFiles } from '../../src/core/history';

const bodyText = JSON.stringify({ balance: 100 });
const response = (): HttpResponse => ({ status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText, timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: bodyText.length });
const request = { method: 'GET', url: 'http://127.0.0.1:1/balance', headers: {} };

const dirs: string[] = [];
after(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function editedStore(): Promise<{ store: HistoryStore; firstId: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'apiwb-history-body-hash-'));
  dirs.push(dir);
  const store = new HistoryStore(directoryHistoryFiles(dir), () => new Redactor([]));
  const first = await store.record({ request, response: response() });
  const [body] = (await readdir(dir)).filter((n) => n.endsWith('.body'));
  assert.ok(body, 'the body is stored in its own file');
  await writeFile(join(dir, body), JSON.stringify({ balance: 999999 }), { mode: 0o600 });
  return { store, firstId: first.id, file: join(dir, body) };
}

void describe('history: a body file whose content is not its hash is not trusted', () => {
  void it('the edited body is not shown as the entry\'s stored response', async () => {
    const { store, firstId } = await editedStore();
    const stored = await store.exchange(firstId);
    assert.notEqual(stored?.response?.bodyText, JSON.stringify({ balance: 999999 }));
    assert.equal(stored?.response?.bodyText, '');
    assert.match(stored?.entry.response?.bodyNote ?? '', /changed after it was stored/);
    assert.match(stored?.bodyRefused ?? '', /not shown/);
  });

  void it('an unedited body is shown as stored, without a note', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apiwb-history-body-hash-'));
    dirs.push(dir);
    const store = new HistoryStore(directoryHistoryFiles(dir), () => new Redactor([]));
    const entry = await store.record({ request, response: response() });
    const stored = await store.exchange(entry.id);
    assert.equal(stored?.response?.bodyText, bodyText);
    assert.equal(stored?.entry.response?.bodyNote, undefined);
    assert.equal(stored?.bodyRefused, undefined);
  });

  void it('a later send of the same body shows what the server sent, not the edited file', async () => {
    const { store, firstId, file } = await editedStore();
    const second = await store.record({ request, response: response() });
    const stored = await store.exchange(second.id);
    assert.equal(stored?.response?.bodyText, bodyText);
    assert.equal(await readFile(file, 'utf8'), bodyText, 'the file is written anew');
    assert.equal((await store.exchange(firstId))?.response?.bodyText, bodyText, 'the first entry shows it again');
  });
});
