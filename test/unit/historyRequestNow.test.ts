// A History entry's request found in its file as the file is now (core/history/requestNow.ts): the
// recorded index is a hint; the request is the same one by name, or, unnamed, by its method and URL.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { requestBlockText } from '../../src/core/collections/requestBlocks';
import { requestIndexNow, twinOrder, type RecordedRequest } from '../../src/core/history/requestNow';
import { parseHttpFile } from '../../src/core/httpfile';

const ORDERS = '# @name orders\nGET {{base}}/orders?page=1\n';
const BOOKINGS = 'GET {{base}}/bookings\n';
const LOOKUPS = '# @name lookups\nGET {{base}}/lookup-types\n';
const fileOf = (...blocks: string[]): string => blocks.map((b) => `###\n${b}`).join('\n');

/** What History records of the request at `index` of `text`, as the send does. */
function recorded(text: string, index: number): RecordedRequest {
  const file = parseHttpFile(text);
  const request = file.requests[index]!;
  const entry: RecordedRequest = { origin: { file: 'requests.http', index }, source: requestBlockText(text, index), ...(request.name !== undefined ? { name: request.name } : {}) };
  const twin = twinOrder(file, entry);
  return { ...entry, origin: { file: 'requests.http', index, ...(twin !== undefined ? { twin } : {}) } };
}
const now = (text: string, entry: RecordedRequest): number | undefined => requestIndexNow(parseHttpFile(text), entry);

void test('an unchanged file: the recorded place', () => {
  const text = fileOf(ORDERS, BOOKINGS, LOOKUPS);
  for (const index of [0, 1, 2]) assert.equal(now(text, recorded(text, index)), index);
});

void test('a request inserted above: a named and an unnamed request are found at their new places', () => {
  const before = fileOf(ORDERS, BOOKINGS, LOOKUPS);
  const after = fileOf('# @name inserted\nGET {{base}}/new\n', ORDERS, BOOKINGS, LOOKUPS);
  assert.equal(now(after, recorded(before, 0)), 1);
  assert.equal(now(after, recorded(before, 1)), 2);
  assert.equal(now(after, recorded(before, 2)), 3);
});

void test('another request in the recorded place is not taken for it', () => {
  const before = fileOf(ORDERS, BOOKINGS);
  assert.equal(now(fileOf(LOOKUPS, BOOKINGS), recorded(before, 0)), undefined, 'orders is gone; lookups took its place');
  assert.equal(now(fileOf(ORDERS, 'GET {{base}}/bookings?status=open\n'), recorded(before, 1)), undefined, 'the unnamed request was edited');
  assert.equal(now(fileOf(ORDERS, '# @name bookings\nGET {{base}}/bookings\n'), recorded(before, 1)), undefined, 'named since: another request');
});

void test('a renamed request is not found; a name written twice finds the one in place, else the first', () => {
  const before = fileOf(ORDERS, LOOKUPS);
  assert.equal(now(fileOf('# @name orders2\nGET {{base}}/orders?page=1\n', LOOKUPS), recorded(before, 0)), undefined);
  assert.equal(now(fileOf(LOOKUPS, ORDERS, ORDERS), recorded(before, 0)), 1);
  assert.equal(now(fileOf(ORDERS, ORDERS), recorded(before, 0)), 0);
});

void test('two unnamed requests written alike: each keeps its order among them, wherever they moved', () => {
  const before = fileOf(BOOKINGS, BOOKINGS);
  assert.equal(now(before, recorded(before, 1)), 1);
  assert.equal(now(fileOf(BOOKINGS, ORDERS, BOOKINGS), recorded(before, 1)), 2, 'the second stays the second');
  assert.equal(now(fileOf(BOOKINGS, ORDERS, BOOKINGS), recorded(before, 0)), 0);
  assert.equal(now(fileOf(ORDERS, BOOKINGS, BOOKINGS), recorded(before, 0)), 1, 'a request inserted above');
  const { twin: _, ...place } = recorded(before, 1).origin!;
  assert.equal(now(before, { ...recorded(before, 1), origin: place }), undefined, 'recorded without its order: twins cannot be told apart by place');
});

void test('an entry without a place or a way to recognise its request finds nothing', () => {
  const text = fileOf(ORDERS, BOOKINGS);
  assert.equal(now(text, { name: 'orders' }), undefined, 'not sent from a file');
  assert.equal(now(text, { origin: { file: 'requests.http', index: 1 } }), undefined, 'unnamed, and no block recorded');
});
