// History is read back by the product itself, so it is untrusted input (issue 29 item 3): its files are
// read only as the product's own (src/core/files/ownFile.ts). An index planted as a link (to another
// workspace's history) or made writable by others is discarded with a message and never obeyed; one the
// store wrote is read; a link planted where a temporary file could be is never written through.
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { HistoryStore, directoryHistoryFiles } from '../../src/core/history';
import { Redactor } from '../../src/core/secrets';

const dirs: string[] = [];
after(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'apiwb-history-readback-'));
  dirs.push(dir);
  return dir;
}
const record = { request: { method: 'GET', url: 'http://127.0.0.1:1/x', headers: {} }, response: { status: 200, statusText: 'OK', headers: {}, bodyText: '{}', timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: 2 } };

void describe('history files read back', () => {
  void it('the index the store wrote is read; the same index as a link or writable by others is discarded with a message', async () => {
    const dir = await tempDir();
    const messages: string[] = [];
    const store = new HistoryStore(directoryHistoryFiles(dir, (m) => messages.push(m)), () => new Redactor());
    await store.record(record);
    assert.equal((await store.list()).length, 1);
    assert.deepEqual(messages, []);

    const elsewhere = join(await tempDir(), 'index.json');
    await writeFile(elsewhere, await readFile(join(dir, 'index.json')));
    await rm(join(dir, 'index.json'));
    await symlink(elsewhere, join(dir, 'index.json'));
    assert.equal((await store.list()).length, 0, 'a linked index is not obeyed');
    assert.match(messages.at(-1) ?? '', /history file index\.json not read: .*symbolic link/);

    await rm(join(dir, 'index.json'));
    await writeFile(join(dir, 'index.json'), await readFile(elsewhere), { mode: 0o666 });
    await chmod(join(dir, 'index.json'), 0o666);
    assert.equal((await store.list()).length, 0, 'an index others may write is not obeyed');
    assert.match(messages.at(-1) ?? '', /others than its owner may write it/);
  });

  void it('a link planted at the old temporary name is never written through', async () => {
    const dir = await tempDir();
    const victim = join(await tempDir(), 'victim.txt');
    await writeFile(victim, 'precious');
    await symlink(victim, join(dir, `index.json.${process.pid}.tmp`));
    const store = new HistoryStore(directoryHistoryFiles(dir), () => new Redactor());
    await store.record(record);
    assert.equal(await readFile(victim, 'utf8'), 'precious');
    assert.equal((await store.list()).length, 1);
    assert.ok((await readdir(dir)).includes('index.json'));
  });
});
