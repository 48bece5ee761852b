// Attacks on History's "the same request" (entriesOfRequest, core/history/requestNow.ts):
// earlier responses follow the request, never its place; and a History file written before the place
// key was removed still loads whole.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HistoryStore, type HistoryEntry } from '../../src/core/history';
import { entriesOfRequest } from '../../src/core/history/requestNow';
import { parseHttpFile } from '../../src/core/httpfile';
import { Redactor } from '../../src/core/secrets';
import { recordSend, statuses } from './historySends';
import { memoryHistoryFiles } from './memoryHistoryFiles';

const send = (store: HistoryStore, text: string, index: number, status: number): Promise<HistoryEntry> => recordSend(store, URI, text, index, status);

const URI = 'file:///w/requests.http';
const fileOf = (...blocks: string[]): string => blocks.map((b) => `###\n${b}`).join('\n');
const A = 'GET {{base}}/bookings?page=1\n';


void test('two identical unnamed requests, one inserted above: neither lists the other\'s responses', async () => {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const before = fileOf(A, A);
  await send(store, before, 0, 200); // the first A
  await send(store, before, 1, 201); // the second A
  const after = parseHttpFile(fileOf('GET {{base}}/inserted\n', A, A));
  const entries = await store.list();
  const first = statuses(entriesOfRequest(entries, URI, after, 1));
  const second = statuses(entriesOfRequest(entries, URI, after, 2));
  assert.ok(!first.includes(201), `the first A (now index 1) lists the second A's response: ${JSON.stringify(first)}`);
  assert.ok(!second.includes(200), `the second A (now index 2) lists the first A's response: ${JSON.stringify(second)}`);
});

void test('an old History file whose entries hold the removed "key" field loads whole', async () => {
  const files = memoryHistoryFiles();
  const store = new HistoryStore(files, () => new Redactor([]));
  await send(store, fileOf(A), 0, 200);
  for (const [name, text] of files.contents) {
    files.contents.set(name, text.replace(/"id":/g, '"key":"file:///w/requests.http#GET {{base}}/bookings?page=1","id":'));
  }
  assert.ok([...files.contents.values()].some((t) => t.includes('"key":')), 'the old field is in the file');
  const reloaded = new HistoryStore(files, () => new Redactor([]));
  const entries = await reloaded.list();
  assert.equal(entries.length, 1);
  assert.deepEqual(statuses(entriesOfRequest(entries, URI, parseHttpFile(fileOf(A)), 0)), [200]);
});

void test('two identical unnamed requests, the file unedited: each lists its own responses', async () => {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const text = fileOf(A, A);
  await send(store, text, 0, 200);
  await send(store, text, 1, 201);
  const entries = await store.list();
  assert.deepEqual(statuses(entriesOfRequest(entries, URI, parseHttpFile(text), 0)), [200]);
  assert.deepEqual(statuses(entriesOfRequest(entries, URI, parseHttpFile(text), 1)), [201]);
});
