// The contract's caps on query parameters (src/core/run/caps.ts): GetOrdersByCustomer's pageSize is at
// most 500 (seed 000 §4.2). At the maximum nothing changes and nothing is said; one above it is clamped
// to the maximum with a notice; below it, as asked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { clampToContract } from '../../src/core/run/caps';

const orders = createCatalog().operationById('engagement/Transaction/GetOrdersByCustomer');
const url = (size: number) => `https://x.test/api/Transaction/GetOrdersByCustomer?ctcID=1&pageNumber=1&pageSize=${size}`;

void test('pageSize at the maximum (500) is sent as asked, with no "above the maximum" notice', () => {
  assert.ok(orders);
  const request = { method: 'GET', url: url(500), headers: {} };
  const clamped = clampToContract(request, orders);
  assert.deepEqual(clamped.notices, []);
  assert.equal(clamped.request, request, 'the request is not rewritten');
});

void test('pageSize one above the maximum is clamped to 500 and says so; one below is left alone', () => {
  assert.ok(orders);
  const over = clampToContract({ method: 'GET', url: url(501), headers: {} }, orders);
  assert.match(over.request.url, /pageSize=500$/);
  assert.deepEqual(over.notices, ["pageSize=501 is above the contract's maximum of 500 for GetOrdersByCustomer; sent pageSize=500"]);
  assert.deepEqual(clampToContract({ method: 'GET', url: url(499), headers: {} }, orders).notices, []);
});
