// Attack (review of History twins, core/history/requestNow.ts): twins are requests whose method and URL
// are written alike; their bodies may differ. When one twin is deleted, the other must not take over the
// deleted one's responses (a re-run or a compare from that entry would send the other body).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HistoryStore } from '../../src/core/history';
import { entriesOfRequest } from '../../src/core/history/requestNow';
import { parseHttpFile } from '../../src/core/httpfile';
import { Redactor } from '../../src/core/secrets';
import { recordSend, statuses } from './historySends';
import { memoryHistoryFiles } from './memoryHistoryFiles';

const URI = 'file:///w/requests.http';
const fileOf = (...blocks: string[]): string => blocks.map((b) => `###\n${b}`).join('\n');
const CREATE_A = 'POST {{base}}/items\ncontent-type: application/json\n\n{"name":"a"}\n';
const CREATE_B = 'POST {{base}}/items\ncontent-type: application/json\n\n{"name":"b"}\n';

void test('two POST twins with different bodies, the first deleted: the second does not list the first\'s response', async () => {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const before = fileOf(CREATE_A, CREATE_B);
  await recordSend(store, URI, before, 0, 200); // the body {"name":"a"}
  const after = parseHttpFile(fileOf(CREATE_B));
  const listed = statuses(entriesOfRequest(await store.list(), URI, after, 0));
  assert.deepEqual(listed, [], `the request with body {"name":"b"} lists the response to {"name":"a"}: ${JSON.stringify(listed)}`);
});
