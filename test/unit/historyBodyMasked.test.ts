// Attack (review of requestNow.ts's body rule): in a body, a `***` stands for ANY text (`.` with the s
// flag), so it swallows the body's structure: another field, another item. (1) The case the body rule was
// made for (historyTwinDeleted.test.ts), with a masked secret in the bodies: the other request takes over
// the deleted one's responses. (2) The regular expression's backtracking on a body with many masked values
// written alike, the file's body since edited: a History lookup (run in the editor) takes seconds (16 values: 16.6 s
// at load 1.2; 12: 0.45 s; 18: 247 s; about x4 a value).
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import * as assert from 'node:assert/strict';
import { redactRequestBlocks, requestBlockText } from '../../src/core/collections/requestBlocks';
import { requestIndexNow, twinOrder, type RecordedRequest } from '../../src/core/history/requestNow';
import { parseHttpFile } from '../../src/core/httpfile';
import { Redactor } from '../../src/core/secrets';

function stored(text: string, index: number): RecordedRequest {
  const file = parseHttpFile(text);
  const entry: RecordedRequest = { origin: { file: 'requests.http', index }, source: redactRequestBlocks(requestBlockText(text, index), new Redactor()) };
  const twin = twinOrder(file, entry);
  return { ...entry, origin: { file: 'requests.http', index, ...(twin !== undefined ? { twin } : {}) } };
}
const post = (body: string): string => `###\nPOST https://api.example.com/users\ncontent-type: application/json\n\n${body}\n`;

void test('two POSTs, bodies differing by a field after a masked password; the first deleted: the second does not take its entry', () => {
  const plain = post('{"user":"ann","password":"s3cret-ann"}');
  const admin = post('{"user":"ann","password":"s3cret-ann","role":"admin"}');
  const entry = stored(plain + admin, 0);
  assert.ok(entry.source!.includes('"password":"***"'), entry.source);
  const found = requestIndexNow(parseHttpFile(admin), entry);
  assert.equal(found, undefined, `the entry of ${JSON.stringify('{"user":"ann","password":"***"}')} is taken for the request whose body adds "role":"admin"`);
});

// A lookup that backtracks (16 values took 16.6 s, 18 took 247 s) never ends in practice: the lookup runs in
// a worker, and one not done within 10 s (about 1 ms when it does not backtrack) fails the test. A
// synchronous lookup on the test's own thread could not be interrupted, so a test timeout would not fail it.
void test('a bulk body of 16 masked passwords, the file\'s body since grown: the lookup answers, not found', async () => {
  const bodyOf = (k: number): string => `[${Array.from({ length: k }, (_, i) => `{"user":"ann","password":"pw-${i}-abcdef"}`).join(',')}]`;
  const entry = stored(post(bodyOf(16)), 0);
  const now = post(`${bodyOf(32)} x`);
  const code = `require('tsx/cjs');
    const { parentPort, workerData } = require('node:worker_threads');
    const { requestIndexNow } = require(workerData.requestNow);
    const { parseHttpFile } = require(workerData.httpfile);
    parentPort.postMessage(requestIndexNow(parseHttpFile(workerData.now), workerData.entry) ?? null);`;
  const src = join(__dirname, '..', '..', 'src', 'core');
  const worker = new Worker(code, { eval: true, workerData: { entry, now, requestNow: join(src, 'history', 'requestNow.ts'), httpfile: join(src, 'httpfile', 'index.ts') } });
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      new Promise<unknown>((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); }),
      new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('the History lookup did not end within 10 s: its pattern backtracks')), 10_000); }),
    ]);
    assert.equal(found, null);
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
});
