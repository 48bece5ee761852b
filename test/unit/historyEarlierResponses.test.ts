// A request's earlier responses and the stored responses to compare it with (entriesOfRequest,
// core/history/requestNow.ts) follow the one rule of "the same request", never the place an entry
// recorded: after a request is inserted above, an unnamed request's list holds its own responses, not
// those of the request that now sits where it was. Entries recorded through a real HistoryStore (written,
// redacted and read back), as a Send records them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HistoryStore } from '../../src/core/history';
import { entriesOfRequest } from '../../src/core/history/requestNow';
import { parseHttpFile } from '../../src/core/httpfile';
import { Redactor } from '../../src/core/secrets';
import { recordSend as send, statuses } from './historySends';
import { memoryHistoryFiles } from './memoryHistoryFiles';

const URI = 'file:///w/requests.http';
const OTHER = 'file:///w/other.http';
const fileOf = (...blocks: string[]): string => blocks.map((b) => `###\n${b}`).join('\n');
const A = 'GET {{base}}/bookings?page=1\n';
const B = 'GET {{base}}/bookings?page=2\n';
const NAMED = '# @name orders\nGET {{base}}/orders\n';


void test('a request inserted above: each unnamed request keeps its own earlier responses', async () => {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const before = fileOf(A, B);
  await send(store, URI, before, 0, 201);
  await send(store, URI, before, 1, 202);
  await send(store, URI, before, 1, 203);
  const after = parseHttpFile(fileOf('GET {{base}}/inserted\n', A, B));
  const entries = await store.list();
  assert.deepEqual(statuses(entriesOfRequest(entries, URI, after, 2)), [203, 202], 'B, now third: its own two, newest first');
  assert.deepEqual(statuses(entriesOfRequest(entries, URI, after, 1)), [201], 'A, now second');
  assert.deepEqual(statuses(entriesOfRequest(entries, URI, after, 0)), [], 'the inserted request has none, although it holds A\'s old place');
});

void test('a named request: found by name and method wherever it moved; renamed, it is another request', async () => {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const before = fileOf(NAMED, A);
  await send(store, URI, before, 0, 200);
  const entries = await store.list();
  assert.deepEqual(statuses(entriesOfRequest(entries, URI, parseHttpFile(fileOf(A, B, NAMED)), 2)), [200]);
  assert.deepEqual(statuses(entriesOfRequest(entries, URI, parseHttpFile(fileOf('# @name orders2\nGET {{base}}/orders\n', A)), 0)), []);
  assert.deepEqual(statuses(entriesOfRequest(entries, URI, parseHttpFile(fileOf('# @name orders\nDELETE {{base}}/orders\n', A)), 0)), [], 'same name, another method');
});

void test('entries of another file written alike are not this request\'s', async () => {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const text = fileOf(A);
  await send(store, OTHER, text, 0, 299);
  await send(store, URI, text, 0, 200);
  assert.deepEqual(statuses(entriesOfRequest(await store.list(), URI, parseHttpFile(text), 0)), [200]);
});

void test('an unnamed request edited since is another request: no earlier responses', async () => {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  await send(store, URI, fileOf(A), 0, 200);
  assert.deepEqual(statuses(entriesOfRequest(await store.list(), URI, parseHttpFile(fileOf('GET {{base}}/bookings?page=9\n')), 0)), []);
});

void test('what is written to disk no longer holds a place-based key', async () => {
  const files = memoryHistoryFiles();
  const store = new HistoryStore(files, () => new Redactor([]));
  await send(store, URI, fileOf(A), 0, 200);
  for (const text of files.contents.values()) assert.doesNotMatch(text, /"key"\s*:/);
});
