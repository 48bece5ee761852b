// Attack (review of fileSink.ts's signal listeners): they are registered at the first write and removed by
// AppendOnlyFile.close. The JSON array sink's close writes its `]` first: when that write fails (a full
// disk: ENOSPC, faked on the file's handle), AppendOnlyFile.close never runs. In a long-lived process (the
// CLI in process, a test runner, any host) the listeners stay, and the old file stays hidden.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openOutputSink } from '../../src/cli/reporters/outputSink';

void test('--format json, the closing ] fails: the signal listeners are gone and the old file is not left hidden', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-json-close-'));
  const path = join(dir, 'rows.json');
  writeFileSync(path, 'old\n');
  const before = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };
  const probe = await open(join(dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the method is called back with its handle (call)
  const realWritev = proto.writev;
  try {
    const sink = await openOutputSink(path, 'json', () => []);
    await sink.writePage([{ id: 1 }]);
    (proto as { writev: unknown }).writev = function (this: FileHandle, buffers: readonly NodeJS.ArrayBufferView[], position?: number) {
      if (Buffer.concat(buffers as Buffer[]).toString() === '\n]\n') return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
      return realWritev.call(this, buffers, position);
    };
    const closed = await sink.close().then(() => 'closed', (e: unknown) => `threw: ${(e as Error).message}`);
    (proto as { writev: unknown }).writev = realWritev;
    const after = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };
    const hidden = readdirSync(dir).filter((n) => n.includes('apiwb-before'));
    assert.deepEqual({ after, hidden }, { after: before, hidden: [] }, `close ${closed}`);
  } finally {
    (proto as { writev: unknown }).writev = realWritev;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) for (const l of process.listeners(signal).slice(before[signal])) process.off(signal, l);
    rmSync(dir, { recursive: true, force: true });
  }
});
